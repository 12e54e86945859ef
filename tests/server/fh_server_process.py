"""A real ``fourhundred serve`` process for the server tests, on a free
loopback port: :class:`Server` opens the abuse limits wide for test
clients, :class:`StrictServer` keeps ``serve``'s own."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


OPEN_LIMITS: Final = (
    "--guest-limit",
    "1000000",
    "--rooms-per-address",
    "1000000",
    "--rooms-per-user",
    "1000000",
    "--table-limit",
    "1000000",
    "--chat-limit",
    "1000000",
)
"""``serve`` options that take the abuse limits out of a test's way."""


class Server:
    """A ``fourhundred serve`` process. Test clients make many guests and
    rooms from 127.0.0.1, so the abuse limits are wide open (``extra``
    wins); :class:`StrictServer` keeps ``serve``'s defaults."""

    open_limits: tuple[str, ...] = OPEN_LIMITS

    def __init__(
        self,
        database_url: str,
        *,
        timer_scale: float | None = None,
        bot: str = "random",
        extra: Iterable[str] = (),
        log_path: Path | None = None,
    ) -> None:
        self.database_url = database_url
        self.timer_scale = timer_scale
        self.bot = bot
        # Substitutes play as ``bot`` too (the server's own default, the
        # expert, would make every timed-out test game search).
        self.substitute = bot
        self.extra = list(extra)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = log_path
        self._log: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> Server:
        env = dict(os.environ)
        env.pop("FOURHUNDRED_TEST_TIMER_SCALE", None)
        if self.timer_scale is not None:
            env["FOURHUNDRED_TEST_TIMER_SCALE"] = str(self.timer_scale)
        cmd = [
            sys.executable,
            "-m",
            "fourhundred.cli",
            "serve",
            "--port",
            str(self.port),
            "--database-url",
            self.database_url,
            "--bot",
            self.bot,
            "--substitute",
            self.substitute,
            "--bot-delay",
            "0",
            "--bot-workers",
            "1",
            # The fair-play check scores finished games for seconds of CPU
            # each; its own tests turn it on (test_server_fairplay.py).
            "--fair-play",
            "off",
            *self.open_limits,
            *self.extra,
        ]
        self._log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, env=env, stdout=self._log, stderr=self._log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"server exited with {self.proc.returncode} (log {self.log_path})"
                )
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not become healthy in 60 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self._log not in (None, subprocess.DEVNULL):
            self._log.close()
            self._log = None


class StrictServer(Server):
    """A ``fourhundred serve`` process with ``serve``'s own abuse limits."""

    open_limits = ()
