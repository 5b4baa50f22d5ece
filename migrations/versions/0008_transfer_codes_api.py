"""transfer codes made by the API, with no device behind them

A seat's code may come from a browser's device or from the JSON API (a bearer
token: no device), so `transfer_codes.device_id` may be empty; a code names a
seat, or with no seat all the seats of the device that made it.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("transfer_codes", schema=None) as batch_op:
        batch_op.alter_column("device_id", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM transfer_codes WHERE device_id IS NULL")
    with op.batch_alter_table("transfer_codes", schema=None) as batch_op:
        batch_op.alter_column("device_id", existing_type=sa.Integer(), nullable=False)
