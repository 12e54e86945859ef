"""Store tests run on SQLite and on PostgreSQL (a fresh database per test
session, dropped at its end), with the same helpers as the server tests."""

from __future__ import annotations

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


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, store_databases: Databases) -> str:
    if request.param == "postgresql" and not pg_available():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    return store_databases.new(request.param)


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = await Store.open(db_url)
    yield s
    await s.close()
