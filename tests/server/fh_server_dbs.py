"""Fresh databases for the server tests: SQLite files in a temporary folder
and PostgreSQL databases on the machine's server (``FOURHUNDRED_TEST_PG``),
each dropped at the end of the test session."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import secrets
import socket
from pathlib import Path

PG_ADMIN_URL = os.environ.get("FOURHUNDRED_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def pg_available() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=1):
            return True
    except OSError:
        return False


async def _pg_admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_URL)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class Databases:
    """Fresh databases for one test session, dropped at its end."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.prefix = f"fourhundred_test_{secrets.token_hex(4)}"
        self.pg: list[str] = []
        self._n = itertools.count()

    def new(self, backend: str) -> str:
        n = next(self._n)
        if backend == "sqlite":
            return f"sqlite+aiosqlite:///{self.tmp / f'db{n}.sqlite3'}"
        name = f"{self.prefix}_{n}"
        asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"'))
        self.pg.append(name)
        base = PG_ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
        return f"{base}/{name}"

    def drop_all(self) -> None:
        for name in self.pg:
            with contextlib.suppress(Exception):
                asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        self.pg.clear()
