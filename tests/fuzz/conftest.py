"""Fixtures of the fuzz tests: a real server process (SQLite: the database
does not change how frames are judged) and a fuzz rig on its own event loop,
so that Hypothesis can drive it from plain (synchronous) test functions."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fh_fuzz import RigLoop
from fh_wire import Server, running_server


@pytest.fixture(scope="session")
def fuzz_server() -> Iterator[Server]:
    with running_server("sqlite", log_name="fuzz") as server:
        yield server


@pytest.fixture(scope="module")
def rig(fuzz_server: Server) -> Iterator[RigLoop]:
    r = RigLoop(fuzz_server.url, seed=20240601)
    yield r
    r.close()
