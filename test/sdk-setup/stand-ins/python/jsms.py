"""Stands in for the jsms 0.0.4 module (jpush/jsms-api-python-client, jsms.py): every call is
`self.BASE_URL + end_point`, its body `json.dumps(body)` passed as data (so no Content-Type), the
answer `r.json()` whatever the status (or the status when the body is empty)."""

import json

import _wire

__version__ = "0.0.4"


class Jsms(object):
    BASE_URL = "https://api.sms.jpush.cn/v1/"

    def __init__(self, app_key, master_secret):
        self.auth = (app_key, master_secret)

    def send_code(self, mobile, temp_id):
        body = {"mobile": mobile, "temp_id": temp_id}
        return self._post("codes", body)

    def _post(self, end_point, body):
        return self._request("POST", end_point, json.dumps(body))

    def _request(self, method, end_point, body=None):
        status, text = _wire.send(method, self.BASE_URL + end_point, [], body, self.auth)
        return status if text == "" else _wire.parse(text)
