package jiguangsandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// DefaultWait is how long a Next… call of App waits when given 0.
const DefaultWait = 5 * time.Second

// maxWait is the longest the sandbox holds one request (wait=); longer waits are several requests.
const maxWait = 30 * time.Second

// Filter is a list's query (docs/control-plane.md "The lists' filters and answer"): "mobile",
// "msg_id", "kind", "registration_id", "alias", "status", "code", "path", "after", "since",
// "until", "limit", "wait"… A time.Time is sent as RFC 3339, anything else as fmt prints it.
type Filter map[string]any

func (f Filter) values() url.Values {
	values := url.Values{}
	for key, value := range f {
		switch v := value.(type) {
		case nil:
			continue
		case time.Time:
			values.Set(key, v.Format(time.RFC3339Nano))
		case time.Duration:
			values.Set(key, fmt.Sprint(v.Milliseconds()))
		default:
			values.Set(key, fmt.Sprint(v))
		}
	}
	return values
}

// String is the filter as JSON, its keys in order.
func (f Filter) String() string {
	data, _ := json.Marshal(map[string]any(f)) // encoding/json sorts map keys
	return string(data)
}

// Page is one answer of a list: its items, newest first, and NextAfter, the seq to pass as
// "after" to see only what is newer.
type Page[T any] struct {
	Items     []T
	NextAfter int64
}

// Message is a text that went out (GET /_sandbox/sms/messages); Code is set for a code's text.
type Message struct {
	Seq        int64             `json:"seq"`
	MsgID      string            `json:"msg_id"`
	Mobile     string            `json:"mobile"`
	Kind       string            `json:"kind"` // code, voice_code, template
	TempID     int               `json:"temp_id"`
	SignID     int               `json:"sign_id"`
	TempPara   map[string]string `json:"temp_para"`
	Content    string            `json:"content"`
	Units      int               `json:"units"`
	Tag        string            `json:"tag"`
	ScheduleID string            `json:"schedule_id"`
	Code       string            `json:"code"`
	CreatedAt  string            `json:"created_at"`
}

// Code is the latest verification code texted to a mobile (GET /_sandbox/sms/codes/latest).
type Code struct {
	Seq       int64  `json:"seq"`
	MsgID     string `json:"msg_id"`
	Mobile    string `json:"mobile"`
	Kind      string `json:"kind"`
	Code      string `json:"code"`
	ExpiresAt string `json:"expires_at"`
	Verified  bool   `json:"verified"`
	CreatedAt string `json:"created_at"`
}

// Push is what one device received (GET /_sandbox/push/messages).
type Push struct {
	Seq            int64           `json:"seq"`
	MsgID          string          `json:"msg_id"`
	RegistrationID string          `json:"registration_id"`
	Platform       string          `json:"platform"`
	Alias          string          `json:"alias"`
	Notification   json.RawMessage `json:"notification"`
	Message        json.RawMessage `json:"message"`
	ReceivedAt     string          `json:"received_at"`
	SMSMsgID       string          `json:"sms_msg_id"`
	WithdrawnAt    string          `json:"withdrawn_at"`
}

// Request is an entry of the request journal: what was asked, what was answered, and why a
// refusal was made (Reason).
type Request struct {
	Seq         int64               `json:"seq"`
	At          string              `json:"at"`
	RealAt      string              `json:"real_at"`
	Method      string              `json:"method"`
	Path        string              `json:"path"`
	Query       string              `json:"query"`
	Surface     string              `json:"surface"` // sms, push, sandbox
	Status      int                 `json:"status"`
	Code        int                 `json:"code"` // 0 for a success
	Message     string              `json:"message"`
	Reason      string              `json:"reason"`
	IDs         map[string][]string `json:"ids"`
	DurationMS  float64             `json:"duration_ms"`
	Client      string              `json:"client"`
	UserAgent   string              `json:"user_agent"`
	Operator    bool                `json:"operator"`
	RequestBody string              `json:"request_body"`
	AnswerBody  string              `json:"answer_body"`
}

// Device is one of the app's push devices.
type Device struct {
	RegistrationID string   `json:"registration_id"`
	Platform       string   `json:"platform"`
	Alias          string   `json:"alias"`
	Tags           []string `json:"tags"`
	Mobile         string   `json:"mobile"`
	Online         bool     `json:"online"`
	LastOnlineTime string   `json:"last_online_time"`
}

// Reply is an uplink reply the app got.
type Reply struct {
	Seq       int64  `json:"seq"`
	Mobile    string `json:"mobile"`
	Content   string `json:"content"`
	ReplyTime string `json:"reply_time"`
}

type list struct{ path, key string }

var (
	messagesList  = list{"/_sandbox/sms/messages", "messages"}
	pushesList    = list{"/_sandbox/push/messages", "messages"}
	reportsList   = list{"/_sandbox/sms/reports", "reports"}
	repliesList   = list{"/_sandbox/sms/replies", "replies"}
	callbacksList = list{"/_sandbox/callbacks", "callbacks"}
	requestsList  = list{"/_sandbox/requests", "requests"}
)

func readPage[T any](ctx context.Context, c *Client, l list, f Filter) (Page[T], error) {
	var wait time.Duration
	switch w := f["wait"].(type) {
	case int:
		wait = time.Duration(w) * time.Millisecond
	case int64:
		wait = time.Duration(w) * time.Millisecond
	case time.Duration:
		wait = w
	}
	var raw map[string]json.RawMessage
	var page Page[T]
	if err := c.call(ctx, "GET", l.path, f.values(), nil, wait, &raw); err != nil {
		return page, err
	}
	if items, ok := raw[l.key]; ok {
		if err := json.Unmarshal(items, &page.Items); err != nil {
			return page, fmt.Errorf("GET %s: %w", l.path, err)
		}
	}
	if next, ok := raw["next_after"]; ok {
		if err := json.Unmarshal(next, &page.NextAfter); err != nil {
			return page, fmt.Errorf("GET %s: %w", l.path, err)
		}
	}
	return page, nil
}

// Messages are the texts that went out, newest first.
func (c *Client) Messages(ctx context.Context, f Filter) (Page[Message], error) {
	return readPage[Message](ctx, c, messagesList, f)
}

// LatestCode is the latest code texted to mobile, waiting up to wait for one (404 90044 when none).
func (c *Client) LatestCode(ctx context.Context, mobile string, wait time.Duration) (Code, error) {
	if wait > maxWait {
		wait = maxWait
	}
	query := url.Values{"mobile": {mobile}}
	if wait > 0 {
		query.Set("wait", fmt.Sprint(wait.Milliseconds()))
	}
	var code Code
	return code, c.call(ctx, "GET", "/_sandbox/sms/codes/latest", query, nil, wait, &code)
}

// NextMessage is the next text matching f, once it exists: the first after the last one this
// client's NextMessage returned for the same filter (or after f's "after", or after Mark).
func (c *Client) NextMessage(ctx context.Context, f Filter, wait time.Duration) (Message, error) {
	return next(ctx, c, messagesList, f, wait, func(m Message) int64 { return m.Seq })
}

// Pushes are the pushes devices received, newest first.
func (c *Client) Pushes(ctx context.Context, f Filter) (Page[Push], error) {
	return readPage[Push](ctx, c, pushesList, f)
}

// NextPush is the next push a device received matching f, waiting for it.
func (c *Client) NextPush(ctx context.Context, f Filter, wait time.Duration) (Push, error) {
	return next(ctx, c, pushesList, f, wait, func(p Push) int64 { return p.Seq })
}

// Requests is the request journal, newest first: each /v1 and /v3 call and each /_sandbox write,
// what it was answered and, when refused, why.
func (c *Client) Requests(ctx context.Context, f Filter) (Page[Request], error) {
	return readPage[Request](ctx, c, requestsList, f)
}

// NextRequest is the next request of the journal matching f (Filter{"status": 403}), waiting for it.
func (c *Client) NextRequest(ctx context.Context, f Filter, wait time.Duration) (Request, error) {
	return next(ctx, c, requestsList, f, wait, func(r Request) int64 { return r.Seq })
}

// Reports are the delivery reports that arrived, newest first.
func (c *Client) Reports(ctx context.Context, f Filter) (Page[Object], error) {
	return readPage[Object](ctx, c, reportsList, f)
}

// Replies are the uplink replies the app got, newest first.
func (c *Client) Replies(ctx context.Context, f Filter) (Page[Reply], error) {
	return readPage[Reply](ctx, c, repliesList, f)
}

// Callbacks are the callbacks to the app's URL with their attempts, latest change first.
func (c *Client) Callbacks(ctx context.Context, f Filter) (Page[Object], error) {
	return readPage[Object](ctx, c, callbacksList, f)
}

// Mark is the app's latest seq; from then on Next… calls return only what comes after it. (Until
// the first Mark they start from the app's first item.)
func (c *Client) Mark(ctx context.Context) (int64, error) {
	// A list's answer with no item says the app's latest seq: nothing is older than epoch 0.
	page, err := c.Replies(ctx, Filter{"until": 0, "limit": 1})
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cursors = nil
	c.origin = page.NextAfter
	return page.NextAfter, nil
}

// NothingArrivedError is a Next… call that saw nothing matching arrive within its wait. Arrived
// is what did arrive in that list after the same seq, whatever the filter (newest first, at most
// 20): the text to another mobile, the push to another device, the request refused for a reason.
type NothingArrivedError struct {
	List    string
	Filter  Filter
	After   int64
	Waited  time.Duration
	Arrived []json.RawMessage
}

func (e *NothingArrivedError) Error() string {
	var text strings.Builder
	fmt.Fprintf(&text, "nothing in %s matching %s after seq %d within %v", e.List, e.Filter, e.After, e.Waited)
	if len(e.Arrived) == 0 {
		text.WriteString("; nothing else arrived there either")
		return text.String()
	}
	text.WriteString("; what did arrive there (newest first):")
	for _, item := range e.Arrived {
		text.WriteString("\n  " + abbreviate(string(item), 300))
	}
	return text.String()
}

func next[T any](ctx context.Context, c *Client, l list, f Filter, wait time.Duration, seqOf func(T) int64) (T, error) {
	own := Filter{}
	for key, value := range f {
		if key != "limit" && key != "wait" && key != "after" {
			own[key] = value
		}
	}
	cursor := l.path + "?" + own.String()

	c.mu.Lock()
	after, seen := c.cursors[cursor]
	if !seen {
		after = c.origin
	}
	c.mu.Unlock()
	if given, ok := f["after"]; ok {
		fmt.Sscan(fmt.Sprint(given), &after)
	}

	var none T
	deadline := time.Now().Add(wait)
	for {
		left := time.Until(deadline)
		if left < 0 {
			left = 0
		}
		if left > maxWait {
			left = maxWait
		}
		query := Filter{"after": after, "limit": 1, "wait": left.Milliseconds()}
		for key, value := range own {
			query[key] = value
		}
		page, err := readPage[T](ctx, c, l, query)
		if err != nil {
			return none, err
		}
		if len(page.Items) > 0 {
			item := page.Items[0]
			c.mu.Lock()
			if c.cursors == nil {
				c.cursors = map[string]int64{}
			}
			c.cursors[cursor] = seqOf(item)
			c.mu.Unlock()
			return item, nil
		}
		// A held request also ends early when the app is reset: then it is asked again.
		if !time.Now().Before(deadline) {
			arrived, err := readPage[json.RawMessage](ctx, c, l, Filter{"after": after, "limit": 20})
			if err != nil {
				return none, err
			}
			return none, &NothingArrivedError{List: l.path, Filter: own, After: after, Waited: wait, Arrived: arrived.Items}
		}
	}
}
