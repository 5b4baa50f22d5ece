"""a device remembers the name its person last sat down with

`devices.name` is the name of the seat this browser last took (making a
table, sitting at one, or given one by a code when it had none): the next
table's «Tu nombre» starts with it, and the person may change it there.
Empty for the devices made before, and for one that never sat.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-08 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("devices", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("devices", schema=None) as batch_op:
        batch_op.drop_column("name")
