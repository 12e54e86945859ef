"""Fixtures of the security tests: real server processes. SQLite unless the
database matters (the stored password hashes, text the database refuses):
those tests also run on the PostgreSQL of this machine."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))

from fh_moderation import moderation_server
from fh_wire import Server, pg_available, running_server


@pytest.fixture(scope="session")
def sec_server() -> Iterator[Server]:
    """SQLite, normal timers, the default limit on logins and registrations
    (10 a minute per address: a test that needs a fresh budget comes from
    another loopback address, 127.0.0.N)."""
    with running_server("sqlite", auth_limit=None, log_name="security") as server:
        yield server


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    if not pg_available():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    with running_server("postgresql", auth_limit=None, log_name="security") as server:
        yield server


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def any_db_server(request: pytest.FixtureRequest, sec_server: Server) -> Iterator[Server]:
    """Each backend in turn (the PostgreSQL one only when it runs)."""
    if request.param == "sqlite":
        yield sec_server
        return
    yield request.getfixturevalue("pg_server")


@pytest.fixture(scope="session")
def mod_server() -> Iterator[Server]:
    """The moderation tests' server (``fh_moderation.moderation_server``:
    a low report limit), one for the three files that use it."""
    with moderation_server() as server:
        yield server
