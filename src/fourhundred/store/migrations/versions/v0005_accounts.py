"""Accounts in the player's hands: a deleted account keeps its row (games
and other players' ratings stay) flagged ``deleted``; sessions are listed
by user, and tables counted by host (the open waiting rooms one user may
hold).

Revision ID: v0005
Revises: v0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0005"
down_revision: str | None = "v0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(
            sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_index("ix_sessions_user", "sessions", ["user_id"])
    op.create_index("ix_tables_host_status", "tables", ["host", "status"])


def downgrade() -> None:
    op.drop_index("ix_tables_host_status", table_name="tables")
    op.drop_index("ix_sessions_user", table_name="sessions")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("deleted")
