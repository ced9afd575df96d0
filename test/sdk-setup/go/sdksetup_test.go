package sdksetup

// docs/sdk-setup.md's Go snippet (snippet.go beside this file, as the page shows it), run against
// the sandbox at SANDBOX with its own app. What the SDK returns is checked here; what the sandbox
// received, by the test that runs this one.

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"
)

func TestJiguangSdkGo(t *testing.T) {
	result, err := SendCodeThroughTheSandbox(os.Getenv("SANDBOX"), os.Getenv("JIGUANG_APP_KEY"), os.Getenv("JIGUANG_MASTER_SECRET"))
	if err != nil {
		t.Fatal(err)
	}
	if !result.IsSuccess() || !regexp.MustCompile(`^\d+$`).MatchString(result.MsgID) {
		t.Fatalf("status %d, body %s", result.StatusCode, result.RawBody)
	}
	out, _ := json.Marshal(map[string]string{"msg_id": result.MsgID})
	if err := os.WriteFile(os.Getenv("SDK_SETUP_RESULT"), out, 0o644); err != nil {
		t.Fatal(err)
	}
}
