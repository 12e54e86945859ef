"""Fixtures of the leak tests: a real server whose turn timers run 100 times
faster (``FOURHUNDRED_TEST_TIMER_SCALE=0.01``, set in the process's
environment at start: the only way to reach it) and whose bots are the
heuristic ones (random bots rarely reach even 11 points)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))

from fh_wire import Server, running_server


@pytest.fixture(scope="module")
def leak_server() -> Iterator[Server]:
    with running_server("sqlite", timer_scale=0.01, log_name="leaks", bot="heuristic") as server:
        yield server
