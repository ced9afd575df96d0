"""The plugin seen from a test suite: child test runs (pytester) against the same sandbox."""

import json
import os
import re
import socket
import sys
import urllib.parse
from importlib.metadata import entry_points, version
from pathlib import Path

import pytest

import jiguang_sandbox.sandbox as sandbox_module
from jiguang_sandbox import Sandbox, SandboxApp, SandboxError

# A checkout's server, when the run does not say which command starts one (CI sets it).
CHECKOUT_SERVER = Path(__file__).resolve().parents[3] / "dist" / "server.js"
NO_IMAGE = "jiguang-sandbox:no-such-image-for-this-test"

SUITE = '''
import json


def keep(name, app):
    with open(name, "w") as f:
        json.dump([app.app_key, app.master_secret], f)


def test_sign_up_texts_a_code(jiguang_app):
    keep("failed.json", jiguang_app)
    jiguang_app.arm_fault(path="/v1/codes", code=50019)
    assert jiguang_app.messages(mobile="13800138000"), "no code was texted"


def test_passes(jiguang_app):
    keep("passed.json", jiguang_app)
    jiguang_app.call("POST", "/_sandbox/clock", body={"advance_ms": 1000})
'''


@pytest.fixture
def child_env(monkeypatch, jiguang_sandbox):
    """The child runs use this run's sandbox, and the default reports folder."""
    monkeypatch.setenv("JIGUANG_SANDBOX_URL", jiguang_sandbox.url)
    monkeypatch.delenv("JIGUANG_SANDBOX_REPORTS", raising=False)
    return jiguang_sandbox


def credentials(pytester, name):
    return json.loads((pytester.path / name).read_text())


def test_a_failing_test_exports_its_app_and_prints_its_link(pytester, child_env):
    pytester.makepyfile(test_signup=SUITE)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1, passed=1)
    key, secret = credentials(pytester, "failed.json")
    output = result.stdout.str()
    link = f"{child_env.url}/_sandbox/ui/?app={key}"
    assert f"web UI: {link}" in output
    exported = pytester.path / "jiguang-sandbox-reports" / "test_signup.py__test_sign_up_texts_a_code.json"
    assert f"app {key} exported to {exported}" in output
    document = json.loads(exported.read_text())
    assert (document["format"], document["app_key"]) == ("jiguang-sandbox/app", key)
    assert [(f["path"], f["code"]) for f in document["faults"]] == [("/v1/codes", 50019)]
    # The failed test's app is kept, so that the link opens it; the passed test's is removed.
    assert [f["code"] for f in SandboxApp(child_env.url, key, secret).faults()] == [50019]
    passed = SandboxApp(child_env.url, *credentials(pytester, "passed.json"))
    assert passed.clock()["offset_ms"] == 0  # a new app: the clock the test moved went with the old one
    assert len(list((pytester.path / "jiguang-sandbox-reports").iterdir())) == 1


def test_the_document_goes_beside_junitxml_and_the_link_into_it(pytester, child_env):
    pytester.makepyfile(test_signup=SUITE)
    result = pytester.runpytest_subprocess("--junitxml=out/junit.xml")
    result.assert_outcomes(failed=1, passed=1)
    key, _ = credentials(pytester, "failed.json")
    assert (pytester.path / "out" / "jiguang-sandbox-reports" / "test_signup.py__test_sign_up_texts_a_code.json").is_file()
    xml = (pytester.path / "out" / "junit.xml").read_text()
    assert f'name="jiguang_sandbox_ui" value="{child_env.url}/_sandbox/ui/?app={key}"' in xml


def test_jiguang_sandbox_reports_names_the_folder(pytester, child_env, monkeypatch, tmp_path):
    monkeypatch.setenv("JIGUANG_SANDBOX_REPORTS", str(tmp_path / "kept"))
    pytester.makepyfile(test_signup=SUITE)
    pytester.runpytest_subprocess("--junitxml=out/junit.xml").assert_outcomes(failed=1, passed=1)
    assert [p.name for p in (tmp_path / "kept").iterdir()] == ["test_signup.py__test_sign_up_texts_a_code.json"]


def test_two_apps_of_one_failed_test_are_both_exported(pytester, child_env):
    pytester.makepyfile(test_two='''
        def test_two_apps(jiguang_app, jiguang_new_app):
            other = jiguang_new_app()
            assert other.app_key == jiguang_app.app_key
    ''')
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    names = sorted(p.name for p in (pytester.path / "jiguang-sandbox-reports").iterdir())
    assert names == ["test_two.py__test_two_apps-1.json", "test_two.py__test_two_apps-2.json"]
    assert len(re.findall(r"web UI: \S+/_sandbox/ui/\?app=[0-9a-f]{24}", result.stdout.str())) >= 2


def test_the_pip_install_enables_the_plugin_through_its_entry_point():
    every = entry_points()
    plugins = every.select(group="pytest11") if hasattr(every, "select") else every.get("pytest11", [])
    assert [ep.value for ep in plugins if ep.name.startswith("jiguang")] == ["jiguang_sandbox.pytest_plugin"]
    assert version("jiguang-sandbox") == sandbox_module.VERSION


def test_the_plugin_is_enabled_with_p_when_autoload_is_off(pytester, child_env, monkeypatch):
    pytester.makepyfile(test_p="def test_app(jiguang_app):\n    assert jiguang_app.app()['app_key'] == jiguang_app.app_key\n")
    # With the install's autoload on, -p names the same plugin: no second registration.
    pytester.runpytest_subprocess("-p", "jiguang_sandbox.pytest_plugin").assert_outcomes(passed=1)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.runpytest_subprocess("-p", "jiguang_sandbox.pytest_plugin").assert_outcomes(passed=1)
    without = pytester.runpytest_subprocess()
    without.assert_outcomes(errors=1)
    assert "fixture 'jiguang_app' not found" in without.stdout.str()


def test_a_sandbox_started_for_the_run_is_stopped_at_its_end(pytester, monkeypatch):
    command = os.environ.get("JIGUANG_SANDBOX_COMMAND") or f"node {CHECKOUT_SERVER}"
    monkeypatch.delenv("JIGUANG_SANDBOX_URL", raising=False)
    monkeypatch.setenv("JIGUANG_SANDBOX_COMMAND", command)
    monkeypatch.setenv("JIGUANG_SANDBOX_IMAGE", NO_IMAGE)  # the process, even where Docker has an image
    pytester.makepyfile(test_started='''
        import json

        def test_started(jiguang_sandbox, jiguang_app):
            with open("sandbox.json", "w") as f:
                json.dump([jiguang_sandbox.url, jiguang_sandbox.how], f)
            assert jiguang_app.app()["app_key"] == jiguang_app.app_key
    ''')
    pytester.runpytest_subprocess().assert_outcomes(passed=1)
    url, how = json.loads((pytester.path / "sandbox.json").read_text())
    assert how == f"{command} --port 0 --host 127.0.0.1 --db :memory:"
    split = urllib.parse.urlsplit(url)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((split.hostname, split.port), timeout=5).close()


def test_a_sandbox_that_cannot_start_says_why(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text("import sys\nprint('boom: ' + ' '.join(sys.argv[1:]))\nsys.exit(3)\n")
    env = {"JIGUANG_SANDBOX_COMMAND": f"{sys.executable} {script}", "JIGUANG_SANDBOX_IMAGE": NO_IMAGE,
           "PATH": os.environ["PATH"]}
    with pytest.raises(SandboxError) as failed:
        Sandbox.start(env, startup_timeout=30)
    assert "exited with 3 before it was ready" in str(failed.value)
    assert "boom: --port 0 --host 127.0.0.1 --db :memory:" in str(failed.value)  # what it said


def test_a_server_of_another_major_minor_is_warned_about(jiguang_sandbox, monkeypatch):
    package = json.loads((Path(__file__).resolve().parents[3] / "package.json").read_text())
    assert sandbox_module.VERSION == package["version"]  # the client's version is the server's
    assert jiguang_sandbox.version_mismatch() is None
    monkeypatch.setattr(sandbox_module, "VERSION", "9.9.0")
    server = jiguang_sandbox.info()["version"]
    assert jiguang_sandbox.version_mismatch() == (
        f"the sandbox at {jiguang_sandbox.url} is version {server}, this client 9.9.0: calls may differ")
