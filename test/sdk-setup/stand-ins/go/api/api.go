// Package api stands in for cavlabs/jiguang-sdk-go v1.0.8's api package (api/hosts.go,
// api/client.go, api/request.go): the hosts, the protocol probe Build() makes (a HEAD to the host),
// and a JSON request with the SDK's headers on net/http's default client.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"time"
)

const (
	HostJSmsV1      = "https://api.sms.jpush.cn"
	HostJPushPushV3 = "https://api.jpush.cn"
)

const defaultUserAgent = "cavlabs/jiguang-sdk-go/v1.0.8"

var DefaultClient = &http.Client{Timeout: 30 * time.Second}

// Response is what every result embeds: the status, the headers and the raw body.
type Response struct {
	StatusCode int
	Header     http.Header
	RawBody    []byte
}

// CodeError is the vendor's {"code":…,"message":…}.
type CodeError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// DetectProto asks the host which HTTP version it speaks (HEAD <host>); HTTP/1.1 if it cannot tell.
func DetectProto(url string) string {
	req, err := http.NewRequest(http.MethodHead, url, nil)
	if err != nil {
		return "HTTP/1.1"
	}
	resp, err := DefaultClient.Do(req)
	if err != nil {
		return "HTTP/1.1"
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Proto
}

// RequestJSON sends body as JSON with the SDK's headers.
func RequestJSON(ctx context.Context, method, url, auth, proto string, body interface{}) (*Response, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewBuffer(data))
	if err != nil {
		return nil, err
	}
	if proto != "" {
		req.Proto = proto
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	req.Header.Set("User-Agent", defaultUserAgent)
	resp, err := DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &Response{StatusCode: resp.StatusCode, Header: resp.Header, RawBody: raw}, nil
}
