"""Persistence: users, sessions, tables with their event logs, finished
games and ratings (SQLAlchemy 2 async; SQLite by default, PostgreSQL by URL;
the schema is Alembic's, in ``migrations/``)."""

from __future__ import annotations

from .accounts import DELETED_NAME, AccountStore, SessionRow
from .database import (
    UnsupportedDatabase,
    create_engine,
    current_revision,
    default_database_url,
    head_revision,
    normalize_url,
    upgrade,
)
from .fairplay import EVIDENCE_FIELDS, Claimed, FairPlayStore, PairGame, PairTotals
from .moderation import (
    CHAT_KEEP_MS,
    AuditEntry,
    ChatLine,
    ModerationStore,
    NewPenalty,
    Penalty,
    Report,
)
from .store import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Commit,
    GamePlayer,
    Store,
    StoredEvent,
    TableExists,
    TableRow,
    TournamentRow,
    TournamentStore,
    User,
    UsernameTaken,
    UserUpdate,
    VersionConflict,
)

__all__ = [
    "CHAT_KEEP_MS",
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "DELETED_NAME",
    "EVIDENCE_FIELDS",
    "AccountStore",
    "AuditEntry",
    "ChatLine",
    "Claimed",
    "Commit",
    "FairPlayStore",
    "GamePlayer",
    "ModerationStore",
    "NewPenalty",
    "PairGame",
    "PairTotals",
    "Penalty",
    "Report",
    "SessionRow",
    "Store",
    "StoredEvent",
    "TableExists",
    "TableRow",
    "TournamentRow",
    "TournamentStore",
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
