"""The database schema (SQLAlchemy Core tables).

The schema itself is created and changed only by the Alembic migrations in
``migrations/versions``; these definitions are what the queries use, and a
test checks that they match the migrated database.

Times are integer milliseconds since the epoch (``*_ms``). JSON columns hold
plain JSON values.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    # Lower-cased; null for guests.
    sa.Column("username", sa.String(32), nullable=True, unique=True),
    sa.Column("password_hash", sa.Text, nullable=True),
    sa.Column("guest", sa.Boolean, nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    # OpenSkill (Plackett-Luce) rating.
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("rated_games", sa.Integer, nullable=False, server_default="0"),
    sa.Column("games", sa.Integer, nullable=False, server_default="0"),
    sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
    sa.Column("bids_made", sa.Integer, nullable=False, server_default="0"),
    sa.Column("bids", sa.Integer, nullable=False, server_default="0"),
)

sessions = sa.Table(
    "sessions",
    metadata,
    # sha256 of the cookie's token: a stolen database holds no usable session.
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column(
        "user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("expires_ms", sa.BigInteger, nullable=False),
    sa.Index("ix_sessions_expires", "expires_ms"),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    # waiting | playing | over | closed
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("invite", sa.String(64), nullable=True, unique=True),
    sa.Column("host", sa.String(32), nullable=True),
    sa.Column("version", sa.Integer, nullable=False),
    # The lobby's row (seats, settings...), rewritten with each room change.
    sa.Column("summary", sa.JSON, nullable=False),
    sa.Column("open_seats", sa.Integer, nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("updated_ms", sa.BigInteger, nullable=False),
    # Wall-clock deadline of the running turn, for resuming timers.
    sa.Column("deadline_ms", sa.BigInteger, nullable=True),
    # The process that runs the table (issue 6: a lease holder).
    sa.Column("owner", sa.String(64), nullable=True),
    sa.Column("finished_ms", sa.BigInteger, nullable=True),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("reason", sa.String(16), nullable=True),
    sa.Column("scores", sa.JSON, nullable=True),
    sa.Column("hands", sa.Integer, nullable=True),
    # The game record (docs/game-record.md), once the game is over.
    sa.Column("record", sa.JSON, nullable=True),
    sa.Index("ix_tables_status_kind", "status", "kind"),
)

table_events = sa.Table(
    "table_events",
    metadata,
    sa.Column(
        "table_id",
        sa.String(32),
        sa.ForeignKey("tables.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(32), nullable=False),
    # The event; a deal also holds its cards (never sent to a client).
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at_ms", sa.BigInteger, nullable=False),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column(
        "table_id",
        sa.String(32),
        sa.ForeignKey("tables.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.String(32), nullable=False),
    # False once the player left (a bot plays on); the seat no longer holds them.
    sa.Column("active", sa.Boolean, nullable=False),
    sa.Index("ix_seats_user", "user_id"),
)

game_players = sa.Table(
    "game_players",
    metadata,
    sa.Column(
        "table_id",
        sa.String(32),
        sa.ForeignKey("tables.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.String(32), nullable=True),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("rating_before", sa.Integer, nullable=True),
    sa.Column("rating_after", sa.Integer, nullable=True),
    sa.Column("bids_made", sa.Integer, nullable=False),
    sa.Column("bids", sa.Integer, nullable=False),
    sa.Column("finished_ms", sa.BigInteger, nullable=False),
    sa.Index("ix_game_players_user", "user_id", "finished_ms"),
)

heartbeats = sa.Table(
    "heartbeats",
    metadata,
    sa.Column("node", sa.String(64), primary_key=True),
    sa.Column("alive_ms", sa.BigInteger, nullable=False),
)
