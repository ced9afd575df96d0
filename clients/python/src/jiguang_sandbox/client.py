"""The control plane (``/_sandbox``) of one app, on the standard library's ``urllib``.

Every call sees and changes only that app (docs/control-plane.md). Refusals raise
:class:`SandboxError`; a ``next_…()`` that sees nothing arrive in time raises
:class:`NothingArrived`, which lists what did arrive.
"""

from __future__ import annotations

import base64
import json
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Dict, List, Mapping, Optional, Union

from .errors import NothingArrived, SandboxError

#: The server holds a ``wait=`` request for at most 30 s: a longer wait is a few requests in a row.
MAX_WAIT_MS = 30_000
#: How long a ``next_…()`` call waits when not told, in seconds.
DEFAULT_TIMEOUT_S = 5.0

#: A template's or signature's review decision (``POST /_sandbox/sms/templates/{id}/review``).
APPROVED = 1
REJECTED = 2

Time = Union[datetime, str, int, float]


def random_key() -> str:
    """24 lowercase hex digits: as the official clients require an appKey or masterSecret to look.
    A new appKey is a new, isolated app, provisioned by its first request."""
    return secrets.token_hex(12)


class Page(list):
    """A list's items (newest first), and ``next_after``: the seq to pass as ``after`` next time
    to get only what is newer."""

    def __init__(self, items: List[Dict[str, Any]], next_after: int) -> None:
        super().__init__(items)
        self.next_after = next_after


def _summary(kind: str, item: Mapping[str, Any]) -> str:
    """One line of an item, for NothingArrived's list of what did arrive."""
    seq = item.get("seq")
    if kind == "text":
        content = str(item.get("content") or "")
        return f"seq {seq}: text {item.get('msg_id')} to {item.get('mobile')} ({item.get('kind')}) {content!r}"
    if kind == "push":
        return (
            f"seq {seq}: push {item.get('msg_id')} to {item.get('registration_id')} "
            f"({item.get('platform')}, alias {item.get('alias')}) "
            f"{json.dumps(item.get('notification') or item.get('message'), ensure_ascii=False)}"
        )
    if kind == "request":
        answer = f"{item.get('status')}"
        if item.get("code") is not None:
            answer += f" {item.get('code')} {item.get('message')}"
        reason = f" because {item['reason']}" if item.get("reason") else ""
        return f"seq {seq}: {item.get('method')} {item.get('path')} answered {answer}{reason}"
    text = json.dumps(item, ensure_ascii=False, sort_keys=True)
    return f"seq {seq}: {text[:200]}"


# Each list: its path, the key of its items in the answer, and what one item is called.
_LISTS = {
    "messages": ("/_sandbox/sms/messages", "messages", "text"),
    "pushes": ("/_sandbox/push/messages", "messages", "push"),
    "requests": ("/_sandbox/requests", "requests", "request"),
    "callbacks": ("/_sandbox/callbacks", "callbacks", "callback"),
    "reports": ("/_sandbox/sms/reports", "reports", "report"),
    "replies": ("/_sandbox/sms/replies", "replies", "reply"),
}


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def _loopback(url: str) -> bool:
    host = urllib.parse.urlsplit(url).hostname or ""
    return host in ("127.0.0.1", "localhost", "::1")


class SandboxApp:
    """One app of a sandbox: its credentials, the base URLs an official SDK needs, and the control
    plane calls a test uses.

    ``sms_base_url`` serves ``/v1`` (JSMS, ``api.sms.jpush.cn``); ``push_base_url``,
    ``device_base_url`` and ``report_base_url`` serve ``/v3`` (``api.jpush.cn``,
    ``device.jpush.cn``, ``report.jpush.cn``): all four are the sandbox's URL, named so that an
    SDK's setup reads clearly.
    """

    def __init__(self, base_url: str, app_key: str, master_secret: str, *, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.app_key = app_key
        self.master_secret = master_secret
        self.timeout = timeout
        token = base64.b64encode(f"{app_key}:{master_secret}".encode()).decode("ascii")
        #: ``Basic …`` of appKey:masterSecret: the same credentials for /v1, /v3 and /_sandbox.
        self.authorization = f"Basic {token}"
        # A sandbox on this machine is never reached through an HTTP proxy the environment names.
        handlers = [urllib.request.ProxyHandler({})] if _loopback(self.base_url) else []
        self._opener = urllib.request.build_opener(*handlers)
        self._seen: Dict[str, int] = {}
        self._origin = 0

    @classmethod
    def create(cls, base_url: str, **kwargs: Any) -> "SandboxApp":
        """An app of its own: a fresh random appKey and masterSecret, provisioned now."""
        app = cls(base_url, random_key(), random_key(), **kwargs)
        try:
            app.app()
        except SandboxError as err:
            if err.status == 401:
                raise SandboxError(
                    err.status, err.code, f"{err.message} (is AUTO_PROVISION off, or a cap reached?)", err.body
                ) from err
            raise
        return app

    # -- where an official SDK points ------------------------------------------------------------

    @property
    def sms_base_url(self) -> str:
        """JSMS (``https://api.sms.jpush.cn``): the SDK then calls ``<this>/v1/…``."""
        return self.base_url

    @property
    def push_base_url(self) -> str:
        """JPush push (``https://api.jpush.cn``): ``<this>/v3/push``, ``/v3/schedules``…"""
        return self.base_url

    @property
    def device_base_url(self) -> str:
        """JPush devices (``https://device.jpush.cn``): ``<this>/v3/devices``, ``/v3/tags``…"""
        return self.base_url

    @property
    def report_base_url(self) -> str:
        """JPush reports (``https://report.jpush.cn``): ``<this>/v3/received``…"""
        return self.base_url

    @property
    def ui_url(self) -> str:
        """The web UI opened on this app (docs/web-ui.md, links)."""
        return f"{self.base_url}/_sandbox/ui/?app={self.app_key}"

    # -- the wire ----------------------------------------------------------------------------------

    def call(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        timeout: Optional[float] = None,
    ) -> Any:
        """One request with the app's credentials: JSON both ways, a refusal raised as SandboxError."""
        params = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        url = self.base_url + path + ("?" + urllib.parse.urlencode(params) if params else "")
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Authorization", self.authorization)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with self._opener.open(request, timeout=timeout or self.timeout) as answer:
                text = answer.read().decode("utf-8")
        except urllib.error.HTTPError as err:
            raise SandboxError.from_answer(method, path, err.code, err.read().decode("utf-8", "replace")) from None
        except urllib.error.URLError as err:
            raise SandboxError(0, None, f"{method} {path}: no answer from {self.base_url}: {err.reason}") from None
        except OSError as err:  # a connection cut, or a timeout, while the answer was read
            raise SandboxError(0, None, f"{method} {path}: no answer from {self.base_url}: {err}") from None
        try:
            return json.loads(text) if text else None
        except ValueError:
            raise SandboxError(200, None, f"{method} {path}: the answer is not JSON: {text[:200]}") from None

    def _held(self, path: str, query: Mapping[str, Any]) -> Any:
        """A GET that may be held by ``wait=``: the socket outlasts the hold."""
        wait_s = float(query.get("wait") or 0) / 1000
        return self.call("GET", path, query=query, timeout=self.timeout + wait_s)

    # -- the app -------------------------------------------------------------------------------------

    def app(self) -> Dict[str, Any]:
        """The app's settings, balances, developer and clock (``GET /_sandbox/app``)."""
        return self.call("GET", "/_sandbox/app")

    def patch_app(self, patch: Mapping[str, Any]) -> Dict[str, Any]:
        """Changes any of the app's settings at once (``PATCH /_sandbox/app``); answers the new state."""
        return self.call("PATCH", "/_sandbox/app", body=dict(patch))

    def reset(self) -> Dict[str, Any]:
        """Back to its first use: all it did is gone, fixtures and settings back, its clock real."""
        self._seen.clear()
        return self.call("POST", "/_sandbox/reset")

    def delete_app(self) -> Dict[str, Any]:
        """Removes the app; the next request with these credentials provisions it afresh."""
        return self.call("DELETE", "/_sandbox/app")

    def export_app(self) -> Dict[str, Any]:
        """Everything the app holds, as one versioned document (``GET /_sandbox/app/export``)."""
        return self.call("GET", "/_sandbox/app/export")

    def import_app(self, document: Mapping[str, Any]) -> Dict[str, Any]:
        """Makes the app hold exactly what ``document`` says (its own credentials kept)."""
        return self.call("POST", "/_sandbox/app/import", body=dict(document))

    # -- the clock -----------------------------------------------------------------------------------

    def clock(self) -> Dict[str, Any]:
        return self.call("GET", "/_sandbox/clock")

    def advance_clock(self, by: Union[int, float, timedelta]) -> Dict[str, Any]:
        """Moves the app's clock forward by ``by`` (milliseconds, or a timedelta); answers once all
        that fell due on the way (schedules, reports, reviews, callbacks) has run."""
        ms = by.total_seconds() * 1000 if isinstance(by, timedelta) else by
        return self.call("POST", "/_sandbox/clock", body={"advance_ms": int(ms)})

    def set_clock(self, when: Time) -> Dict[str, Any]:
        """Moves the app's clock forward to ``when`` (a datetime, ISO-8601 text or epoch ms; never
        back: 409 90053). A naive datetime is read as UTC."""
        if isinstance(when, datetime):
            stamp = (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).isoformat()
        elif isinstance(when, (int, float)):
            stamp = datetime.fromtimestamp(when / 1000, tz=timezone.utc).isoformat(timespec="milliseconds")
        else:
            stamp = when
        return self.call("POST", "/_sandbox/clock", body={"set": stamp})

    # -- what the app did: the lists -----------------------------------------------------------------

    def _list(self, name: str, filters: Mapping[str, Any]) -> Page:
        path, key, _ = _LISTS[name]
        page = self._held(path, filters)
        return Page(page.get(key, []), page.get("next_after", 0))

    def messages(self, **filters: Any) -> Page:
        """The texts that went out, newest first. Filters as the wire takes them: ``mobile``,
        ``msg_id``, ``kind`` (code, voice_code, template), ``after``, ``since``, ``until``,
        ``limit``, ``wait`` (ms)."""
        return self._list("messages", filters)

    def pushes(self, **filters: Any) -> Page:
        """What each device received of each push, newest first: ``registration_id``, ``alias``,
        ``msg_id``, ``after``, ``since``, ``until``, ``limit``, ``wait``."""
        return self._list("pushes", filters)

    def requests(self, **filters: Any) -> Page:
        """The request journal, newest first: each /v1 and /v3 call and /_sandbox write, what it was
        answered and, when refused, why (``reason``). Filters: ``method``, ``path`` (a prefix),
        ``status``, ``code``, ``msg_id``, ``after``, ``since``, ``until``, ``limit``, ``wait``."""
        return self._list("requests", filters)

    def callbacks(self, **filters: Any) -> Page:
        """The callbacks to the app's URL with their attempts, latest change first."""
        return self._list("callbacks", filters)

    def reports(self, **filters: Any) -> Page:
        """The delivery reports that arrived, newest first."""
        return self._list("reports", filters)

    def replies(self, **filters: Any) -> Page:
        """The uplink replies the app got, newest first."""
        return self._list("replies", filters)

    def devices(
        self,
        *,
        platform: Optional[str] = None,
        alias: Optional[str] = None,
        tag: Optional[str] = None,
        mobile: Optional[str] = None,
        online: Optional[bool] = None,
    ) -> List[Dict[str, Any]]:
        """The app's push devices in their order (the four fixtures and those registered since),
        those matching every filter given. The sandbox answers them all: the filters are applied
        here."""
        devices = self.call("GET", "/_sandbox/push/devices")["devices"]
        checks: List[Callable[[Dict[str, Any]], bool]] = []
        if platform is not None:
            checks.append(lambda d: d.get("platform") == platform)
        if alias is not None:
            checks.append(lambda d: d.get("alias") == alias)
        if tag is not None:
            checks.append(lambda d: tag in (d.get("tags") or []))
        if mobile is not None:
            checks.append(lambda d: d.get("mobile") == mobile)
        if online is not None:
            checks.append(lambda d: d.get("online") is online)
        return [d for d in devices if all(check(d) for check in checks)]

    def latest_code(self, mobile: str, *, timeout: float = 0, **filters: Any) -> Dict[str, Any]:
        """The latest verification code texted to ``mobile`` (``GET /_sandbox/sms/codes/latest``),
        waiting up to ``timeout`` seconds for one (``after=<seq>`` for one newer than a seq).
        None by then: NothingArrived, listing the texts that did arrive."""
        deadline = time.monotonic() + timeout
        while True:
            wait = min(MAX_WAIT_MS, max(0, int((deadline - time.monotonic()) * 1000)))
            query = {**filters, "mobile": mobile, "wait": wait or None}
            try:
                return self._held("/_sandbox/sms/codes/latest", query)
            except SandboxError as err:
                if err.code != 90044:
                    raise
            if time.monotonic() >= deadline:
                after = int(filters.get("after") or 0)
                arrived = self.messages(after=after, limit=10) if after else self.messages(limit=10)
                raise NothingArrived(
                    "verification code",
                    {**filters, "mobile": mobile},
                    after,
                    timeout,
                    [_summary("text", m) for m in arrived],
                )

    # -- waiting for the next one ------------------------------------------------------------------

    def mark(self) -> int:
        """The app's latest seq, which it returns; from then on, ``next_…()`` calls without
        ``after`` return only what comes after it (until the first mark: from the app's first item)."""
        seq = self.replies(until=0, limit=1).next_after  # an empty answer says the latest seq
        self._origin = seq
        self._seen.clear()
        return seq

    def _next(self, name: str, filters: Mapping[str, Any], after: Optional[int], timeout: float) -> Dict[str, Any]:
        path, key, what = _LISTS[name]
        given = {k: v for k, v in filters.items() if v is not None}
        cursor = f"{name}?{json.dumps(given, sort_keys=True, default=str)}"
        start = after if after is not None else self._seen.get(cursor, self._origin)
        deadline = time.monotonic() + timeout
        while True:
            wait = min(MAX_WAIT_MS, max(0, int((deadline - time.monotonic()) * 1000)))
            page = self._held(path, {**given, "after": start, "limit": 1, "wait": wait})
            items = page.get(key) or []
            if items:
                self._seen[cursor] = items[0]["seq"]
                return items[0]
            # A held request also ends early when the app is reset: then it is asked again.
            if time.monotonic() >= deadline:
                arrived = self.call("GET", path, query={"after": start, "limit": 10}).get(key) or []
                raise NothingArrived(what, given, start, timeout, [_summary(what, i) for i in arrived])

    def next_message(
        self, *, after: Optional[int] = None, timeout: float = DEFAULT_TIMEOUT_S, **filters: Any
    ) -> Dict[str, Any]:
        """The next text matching ``filters`` (``mobile``, ``kind``, ``msg_id``), waiting up to
        ``timeout`` seconds for it: the first after ``after``, else after the last one this call
        returned for the same filters (or ``mark()``). None in time: NothingArrived."""
        return self._next("messages", filters, after, timeout)

    def next_push(
        self, *, after: Optional[int] = None, timeout: float = DEFAULT_TIMEOUT_S, **filters: Any
    ) -> Dict[str, Any]:
        """The next push a device received matching ``filters`` (``registration_id``, ``alias``,
        ``msg_id``), waiting for it as ``next_message`` does."""
        return self._next("pushes", filters, after, timeout)

    def next_request(
        self, *, after: Optional[int] = None, timeout: float = DEFAULT_TIMEOUT_S, **filters: Any
    ) -> Dict[str, Any]:
        """The next request of the journal matching ``filters`` (a refusal: ``status=403``;
        ``path``, ``method``, ``code``), waiting for it as ``next_message`` does."""
        return self._next("requests", filters, after, timeout)

    def next_callback(
        self, *, after: Optional[int] = None, timeout: float = DEFAULT_TIMEOUT_S, **filters: Any
    ) -> Dict[str, Any]:
        """The next callback matching ``filters`` to change, waiting for it."""
        return self._next("callbacks", filters, after, timeout)

    # -- making the vendor fail ----------------------------------------------------------------------

    def arm_fault(self, **fault: Any) -> Dict[str, Any]:
        """Arms a fault (``POST /_sandbox/faults``): the next ``times`` requests matching ``method``,
        ``path`` and ``match`` are answered with the vendor error ``code`` (``status``,
        ``message``), after ``delay_ms``."""
        return self.call("POST", "/_sandbox/faults", body=fault)

    def faults(self) -> List[Dict[str, Any]]:
        """The armed faults, with what remains of each."""
        return self.call("GET", "/_sandbox/faults")["faults"]

    def clear_faults(self) -> int:
        """Disarms every fault of the app; answers how many there were."""
        return self.call("DELETE", "/_sandbox/faults")["cleared"]

    # -- playing the carrier, the handsets, the devices and the reviewer -------------------------------

    def reply(self, mobile: str, content: str) -> Dict[str, Any]:
        """A handset replies to the app (pulled by GET /v1/reply, or called back)."""
        return self.call("POST", "/_sandbox/sms/replies", body={"mobile": mobile, "content": content})

    def set_report(self, msg_id: str, status: int) -> Dict[str, Any]:
        """The message's delivery report gets this status (4001-4100) when it falls due."""
        return self.call("POST", "/_sandbox/sms/reports", body={"msg_id": msg_id, "status": status})

    def review_template(self, temp_id: int, status: int, refuse_reason: Optional[str] = None) -> Dict[str, Any]:
        """Decides a template's review now: APPROVED (1) or REJECTED (2, with the reviewer's words)."""
        body = {"status": status, "refuse_reason": refuse_reason}
        return self.call("POST", f"/_sandbox/sms/templates/{temp_id}/review", body=body)

    def review_sign(self, sign_id: int, status: int, refuse_reason: Optional[str] = None) -> Dict[str, Any]:
        """Decides a signature's review now: APPROVED (1) or REJECTED (2)."""
        body = {"status": status, "refuse_reason": refuse_reason}
        return self.call("POST", f"/_sandbox/sms/signs/{sign_id}/review", body=body)

    def register_device(self, platform: str = "android", **device: Any) -> Dict[str, Any]:
        """A device registers as a phone app with JPush would: ``registration_id`` (made for it
        unless given), ``alias``, ``tags``, ``mobile``, ``online`` (True)."""
        return self.call("POST", "/_sandbox/push/devices", body={"platform": platform, **device})

    def set_device_online(self, registration_id: str, online: bool) -> Dict[str, Any]:
        """Online: what waits for it within its time_to_live is delivered now (``delivered``)."""
        rid = urllib.parse.quote(registration_id, safe="")
        return self.call("PATCH", f"/_sandbox/push/devices/{rid}", body={"online": online})

    def click(self, msg_id: str, registration_id: str) -> Dict[str, Any]:
        """The device opens a push it received: counted by the statistics that report clicks."""
        path = f"/_sandbox/push/messages/{urllib.parse.quote(str(msg_id), safe='')}/clicks"
        return self.call("POST", path, body={"registration_id": registration_id})

    def __repr__(self) -> str:
        return f"SandboxApp({self.base_url!r}, app_key={self.app_key!r})"
