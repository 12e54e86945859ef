"""Fair play (docs/fair-play.md, "Reports"): each finished game's check
(claimed by one process at a time, with an expiry so that a crashed
process's claim is taken again; then done) and each partnership's
evidence added up over its games together, with the reports last filed
about it.

Revision ID: v0007
Revises: v0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0007"
down_revision: str | None = "v0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("fair_play_claimed_ms", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("fair_play_checked_ms", sa.BigInteger, nullable=True))
    op.create_index("ix_tables_fair_play", "tables", ["fair_play_checked_ms", "finished_ms"])
    op.create_table(
        "fair_play_pairs",
        sa.Column("user_a", sa.String(32), primary_key=True),
        sa.Column("user_b", sa.String(32), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("llr", sa.Float, nullable=False),
        sa.Column("llr_sq", sa.Float, nullable=False),
        sa.Column("gain", sa.Float, nullable=False),
        sa.Column("discriminating", sa.Integer, nullable=False),
        sa.Column("agree_true", sa.Integer, nullable=False),
        sa.Column("agree_ref", sa.Integer, nullable=False),
        sa.Column("hand_sq", sa.Float, nullable=False),
        sa.Column("reports", sa.JSON, nullable=True),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("fair_play_pairs")
    op.drop_index("ix_tables_fair_play", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("fair_play_checked_ms")
        batch.drop_column("fair_play_claimed_ms")
