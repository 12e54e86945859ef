"""Fixtures of the scale-out tests: several ``fourhundred serve`` processes
sharing a fresh PostgreSQL database and Redis (a fresh key prefix per test,
so parallel sessions on one Redis never meet)."""

from __future__ import annotations

import asyncio
import secrets
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from fh_cluster_helpers import REDIS_URL
from fh_server_helpers import Databases, pg_available


def redis_available(port: int = 6379) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


async def _drop_prefix(url: str, prefix: str) -> None:
    import redis.asyncio as aioredis

    r = aioredis.from_url(url)
    try:
        keys = [k async for k in r.scan_iter(match=prefix + "*", count=500)]
        if keys:
            await r.delete(*keys)
    finally:
        await r.aclose()


@pytest.fixture(scope="session")
def cluster_databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Databases]:
    if not pg_available():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    dbs = Databases(tmp_path_factory.mktemp("cluster-db"))
    yield dbs
    dbs.drop_all()


@pytest.fixture(scope="session")
def cluster_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cluster-logs")


@pytest.fixture(scope="module")
def redis_prefix() -> Iterator[str]:
    """A key prefix no other test (or test session) uses; its keys are
    deleted afterwards."""
    if not redis_available():
        pytest.skip("Redis is not running on 127.0.0.1:6379")
    prefix = f"fhtest:{secrets.token_hex(6)}:"
    yield prefix
    asyncio.run(_drop_prefix(REDIS_URL, prefix))


@pytest.fixture
def fresh_db(cluster_databases: Databases) -> str:
    """A fresh PostgreSQL database for one test (created outside its loop)."""
    return cluster_databases.new("postgresql")
