"""push subscriptions keep their language

A notice is written in the language of the browser that subscribed (its
`lang` cookie or Accept-Language when it subscribed; an API client names it),
since the push service delivers it to that device whatever page is open.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-08 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("lang", sa.String(length=8), nullable=False, server_default="es")
        )


def downgrade() -> None:
    with op.batch_alter_table("push_subscriptions", schema=None) as batch_op:
        batch_op.drop_column("lang")
