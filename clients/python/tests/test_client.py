"""The client's calls against a real sandbox, each test on an app of its own (``jiguang_app``)."""

import json
import re
import threading
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone

import pytest

from jiguang_sandbox import APPROVED, REJECTED, NothingArrived, SandboxApp, SandboxError

MOBILE = "13800138000"


def vendor(app: SandboxApp, method: str, path: str, body=None):
    """The application under test's call to /v1 or /v3: JSON with the app's credentials, the
    vendor's answer whatever its status."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(app.sms_base_url + path, data=data, method=method)
    request.add_header("Authorization", app.authorization)
    request.add_header("Content-Type", "application/json")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


def test_each_test_gets_a_fresh_app_of_its_own(jiguang_app, jiguang_new_app, jiguang_sandbox):
    assert re.fullmatch(r"[0-9a-f]{24}", jiguang_app.app_key)
    assert re.fullmatch(r"[0-9a-f]{24}", jiguang_app.master_secret)
    assert jiguang_app.app()["app_key"] == jiguang_app.app_key
    other = jiguang_new_app()
    assert other.app_key != jiguang_app.app_key
    vendor(other, "POST", "/v1/codes", {"mobile": MOBILE, "temp_id": 1})
    assert len(other.messages()) == 1
    assert jiguang_app.messages() == []
    # The base URLs an official SDK is given are the sandbox's own.
    for url in (jiguang_app.sms_base_url, jiguang_app.push_base_url, jiguang_app.device_base_url,
                jiguang_app.report_base_url):
        assert url == jiguang_sandbox.url
    assert jiguang_app.ui_url == f"{jiguang_sandbox.url}/_sandbox/ui/?app={jiguang_app.app_key}"


def test_the_latest_code_and_the_texts_with_their_filters(jiguang_app):
    status, sent = vendor(jiguang_app, "POST", "/v1/codes", {"mobile": MOBILE, "temp_id": 1})
    assert status == 200
    vendor(jiguang_app, "POST", "/v1/messages",
           {"mobile": "13900139000", "temp_id": 2, "temp_para": {"order": "A1", "days": "2"}})
    code = jiguang_app.latest_code(MOBILE, timeout=5)
    assert code["msg_id"] == sent["msg_id"]
    assert re.fullmatch(r"\d{6}", code["code"])
    everything = jiguang_app.messages()
    assert [m["mobile"] for m in everything] == ["13900139000", MOBILE]  # newest first
    assert [m["kind"] for m in jiguang_app.messages(kind="code")] == ["code"]
    assert [m["msg_id"] for m in jiguang_app.messages(mobile="+86" + MOBILE)] == [sent["msg_id"]]
    assert jiguang_app.messages(after=everything.next_after) == []
    with pytest.raises(NothingArrived) as failed:
        jiguang_app.latest_code("13700137000", timeout=0.2)
    assert "13900139000" in str(failed.value)  # what did arrive


def test_waiting_for_the_next_text_and_failing_with_what_did_arrive(jiguang_app):
    jiguang_app.mark()
    sender = threading.Thread(
        target=vendor, args=(jiguang_app, "POST", "/v1/codes", {"mobile": MOBILE, "temp_id": 1}))
    sender.start()
    text = jiguang_app.next_message(mobile=MOBILE, timeout=10)
    sender.join()
    assert text["kind"] == "code" and text["code"] in text["content"]
    # The next one goes on after the one returned: nothing more for MOBILE, but one for another.
    vendor(jiguang_app, "POST", "/v1/messages",
           {"mobile": "13900139000", "temp_id": 2, "temp_para": {"order": "B7", "days": "1"}})
    with pytest.raises(NothingArrived) as failed:
        jiguang_app.next_message(mobile=MOBILE, timeout=0.3)
    message = str(failed.value)
    assert isinstance(failed.value, AssertionError)
    assert f'"mobile": "{MOBILE}"' in message
    assert "to 13900139000 (template)" in message and "B7" in message


def test_the_journal_says_why_and_the_next_refusal_can_be_waited_for(jiguang_app):
    status, answer = vendor(jiguang_app, "POST", "/v1/messages", {"mobile": MOBILE, "temp_id": 99})
    assert (status, answer["error"]["code"]) == (403, 50013)
    refusal = jiguang_app.next_request(status=403)
    assert refusal["path"] == "/v1/messages"
    assert refusal["reason"] == "the app has no template 99"
    [entry] = jiguang_app.requests(code=50013)
    assert entry["seq"] == refusal["seq"]
    with pytest.raises(NothingArrived) as failed:
        jiguang_app.next_request(status=403, timeout=0.2)
    assert "POST /v1/messages answered 403 50013" not in str(failed.value)  # only what came after


def test_moving_the_clock_expires_a_code(jiguang_app):
    _, sent = vendor(jiguang_app, "POST", "/v1/codes", {"mobile": MOBILE, "temp_id": 1})
    code = jiguang_app.latest_code(MOBILE)["code"]
    before = jiguang_app.clock()["now"]
    moved = jiguang_app.advance_clock(timedelta(minutes=5, milliseconds=1))  # template 1: 300 s
    assert moved["now"] >= before + 300_001
    _, valid = vendor(jiguang_app, "POST", f"/v1/codes/{sent['msg_id']}/valid", {"code": code})
    assert valid["error"]["code"] == 50011  # expired
    with pytest.raises(SandboxError) as refused:
        jiguang_app.set_clock("2001-01-01T00:00:00Z")
    assert (refused.value.status, refused.value.code) == (409, 90053)
    # The app's clock goes on in real time from where it is set: a few ms pass before the answer.
    later = datetime(2031, 3, 1, 9, 30, tzinfo=timezone(timedelta(hours=8)))
    target = int(later.timestamp() * 1000)
    assert target <= jiguang_app.set_clock(later)["now"] < target + 1000
    assert target + 60_000 <= jiguang_app.set_clock(target + 60_000)["now"] < target + 61_000


def test_faults_are_armed_listed_used_and_cleared(jiguang_app):
    fault = jiguang_app.arm_fault(path="/v1/codes", code=50019, times=2)
    assert fault["remaining"] == 2
    assert [f["remaining"] for f in jiguang_app.faults()] == [2]
    status, answer = vendor(jiguang_app, "POST", "/v1/codes", {"mobile": MOBILE, "temp_id": 1})
    assert (status, answer) == (500, {"error": {"code": 50019, "message": "server error"}})
    assert "fault #" in jiguang_app.next_request(code=50019)["reason"]
    assert jiguang_app.clear_faults() == 1
    assert vendor(jiguang_app, "POST", "/v1/codes", {"mobile": MOBILE, "temp_id": 1})[0] == 200
    with pytest.raises(SandboxError) as refused:
        jiguang_app.arm_fault(path="/v1/mesages", code=50019)
    assert refused.value.code == 90020 and "no route serves /v1/mesages" in str(refused.value)


def test_a_template_rejected_in_review_and_a_signature_approved(jiguang_app):
    jiguang_app.review_template(2, REJECTED, "no order numbers")
    status, answer = vendor(jiguang_app, "POST", "/v1/messages",
                            {"mobile": MOBILE, "temp_id": 2, "temp_para": {"order": "J2", "days": "1"}})
    assert (status, answer["error"]["code"]) == (403, 50021)
    assert jiguang_app.next_request(code=50021)["reason"] == 'template 2 was rejected in review: "no order numbers"'
    _, made = vendor(jiguang_app, "POST", "/v1/templates", {"template": "取件码{{code}}", "type": 1, "ttl": 60})
    decided = jiguang_app.review_template(made["temp_id"], APPROVED)
    assert decided["status"] == APPROVED
    with pytest.raises(SandboxError) as unknown:
        jiguang_app.review_sign(987654, APPROVED)
    assert unknown.value.code == 90042


def test_an_uplink_reply_and_a_delivery_report(jiguang_app):
    _, sent = vendor(jiguang_app, "POST", "/v1/messages",
                     {"mobile": MOBILE, "temp_id": 2, "temp_para": {"order": "R1", "days": "1"}})
    jiguang_app.set_report(sent["msg_id"], 4002)
    jiguang_app.advance_clock(10_000)
    [report] = jiguang_app.reports(msg_id=sent["msg_id"])
    assert report["status"] == 4002
    jiguang_app.reply(MOBILE, "TD")
    [reply] = jiguang_app.replies(mobile=MOBILE)
    assert reply["content"] == "TD"


def test_a_registered_device_gets_a_push_and_opens_it(jiguang_app):
    device = jiguang_app.register_device("ios", alias="buyer1", tags=["vip"], mobile="13700137000")
    rid = device["registration_id"]
    assert [d["registration_id"] for d in jiguang_app.devices(alias="buyer1")] == [rid]
    assert rid in [d["registration_id"] for d in jiguang_app.devices(tag="vip", platform="ios")]
    assert jiguang_app.devices(tag="vip", platform="winphone") == []
    status, pushed = vendor(jiguang_app, "POST", "/v3/push",
                            {"platform": "all", "audience": {"alias": ["buyer1"]}, "notification": {"alert": "hi"}})
    assert status == 200
    push = jiguang_app.next_push(registration_id=rid)
    assert (push["msg_id"], push["notification"]["alert"]) == (pushed["msg_id"], "hi")
    click = jiguang_app.click(pushed["msg_id"], rid)
    assert click["registration_id"] == rid
    # Offline, a push waits for it; online again, it is delivered.
    jiguang_app.set_device_online(rid, False)
    vendor(jiguang_app, "POST", "/v3/push",
           {"platform": "all", "audience": {"registration_id": [rid]}, "notification": {"alert": "later"}})
    with pytest.raises(NothingArrived):
        jiguang_app.next_push(registration_id=rid, timeout=0.2)
    assert jiguang_app.set_device_online(rid, True)["delivered"] == 1
    assert jiguang_app.next_push(registration_id=rid)["notification"]["alert"] == "later"
    assert jiguang_app.pushes(registration_id=rid).next_after > 0


def test_reset_export_and_import(jiguang_app, jiguang_new_app):
    vendor(jiguang_app, "POST", "/v1/messages", {"mobile": MOBILE, "temp_id": 99})
    jiguang_app.patch_app({"balances": {"industry": 5}})
    document = jiguang_app.export_app()
    assert (document["format"], document["version"], document["app_key"]) == (
        "jiguang-sandbox/app", 1, jiguang_app.app_key)
    jiguang_app.reset()
    assert jiguang_app.requests(code=50013) == []
    assert jiguang_app.app()["balances"]["industry"] != 5
    elsewhere = jiguang_new_app()
    jiguang_app.delete_app()  # a document's ids are one app's: the first one goes
    imported = elsewhere.import_app(document)
    assert imported["imported"] is True
    assert elsewhere.requests(code=50013)[0]["reason"] == "the app has no template 99"
    assert elsewhere.app()["balances"]["industry"] == 5


def test_a_refusal_carries_its_status_code_and_message(jiguang_app):
    with pytest.raises(SandboxError) as refused:
        jiguang_app.patch_app({"balances": {"industry": -1}})
    assert refused.value.status == 400
    assert refused.value.code == 90020
    assert '"balances.industry"' in refused.value.message
    wrong = SandboxApp(jiguang_app.base_url, jiguang_app.app_key, "0" * 24)
    with pytest.raises(SandboxError) as denied:
        wrong.app()
    assert (denied.value.status, denied.value.code) == (401, 90002)
