"""The C allocator's tuning: on glibc the arena cap is set unless the
environment says otherwise, and a trim runs; elsewhere both are no-ops."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from fourhundred.server import allocator

GLIBC = allocator._glibc() is not None


def _in_fresh_process(code: str, env: dict[str, str]) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


@pytest.mark.skipif(not GLIBC, reason="the arena cap is glibc's")
def test_the_arena_cap_is_set_unless_the_environment_says() -> None:
    code = "from fourhundred.server import allocator; print(allocator.limit_arenas())"
    base = {"PATH": "/usr/bin:/bin"}
    assert _in_fresh_process(code, base) == "True"
    assert _in_fresh_process(code, {**base, "MALLOC_ARENA_MAX": "4"}) == "False"


@pytest.mark.skipif(not GLIBC, reason="malloc_trim is glibc's")
def test_a_trim_gives_freed_pages_back() -> None:
    # Blocks over pymalloc's 512 bytes come from malloc's heap; freed at
    # once, they leave whole pages free there.
    blocks = [bytearray(1000) for _ in range(50_000)]
    del blocks
    assert allocator.trim() is True


def test_off_glibc_both_are_no_ops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allocator, "_glibc", lambda: None)
    assert allocator.limit_arenas() is False
    assert allocator.trim() is False


async def test_the_trim_loop_runs_until_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(allocator, "trim", lambda: calls.append(1) or True)
    task = asyncio.create_task(allocator.trim_forever(0.001))
    while len(calls) < 3:
        await asyncio.sleep(0.001)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert len(calls) >= 3
