"""Store tests run on SQLite and on PostgreSQL (a fresh database per test
session, dropped at its end), with the same helpers as the server tests."""

from __future__ import annotations

import secrets
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from fh_server_helpers import Databases, pg_available

from fourhundred.store import Store


@pytest.fixture(scope="session")
def store_databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Databases]:
    dbs = Databases(tmp_path_factory.mktemp("storedb"))
    yield dbs
    dbs.drop_all()


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def store_backend(request: pytest.FixtureRequest) -> str:
    if request.param == "postgresql" and not pg_available():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    name: str = request.param
    return name


@pytest.fixture
def db_url(store_backend: str, store_databases: Databases) -> str:
    """A fresh, empty database."""
    return store_databases.new(store_backend)


@pytest.fixture(scope="session")
def shared_url(store_backend: str, store_databases: Databases) -> str:
    """One database per backend for the tests that do not need an empty one
    (they use unique ids)."""
    return store_databases.new(store_backend)


@pytest.fixture
async def store(shared_url: str) -> AsyncIterator[Store]:
    s = await Store.open(shared_url)
    yield s
    await s.close()


@pytest.fixture
def tag() -> str:
    """A prefix that makes a test's ids its own in a shared database."""
    return secrets.token_hex(3)
