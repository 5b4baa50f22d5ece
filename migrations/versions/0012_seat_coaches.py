"""the coach, chosen per seat

A row in `seat_coaches` is a seat that turned the coach on (issue 28, part
2: off by default). It is the server's to keep, not a cookie's, because
whether the coach may show depends on the other seats' choices too: only at
a table whose other seats are all robots, or where every person turned it
on.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-09 11:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_coaches",
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("since", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["seat_id"], ["seats.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("seat_id"),
    )


def downgrade() -> None:
    op.drop_table("seat_coaches")
