"""The base URLs used the way the official Python SDKs use them, with the bytes they send.

The SDKs are not dependencies here (no PyPI): each request below is written as the SDK's source
builds it, read from
- jpush/jsms-api-python-client, jsms.py (0.0.4): ``Jsms.BASE_URL = 'https://api.sms.jpush.cn/v1/'``,
  a class attribute a test sets to ``sms_base_url + '/v1/'``; ``Jsms._request`` sends
  ``data=json.dumps(body)`` through a requests Session: no Content-Type at all, json.dumps'
  ``", "``/``": "`` separators, requests' default headers;
- jpush/jpush-api-python-client, jpush/common.py (3.3.9): ``ZONES[zone]['PUSH' | 'DEVICE' | …]``,
  where a test adds a zone on ``push_base_url + '/v3/'``, ``device_base_url + '/v3/devices/'``…;
  jpush/core.py ``JPush._request`` sends ``content-type: application/json;charset:utf-8`` (sic)
  and ``user-agent: jpush-api-python-client`` on every request, GET included.
"""

import base64
import http.client
import json
import urllib.parse

# requests' own defaults (requests.utils.default_headers), in the order a Session sends them.
REQUESTS_HEADERS = [
    ("User-Agent", "python-requests/2.31.0"),
    ("Accept-Encoding", "gzip, deflate"),
    ("Accept", "*/*"),
    ("Connection", "keep-alive"),
]


def send(base_url, method, path, body, headers, app):
    """One request as requests puts it on the wire: exactly these headers, then Content-Length
    and Authorization (requests' HTTPBasicAuth), then the body."""
    url = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        for name, value in headers:
            connection.putheader(name, value)
        data = body.encode("utf-8") if body is not None else b""
        if body is not None or method in ("POST", "PUT", "DELETE"):
            connection.putheader("Content-Length", str(len(data)))
        token = base64.b64encode(f"{app.app_key}:{app.master_secret}".encode()).decode()
        connection.putheader("Authorization", f"Basic {token}")
        connection.endheaders(data or None)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        connection.close()


def test_jsms_sends_and_verifies_a_code_through_sms_base_url(jiguang_app):
    base = jiguang_app.sms_base_url + "/v1/"  # jsms.Jsms.BASE_URL
    path = urllib.parse.urlsplit(base).path
    # Jsms.send_code(mobile, temp_id): _post('codes', {'mobile': …, 'temp_id': …}); the README's
    # example passes temp_id as the string '1'.
    body = json.dumps({"mobile": "13800138000", "temp_id": "1"})
    assert body == '{"mobile": "13800138000", "temp_id": "1"}'
    status, sent = send(base, "POST", path + "codes", body, REQUESTS_HEADERS, jiguang_app)
    assert status == 200 and isinstance(sent["msg_id"], str)  # the SDK builds paths with it: a str
    code = jiguang_app.latest_code("13800138000", timeout=5)
    assert code["msg_id"] == sent["msg_id"]
    # Jsms.verify_code(msg_id, code): _post('codes/' + msg_id + '/valid', {'code': code})
    status, valid = send(base, "POST", f"{path}codes/{sent['msg_id']}/valid",
                         json.dumps({"code": code["code"]}), REQUESTS_HEADERS, jiguang_app)
    assert (status, valid) == (200, {"is_valid": True})
    journal = jiguang_app.next_request(path="/v1/codes", method="POST")
    assert journal["user_agent"].startswith("python-requests/")
    assert journal["request_body"] == '{"mobile": "13800138000", "temp_id": "1"}'
    assert jiguang_app.next_request(path="/v1/codes", method="POST")["path"].endswith("/valid")


def test_jpush_pushes_and_reads_a_device_through_push_and_device_base_urls(jiguang_app):
    zone = {  # what a test adds to jpush.common.ZONES, then JPush(key, secret, zone=…)
        "PUSH": jiguang_app.push_base_url + "/v3/",
        "DEVICE": jiguang_app.device_base_url + "/v3/devices/",
        "REPORT": jiguang_app.report_base_url + "/v3/",
    }
    # JPush._request's headers merged over the Session's: requests keeps each name's place and
    # takes the casing the client wrote.
    headers = [
        ("user-agent", "jpush-api-python-client"),
        ("Accept-Encoding", "gzip, deflate"),
        ("Accept", "*/*"),
        ("connection", "keep-alive"),
        ("content-type", "application/json;charset:utf-8"),
    ]
    # push.send(): POST PUSH + 'push', json.dumps of the fields that were set, nothing added.
    body = json.dumps({"audience": "all", "platform": "all", "notification": {"alert": "hello"}})
    push_url = zone["PUSH"] + "push"
    status, pushed = send(push_url, "POST", urllib.parse.urlsplit(push_url).path, body, headers, jiguang_app)
    assert status == 200, pushed
    delivered = jiguang_app.next_push(msg_id=pushed["msg_id"])
    assert delivered["notification"] == {"alert": "hello"}
    # device.get_deviceinfo(rid): GET DEVICE + rid, with the same content-type and no body.
    device_url = zone["DEVICE"] + delivered["registration_id"]
    status, device = send(device_url, "GET", urllib.parse.urlsplit(device_url).path, None, headers, jiguang_app)
    assert status == 200 and "tags" in device
    # report.get_received(msg_ids): GET REPORT + 'received?msg_ids=…'
    report_url = zone["REPORT"] + "received?msg_ids=" + urllib.parse.quote(pushed["msg_id"])
    split = urllib.parse.urlsplit(report_url)
    status, received = send(report_url, "GET", f"{split.path}?{split.query}", None, headers, jiguang_app)
    assert status == 200 and received[0]["msg_id"] in (pushed["msg_id"], int(pushed["msg_id"]))
    journal = jiguang_app.next_request(path="/v3/push")
    assert journal["user_agent"] == "jpush-api-python-client"
