"""The pytest plugin: one sandbox per test run, an app of its own for each test, and the app's
document kept, with a link to it in the web UI, when a test fails.

Enabled by ``pip install`` (the ``pytest11`` entry point), or with ``-p jiguang_sandbox.pytest_plugin``.

Fixtures:

``jiguang_sandbox`` (session)
    The :class:`~jiguang_sandbox.Sandbox`: ``JIGUANG_SANDBOX_URL``'s, a container, or a process
    started for the run and stopped at its end.
``jiguang_app``
    A :class:`~jiguang_sandbox.SandboxApp` of the test's own: fresh random credentials, the base
    URLs for the official SDKs, the control plane's calls. Removed after a test that passed; kept
    after one that failed, so that the link printed opens it.
``jiguang_new_app``
    Makes more apps for the same test (each one exported too when the test fails).
"""

from __future__ import annotations

import json
import os
import re
import warnings
from pathlib import Path
from typing import Callable, Iterator, List

import pytest

from .client import SandboxApp
from .errors import SandboxError
from .sandbox import Sandbox

_APPS = pytest.StashKey[List[SandboxApp]]()
_FAILED = pytest.StashKey[bool]()
_EXPORTS = pytest.StashKey[List[str]]()


class SandboxVersionWarning(UserWarning):
    """The sandbox's major.minor is not this client's."""


@pytest.fixture(scope="session")
def jiguang_sandbox() -> Iterator[Sandbox]:
    sandbox = Sandbox.start()
    try:
        mismatch = sandbox.version_mismatch()
        if mismatch:
            warnings.warn(SandboxVersionWarning(mismatch), stacklevel=1)
        yield sandbox
    finally:
        sandbox.stop()


@pytest.fixture
def jiguang_new_app(jiguang_sandbox: Sandbox, request: pytest.FixtureRequest) -> Iterator[Callable[[], SandboxApp]]:
    made: List[SandboxApp] = request.node.stash.setdefault(_APPS, [])

    def new_app() -> SandboxApp:
        app = jiguang_sandbox.new_app()
        made.append(app)
        return app

    yield new_app
    if not request.node.stash.get(_FAILED, False):
        for app in made:
            try:
                app.delete_app()
            except SandboxError:
                pass  # it was removed by the test itself, or the sandbox is gone: nothing to keep
        made.clear()


@pytest.fixture
def jiguang_app(jiguang_new_app: Callable[[], SandboxApp]) -> SandboxApp:
    return jiguang_new_app()


def reports_folder(config: pytest.Config) -> Path:
    """Where a failed test's app document goes: ``JIGUANG_SANDBOX_REPORTS``, else
    ``jiguang-sandbox-reports/`` beside ``--junitxml``'s file, else in the rootdir."""
    given = os.environ.get("JIGUANG_SANDBOX_REPORTS")
    if given:
        return Path(given)
    xml = config.getoption("xmlpath", None)
    if xml:
        return Path(xml).resolve().parent / "jiguang-sandbox-reports"
    return config.rootpath / "jiguang-sandbox-reports"


def _file_name(nodeid: str) -> str:
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", nodeid.replace("::", "__")).strip("_")
    return name[:200] or "test"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if not report.failed or item.stash.get(_FAILED, False):
        return
    item.stash[_FAILED] = True
    apps = item.stash.get(_APPS, [])
    if not apps:
        return
    folder = reports_folder(item.config)
    lines = []
    for index, app in enumerate(apps):
        suffix = "" if len(apps) == 1 else f"-{index + 1}"
        path = folder / f"{_file_name(item.nodeid)}{suffix}.json"
        try:
            document = app.export_app()
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
            lines.append(f"app {app.app_key} exported to {path}")
            item.user_properties.append(("jiguang_sandbox_export", str(path)))
        except (SandboxError, OSError) as err:
            lines.append(f"app {app.app_key} could not be exported: {err}")
        lines.append(f"web UI: {app.ui_url}")
        item.user_properties.append(("jiguang_sandbox_ui", app.ui_url))
    report.sections.append(("jiguang-sandbox", "\n".join(lines)))
    item.config.stash.setdefault(_EXPORTS, []).append(f"{item.nodeid}\n  " + "\n  ".join(lines))


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    exports = config.stash.get(_EXPORTS, [])
    if exports:
        terminalreporter.write_sep("-", "jiguang-sandbox: the apps of the failed tests")
        for entry in exports:
            terminalreporter.write_line(entry)
