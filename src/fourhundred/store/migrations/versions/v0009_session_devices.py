"""Each session's device (browser and system, from the sign-in's
User-Agent; docs/protocol.md, "Accounts"): empty for sessions begun before.

Revision ID: v0009
Revises: v0008
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0009"
down_revision: str | None = "v0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("browser", sa.String(40), nullable=False, server_default=""))
        batch.add_column(sa.Column("system", sa.String(40), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("system")
        batch.drop_column("browser")
