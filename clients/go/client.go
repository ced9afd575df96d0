package jiguangsandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Client is the control plane (/_sandbox) of one app: every call only sees and changes that app.
// A refusal is returned as *Error; a Next… call that sees nothing arrive in time returns
// *NothingArrivedError. Routes, filters and answers: docs/control-plane.md.
type Client struct {
	BaseURL      string
	AppKey       string
	MasterSecret string
	// HTTPClient sends the requests; http.DefaultClient when nil.
	HTTPClient *http.Client

	mu      sync.Mutex
	cursors map[string]int64 // per list and filter, the seq of the last item a Next… call returned
	origin  int64            // where Next… calls start: 0 (the app's first item) until Mark
}

// NewClient is the control plane of the app appKey:masterSecret on the sandbox at baseURL.
func NewClient(baseURL, appKey, masterSecret string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), AppKey: appKey, MasterSecret: masterSecret}
}

// CreateApp is a client of an app of its own: a fresh random appKey and masterSecret (24
// lowercase hex digits each), provisioned by its first request (any well-formed new appKey is a
// new, isolated app with the default fixtures).
func CreateApp(ctx context.Context, baseURL string) (*Client, error) {
	c := NewClient(baseURL, RandomKey(), RandomKey())
	if _, err := c.App(ctx); err != nil {
		var refused *Error
		if errors.As(err, &refused) && refused.Status == http.StatusUnauthorized {
			refused.Message += " (is AUTO_PROVISION off, or a cap reached?)"
		}
		return nil, err
	}
	return c, nil
}

// RandomKey is 24 lowercase hex digits: a well-formed appKey or masterSecret no app has yet.
func RandomKey() string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on the systems Go supports
	}
	return hex.EncodeToString(b)
}

// Authorization is "Basic …" of appKey:masterSecret: the same credentials for /v1, /v3 and /_sandbox.
func (c *Client) Authorization() string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(c.AppKey+":"+c.MasterSecret))
}

// SMSBaseURL is where an SDK's JSMS host (https://api.sms.jpush.cn) goes: it serves /v1.
func (c *Client) SMSBaseURL() string { return c.BaseURL }

// PushBaseURL is where an SDK's JPush push host (https://api.jpush.cn) goes: /v3/push, schedules…
func (c *Client) PushBaseURL() string { return c.BaseURL }

// DeviceBaseURL is where an SDK's device host (https://device.jpush.cn) goes: /v3/devices, tags, aliases.
func (c *Client) DeviceBaseURL() string { return c.BaseURL }

// ReportBaseURL is where an SDK's report host (https://report.jpush.cn) goes: /v3/received…
func (c *Client) ReportBaseURL() string { return c.BaseURL }

// UILink is the web UI opened on this app (docs/web-ui.md, links).
func (c *Client) UILink() string { return c.BaseURL + "/_sandbox/ui/?app=" + c.AppKey }

// Object is a JSON object of an answer, as encoding/json reads one.
type Object = map[string]any

// Clock is an app's clock: now (epoch ms) and its offset from real time.
type Clock struct {
	Now      int64 `json:"now"`
	OffsetMS int64 `json:"offset_ms"`
}

// App is the app's settings, balances, developer and clock (GET /_sandbox/app).
func (c *Client) App(ctx context.Context) (Object, error) {
	var app Object
	return app, c.call(ctx, "GET", "/_sandbox/app", nil, nil, 0, &app)
}

// PatchApp changes any of the app's settings at once; it answers the new state.
func (c *Client) PatchApp(ctx context.Context, patch any) (Object, error) {
	var app Object
	return app, c.call(ctx, "PATCH", "/_sandbox/app", nil, patch, 0, &app)
}

// Reset brings the app back to its first use: all it did is gone, its fixtures and settings back,
// its clock real.
func (c *Client) Reset(ctx context.Context) (Object, error) {
	var app Object
	return app, c.call(ctx, "POST", "/_sandbox/reset", nil, nil, 0, &app)
}

// DeleteApp removes the app; the next request with its credentials provisions it afresh.
func (c *Client) DeleteApp(ctx context.Context) error {
	return c.call(ctx, "DELETE", "/_sandbox/app", nil, nil, 0, nil)
}

// ExportApp is everything the app holds as one JSON document (keep it as a CI artifact, import it
// elsewhere).
func (c *Client) ExportApp(ctx context.Context) ([]byte, error) {
	var doc json.RawMessage
	return doc, c.call(ctx, "GET", "/_sandbox/app/export", nil, nil, 0, &doc)
}

// ImportApp makes the app hold exactly what document (an ExportApp) says, its own credentials kept.
func (c *Client) ImportApp(ctx context.Context, document []byte) (Object, error) {
	var answer Object
	return answer, c.call(ctx, "POST", "/_sandbox/app/import", nil, json.RawMessage(document), 0, &answer)
}

// Info is the sandbox's version, settings and database (GET /_sandbox/info, public).
func (c *Client) Info(ctx context.Context) (Object, error) {
	var info Object
	return info, c.call(ctx, "GET", "/_sandbox/info", nil, nil, 0, &info)
}

// Clock is the app's clock.
func (c *Client) Clock(ctx context.Context) (Clock, error) {
	var clock Clock
	return clock, c.call(ctx, "GET", "/_sandbox/clock", nil, nil, 0, &clock)
}

// AdvanceClock moves the app's clock forward; it answers once all that fell due on the way has run.
func (c *Client) AdvanceClock(ctx context.Context, by time.Duration) (Clock, error) {
	var clock Clock
	return clock, c.call(ctx, "POST", "/_sandbox/clock", nil, Object{"advance_ms": by.Milliseconds()}, 0, &clock)
}

// SetClock moves the app's clock forward to t (never back: 409 90053).
func (c *Client) SetClock(ctx context.Context, t time.Time) (Clock, error) {
	var clock Clock
	return clock, c.call(ctx, "POST", "/_sandbox/clock", nil, Object{"set": t.Format(time.RFC3339Nano)}, 0, &clock)
}

// Fault is a fault to arm (docs/control-plane.md "Fault injection"): the next Times requests of
// the app to Path are answered with the vendor's error Code, or held DelayMS first.
type Fault struct {
	Path    string `json:"path"`
	Method  string `json:"method,omitempty"`
	Code    int    `json:"code,omitempty"`
	Status  int    `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
	DelayMS int    `json:"delay_ms,omitempty"`
	Times   int    `json:"times,omitempty"`
	// Match aims it at one recipient: {"mobile": "13800138000"} or {"registration_id": "…"}.
	Match map[string]string `json:"match,omitempty"`
}

// ArmFault arms a fault on /v1 or /v3; it answers the fault as armed (its id, remaining).
func (c *Client) ArmFault(ctx context.Context, fault Fault) (Object, error) {
	var armed Object
	return armed, c.call(ctx, "POST", "/_sandbox/faults", nil, fault, 0, &armed)
}

// Faults are the app's armed faults.
func (c *Client) Faults(ctx context.Context) ([]Object, error) {
	var answer struct {
		Faults []Object `json:"faults"`
	}
	return answer.Faults, c.call(ctx, "GET", "/_sandbox/faults", nil, nil, 0, &answer)
}

// ClearFaults disarms every fault of the app; it answers how many there were.
func (c *Client) ClearFaults(ctx context.Context) (int, error) {
	var answer struct {
		Cleared int `json:"cleared"`
	}
	return answer.Cleared, c.call(ctx, "DELETE", "/_sandbox/faults", nil, nil, 0, &answer)
}

// Reply is a handset's reply to the app (pulled by GET /v1/reply, or called back).
func (c *Client) Reply(ctx context.Context, mobile, content string) (Object, error) {
	var reply Object
	return reply, c.call(ctx, "POST", "/_sandbox/sms/replies", nil, Object{"mobile": mobile, "content": content}, 0, &reply)
}

// SetReport makes the message's delivery report say status (4001–4100) when it falls due.
func (c *Client) SetReport(ctx context.Context, msgID string, status int) (Object, error) {
	var report Object
	return report, c.call(ctx, "POST", "/_sandbox/sms/reports", nil, Object{"msg_id": msgID, "status": status}, 0, &report)
}

// Review decisions: the status a reviewer gives a template or a signature.
const (
	Approved = 1
	Rejected = 2
)

// ReviewTemplate is the reviewer's decision on a template: Approved, or Rejected with its words.
func (c *Client) ReviewTemplate(ctx context.Context, tempID int, status int, refuseReason string) (Object, error) {
	return c.review(ctx, "templates", tempID, status, refuseReason)
}

// ReviewSign is the reviewer's decision on a signature: Approved, or Rejected with its words.
func (c *Client) ReviewSign(ctx context.Context, signID int, status int, refuseReason string) (Object, error) {
	return c.review(ctx, "signs", signID, status, refuseReason)
}

func (c *Client) review(ctx context.Context, kind string, id, status int, refuseReason string) (Object, error) {
	body := Object{"status": status}
	if refuseReason != "" {
		body["refuse_reason"] = refuseReason
	}
	var decided Object
	return decided, c.call(ctx, "POST", fmt.Sprintf("/_sandbox/sms/%s/%d/review", kind, id), nil, body, 0, &decided)
}

// NewDevice is a device to register as a phone app registering with JPush makes one.
type NewDevice struct {
	Platform       string   `json:"platform"` // android, ios, hmos…
	RegistrationID string   `json:"registration_id,omitempty"`
	Alias          string   `json:"alias,omitempty"`
	Tags           []string `json:"tags,omitempty"`
	Mobile         string   `json:"mobile,omitempty"`
	Online         *bool    `json:"online,omitempty"` // online unless false
}

// RegisterDevice registers a device of the app.
func (c *Client) RegisterDevice(ctx context.Context, device NewDevice) (Device, error) {
	var registered Device
	return registered, c.call(ctx, "POST", "/_sandbox/push/devices", nil, device, 0, &registered)
}

// Devices are the app's devices.
func (c *Client) Devices(ctx context.Context) ([]Device, error) {
	var answer struct {
		Devices []Device `json:"devices"`
	}
	return answer.Devices, c.call(ctx, "GET", "/_sandbox/push/devices", nil, nil, 0, &answer)
}

// SetOnline brings a device online (what waits for it within its time_to_live is delivered now) or offline.
func (c *Client) SetOnline(ctx context.Context, registrationID string, online bool) (Object, error) {
	var change Object
	return change, c.call(ctx, "PATCH", "/_sandbox/push/devices/"+url.PathEscape(registrationID), nil, Object{"online": online}, 0, &change)
}

// Click makes a device open a push it received (counted by the reports that count clicks).
func (c *Client) Click(ctx context.Context, msgID, registrationID string) (Object, error) {
	var click Object
	path := "/_sandbox/push/messages/" + url.PathEscape(msgID) + "/clicks"
	return click, c.call(ctx, "POST", path, nil, Object{"registration_id": registrationID}, 0, &click)
}

// Error is a refusal of the sandbox: its HTTP status and the code of its
// {"error":{"code":…,"message":…}} envelope (the control plane's own are 90001–90099,
// docs/control-plane.md "Errors of the control plane"). Code is 0 when the answer was not that
// envelope (a proxy's page, a cut connection); Body holds what came.
type Error struct {
	Status  int
	Code    int
	Message string
	Body    string
}

func (e *Error) Error() string { return e.Message }

func errorFromAnswer(method, path string, status int, body []byte) *Error {
	var envelope struct {
		Error *struct {
			Code    *int    `json:"code"`
			Message *string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &envelope) == nil && envelope.Error != nil && envelope.Error.Code != nil && envelope.Error.Message != nil {
		code, message := *envelope.Error.Code, *envelope.Error.Message
		return &Error{Status: status, Code: code, Message: fmt.Sprintf("%s %s: %d %s", method, path, code, message), Body: string(body)}
	}
	return &Error{Status: status, Message: strings.TrimSpace(fmt.Sprintf("%s %s: HTTP %d %s", method, path, status, abbreviate(string(body), 200))), Body: string(body)}
}

func abbreviate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}

// call sends one request; a held request (wait=) answers within its wait, anything else within
// the sandbox's own 30 s.
func (c *Client) call(ctx context.Context, method, path string, query url.Values, body any, wait time.Duration, into any) error {
	ctx, cancel := context.WithTimeout(ctx, wait+30*time.Second)
	defer cancel()
	target := strings.TrimRight(c.BaseURL, "/") + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
		reader = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, reader)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", c.Authorization())
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := c.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: no answer from %s: %w", method, path, c.BaseURL, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if res.StatusCode/100 != 2 {
		return errorFromAnswer(method, path, res.StatusCode, data)
	}
	if into == nil {
		return nil
	}
	if err := json.Unmarshal(data, into); err != nil {
		return &Error{Status: res.StatusCode, Message: fmt.Sprintf("%s %s: the answer is not what was expected (%v): %s", method, path, err, abbreviate(string(data), 200)), Body: string(data)}
	}
	return nil
}
