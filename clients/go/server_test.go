package jiguangsandbox_test

import (
	"context"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	jiguangsandbox "github.com/jiguang-sandbox/jiguang-sandbox/clients/go"
)

// command is what this run's sandboxes are started with (CI: the checkout's dist/server.js).
func command() string {
	if c := os.Getenv("JIGUANG_SANDBOX_COMMAND"); c != "" {
		return c
	}
	return "npx --yes jiguang-sandbox"
}

func ready(url string) int {
	res, err := http.Get(url + "/_sandbox/ready")
	if err != nil {
		return -1
	}
	res.Body.Close()
	return res.StatusCode
}

func TestACommandIsStartedOnAFreePortAndStopped(t *testing.T) {
	server, err := jiguangsandbox.Start(context.Background(), jiguangsandbox.Options{Command: command()})
	if err != nil {
		t.Fatal(err)
	}
	url := server.URL()
	if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+$`).MatchString(url) || ready(url) != 200 {
		t.Fatalf("%s not ready", url)
	}
	if err := server.Close(); err != nil {
		t.Fatal(err)
	}
	if ready(url) != -1 {
		t.Fatalf("%s still answers after Close", url)
	}
}

func TestAGivenURLIsUsedAndLeftRunning(t *testing.T) {
	own := jiguangsandbox.Sandbox(t)
	given, err := jiguangsandbox.Start(context.Background(), jiguangsandbox.Options{URL: own.URL() + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if given.URL() != own.URL() || given.Origin() != "JIGUANG_SANDBOX_URL" {
		t.Fatalf("%s (%s)", given.URL(), given.Origin())
	}
	given.Close()
	if ready(own.URL()) != 200 {
		t.Fatal("what it did not start, it does not stop")
	}
}

func TestACommandThatExitsSaysSo(t *testing.T) {
	_, err := jiguangsandbox.Start(context.Background(), jiguangsandbox.Options{
		Command: "node -e console.log('no-sandbox-here');process.exit(3) --",
	})
	if err == nil || !strings.Contains(err.Error(), "exit status 3 before it listened") || !strings.Contains(err.Error(), "no-sandbox-here") {
		t.Fatalf("got %v", err)
	}
}

func TestACommandThatIsNotThereSaysWhatToSet(t *testing.T) {
	_, err := jiguangsandbox.Start(context.Background(), jiguangsandbox.Options{Command: "/nonexistent/jiguang-sandbox"})
	if err == nil || !strings.Contains(err.Error(), "JIGUANG_SANDBOX_URL") {
		t.Fatalf("got %v", err)
	}
}
