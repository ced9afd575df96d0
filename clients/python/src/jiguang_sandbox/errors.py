"""What the client raises: the sandbox's refusals, and a wait that saw nothing arrive."""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Sequence


class SandboxError(Exception):
    """A refusal of the sandbox: its HTTP status and the ``code`` of its
    ``{"error":{"code","message"}}`` envelope (the control plane's codes are 90001-90099,
    docs/control-plane.md "Errors of the control plane"). ``code`` is None when the answer was not
    that envelope (a proxy's page, a cut connection); ``body`` holds what came."""

    def __init__(self, status: int, code: Optional[int], message: str, body: Any = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.body = body

    @classmethod
    def from_answer(cls, method: str, path: str, status: int, text: str) -> "SandboxError":
        try:
            body: Any = json.loads(text)
        except ValueError:
            body = text
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(error, dict) and isinstance(error.get("code"), int) and isinstance(error.get("message"), str):
            return cls(status, error["code"], f"{method} {path}: {error['code']} {error['message']}", body)
        shown = text if len(text) <= 200 else text[:200] + "…"
        return cls(status, None, f"{method} {path}: HTTP {status} {shown}".strip(), body)


class NothingArrived(AssertionError):
    """Nothing matching arrived within the wait of a ``next_…()`` call. An AssertionError, so a
    test that waited in vain fails (rather than errors), and its message lists what did arrive
    after the same seq, whatever the filter, so the test's log shows what came instead."""

    def __init__(
        self,
        what: str,
        filters: Mapping[str, Any],
        after: int,
        waited_s: float,
        arrived: Sequence[str],
    ) -> None:
        self.what = what
        self.filters = dict(filters)
        self.after = after
        self.waited_s = waited_s
        self.arrived = list(arrived)
        shown = json.dumps(self.filters, ensure_ascii=False, sort_keys=True)
        lines = [f"no {what} matching {shown} arrived after seq {after} within {waited_s:g} s;"]
        if self.arrived:
            lines.append(f"what did arrive after seq {after} (newest first):")
            lines.extend(f"  {line}" for line in self.arrived)
        else:
            lines.append(f"nothing at all arrived after seq {after}")
        super().__init__("\n".join(lines))
