"""Persistence: users, sessions, tables with their event logs, finished
games and ratings (SQLAlchemy 2 async; SQLite by default, PostgreSQL by URL;
the schema is Alembic's, in ``migrations/``)."""

from __future__ import annotations

from .database import (
    UnsupportedDatabase,
    create_engine,
    current_revision,
    default_database_url,
    head_revision,
    normalize_url,
    upgrade,
)
from .store import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Commit,
    GamePlayer,
    Store,
    StoredEvent,
    TableRow,
    User,
    UsernameTaken,
    UserUpdate,
    VersionConflict,
)

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "Commit",
    "GamePlayer",
    "Store",
    "StoredEvent",
    "TableRow",
    "UnsupportedDatabase",
    "User",
    "UserUpdate",
    "UsernameTaken",
    "VersionConflict",
    "create_engine",
    "current_revision",
    "default_database_url",
    "head_revision",
    "normalize_url",
    "upgrade",
]
