"""Friends, blocks and table invites.

A friendship is two rows, one per direction, once accepted; a request is
one row (``accepted`` false) from the asker. A block is one row. An invite
to a table lasts until it is answered or the table starts.

Revision ID: v0004
Revises: v0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0004"
down_revision: str | None = "v0003"
branch_labels: str | None = None
depends_on: str | None = None


def _user(name: str) -> sa.Column[str]:
    return sa.Column(
        name,
        sa.String(32),
        sa.ForeignKey("users.id", ondelete="CASCADE"),
        primary_key=True,
    )


def upgrade() -> None:
    op.create_table(
        "friends",
        _user("user_id"),
        _user("friend_id"),
        sa.Column("accepted", sa.Boolean, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_friends_friend", "friends", ["friend_id"])
    op.create_table(
        "blocks",
        _user("user_id"),
        _user("blocked_id"),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "table_invites",
        _user("to_user"),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("from_user", sa.String(32), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_invites")
    op.drop_table("blocks")
    op.drop_index("ix_friends_friend", table_name="friends")
    op.drop_table("friends")
