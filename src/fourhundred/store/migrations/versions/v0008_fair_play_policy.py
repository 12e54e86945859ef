"""Fair play's second statistic (docs/fair-play.md, "The second
statistic"): each partnership's sums of it, zero for the games checked
before it existed.

Revision ID: v0008
Revises: v0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0008"
down_revision: str | None = "v0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("fair_play_pairs") as batch:
        batch.add_column(
            sa.Column("policy_decisions", sa.Integer, nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("policy", sa.Float, nullable=False, server_default="0"))
        batch.add_column(sa.Column("policy_hand_sq", sa.Float, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("fair_play_pairs") as batch:
        batch.drop_column("policy_hand_sq")
        batch.drop_column("policy")
        batch.drop_column("policy_decisions")
