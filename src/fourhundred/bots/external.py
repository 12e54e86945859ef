"""External bots: any program that speaks the bot protocol
(docs/bot-protocol.md), as ``cmd:COMMAND``.

:class:`ExternalBot` starts the program, says ``hello`` and waits for
``ready`` (10 s), then sends an ``act`` for each of its turns. The fault
handling is that of docs/bot-protocol.md, "Faults": an answer that is late
(over the budget plus a 200 ms grace), malformed, for the wrong id, or not
legal is a fault: the host takes the timeout action for that turn, records
the fault and goes on.
A program that exits, cannot be started or fails ``hello`` is replaced by
the built-in heuristic bot for the rest of the game, and that is reported
as a fault too. What the program writes to standard error is logged.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import shlex
import subprocess
import threading
import time
from typing import IO, Any, Final

from fourhundred.engine import Action, View

from .base import Bot
from .heuristic import HeuristicBot
from .protocol import (
    PROTOCOL,
    ProtocolError,
    answer_to_action,
    timeout_action_of,
)

__all__ = ["GRACE_MS", "HELLO_TIMEOUT", "ExternalBot", "close_all", "log_bot_stderr"]

GRACE_MS: Final = 200
HELLO_TIMEOUT: Final = 10.0
DEFAULT_BUDGET_MS: Final = 500
_LOG = logging.getLogger("fourhundred.bots.external")
_EOF: Final = object()
_LATE: Final = object()


def _pump(stream: IO[str], sink: queue.Queue[object]) -> None:
    try:
        for line in stream:
            sink.put(line)
    except (OSError, ValueError):
        pass
    sink.put(_EOF)


_RUNNING: set[ExternalBot] = set()
"""This process's external bots whose program is running. A strong set, not
a weak one: a bot dropped before it was closed (a worker stopped while it
was making a team, the team's list never built) must still be reached by
``close_all``, or its program outlives the host."""


def close_all() -> None:
    """Close every external bot of this process whose program still runs
    (``quit``, then a kill a second later): a host's way out, for instance a
    worker process that is being stopped."""
    for bot in list(_RUNNING):
        bot.close()


def log_bot_stderr(path: str) -> None:
    """Write what external bots say on standard error (the logger
    ``fourhundred.bots.external`` at INFO) to the file ``path``, a line
    each, appended; the hosts' ``--bot-log``."""
    target = os.path.abspath(path)
    if any(getattr(h, "baseFilename", None) == target for h in _LOG.handlers):
        return  # already written there (a second run in this process)
    handler = logging.FileHandler(target, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(message)s"))
    _LOG.addHandler(handler)
    _LOG.setLevel(logging.INFO)
    _LOG.propagate = False


def _log_stderr(stream: IO[str], label: str) -> None:
    try:
        for line in stream:
            _LOG.info("%s: %s", label, line.rstrip("\n"))
    except (OSError, ValueError):
        pass


class ExternalBot(Bot):
    """A bot program spoken to over its standard input and output."""

    name = "cmd"

    def __init__(
        self,
        command: str,
        *,
        seed: int | None = None,
        budget_ms: int | None = None,
        hello_timeout: float = HELLO_TIMEOUT,
    ) -> None:
        super().__init__(seed=seed, budget_ms=budget_ms)
        try:
            self.argv = shlex.split(command)
        except ValueError as e:
            raise ValueError(f"cannot read the command line {command!r}: {e}") from None
        if not self.argv:
            raise ValueError("cmd: needs a command line, e.g. 'cmd:python3 mybot.py'")
        self.command = command
        self.hello_timeout = hello_timeout
        self.bot_name: str | None = None
        self.author: str | None = None
        self.replaced: str | None = None
        """Why the heuristic took over, or ``None``."""
        self._fallback = HeuristicBot()
        self._faults: list[str] = []
        self._id = 0
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._start()

    # ------------------------------------------------------------ process

    def _start(self) -> None:
        self.replaced = None
        self._lines = queue.Queue()
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as e:
            self._proc = None
            self._replace(f"cannot start {self.command!r}: {e.strerror or e}")
            return
        _RUNNING.add(self)
        assert self._proc.stdout is not None and self._proc.stderr is not None
        threading.Thread(target=_pump, args=(self._proc.stdout, self._lines), daemon=True).start()
        # "python3[4242]": the program and its process, since one host runs
        # several programs of the same name (a seat each).
        label = f"{os.path.basename(self.argv[0])}[{self._proc.pid}]"
        threading.Thread(target=_log_stderr, args=(self._proc.stderr, label), daemon=True).start()
        if self._send({"type": "hello", "protocol": PROTOCOL}):
            self._await_ready()

    def _await_ready(self) -> None:
        """Read the answer to hello: the program's name and author, or the
        reason to replace it."""
        line = self._next_line(time.monotonic() + self.hello_timeout)
        if line is None:
            self._replace(f"no answer to hello within {self.hello_timeout:g} s")
            return
        if line is _EOF:
            self._replace("exited before answering hello")
            return
        try:
            msg = json.loads(str(line))
        except json.JSONDecodeError:
            self._replace(f"answered hello with {str(line).strip()[:80]!r}, not JSON")
            return
        if isinstance(msg, dict) and msg.get("type") == "ready":
            self.bot_name = str(msg.get("name", "")) or None
            self.author = str(msg.get("author", "")) or None
            return
        self._replace(f"answered hello with {str(line).strip()[:80]!r}, not ready")

    def _next_line(self, deadline: float) -> object | None:
        """The next line, ``_EOF``, or ``None`` once ``deadline`` passes."""
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            try:
                return self._lines.get_nowait()
            except queue.Empty:
                return None
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def _send(self, msg: dict[str, Any]) -> bool:
        proc = self._proc
        if proc is None or proc.stdin is None:
            return False
        try:
            proc.stdin.write(json.dumps(msg) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            self._replace("exited (its input is closed)")
            return False
        return True

    def _replace(self, why: str) -> None:
        if self.replaced is None:
            self.replaced = why
            self._faults.append(f"{self.command}: {why}; the heuristic bot plays for it")
            _LOG.warning("bot %r %s; replaced by the heuristic bot", self.command, why)
        self._stop()

    def _stop(self) -> None:
        proc = self._proc
        self._proc = None
        if proc is None:
            return
        _RUNNING.discard(self)
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(json.dumps({"type": "quit"}) + "\n")
                proc.stdin.flush()
        except (OSError, ValueError):
            pass
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    # ------------------------------------------------------------- turns

    def _fault(self, why: str) -> None:
        self._faults.append(f"{self.command}: act {self._id}: {why}")

    def choose(self, view: View) -> Action:
        if self.replaced is not None or self._proc is None:
            return self._fallback.choose(view)
        fallback = timeout_action_of(view)
        if not self._drain_stale():
            return self._fallback.choose(view)
        self._id += 1
        budget = self.budget_ms if self.budget_ms is not None else DEFAULT_BUDGET_MS
        if not self._send(
            {"type": "act", "id": self._id, "view": view.to_dict(), "budget_ms": budget}
        ):
            return self._fallback.choose(view)
        deadline = time.monotonic() + (budget + GRACE_MS) / 1000.0
        while True:
            line = self._next_line(deadline)
            if line is None:
                self._fault(f"no answer within {budget} ms + {GRACE_MS} ms grace")
                return fallback
            if line is _EOF:
                self._replace("exited")
                return self._fallback.choose(view)
            action = self._answer(str(line).strip(), view, fallback)
            if action is not None:
                return action

    def _drain_stale(self) -> bool:
        """Throw away late answers to earlier acts (already counted); False
        if the program has exited meanwhile (it is then replaced)."""
        while True:
            try:
                stale = self._lines.get_nowait()
            except queue.Empty:
                return True
            if stale is _EOF:
                self._replace("exited")
                return False

    def _answer(self, text: str, view: View, fallback: Action) -> Action | None:
        """The action an answer line gives for the current act: its action,
        ``fallback`` for a faulty answer, or ``None`` for a late
        answer to an earlier act (read on)."""
        try:
            msg = json.loads(text)
        except json.JSONDecodeError:
            self._fault(f"malformed answer {text[:80]!r}")
            return fallback
        problem = self._id_problem(msg, text)
        if problem is _LATE:
            return None  # a late answer to an earlier act, already counted
        if problem is not None:
            self._fault(str(problem))
            return fallback
        try:
            return answer_to_action(msg, view)
        except ProtocolError as e:
            self._fault(str(e))
            return fallback

    def _id_problem(self, msg: object, text: str) -> object:
        """What is wrong with an answer before its action is read: ``None``
        (nothing), :data:`_LATE` (an earlier act's), or the fault's text."""
        if not isinstance(msg, dict):
            return f"an answer must be a JSON object, not {text[:80]!r}"
        msg_id = msg.get("id")
        if type(msg_id) is int and msg_id < self._id:
            return _LATE
        if type(msg_id) is not int:  # 36.0 and true are not ids
            return f"an answer needs the act's id as a whole number ({self._id}), not {msg_id!r}"
        if msg_id != self._id:
            return f"answer for the wrong id {msg_id!r}"
        return None

    def observe(self, view: View) -> None:
        if self.replaced is None:
            self._send({"type": "result", "view": view.to_dict()})

    def new_game(self) -> None:
        if self.replaced is not None:
            self._start()

    def drain_faults(self) -> list[str]:
        out, self._faults = self._faults, []
        return out

    def close(self) -> None:
        self._stop()
