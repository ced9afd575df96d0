// Package jsms stands in for cavlabs/jiguang-sdk-go v1.0.8's api/jsms (builder_v1.go,
// v1_send_code.go, m_send.go): the builder's host is api.HostJSmsV1 unless SetHost; SendCode posts
// {"mobile","temp_id"} (sign_id when set) to host + "/v1/codes"; the answer, whatever its status,
// is unmarshalled into the result, its msg_id a string.
package jsms

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/cavlabs/jiguang-sdk-go/api"
)

type APIv1Builder struct {
	host         string
	appKey       string
	masterSecret string
	err          error
}

func NewAPIv1Builder() *APIv1Builder { return &APIv1Builder{host: api.HostJSmsV1} }

func (b *APIv1Builder) SetHost(host string) *APIv1Builder {
	if host == "" {
		b.err = errors.New("`host` cannot be empty")
	}
	b.host = host
	return b
}

func (b *APIv1Builder) SetAppKey(appKey string) *APIv1Builder {
	b.appKey = appKey
	return b
}

func (b *APIv1Builder) SetMasterSecret(masterSecret string) *APIv1Builder {
	b.masterSecret = masterSecret
	return b
}

func (b *APIv1Builder) DisableHttpLogging() *APIv1Builder { return b }

type APIv1 interface {
	SendCode(ctx context.Context, param *CodeSendParam) (*CodeSendResult, error)
}

func (b *APIv1Builder) Build() (APIv1, error) {
	if b.err != nil {
		return nil, b.err
	}
	if b.appKey == "" || b.masterSecret == "" {
		return nil, errors.New("both `appKey` and `masterSecret` cannot be empty")
	}
	creds := base64.StdEncoding.EncodeToString([]byte(b.appKey + ":" + b.masterSecret))
	return &apiv1{host: b.host, proto: api.DetectProto(b.host), auth: "Basic " + creds}, nil
}

type apiv1 struct {
	host  string
	proto string
	auth  string
}

type CodeSendParam struct {
	Mobile string `json:"mobile"`
	SignID int    `json:"sign_id,omitempty"`
	TempID int64  `json:"temp_id"`
}

type sendResult struct {
	*api.Response `json:"-"`
	Error         *api.CodeError `json:"error,omitempty"`
	MsgID         string         `json:"msg_id,omitempty"`
}

type CodeSendResult = sendResult

func (rs *sendResult) IsSuccess() bool {
	return rs != nil && rs.StatusCode/100 == 2 && rs.Error == nil
}

func (s *apiv1) SendCode(ctx context.Context, param *CodeSendParam) (*CodeSendResult, error) {
	if param == nil {
		return nil, errors.New("`param` cannot be nil")
	}
	resp, err := api.RequestJSON(ctx, http.MethodPost, s.host+"/v1/codes", s.auth, s.proto, param)
	if err != nil {
		return nil, err
	}
	result := &CodeSendResult{Response: resp}
	if err := json.Unmarshal(resp.RawBody, result); err != nil {
		return nil, err
	}
	return result, nil
}
