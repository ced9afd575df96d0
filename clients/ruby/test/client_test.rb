# frozen_string_literal: true

require_relative "test_helper"

# The client's calls against a real sandbox, each test on an app of its own (JiguangSandbox::Minitest).
class ClientTest < Minitest::Test
  include JiguangSandbox::Minitest

  MOBILE = "13800138000"
  App = JiguangSandbox::SandboxApp

  def test_each_test_gets_a_fresh_app_of_its_own
    assert_match(/\A[0-9a-f]{24}\z/, sandbox.app_key)
    assert_match(/\A[0-9a-f]{24}\z/, sandbox.master_secret)
    assert_equal sandbox.app_key, sandbox.app["app_key"]
    other = new_sandbox_app
    refute_equal sandbox.app_key, other.app_key
    Vendor.call(other, "POST", "/v1/codes", { mobile: MOBILE, temp_id: 1 })
    assert_equal 1, other.messages.size
    assert_empty sandbox.messages
    url = JiguangSandbox::Sandbox.shared.url
    [sandbox.sms_base_url, sandbox.push_base_url, sandbox.device_base_url, sandbox.report_base_url].each do |base|
      assert_equal url, base
    end
    assert_equal "#{url}/_sandbox/ui/?app=#{sandbox.app_key}", sandbox.ui_url
  end

  def test_the_latest_code_and_the_texts_with_their_filters
    status, sent = Vendor.call(sandbox, "POST", "/v1/codes", { mobile: MOBILE, temp_id: 1 })
    assert_equal 200, status
    Vendor.call(sandbox, "POST", "/v1/messages", { mobile: "13900139000", temp_id: 2, temp_para: { order: "A1", days: "2" } })
    code = sandbox.latest_code(MOBILE, timeout: 5)
    assert_equal sent["msg_id"], code["msg_id"]
    assert_match(/\A\d{6}\z/, code["code"])
    everything = sandbox.messages
    assert_equal ["13900139000", MOBILE], everything.map { |m| m["mobile"] } # newest first
    assert_equal ["code"], sandbox.messages(kind: "code").map { |m| m["kind"] }
    assert_equal [sent["msg_id"]], sandbox.messages(mobile: "+86#{MOBILE}").map { |m| m["msg_id"] }
    assert_empty sandbox.messages(after: everything.next_after)
    failed = assert_raises(JiguangSandbox::NothingArrived) { sandbox.latest_code("13700137000", timeout: 0.2) }
    assert_includes failed.message, "13900139000" # what did arrive
  end

  def test_waiting_for_the_next_text_and_failing_with_what_did_arrive
    sandbox.mark
    sender = Thread.new { Vendor.call(sandbox, "POST", "/v1/codes", { mobile: MOBILE, temp_id: 1 }) }
    text = sandbox.next_message(mobile: MOBILE, timeout: 10)
    sender.join
    assert_equal "code", text["kind"]
    assert_includes text["content"], text["code"]
    Vendor.call(sandbox, "POST", "/v1/messages", { mobile: "13900139000", temp_id: 2, temp_para: { order: "B7", days: "1" } })
    failed = assert_raises(JiguangSandbox::NothingArrived) { sandbox.next_message(mobile: MOBILE, timeout: 0.3) }
    assert_includes failed.message, %({"mobile":"#{MOBILE}"})
    assert_includes failed.message, "to 13900139000 (template)"
    assert_includes failed.message, "B7"
  end

  def test_the_journal_says_why_and_the_next_refusal_can_be_waited_for
    status, answer = Vendor.call(sandbox, "POST", "/v1/messages", { mobile: MOBILE, temp_id: 99 })
    assert_equal [403, 50_013], [status, answer["error"]["code"]]
    refusal = sandbox.next_request(status: 403)
    assert_equal "/v1/messages", refusal["path"]
    assert_equal "the app has no template 99", refusal["reason"]
    assert_equal refusal["seq"], sandbox.requests(code: 50_013).first["seq"]
    assert_raises(JiguangSandbox::NothingArrived) { sandbox.next_request(status: 403, timeout: 0.2) }
  end

  def test_moving_the_clock_expires_a_code
    _, sent = Vendor.call(sandbox, "POST", "/v1/codes", { mobile: MOBILE, temp_id: 1 })
    code = sandbox.latest_code(MOBILE)["code"]
    before = sandbox.clock["now"]
    moved = sandbox.advance_clock(300_001) # template 1: 300 s
    assert_operator moved["now"], :>=, before + 300_001
    _, valid = Vendor.call(sandbox, "POST", "/v1/codes/#{sent['msg_id']}/valid", { code: code })
    assert_equal 50_011, valid["error"]["code"] # expired
    refused = assert_raises(JiguangSandbox::SandboxError) { sandbox.set_clock(Time.utc(2001)) }
    assert_equal [409, 90_053], [refused.status, refused.code]
  end

  def test_faults_are_armed_listed_used_and_cleared
    assert_equal 2, sandbox.arm_fault(path: "/v1/codes", code: 50_019, times: 2)["remaining"]
    assert_equal [2], sandbox.faults.map { |f| f["remaining"] }
    assert_equal [500, { "error" => { "code" => 50_019, "message" => "server error" } }],
                 Vendor.call(sandbox, "POST", "/v1/codes", { mobile: MOBILE, temp_id: 1 })
    assert_includes sandbox.next_request(code: 50_019)["reason"], "fault #"
    assert_equal 1, sandbox.clear_faults
    assert_equal 200, Vendor.call(sandbox, "POST", "/v1/codes", { mobile: MOBILE, temp_id: 1 }).first
    refused = assert_raises(JiguangSandbox::SandboxError) { sandbox.arm_fault(path: "/v1/mesages", code: 50_019) }
    assert_equal 90_020, refused.code
    assert_includes refused.message, "no route serves /v1/mesages"
  end

  def test_a_template_rejected_in_review_and_a_signature_approved
    sandbox.review_template(2, App::REJECTED, "no order numbers")
    status, answer = Vendor.call(sandbox, "POST", "/v1/messages", { mobile: MOBILE, temp_id: 2, temp_para: { order: "J2", days: "1" } })
    assert_equal [403, 50_021], [status, answer["error"]["code"]]
    assert_equal 'template 2 was rejected in review: "no order numbers"', sandbox.next_request(code: 50_021)["reason"]
    _, made = Vendor.call(sandbox, "POST", "/v1/templates", { template: "取件码{{code}}", type: 1, ttl: 60 })
    assert_equal App::APPROVED, sandbox.review_template(made["temp_id"], App::APPROVED)["status"]
    unknown = assert_raises(JiguangSandbox::SandboxError) { sandbox.review_sign(987_654, App::APPROVED) }
    assert_equal 90_042, unknown.code
  end

  def test_an_uplink_reply_and_a_delivery_report
    _, sent = Vendor.call(sandbox, "POST", "/v1/messages", { mobile: MOBILE, temp_id: 2, temp_para: { order: "R1", days: "1" } })
    sandbox.set_report(sent["msg_id"], 4002)
    sandbox.advance_clock(10_000)
    assert_equal 4002, sandbox.reports(msg_id: sent["msg_id"]).first["status"]
    sandbox.reply(MOBILE, "TD")
    assert_equal "TD", sandbox.replies(mobile: MOBILE).first["content"]
  end

  def test_a_registered_device_gets_a_push_and_opens_it
    rid = sandbox.register_device("ios", alias: "buyer1", tags: ["vip"], mobile: "13700137000")["registration_id"]
    assert_equal [rid], sandbox.devices(alias: "buyer1").map { |d| d["registration_id"] }
    assert_includes sandbox.devices(tag: "vip", platform: "ios").map { |d| d["registration_id"] }, rid
    assert_empty sandbox.devices(tag: "vip", platform: "winphone")
    assert_raises(ArgumentError) { sandbox.devices(colour: "red") }
    status, pushed = Vendor.call(sandbox, "POST", "/v3/push", { platform: "all", audience: { alias: ["buyer1"] }, notification: { alert: "hi" } })
    assert_equal 200, status
    push = sandbox.next_push(registration_id: rid)
    assert_equal [pushed["msg_id"], "hi"], [push["msg_id"], push["notification"]["alert"]]
    assert_equal rid, sandbox.click(pushed["msg_id"], rid)["registration_id"]
    # Offline, a push waits for it; online again, it is delivered.
    sandbox.set_device_online(rid, false)
    Vendor.call(sandbox, "POST", "/v3/push", { platform: "all", audience: { registration_id: [rid] }, notification: { alert: "later" } })
    assert_raises(JiguangSandbox::NothingArrived) { sandbox.next_push(registration_id: rid, timeout: 0.2) }
    assert_equal 1, sandbox.set_device_online(rid, true)["delivered"]
    assert_equal "later", sandbox.next_push(registration_id: rid)["notification"]["alert"]
  end

  def test_reset_export_and_import
    Vendor.call(sandbox, "POST", "/v1/messages", { mobile: MOBILE, temp_id: 99 })
    sandbox.patch_app(balances: { industry: 5 })
    document = sandbox.export_app_json
    parsed = JSON.parse(document)
    assert_equal ["jiguang-sandbox/app", 1, sandbox.app_key], parsed.values_at("format", "version", "app_key")
    assert_equal parsed["tables"], sandbox.export_app["tables"]
    sandbox.reset
    assert_empty sandbox.requests(code: 50_013)
    refute_equal 5, sandbox.app["balances"]["industry"]
    elsewhere = new_sandbox_app
    sandbox.delete_app # a document's ids are one app's: the first one goes
    assert_equal true, elsewhere.import_app(document)["imported"]
    assert_equal "the app has no template 99", elsewhere.requests(code: 50_013).first["reason"]
    assert_equal 5, elsewhere.app["balances"]["industry"]
  end

  def test_a_refusal_carries_its_status_code_and_message
    refused = assert_raises(JiguangSandbox::SandboxError) { sandbox.patch_app(balances: { industry: -1 }) }
    assert_equal [400, 90_020], [refused.status, refused.code]
    assert_includes refused.message, '"balances.industry"'
    wrong = App.new(sandbox.base_url, sandbox.app_key, "0" * 24)
    denied = assert_raises(JiguangSandbox::SandboxError) { wrong.app }
    assert_equal [401, 90_002], [denied.status, denied.code]
  end
end
