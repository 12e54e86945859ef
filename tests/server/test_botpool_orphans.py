"""A server killed with SIGKILL leaves no bot workers behind: they would
otherwise wait on their queue for ever, holding memory and a core's share."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux prctl")

_PARENT = textwrap.dedent(
    """
    import asyncio, multiprocessing, sys, time
    from fourhundred.server.botpool import PoolBotRunner

    async def main():
        runner = PoolBotRunner(2, 100)
        await runner.warm()
        pids = [p.pid for p in runner._pool._processes.values()]
        print(" ".join(map(str, pids)), flush=True)
        time.sleep(60)

    asyncio.run(main())
    """
)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def _survivors_of_sigkill(code: str, workers: int) -> list[int]:
    """Run ``code`` (which prints its workers' pids on one line), SIGKILL
    it, and return the workers still alive ten seconds later."""
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        pids = [int(p) for p in parent.stdout.readline().split()]
        assert len(pids) == workers and all(_alive(p) for p in pids)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 10
        while any(_alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        return [p for p in pids if _alive(p)]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def test_workers_die_with_a_killed_server() -> None:
    assert _survivors_of_sigkill(_PARENT, 2) == [], "bot workers outlived their server"


def test_search_workers_die_with_their_parent() -> None:
    code = textwrap.dedent(
        """
        import time
        from fourhundred.bots import searchpool
        pool = searchpool.worker_pool(1)
        print(" ".join(str(p.pid) for p in pool._processes.values()), flush=True)
        time.sleep(60)
        """
    )
    assert _survivors_of_sigkill(code, 1) == [], "search workers outlived their parent"
