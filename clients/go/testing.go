package jiguangsandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"
)

// shared is the sandbox of the test binary: found or started by the first test that needs it.
var shared struct {
	mu      sync.Mutex
	started bool
	server  *Server
	err     error
}

// Main runs the tests of a package with the run's sandbox, found or started on first use
// (OptionsFromEnv), and stops it at the end:
//
//	func TestMain(m *testing.M) { os.Exit(jiguangsandbox.Main(m)) }
func Main(m *testing.M) int {
	code := m.Run()
	shared.mu.Lock()
	server := shared.server
	shared.mu.Unlock()
	if server != nil {
		if err := server.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "jiguang-sandbox:", err)
		}
	}
	return code
}

// Sandbox is the run's sandbox, found or started on first use. A sandbox that cannot be had
// fails the test (and every later one, with the same reason). Without Main, a sandbox it started
// is stopped when the test binary ends on Linux only.
func Sandbox(tb testing.TB) *Server {
	tb.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if !shared.started {
		shared.started = true
		shared.server, shared.err = Start(context.Background(), OptionsFromEnv())
	}
	if shared.err != nil {
		tb.Fatalf("jiguang-sandbox: %v", shared.err)
	}
	return shared.server
}

// App is the app of one test: the Client's calls, each failing the test on an error (the Client
// is embedded: sb.Client.LatestCode(ctx, …) returns the error instead).
type App struct {
	*Client
	tb testing.TB
}

// New gives the test an app of its own on the run's sandbox: a fresh random appKey and
// masterSecret, nothing sent yet. When the test passes, the app is removed; when it fails, the app
// is kept, its document is exported to $JIGUANG_SANDBOX_REPORTS (./jiguang-sandbox-reports by
// default, beside the package's tests) as <TestName>.json, and the web UI's link to it is logged.
func New(tb testing.TB) *App {
	tb.Helper()
	server := Sandbox(tb)
	client, err := server.NewApp(context.Background())
	if err != nil {
		tb.Fatalf("jiguang-sandbox: a new app on %s: %v", server.URL(), err)
	}
	app := &App{Client: client, tb: tb}
	tb.Cleanup(app.finish)
	return app
}

func (a *App) finish() {
	ctx := context.Background()
	if !a.tb.Failed() {
		if err := a.Client.DeleteApp(ctx); err != nil {
			a.tb.Logf("jiguang-sandbox: could not remove the app %s: %v", a.AppKey, err)
		}
		return
	}
	saved := ""
	if file, err := a.export(ctx); err != nil {
		saved = fmt.Sprintf("app %s could not be exported: %v", a.AppKey, err)
	} else {
		saved = fmt.Sprintf("app %s exported to %s", a.AppKey, file)
	}
	a.tb.Logf("jiguang-sandbox: %s failed; %s; web UI: %s", a.tb.Name(), saved, a.UILink())
}

var unsafeInName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// written are the export files of this run, so that two failing tests of one name keep both.
var written sync.Map

func (a *App) export(ctx context.Context) (string, error) {
	dir := ReportsDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	document, err := a.Client.ExportApp(ctx)
	if err != nil {
		return "", err
	}
	base := unsafeInName.ReplaceAllString(a.tb.Name(), "_")
	file := filepath.Join(dir, base+".json")
	for n := 2; ; n++ {
		if _, taken := written.LoadOrStore(file, true); !taken {
			break
		}
		file = filepath.Join(dir, fmt.Sprintf("%s-%d.json", base, n))
	}
	return file, os.WriteFile(file, document, 0o644)
}

// ReportsDir is where a failed test's app is exported: $JIGUANG_SANDBOX_REPORTS, else
// jiguang-sandbox-reports in the package's folder (t.TempDir is removed after the test).
func ReportsDir() string {
	if dir := os.Getenv("JIGUANG_SANDBOX_REPORTS"); dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			return abs
		}
		return dir
	}
	abs, err := filepath.Abs("jiguang-sandbox-reports")
	if err != nil {
		return "jiguang-sandbox-reports"
	}
	return abs
}

func (a *App) check(err error) {
	if err != nil {
		a.tb.Helper()
		a.tb.Fatalf("jiguang-sandbox: %v", err)
	}
}

func orDefault(wait time.Duration) time.Duration {
	if wait <= 0 {
		return DefaultWait
	}
	return wait
}

var bg = context.Background()

// App is the app's settings, balances, developer and clock.
func (a *App) App() Object { a.tb.Helper(); v, err := a.Client.App(bg); a.check(err); return v }

// PatchApp changes any of the app's settings; it answers the new state.
func (a *App) PatchApp(patch any) Object {
	a.tb.Helper()
	v, err := a.Client.PatchApp(bg, patch)
	a.check(err)
	return v
}

// Reset brings the app back to its first use.
func (a *App) Reset() Object { a.tb.Helper(); v, err := a.Client.Reset(bg); a.check(err); return v }

// ExportApp is the app's document.
func (a *App) ExportApp() []byte {
	a.tb.Helper()
	v, err := a.Client.ExportApp(bg)
	a.check(err)
	return v
}

// ImportApp makes the app hold what document says.
func (a *App) ImportApp(document []byte) Object {
	a.tb.Helper()
	v, err := a.Client.ImportApp(bg, document)
	a.check(err)
	return v
}

// Clock is the app's clock.
func (a *App) Clock() Clock { a.tb.Helper(); v, err := a.Client.Clock(bg); a.check(err); return v }

// AdvanceClock moves the app's clock forward, running what falls due on the way.
func (a *App) AdvanceClock(by time.Duration) Clock {
	a.tb.Helper()
	v, err := a.Client.AdvanceClock(bg, by)
	a.check(err)
	return v
}

// SetClock moves the app's clock forward to t.
func (a *App) SetClock(t time.Time) Clock {
	a.tb.Helper()
	v, err := a.Client.SetClock(bg, t)
	a.check(err)
	return v
}

// Messages are the texts that went out, newest first.
func (a *App) Messages(f Filter) Page[Message] {
	a.tb.Helper()
	v, err := a.Client.Messages(bg, f)
	a.check(err)
	return v
}

// LatestCode is the latest code texted to mobile, waiting up to wait for one (0: not at all).
func (a *App) LatestCode(mobile string, wait time.Duration) Code {
	a.tb.Helper()
	v, err := a.Client.LatestCode(bg, mobile, wait)
	a.check(err)
	return v
}

// NextMessage is the next text matching f, waiting up to wait (0: DefaultWait); nothing in time
// fails the test with what did arrive.
func (a *App) NextMessage(f Filter, wait time.Duration) Message {
	a.tb.Helper()
	v, err := a.Client.NextMessage(bg, f, orDefault(wait))
	a.check(err)
	return v
}

// Pushes are the pushes devices received, newest first.
func (a *App) Pushes(f Filter) Page[Push] {
	a.tb.Helper()
	v, err := a.Client.Pushes(bg, f)
	a.check(err)
	return v
}

// NextPush is the next push a device received matching f, waiting up to wait (0: DefaultWait).
func (a *App) NextPush(f Filter, wait time.Duration) Push {
	a.tb.Helper()
	v, err := a.Client.NextPush(bg, f, orDefault(wait))
	a.check(err)
	return v
}

// Requests is the request journal, newest first, with the reason of each refusal.
func (a *App) Requests(f Filter) Page[Request] {
	a.tb.Helper()
	v, err := a.Client.Requests(bg, f)
	a.check(err)
	return v
}

// NextRequest is the next request of the journal matching f, waiting up to wait (0: DefaultWait).
func (a *App) NextRequest(f Filter, wait time.Duration) Request {
	a.tb.Helper()
	v, err := a.Client.NextRequest(bg, f, orDefault(wait))
	a.check(err)
	return v
}

// Reports are the delivery reports that arrived.
func (a *App) Reports(f Filter) Page[Object] {
	a.tb.Helper()
	v, err := a.Client.Reports(bg, f)
	a.check(err)
	return v
}

// Replies are the uplink replies the app got.
func (a *App) Replies(f Filter) Page[Reply] {
	a.tb.Helper()
	v, err := a.Client.Replies(bg, f)
	a.check(err)
	return v
}

// Callbacks are the callbacks to the app's URL.
func (a *App) Callbacks(f Filter) Page[Object] {
	a.tb.Helper()
	v, err := a.Client.Callbacks(bg, f)
	a.check(err)
	return v
}

// Mark is the app's latest seq; Next… calls go on from there.
func (a *App) Mark() int64 { a.tb.Helper(); v, err := a.Client.Mark(bg); a.check(err); return v }

// ArmFault arms a fault on /v1 or /v3.
func (a *App) ArmFault(fault Fault) Object {
	a.tb.Helper()
	v, err := a.Client.ArmFault(bg, fault)
	a.check(err)
	return v
}

// Faults are the app's armed faults.
func (a *App) Faults() []Object { a.tb.Helper(); v, err := a.Client.Faults(bg); a.check(err); return v }

// ClearFaults disarms every fault; it answers how many there were.
func (a *App) ClearFaults() int {
	a.tb.Helper()
	v, err := a.Client.ClearFaults(bg)
	a.check(err)
	return v
}

// Reply is a handset's reply to the app.
func (a *App) Reply(mobile, content string) Object {
	a.tb.Helper()
	v, err := a.Client.Reply(bg, mobile, content)
	a.check(err)
	return v
}

// SetReport makes the message's delivery report say status.
func (a *App) SetReport(msgID string, status int) Object {
	a.tb.Helper()
	v, err := a.Client.SetReport(bg, msgID, status)
	a.check(err)
	return v
}

// ReviewTemplate is the reviewer's decision on a template (Approved, Rejected).
func (a *App) ReviewTemplate(tempID, status int, refuseReason string) Object {
	a.tb.Helper()
	v, err := a.Client.ReviewTemplate(bg, tempID, status, refuseReason)
	a.check(err)
	return v
}

// ReviewSign is the reviewer's decision on a signature (Approved, Rejected).
func (a *App) ReviewSign(signID, status int, refuseReason string) Object {
	a.tb.Helper()
	v, err := a.Client.ReviewSign(bg, signID, status, refuseReason)
	a.check(err)
	return v
}

// RegisterDevice registers a device of the app.
func (a *App) RegisterDevice(device NewDevice) Device {
	a.tb.Helper()
	v, err := a.Client.RegisterDevice(bg, device)
	a.check(err)
	return v
}

// Devices are the app's devices.
func (a *App) Devices() []Device {
	a.tb.Helper()
	v, err := a.Client.Devices(bg)
	a.check(err)
	return v
}

// SetOnline brings a device online or offline.
func (a *App) SetOnline(registrationID string, online bool) Object {
	a.tb.Helper()
	v, err := a.Client.SetOnline(bg, registrationID, online)
	a.check(err)
	return v
}

// Click makes a device open a push it received.
func (a *App) Click(msgID, registrationID string) Object {
	a.tb.Helper()
	v, err := a.Client.Click(bg, msgID, registrationID)
	a.check(err)
	return v
}
