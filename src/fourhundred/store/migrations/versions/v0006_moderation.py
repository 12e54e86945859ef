"""Moderation (docs/moderation.md): moderators, reports (a person's, or
the server's own with no reporter), penalties, the audit log of every
moderator act, and the chat log that keeps each table's chat for a while
so that a moderator can read the chat around a reported moment.

Revision ID: v0006
Revises: v0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0006"
down_revision: str | None = "v0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "moderators",
        sa.Column(
            "user_id",
            sa.String(32),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("granted_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("reporter", sa.String(32), nullable=True),
        sa.Column("reported", sa.String(32), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("note", sa.Text, nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer, nullable=True),
        sa.Column("details", sa.JSON, nullable=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("resolution", sa.Text, nullable=True),
        sa.Column("resolved_by", sa.String(32), nullable=True),
        sa.Column("resolved_ms", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_reports_status_created", "reports", ["status", "created_ms"])
    op.create_index("ix_reports_reported", "reports", ["reported", "created_ms"])
    op.create_table(
        "penalties",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("until_ms", sa.BigInteger, nullable=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("moderator", sa.String(32), nullable=True),
        sa.Column("report", sa.String(32), nullable=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_penalties_user", "penalties", ["user_id", "created_ms"])
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("moderator", sa.String(32), nullable=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(32), nullable=True),
        sa.Column("report", sa.String(32), nullable=True),
        sa.Column("details", sa.JSON, nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_audit_at", "audit", ["at_ms"])
    op.create_table(
        "chat_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_chat_log_table", "chat_log", ["table_id", "at_ms"])
    op.create_index("ix_chat_log_at", "chat_log", ["at_ms"])


def downgrade() -> None:
    op.drop_index("ix_chat_log_at", table_name="chat_log")
    op.drop_index("ix_chat_log_table", table_name="chat_log")
    op.drop_table("chat_log")
    op.drop_index("ix_audit_at", table_name="audit")
    op.drop_table("audit")
    op.drop_index("ix_penalties_user", table_name="penalties")
    op.drop_table("penalties")
    op.drop_index("ix_reports_reported", table_name="reports")
    op.drop_index("ix_reports_status_created", table_name="reports")
    op.drop_table("reports")
    op.drop_table("moderators")
