package jiguangsandbox_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	jiguangsandbox "github.com/jiguang-sandbox/jiguang-sandbox/clients/go"
)

// TestDeliberatelyFailing fails on purpose, in a child run of this test binary only (the
// helper-process pattern of os/exec's own tests): in a normal run it returns at once.
func TestDeliberatelyFailing(t *testing.T) {
	if os.Getenv("JIGUANG_SANDBOX_CHILD_RUN") != "1" {
		return
	}
	sb := jiguangsandbox.New(t)
	// refused: the app has no template 99 (50013), so no text goes out…
	sendNotice(t, sb, mobile, 99, order("LOST"))
	// …and waiting for one fails the test
	sb.NextMessage(jiguangsandbox.Filter{"mobile": mobile}, 200*time.Millisecond)
}

var keptLine = regexp.MustCompile(`jiguang-sandbox: TestDeliberatelyFailing failed; app ([0-9a-f]{24}) exported to (\S+); web UI: (\S+)`)

func TestAFailingTestIsExportedAndLinked(t *testing.T) {
	server := jiguangsandbox.Sandbox(t)
	reports := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run", "^TestDeliberatelyFailing$", "-test.v")
	child.Env = append(os.Environ(), "JIGUANG_SANDBOX_CHILD_RUN=1", "JIGUANG_SANDBOX_URL="+server.URL(), "JIGUANG_SANDBOX_REPORTS="+reports)
	output, err := child.CombinedOutput()
	t.Logf("the child run:\n%s", output)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("the child run should fail (exit 1): %v", err)
	}
	if !bytes.Contains(output, []byte("nothing in /_sandbox/sms/messages matching")) {
		t.Fatal("the failure says what it waited for")
	}
	line := keptLine.FindSubmatch(output)
	if line == nil {
		t.Fatal("no line saying where the app went")
	}
	appKey, file, link := string(line[1]), string(line[2]), string(line[3])
	if file != filepath.Join(reports, "TestDeliberatelyFailing.json") {
		t.Errorf("exported to %s", file)
	}
	if link != server.URL()+"/_sandbox/ui/?app="+appKey {
		t.Errorf("link %s", link)
	}

	// the document is the failed test's app, with the refusal and its reason
	document, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var head struct {
		Format string `json:"format"`
		AppKey string `json:"app_key"`
	}
	if err := json.Unmarshal(document, &head); err != nil || head.Format != "jiguang-sandbox/app" || head.AppKey != appKey {
		t.Fatalf("document %+v %v", head, err)
	}
	sb := jiguangsandbox.New(t)
	sb.ImportApp(document)
	refused := sb.Requests(jiguangsandbox.Filter{"code": 50013}).Items
	if len(refused) != 1 || !strings.Contains(refused[0].Reason, "template 99") {
		t.Fatalf("imported journal: %+v", refused)
	}

	// the link opens the web UI (its page is public; the app stays in the sandbox for it)
	res, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d", link, res.StatusCode)
	}
}

func TestAPassingTestsAppIsRemoved(t *testing.T) {
	server := jiguangsandbox.Sandbox(t)
	var key string
	t.Run("passes", func(t *testing.T) {
		sb := jiguangsandbox.New(t)
		key = sb.AppKey
	})
	req, _ := http.NewRequest("GET", server.URL()+"/_sandbox/apps?prefix="+key, nil)
	req.SetBasicAuth("operator", "operator") // SANDBOX_OPERATOR's default: it sees every app
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var page struct {
		Apps []any `json:"apps"`
	}
	if err := json.NewDecoder(res.Body).Decode(&page); err != nil || res.StatusCode != 200 || len(page.Apps) != 0 {
		t.Fatalf("%d %v %v: the app of a passed test is removed", res.StatusCode, page, err)
	}
}
