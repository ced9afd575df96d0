"""A client of jiguang-sandbox's control plane, and a pytest plugin that gives each test an app of
its own (``jiguang_app``) on a sandbox started once per run (``jiguang_sandbox``)."""

from .client import APPROVED, REJECTED, Page, SandboxApp, random_key
from .errors import NothingArrived, SandboxError
from .sandbox import VERSION, Sandbox, wait_until_ready

__version__ = VERSION

__all__ = [
    "APPROVED",
    "REJECTED",
    "VERSION",
    "NothingArrived",
    "Page",
    "Sandbox",
    "SandboxApp",
    "SandboxError",
    "random_key",
    "wait_until_ready",
]
