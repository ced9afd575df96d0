// Package jiguangsandbox is the Go client of jiguang-sandbox's control plane (/_sandbox) and its
// testing helpers: each test gets an app of its own, the base URLs to point an official SDK at,
// and the calls a test makes instead of polling (the texted code, the next push, why a request
// was refused, the clock, faults, the reviewer's decision, a device's click).
//
// One sandbox serves the whole test run. TestMain finds or starts it (JIGUANG_SANDBOX_URL, else a
// local Docker image, else `npx --yes jiguang-sandbox` or JIGUANG_SANDBOX_COMMAND) and stops it at
// the end:
//
//	func TestMain(m *testing.M) { os.Exit(jiguangsandbox.Main(m)) }
//
//	func TestSignUp(t *testing.T) {
//		sb := jiguangsandbox.New(t) // a new app, removed after the test (kept and exported if it fails)
//		// the application under test, pointed at sb.SMSBaseURL() with sb.AppKey / sb.MasterSecret
//		code := sb.LatestCode("13800138000", 5*time.Second)
//		_ = code.Code
//	}
//
// The helpers of App fail the test (t.Fatal) on an error; the same calls on Client return it.
// Only the standard library is used.
package jiguangsandbox
