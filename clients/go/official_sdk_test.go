package jiguangsandbox_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"testing"

	jiguangsandbox "github.com/jiguang-sandbox/jiguang-sandbox/clients/go"
)

// The base URLs used as the Go SDK cavlabs/jiguang-sdk-go (v1.0.8) uses them, with the bytes it
// sends, read from its source (the SDK is not a dependency here: the client needs no go.sum):
//
//   - api/request.go newApplicationJSONRequest: the body is json.Marshal of the param struct,
//     with Authorization "Basic " + base64(appKey:masterSecret), Content-Type
//     "application/json;charset=UTF-8" and User-Agent "cavlabs/jiguang-sdk-go/v1.0.8";
//   - api/client.go DetectProto: each builder first sends HEAD <host> to learn the protocol;
//   - api/jsms/v1_send_code.go SendCode: POST host+"/v1/codes", CodeSendParam{Mobile, TempID}
//     (sign_id omitted when 0); api/jsms/v1_verify_code.go: POST host+"/v1/codes/<msg_id>/valid"
//     {"code": …}. jsms.NewAPIv1Builder().SetHost(sb.SMSBaseURL()) points it at the sandbox;
//   - api/jpush/push/v3_send.go Send: POST host+"/v3/push" with send.Param (platform, audience,
//     notification…, empty ones omitted). push.NewAPIv3Builder().SetHost(sb.PushBaseURL()).
type goSDK struct {
	t    *testing.T
	host string
	auth string
}

const goSDKUserAgent = "cavlabs/jiguang-sdk-go/v1.0.8"

func newGoSDK(t *testing.T, host string, sb *jiguangsandbox.App) goSDK {
	// DetectProto: HEAD to the host itself; the answer's protocol is kept, the rest ignored.
	res, err := http.Head(host)
	if err != nil {
		t.Fatalf("HEAD %s: %v", host, err)
	}
	res.Body.Close()
	if res.Proto != "HTTP/1.1" {
		t.Fatalf("HEAD %s: %s", host, res.Proto)
	}
	return goSDK{t: t, host: host, auth: sb.Authorization()}
}

func (s goSDK) post(path string, param any) (int, map[string]any) {
	s.t.Helper()
	body, err := json.Marshal(param)
	if err != nil {
		s.t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, s.host+path, bytes.NewBuffer(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Authorization", s.auth)
	req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	req.Header.Set("User-Agent", goSDKUserAgent)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var answer map[string]any
	if err := json.Unmarshal(raw, &answer); err != nil {
		s.t.Fatalf("%s: not JSON: %s", path, raw)
	}
	return res.StatusCode, answer
}

// the SDK's own structs, with their JSON tags (api/jsms/v1_send_code.go, v1_verify_code.go)
type codeSendParam struct {
	Mobile string `json:"mobile"`
	SignID int    `json:"sign_id,omitempty"`
	TempID int64  `json:"temp_id"`
}

type codeVerifyParam struct {
	Code string `json:"code"`
}

func TestGoSDKSendsAndVerifiesACode(t *testing.T) {
	sb := jiguangsandbox.New(t)
	sdk := newGoSDK(t, sb.SMSBaseURL(), sb)
	status, sent := sdk.post("/v1/codes", codeSendParam{Mobile: mobile, TempID: 1})
	msgID, _ := sent["msg_id"].(string) // CodeSendResult.MsgID is a string
	if status != 200 || msgID == "" {
		t.Fatalf("send: %d %v", status, sent)
	}
	code := sb.LatestCode(mobile, 0)
	if code.MsgID != msgID {
		t.Fatalf("code %+v for %s", code, msgID)
	}
	status, valid := sdk.post("/v1/codes/"+msgID+"/valid", codeVerifyParam{Code: code.Code})
	if status != 200 || valid["is_valid"] != true {
		t.Fatalf("verify: %d %v", status, valid)
	}
	entry := sb.NextRequest(jiguangsandbox.Filter{"path": "/v1/codes", "method": "POST"}, 0)
	if entry.UserAgent != goSDKUserAgent {
		t.Fatalf("the journal saw %q", entry.UserAgent)
	}
}

func TestGoSDKPushesToAll(t *testing.T) {
	sb := jiguangsandbox.New(t)
	sdk := newGoSDK(t, sb.PushBaseURL(), sb)
	// send.Param{Platform: platform.All, Audience: audience.All, Notification: &notification.Notification{Alert: "hello"}}
	param := struct {
		Platform     any               `json:"platform"`
		Audience     any               `json:"audience,omitempty"`
		Notification map[string]string `json:"notification,omitempty"`
	}{"all", "all", map[string]string{"alert": "hello"}}
	status, sent := sdk.post("/v3/push", param)
	msgID, _ := sent["msg_id"].(string) // SendResult.MsgID and SendNo are strings
	if status != 200 || !regexp.MustCompile(`^\d{1,19}$`).MatchString(msgID) {
		t.Fatalf("push: %d %v", status, sent)
	}
	got := sb.NextPush(jiguangsandbox.Filter{"msg_id": msgID}, 0)
	if !bytes.Contains(got.Notification, []byte(`"hello"`)) {
		t.Fatalf("got %+v", got)
	}
	if reached, devices := len(sb.Pushes(jiguangsandbox.Filter{"msg_id": msgID}).Items), len(sb.Devices()); reached != devices {
		t.Fatalf("reached %d of %d online devices", reached, devices)
	}
}

func TestGoSDKReadsARefusal(t *testing.T) {
	sb := jiguangsandbox.New(t)
	status, refused := newGoSDK(t, sb.SMSBaseURL(), sb).post("/v1/codes", codeSendParam{Mobile: mobile, TempID: 99})
	// api.CodeError reads error.code / error.message
	if e, _ := refused["error"].(map[string]any); status != 403 || e["code"] != float64(50013) {
		t.Fatalf("refusal: %d %v", status, refused)
	}
}
