"""notices sent by the sweep: a seat's choice may be unset; each table's expiry warning

A seat that never chose which notices it hears of gets the defaults of the day
(`seat_notices.kinds` NULL), so the sweep may keep its absence warnings in
`seat_notices` before it chooses. `table_notices` keeps, per table, the quiet
spell (`tables.last_action_at`) whose expiry warning was already sent, so that
several processes sweeping send it once.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-08 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat_notices", schema=None) as batch_op:
        batch_op.alter_column("kinds", existing_type=sa.String(length=64), nullable=True)
    op.create_table(
        "table_notices",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("expiry_warned_for", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id"),
    )


def downgrade() -> None:
    op.drop_table("table_notices")
    op.execute("DELETE FROM seat_notices WHERE kinds IS NULL")
    with op.batch_alter_table("seat_notices", schema=None) as batch_op:
        batch_op.alter_column("kinds", existing_type=sa.String(length=64), nullable=False)
