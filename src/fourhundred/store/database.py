"""Database URLs, engines and migrations.

With no URL the server keeps everything in one SQLite file in its data
directory (``$FOURHUNDRED_DATA``, else ``./data``) and needs nothing else
installed; ``postgresql+asyncpg://USER@HOST/DB`` uses PostgreSQL. The schema
is Alembic's: :func:`upgrade` brings any database to the newest revision.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from fourhundred import env

__all__ = [
    "UnsupportedDatabase",
    "create_engine",
    "current_revision",
    "data_dir",
    "default_database_url",
    "head_revision",
    "normalize_url",
    "upgrade",
]

_MIGRATIONS: Final = Path(__file__).with_name("migrations")


class UnsupportedDatabase(ValueError):
    """A database URL the store cannot use (the message says which it can)."""


def data_dir() -> Path:
    """The data directory: ``$FOURHUNDRED_DATA`` or ``./data``."""
    return env.data_dir() or Path("data")


def default_database_url() -> str:
    """The SQLite file in the data directory (the directory is created)."""
    d = data_dir()
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{(d / 'fourhundred.sqlite3').resolve()}"


def normalize_url(url: str | None) -> str:
    """A URL the async engine accepts: ``None`` is the default SQLite file;
    ``sqlite:///`` and ``postgresql://`` get their async drivers.

    >>> normalize_url("postgresql://postgres@127.0.0.1/test")
    'postgresql+asyncpg://postgres@127.0.0.1/test'
    >>> normalize_url("mysql://x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fourhundred.store.database.UnsupportedDatabase: unsupported database 'mysql://x': ...
    """
    if url is None or not url.strip():
        return default_database_url()
    try:
        parsed = make_url(url.strip())
    except ArgumentError:
        parsed = None
    if parsed is not None:
        backend, _, driver = parsed.drivername.partition("+")
        if backend == "sqlite" and driver in ("", "pysqlite", "aiosqlite"):
            return parsed.set(drivername="sqlite+aiosqlite").render_as_string(hide_password=False)
        if backend in ("postgresql", "postgres") and driver in ("", "psycopg2", "asyncpg"):
            return parsed.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    raise UnsupportedDatabase(
        f"unsupported database {url!r}: use sqlite+aiosqlite:///PATH"
        " or postgresql+asyncpg://USER@HOST/DB"
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL lets readers go on while the actor writes; NORMAL is still durable
    # when the process is killed (only an OS crash can lose the last commit).
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


def create_engine(url: str | None) -> AsyncEngine:
    """An async engine for ``url`` (see :func:`normalize_url`)."""
    full = normalize_url(url)
    if full.startswith("sqlite"):
        path = make_url(full).database
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(full, connect_args={"timeout": 30})
        sa.event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(full, pool_size=10, max_overflow=10, pool_pre_ping=True)


def _config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    """The newest migration's revision id."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def _upgrade_sync(connection: Connection) -> None:
    command.upgrade(_config(connection), "head")


def _current_sync(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


async def upgrade(engine: AsyncEngine) -> None:
    """Apply every migration not yet applied (idempotent)."""
    async with engine.begin() as conn:
        await conn.run_sync(_upgrade_sync)


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at (``None`` before any migration)."""
    async with engine.connect() as conn:
        return await conn.run_sync(_current_sync)
