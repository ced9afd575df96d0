package jiguangsandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	jiguangsandbox "github.com/jiguang-sandbox/jiguang-sandbox/clients/go"
)

func TestANewAppOfItsOwnWithTheBaseURLs(t *testing.T) {
	sb := jiguangsandbox.New(t)
	server := jiguangsandbox.Sandbox(t)
	hex24 := regexp.MustCompile(`^[0-9a-f]{24}$`)
	if !hex24.MatchString(sb.AppKey) || !hex24.MatchString(sb.MasterSecret) {
		t.Fatalf("credentials %q:%q", sb.AppKey, sb.MasterSecret)
	}
	for _, base := range []string{sb.BaseURL, sb.SMSBaseURL(), sb.PushBaseURL(), sb.DeviceBaseURL(), sb.ReportBaseURL()} {
		if base != server.URL() {
			t.Errorf("base URL %s, the sandbox is %s", base, server.URL())
		}
	}
	if got := sb.App()["app_key"]; got != sb.AppKey {
		t.Errorf("app_key %v", got)
	}
	if n := len(sb.Messages(nil).Items); n != 0 {
		t.Errorf("a new app has sent %d texts", n)
	}
	if sb.UILink() != server.URL()+"/_sandbox/ui/?app="+sb.AppKey {
		t.Errorf("UI link %s", sb.UILink())
	}
	info, err := sb.Client.Info(context.Background())
	if err != nil || info["version"] != jiguangsandbox.Version {
		t.Errorf("the client's version %s is the server's: %v %v", jiguangsandbox.Version, info["version"], err)
	}
}

func TestTheLatestCodeVerifiesOnce(t *testing.T) {
	sb := jiguangsandbox.New(t)
	sent := sendCode(t, sb, mobile)
	code := sb.LatestCode(mobile, 5*time.Second)
	if code.MsgID != sent.Body["msg_id"] || !regexp.MustCompile(`^\d{6}$`).MatchString(code.Code) {
		t.Fatalf("code %+v, sent %v", code, sent.Body)
	}
	valid := vendorPost(t, sb, sb.SMSBaseURL(), "/v1/codes/"+code.MsgID+"/valid", map[string]string{"code": code.Code})
	if valid.Body["is_valid"] != true {
		t.Fatalf("valid: %v", valid.Body)
	}
	again := vendorPost(t, sb, sb.SMSBaseURL(), "/v1/codes/"+code.MsgID+"/valid", map[string]string{"code": code.Code})
	if again.errorCode() != 50012 { // verified code
		t.Fatalf("verified twice: %v", again.Body)
	}
}

func TestNoCodeYetIs90044(t *testing.T) {
	sb := jiguangsandbox.New(t)
	_, err := sb.Client.LatestCode(context.Background(), mobile, 0)
	var refused *jiguangsandbox.Error
	if !errors.As(err, &refused) || refused.Status != 404 || refused.Code != 90044 {
		t.Fatalf("want 404 90044, got %v", err)
	}
}

func TestTheTextsListWithItsFilters(t *testing.T) {
	sb := jiguangsandbox.New(t)
	sendCode(t, sb, mobile)
	sendNotice(t, sb, other, 2, order("A1"))
	if n := len(sb.Messages(nil).Items); n != 2 {
		t.Fatalf("%d texts", n)
	}
	toOther := sb.Messages(jiguangsandbox.Filter{"mobile": other})
	if len(toOther.Items) != 1 || !strings.Contains(toOther.Items[0].Content, "A1") {
		t.Fatalf("to %s: %+v", other, toOther)
	}
	if codes := sb.Messages(jiguangsandbox.Filter{"kind": "code"}); len(codes.Items) != 1 || codes.Items[0].Code == "" {
		t.Fatalf("codes: %+v", codes)
	}
	if newer := sb.Messages(jiguangsandbox.Filter{"after": sb.Messages(nil).NextAfter}); len(newer.Items) != 0 {
		t.Fatalf("after the newest: %+v", newer)
	}
	if one := sb.Messages(jiguangsandbox.Filter{"limit": 1}); len(one.Items) != 1 {
		t.Fatalf("limit 1: %+v", one)
	}
}

func TestTheNextTextAfterTheLastOne(t *testing.T) {
	sb := jiguangsandbox.New(t)
	sendNotice(t, sb, mobile, 2, order("N1"))
	if m := sb.NextMessage(jiguangsandbox.Filter{"mobile": mobile}, 0); !strings.Contains(m.Content, "N1") {
		t.Fatalf("first: %+v", m)
	}
	sendNotice(t, sb, mobile, 2, order("N2"))
	if m := sb.NextMessage(jiguangsandbox.Filter{"mobile": mobile}, 0); !strings.Contains(m.Content, "N2") {
		t.Fatalf("second: %+v", m)
	}
}

func TestWaitingInVainSaysWhatDidArrive(t *testing.T) {
	sb := jiguangsandbox.New(t)
	sendNotice(t, sb, other, 2, order("ELSEWHERE"))
	_, err := sb.Client.NextMessage(context.Background(), jiguangsandbox.Filter{"mobile": mobile}, 300*time.Millisecond)
	var none *jiguangsandbox.NothingArrivedError
	if !errors.As(err, &none) {
		t.Fatalf("want NothingArrivedError, got %v", err)
	}
	if !strings.Contains(err.Error(), `"mobile":"`+mobile+`"`) || !strings.Contains(err.Error(), "ELSEWHERE") {
		t.Fatalf("the message: %v", err)
	}
	var first jiguangsandbox.Message
	if json.Unmarshal(none.Arrived[0], &first); first.Mobile != other {
		t.Fatalf("arrived: %s", none.Arrived[0])
	}
}

func TestTheJournalSaysWhy(t *testing.T) {
	sb := jiguangsandbox.New(t)
	if code := sendNotice(t, sb, mobile, 99, order("J1")).errorCode(); code != 50013 { // invalid temp_id
		t.Fatalf("code %d", code)
	}
	refused := sb.NextRequest(jiguangsandbox.Filter{"status": 403}, 0)
	if refused.Path != "/v1/messages" || refused.Code != 50013 || !strings.Contains(refused.Reason, "template 99") {
		t.Fatalf("journal: %+v", refused)
	}
	if n := len(sb.Requests(jiguangsandbox.Filter{"code": 50013}).Items); n != 1 {
		t.Fatalf("%d refusals", n)
	}
}

func TestTheClockExpiresACode(t *testing.T) {
	sb := jiguangsandbox.New(t)
	sendCode(t, sb, mobile)
	code := sb.LatestCode(mobile, 0)
	before := sb.Clock().Now
	if moved := sb.AdvanceClock(300*time.Second + time.Millisecond); moved.Now < before+300_001 { // template 1: 300 s
		t.Fatalf("moved to %d from %d", moved.Now, before)
	}
	expired := vendorPost(t, sb, sb.SMSBaseURL(), "/v1/codes/"+code.MsgID+"/valid", map[string]string{"code": code.Code})
	if expired.errorCode() != 50011 {
		t.Fatalf("expired: %v", expired.Body)
	}
	_, err := sb.Client.SetClock(context.Background(), time.UnixMilli(before))
	var refused *jiguangsandbox.Error
	if !errors.As(err, &refused) || refused.Code != 90053 || refused.Status != 409 {
		t.Fatalf("back in time: %v", err)
	}
}

func TestFaultsArmListAndClear(t *testing.T) {
	sb := jiguangsandbox.New(t)
	if armed := sb.ArmFault(jiguangsandbox.Fault{Path: "/v1/codes", Code: 50019}); armed["remaining"] != float64(1) {
		t.Fatalf("armed: %v", armed)
	}
	sb.ArmFault(jiguangsandbox.Fault{Path: "/v3/push", Code: 1030, Times: 2})
	if n := len(sb.Faults()); n != 2 {
		t.Fatalf("%d faults", n)
	}
	if failed := sendCode(t, sb, mobile); failed.Status != 500 || failed.errorCode() != 50019 {
		t.Fatalf("failed: %+v", failed)
	}
	if ok := sendCode(t, sb, mobile); ok.Status != 200 {
		t.Fatalf("then: %+v", ok)
	}
	if n := sb.ClearFaults(); n != 1 {
		t.Fatalf("cleared %d", n)
	}
	_, err := sb.Client.ArmFault(context.Background(), jiguangsandbox.Fault{Path: "/v1/mesages", Code: 50019})
	var refused *jiguangsandbox.Error
	if !errors.As(err, &refused) || refused.Code != 90020 || !strings.Contains(refused.Message, "/v1/mesages") {
		t.Fatalf("a typo: %v", err)
	}
}

func TestAHandsetReplies(t *testing.T) {
	sb := jiguangsandbox.New(t)
	sb.Reply(mobile, "TD")
	if replies := sb.Replies(jiguangsandbox.Filter{"mobile": mobile}); len(replies.Items) != 1 || replies.Items[0].Content != "TD" {
		t.Fatalf("replies: %+v", replies)
	}
}

func TestADeviceGetsAPushAndOpensIt(t *testing.T) {
	sb := jiguangsandbox.New(t)
	device := sb.RegisterDevice(jiguangsandbox.NewDevice{Platform: "android", Alias: "buyer42"})
	found := false
	for _, d := range sb.Devices() {
		found = found || d.RegistrationID == device.RegistrationID
	}
	if !found {
		t.Fatalf("%s not among the devices", device.RegistrationID)
	}
	sent := vendorPost(t, sb, sb.PushBaseURL(), "/v3/push", map[string]any{
		"platform": "all", "audience": map[string]any{"alias": []string{"buyer42"}}, "notification": map[string]any{"alert": "shipped"},
	})
	if sent.Status != 200 {
		t.Fatalf("push: %+v", sent)
	}
	got := sb.NextPush(jiguangsandbox.Filter{"registration_id": device.RegistrationID}, 0)
	if got.MsgID != sent.Body["msg_id"] || got.Alias != "buyer42" || !strings.Contains(string(got.Notification), "shipped") {
		t.Fatalf("got %+v", got)
	}
	if n := len(sb.Pushes(jiguangsandbox.Filter{"alias": "buyer42"}).Items); n != 1 {
		t.Fatalf("%d pushes to the alias", n)
	}
	if click := sb.Click(got.MsgID, device.RegistrationID); click["registration_id"] != device.RegistrationID {
		t.Fatalf("click: %v", click)
	}
	sb.SetOnline(device.RegistrationID, false)
	for _, d := range sb.Devices() {
		if d.RegistrationID == device.RegistrationID && d.Online {
			t.Fatal("still online")
		}
	}
}

func TestTheReviewerDecides(t *testing.T) {
	sb := jiguangsandbox.New(t)
	appointment := map[string]string{"service": "体检", "time": "9:30"}
	if code := sendNotice(t, sb, mobile, 4, appointment).errorCode(); code != 50020 { // under review
		t.Fatalf("code %d", code)
	}
	sb.ReviewTemplate(4, jiguangsandbox.Approved, "")
	if ok := sendNotice(t, sb, mobile, 4, appointment); ok.Status != 200 {
		t.Fatalf("approved: %+v", ok)
	}
	sb.ReviewTemplate(2, jiguangsandbox.Rejected, "no order numbers")
	if code := sendNotice(t, sb, mobile, 2, order("R3")).errorCode(); code != 50021 {
		t.Fatalf("rejected: %d", code)
	}
	if r := sb.NextRequest(jiguangsandbox.Filter{"code": 50021}, 0); !strings.Contains(r.Reason, "no order numbers") {
		t.Fatalf("reason: %q", r.Reason)
	}
	if sign := sb.ReviewSign(1, jiguangsandbox.Rejected, "not a company name"); sign["status"] != float64(2) {
		t.Fatalf("sign: %v", sign)
	}
}

func TestResetEmptiesTheApp(t *testing.T) {
	sb := jiguangsandbox.New(t)
	sendCode(t, sb, mobile)
	sb.AdvanceClock(time.Hour)
	sb.PatchApp(map[string]any{"balances": map[string]any{"industry": 5}})
	reset := sb.Reset()
	if reset["clock"].(map[string]any)["offset_ms"] != float64(0) || reset["balances"].(map[string]any)["industry"] != float64(10000) {
		t.Fatalf("reset: %v", reset)
	}
	if n := len(sb.Messages(nil).Items); n != 0 {
		t.Fatalf("%d texts after a reset", n)
	}
}

func TestExportAndImportAnotherApp(t *testing.T) {
	sb := jiguangsandbox.New(t)
	sendNotice(t, sb, mobile, 99, order("X1"))
	document := sb.ExportApp()
	var head struct {
		Format string `json:"format"`
		AppKey string `json:"app_key"`
	}
	if err := json.Unmarshal(document, &head); err != nil || head.Format != "jiguang-sandbox/app" || head.AppKey != sb.AppKey {
		t.Fatalf("document %+v %v", head, err)
	}
	sb.Client.DeleteApp(context.Background()) // a document's ids belong to one app of a sandbox: the first goes
	other := jiguangsandbox.New(t)
	if imported := other.ImportApp(document); imported["imported"] != true {
		t.Fatalf("import: %v", imported)
	}
	if n := len(other.Requests(jiguangsandbox.Filter{"code": 50013}).Items); n != 1 {
		t.Fatalf("%d refusals imported", n)
	}
}

func TestMarkStartsTheNextCallsFromNow(t *testing.T) {
	sb := jiguangsandbox.New(t)
	sendNotice(t, sb, mobile, 2, order("OLD"))
	if seq := sb.Mark(); seq <= 0 {
		t.Fatalf("mark %d", seq)
	}
	sendNotice(t, sb, mobile, 2, order("NEW"))
	if m := sb.NextMessage(jiguangsandbox.Filter{"mobile": mobile}, 0); !strings.Contains(m.Content, "NEW") {
		t.Fatalf("after the mark: %+v", m)
	}
}

func TestAppsDoNotSeeEachOther(t *testing.T) {
	sb, other := jiguangsandbox.New(t), jiguangsandbox.New(t)
	sendCode(t, other, mobile)
	if len(sb.Messages(nil).Items) != 0 || len(other.Messages(nil).Items) != 1 {
		t.Fatal("one app saw another's text")
	}
}
