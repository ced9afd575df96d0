package jiguangsandbox_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"testing"

	jiguangsandbox "github.com/jiguang-sandbox/jiguang-sandbox/clients/go"
)

// One sandbox for the package's tests: JIGUANG_SANDBOX_URL, a Docker image, or a process of its
// own (CI: JIGUANG_SANDBOX_COMMAND="node <checkout>/dist/server.js").
func TestMain(m *testing.M) { os.Exit(jiguangsandbox.Main(m)) }

const (
	mobile = "13800138000"
	other  = "13900139000"
)

// answer is the vendor's answer to the application under test.
type answer struct {
	Status int
	Body   map[string]any
}

// errorCode is the vendor's error code of a refusal, 0 for a success.
func (a answer) errorCode() int {
	if e, ok := a.Body["error"].(map[string]any); ok {
		return int(e["code"].(float64))
	}
	return 0
}

// vendorPost stands for the application under test: it calls JSMS and JPush at the base URLs
// and with the credentials a test hands it.
func vendorPost(t *testing.T, sb *jiguangsandbox.App, base, path string, body any) answer {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest("POST", base+path, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", sb.Authorization())
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := answer{Status: res.StatusCode}
	if err := json.Unmarshal(raw, &a.Body); err != nil {
		t.Fatalf("%s: not JSON: %s", path, raw)
	}
	return a
}

func sendCode(t *testing.T, sb *jiguangsandbox.App, to string) answer {
	t.Helper()
	return vendorPost(t, sb, sb.SMSBaseURL(), "/v1/codes", map[string]any{"mobile": to, "temp_id": 1})
}

func sendNotice(t *testing.T, sb *jiguangsandbox.App, to string, tempID int, para map[string]string) answer {
	t.Helper()
	return vendorPost(t, sb, sb.SMSBaseURL(), "/v1/messages", map[string]any{"mobile": to, "temp_id": tempID, "temp_para": para})
}

func order(id string) map[string]string { return map[string]string{"order": id, "days": "2"} }
