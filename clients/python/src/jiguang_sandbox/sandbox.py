"""Where the sandbox comes from, once per test run (the clients' contract, issue 27):

1. ``JIGUANG_SANDBOX_URL`` set: that sandbox (nothing started, nothing stopped);
2. else a Docker CLI that answers ``docker info`` and the image ``JIGUANG_SANDBOX_IMAGE``
   (``jiguang-sandbox:<version>``, else ``jiguang-sandbox:latest``) present locally: a container
   on a free port of 127.0.0.1, stopped at the end;
3. else a process: ``JIGUANG_SANDBOX_COMMAND`` (split on spaces), or ``npx --yes jiguang-sandbox``,
   with ``--port 0 --db :memory:``; its address read from its start line, killed at the end (and
   when the interpreter exits).
"""

from __future__ import annotations

import atexit
import json
import os
import re
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, List, Mapping, Optional

from .client import SandboxApp
from .errors import SandboxError

#: The client's version: the server's (package.json "version").
VERSION = "0.1.0"

DEFAULT_COMMAND = "npx --yes jiguang-sandbox"
# The server's start line, whatever LOG_FORMAT: "jiguang-sandbox listening on http://127.0.0.1:41235 (version …"
_LISTENING = re.compile(r"jiguang-sandbox listening on (https?://[^\s\"()]+)")


def _no_proxy_get(url: str, timeout: float) -> int:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=timeout) as answer:
            return answer.status
    except urllib.error.HTTPError as err:
        return err.code


def _once(action: Callable[[], None]) -> Callable[[], None]:
    """``action`` the first time only: stop() and the interpreter's exit may both call it."""
    done = []

    def run() -> None:
        if not done:
            done.append(True)
            action()

    return run


def wait_until_ready(url: str, timeout: float = 30.0, alive: Optional[Callable[[], Optional[str]]] = None) -> None:
    """Returns once ``GET /_sandbox/ready`` answers 200. ``alive`` says why to give up early (the
    process died)."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        try:
            status = _no_proxy_get(f"{url}/_sandbox/ready", timeout=max(0.1, deadline - time.monotonic()))
            if status == 200:
                return
            last = f"HTTP {status}"
        except (OSError, urllib.error.URLError) as err:
            last = str(err)
        if alive is not None:
            dead = alive()
            if dead:
                raise SandboxError(0, None, dead)
        time.sleep(0.1)
    raise SandboxError(0, None, f"{url}/_sandbox/ready did not answer 200 within {timeout:g} s: {last}")


def _docker(*args: str, timeout: float = 60.0) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["docker", *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout, check=False
    )


def _docker_image(env: Mapping[str, str]) -> Optional[str]:
    """The image to run when a Docker engine answers and it is present locally, else None."""
    try:
        if _docker("info", timeout=15).returncode != 0:
            return None
    except (OSError, subprocess.SubprocessError):
        return None
    wanted = env.get("JIGUANG_SANDBOX_IMAGE")
    candidates = [wanted] if wanted else [f"jiguang-sandbox:{VERSION}", "jiguang-sandbox:latest"]
    for image in candidates:
        if _docker("image", "inspect", image).returncode == 0:
            return image
    return None


class Sandbox:
    """A running sandbox: its URL, a fresh app for each test (``new_app()``), and ``stop()`` for
    what this object started (nothing, for ``JIGUANG_SANDBOX_URL``)."""

    def __init__(self, url: str, how: str, stop: Optional[Callable[[], None]] = None) -> None:
        self.url = url.rstrip("/")
        #: How it came: "url", "docker <image>" or the command line started.
        self.how = how
        self._stop = stop

    @classmethod
    def start(cls, env: Optional[Mapping[str, str]] = None, *, startup_timeout: float = 120.0) -> "Sandbox":
        """The sandbox the environment names, or one started for this run (see the module's doc)."""
        env = os.environ if env is None else env
        url = env.get("JIGUANG_SANDBOX_URL")
        if url:
            sandbox = cls(url, "url")
            wait_until_ready(sandbox.url, timeout=startup_timeout)
            return sandbox
        image = _docker_image(env)
        if image is not None:
            return cls._start_container(image, startup_timeout)
        command = (env.get("JIGUANG_SANDBOX_COMMAND") or DEFAULT_COMMAND).split()
        return cls._start_process(command, env, startup_timeout)

    @classmethod
    def _start_container(cls, image: str, startup_timeout: float) -> "Sandbox":
        run = _docker("run", "-d", "--rm", "-p", "127.0.0.1::8080", image)
        if run.returncode != 0:
            raise SandboxError(0, None, f"docker run {image} failed: {run.stderr.strip()}")
        container = run.stdout.strip()

        @_once
        def stop() -> None:
            _docker("stop", container)

        atexit.register(stop)
        port = _docker("port", container, "8080/tcp").stdout.strip().splitlines()
        if not port:
            stop()
            raise SandboxError(0, None, f"docker port {container} 8080/tcp: no port published")
        sandbox = cls(f"http://127.0.0.1:{port[0].rsplit(':', 1)[1]}", f"docker {image}", stop)
        try:
            wait_until_ready(sandbox.url, timeout=startup_timeout)
        except SandboxError:
            sandbox.stop()
            raise
        return sandbox

    @classmethod
    def _start_process(cls, command: List[str], env: Mapping[str, str], startup_timeout: float) -> "Sandbox":
        args = [*command, "--port", "0", "--host", "127.0.0.1", "--db", ":memory:"]
        # Its output goes to a file, read for the start line: a pipe nobody drains would stall it.
        log = tempfile.NamedTemporaryFile(prefix="jiguang-sandbox-", suffix=".log", delete=False)
        child_env = dict(env)
        # The start line is written whatever the level; each request's line is not needed here.
        child_env.setdefault("LOG_LEVEL", "warn")
        try:
            # A session of its own: `npx` starts node as its child, and both are stopped together.
            process = subprocess.Popen(
                args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=child_env,
                start_new_session=True,
            )
        except OSError as err:
            log.close()
            raise SandboxError(0, None, f"could not start {' '.join(args)}: {err}") from None
        log.close()

        def output() -> str:
            with open(log.name, encoding="utf-8", errors="replace") as f:
                return f.read()

        @_once
        def stop() -> None:
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
                except ProcessLookupError:
                    pass
            try:
                os.unlink(log.name)
            except OSError:
                pass

        atexit.register(stop)
        line = " ".join(args)

        def dead() -> Optional[str]:
            if process.poll() is None:
                return None
            return f"{line} exited with {process.returncode} before it was ready:\n{output()[-2000:]}"

        deadline = time.monotonic() + startup_timeout
        url = None
        while url is None:
            found = _LISTENING.search(output())
            why = None if found else dead()
            if why is None and not found and time.monotonic() > deadline:
                why = f"{line} printed no start line within {startup_timeout:g} s:\n{output()[-2000:]}"
            if found:
                url = found.group(1)
            elif why:
                stop()  # which removes its output: `why` holds what it said
                raise SandboxError(0, None, why)
            else:
                time.sleep(0.05)
        sandbox = cls(url, line, stop)
        try:
            wait_until_ready(sandbox.url, timeout=max(1.0, deadline - time.monotonic()), alive=dead)
        except SandboxError:
            sandbox.stop()
            raise
        return sandbox

    def stop(self) -> None:
        """Stops what ``start()`` started; nothing for a sandbox named by URL."""
        if self._stop is not None:
            stop, self._stop = self._stop, None
            stop()

    def info(self) -> Dict[str, Any]:
        """``GET /_sandbox/info``: name, version, settings that shape answers."""
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"{self.url}/_sandbox/info", timeout=30) as answer:
            return json.loads(answer.read().decode("utf-8"))

    def version_mismatch(self) -> Optional[str]:
        """A warning's text when the server's major.minor is not this client's, else None."""
        server = str(self.info().get("version", ""))
        if server.split(".")[:2] != VERSION.split(".")[:2]:
            return f"the sandbox at {self.url} is version {server}, this client {VERSION}: calls may differ"
        return None

    def new_app(self, **kwargs: Any) -> SandboxApp:
        """An app of its own: fresh random credentials, provisioned now."""
        return SandboxApp.create(self.url, **kwargs)

    def __repr__(self) -> str:
        return f"Sandbox({self.url!r}, how={self.how!r})"
