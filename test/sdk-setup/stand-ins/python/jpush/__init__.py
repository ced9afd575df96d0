"""Stands in for the jpush 3.3.9 package (jpush/jpush-api-python-client: jpush/core.py,
jpush/push/core.py, jpush/push/payload.py): the client's session sends `user-agent`,
`connection` and `content-type: application/json;charset:utf-8` on every request, the push
body is `json.dumps` of the payload's fields that were set (audience, platform, notification, in
the order Push.payload builds them); a 401 raises Unauthorized, another non-2xx JPushFailure, and
a 2xx answer is parsed into PushResponse.payload."""

import json

from . import common

all_ = "all"


def notification(alert=None):
    return {"alert": alert}


class PushResponse(object):
    def __init__(self, status, text):
        self.status_code = status
        self.payload = json.loads(text)


class Push(object):
    def __init__(self, jpush):
        self._jpush = jpush
        self.audience = None
        self.platform = None
        self.notification = None

    @property
    def payload(self):
        data = {"audience": self.audience, "platform": self.platform}
        if self.notification is not None:
            data["notification"] = self.notification
        return data

    def send(self):
        url = common.get_url("push", self._jpush.zone) + "push"
        status, text = self._jpush._request("POST", json.dumps(self.payload), url)
        return PushResponse(status, text)


class JPush(object):
    def __init__(self, key, secret, timeout=30, zone="default"):
        self.key = key
        self.secret = secret
        self.zone = zone

    def create_push(self):
        return Push(self)

    def _request(self, method, body, url):
        from _wire import send

        headers = [
            ("user-agent", "jpush-api-python-client"),
            ("connection", "keep-alive"),
            ("content-type", "application/json;charset:utf-8"),
        ]
        status, text = send(method, url, headers, body, (self.key, self.secret))
        if status == 401:
            raise common.Unauthorized("Please check your AppKey and Master Secret")
        if not 200 <= status < 300:
            raise common.JPushFailure(status, json.loads(text)["error"])
        return status, text
