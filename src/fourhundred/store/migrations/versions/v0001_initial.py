"""The first schema: users, sessions, tables and their event log, seats,
finished games' players, process heartbeats.

Revision ID: v0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("username", sa.String(32), nullable=True, unique=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("guest", sa.Boolean, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rated_games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("bids_made", sa.Integer, nullable=False, server_default="0"),
        sa.Column("bids", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "user_id",
            sa.String(32),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("invite", sa.String(64), nullable=True, unique=True),
        sa.Column("host", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("summary", sa.JSON, nullable=False),
        sa.Column("open_seats", sa.Integer, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
        sa.Column("deadline_ms", sa.BigInteger, nullable=True),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("finished_ms", sa.BigInteger, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("scores", sa.JSON, nullable=True),
        sa.Column("hands", sa.Integer, nullable=True),
        sa.Column("record", sa.JSON, nullable=True),
    )
    op.create_index("ix_tables_status_kind", "tables", ["status", "kind"])
    op.create_table(
        "table_events",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
    )
    op.create_index("ix_seats_user", "seats", ["user_id"])
    op.create_table(
        "game_players",
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
    )
    op.create_index("ix_game_players_user", "game_players", ["user_id", "finished_ms"])
    op.create_table(
        "heartbeats",
        sa.Column("node", sa.String(64), primary_key=True),
        sa.Column("alive_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("heartbeats")
    op.drop_index("ix_game_players_user", "game_players")
    op.drop_table("game_players")
    op.drop_index("ix_seats_user", "seats")
    op.drop_table("seats")
    op.drop_table("table_events")
    op.drop_index("ix_tables_status_kind", "tables")
    op.drop_table("tables")
    op.drop_table("sessions")
    op.drop_table("users")
