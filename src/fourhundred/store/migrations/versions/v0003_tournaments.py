"""Tournaments: each one's row (the list's summary) and its event log, like
a table's; a table played for a tournament names it.

Revision ID: v0003
Revises: v0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0003"
down_revision: str | None = "v0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        # Null for a tournament the server scheduled itself.
        sa.Column("organiser", sa.String(32), nullable=True),
        # open | running | finished | cancelled
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("invite", sa.String(64), nullable=True, unique=True),
        sa.Column("start_ms", sa.BigInteger, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("summary", sa.JSON, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_tournaments_status_start", "tournaments", ["status", "start_ms"])
    op.create_table(
        "tournament_events",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("tournament", sa.String(32), nullable=True))
    op.create_index("ix_tables_tournament", "tables", ["tournament"])


def downgrade() -> None:
    op.drop_index("ix_tables_tournament", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("tournament")
    op.drop_table("tournament_events")
    op.drop_index("ix_tournaments_status_start", table_name="tournaments")
    op.drop_table("tournaments")
