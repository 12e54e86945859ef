"""An index on sessions' expiry, so expired sessions can be purged without
reading the whole table.

Revision ID: v0002
Revises: v0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from alembic import op

revision: str = "v0002"
down_revision: str | None = "v0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index("ix_sessions_expires", "sessions", ["expires_ms"])


def downgrade() -> None:
    op.drop_index("ix_sessions_expires", table_name="sessions")
