"""Alembic environment: runs the migrations on the connection handed over
by :func:`fourhundred.store.migrate.upgrade` (async engines, SQLite or
PostgreSQL), or on a new one from ``sqlalchemy.url``."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import pool, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from fourhundred.store.models import metadata

config = context.config
target_metadata = metadata

# Several server processes may start at once (issue 6): on PostgreSQL they
# take turns with a transaction-scoped advisory lock.
_MIGRATION_LOCK = 400_400


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})"))
        context.run_migrations()


async def _run_async(url: str) -> None:
    engine = create_async_engine(url, poolclass=pool.NullPool)
    try:
        async with engine.connect() as conn:
            await conn.run_sync(_run)
            await conn.commit()
    finally:
        await engine.dispose()


connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:  # pragma: no cover - the alembic command line, for developers
    asyncio.run(_run_async(config.get_main_option("sqlalchemy.url") or ""))
