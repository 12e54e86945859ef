"""``fourhundred play`` in a real terminal (a pseudo-terminal 80 columns
wide) and on pipes: Ctrl-C stops the game and asks whether to save it,
as the end of input does, and nothing is left half-written."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from fcntl import ioctl
from pathlib import Path

import pytest

from fourhundred.engine import replay_result

PLAY = [sys.executable, "-m", "fourhundred.cli", "play", "--seed", "4", "--delay", "0"]
WAIT = 120.0


def read_until(fd: int, wanted: str, seen: bytearray) -> str:
    """Read ``fd`` into ``seen`` until ``wanted`` appears; the text so far."""
    deadline = time.monotonic() + WAIT
    while wanted not in seen.decode("utf-8", "replace"):
        left = deadline - time.monotonic()
        assert left > 0, f"no {wanted!r} in:\n{seen.decode('utf-8', 'replace')[-2000:]}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal closed: the program ended
                chunk = b""
            if not chunk:
                break
            seen.extend(chunk)
    return seen.decode("utf-8", "replace")


def _sigint_as_from_a_shell() -> None:
    """Ctrl-C's signal neither ignored nor blocked in the program, as when a
    shell starts it (exec keeps both from the test process, whatever ran in
    it before)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def spawn_in_terminal(args: list[str], columns: int = 80) -> tuple[int, int]:
    """Start ``args`` with a pseudo-terminal ``columns`` wide as its
    controlling terminal (so that Ctrl-C sends it SIGINT); (pid, fd)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    pid, fd = pty.fork()
    if pid == 0:  # the child, whose standard streams are the pty: never return to pytest
        try:
            _sigint_as_from_a_shell()
            ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
            os.execve(args[0], args, env)
        finally:
            os._exit(127)
    return pid, fd


def diagnosis(pid: int, fd: int) -> str:
    """What decides whether Ctrl-C reaches the program: its signal masks
    and state, whether the terminal makes signals of Ctrl-C, and whether
    the program is the terminal's foreground (for a failure's message)."""
    lines = []
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        lines += [
            x for x in status.splitlines() if x.startswith(("State", "Sig", "Shd", "Threads"))
        ]
        lines.append("wchan: " + Path(f"/proc/{pid}/wchan").read_text())
    except OSError as e:
        lines.append(f"/proc/{pid}: {e}")
    try:
        lflag = termios.tcgetattr(fd)[3]
        lines.append(
            f"terminal ISIG {bool(lflag & termios.ISIG)}, ICANON {bool(lflag & termios.ICANON)}"
        )
        lines.append(f"foreground group {os.tcgetpgrp(fd)}, program's group {os.getpgid(pid)}")
    except OSError as e:
        lines.append(f"terminal: {e}")
    return "\n".join(lines)


def finish(pid: int, fd: int, seen: bytearray) -> tuple[int, str]:
    """Read to the end and wait for the program; (exit status, its text)."""
    read_until(fd, "\x00never\x00", seen)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), seen.decode("utf-8", "replace")


def test_ctrl_c_in_a_terminal_asks_to_save_and_saves(tmp_path: Path) -> None:
    record = tmp_path / "stopped.json"
    pid, fd = spawn_in_terminal(PLAY)
    seen = bytearray()
    try:
        read_until(fd, "> ", seen)
        os.write(fd, b"\x03")  # Ctrl-C at the prompt
        read_until(fd, "Save the game record? [y/N] ", seen)
        os.write(fd, b"y\n")
        read_until(fd, "File name", seen)
        os.write(fd, str(record).encode() + b"\n")
    except AssertionError as e:
        why = diagnosis(pid, fd)
        os.kill(pid, signal.SIGKILL)
        raise AssertionError(f"{e}\n--- the program and its terminal:\n{why}") from None
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        raise
    code, text = finish(pid, fd, seen)
    assert code == 0, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert "Game stopped." in text
    assert "Saved the game record to" in " ".join(text.split())
    assert replay_result(json.loads(record.read_text()))["next"] is not None
    # Every line the game wrote fits the 80 columns (the one where the long
    # file name was typed is the terminal's echo of the typing).
    lines = [line for line in re.split(r"\r?\n", text) if not line.startswith("File name")]
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    assert any(len(line) > 70 for line in lines)  # wrapped close to the edge


def test_ctrl_c_twice_in_a_terminal_leaves_without_saving() -> None:
    pid, fd = spawn_in_terminal(PLAY)
    seen = bytearray()
    try:
        read_until(fd, "> ", seen)
        os.write(fd, b"\x03")
        read_until(fd, "Save the game record? [y/N] ", seen)
        os.write(fd, b"\x03")
    except AssertionError as e:
        why = diagnosis(pid, fd)
        os.kill(pid, signal.SIGKILL)
        raise AssertionError(f"{e}\n--- the program and its terminal:\n{why}") from None
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        raise
    code, text = finish(pid, fd, seen)
    assert code == 0, text
    assert "Not saved." in text
    assert "Traceback" not in text


@pytest.mark.parametrize("answer", ["n\n", ""])
def test_an_interrupt_on_pipes_asks_to_save_too(answer: str) -> None:
    proc = subprocess.Popen(
        PLAY,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_sigint_as_from_a_shell,  # noqa: PLW1509 - a test's own child
    )
    assert proc.stdin is not None and proc.stdout is not None
    seen = bytearray()
    try:
        read_until(proc.stdout.fileno(), "> ", seen)
        proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
        read_until(proc.stdout.fileno(), "Save the game record? [y/N] ", seen)
        # "": the end of input answers as no does
        _, err = proc.communicate(answer.encode(), timeout=WAIT)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert b"Traceback" not in err
    assert "Game stopped." in seen.decode()
