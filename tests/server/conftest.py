"""Fixtures of the server tests: every test runs against a real server
process, once with SQLite and once with PostgreSQL (a fresh database per
test session, dropped at its end)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fh_server_helpers import Databases, Server, pg_available

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Databases]:
    dbs = Databases(tmp_path_factory.mktemp("db"))
    yield dbs
    dbs.drop_all()


@pytest.fixture(scope="session")
def logs_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("logs")


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "postgresql" and not pg_available():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    name: str = request.param
    return name


@pytest.fixture(scope="session")
def server(backend: str, databases: Databases, logs_dir: Path) -> Iterator[Server]:
    """One server per backend for the session, normal (unscaled) timers."""
    s = Server(
        databases.new(backend),
        log_path=logs_dir / f"server-{backend}.log",
        # Test clients play far faster than people: no frame limit in the way.
        extra=[
            "--auth-limit",
            "1000",
            "--ws-rate",
            "100000",
            "--allowed-origin",
            "https://friend.example",
        ],
    ).start()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def fast_server(backend: str, databases: Databases, logs_dir: Path) -> Iterator[Server]:
    """A server whose turn timers run 50 times faster (30 s -> 0.6 s), that
    allows three logins or registrations a minute per address and the
    default 20 frames a second per socket."""
    s = Server(
        databases.new(backend),
        timer_scale=0.02,
        log_path=logs_dir / f"fast-server-{backend}.log",
        extra=["--auth-limit", "3"],
    ).start()
    yield s
    s.stop()
