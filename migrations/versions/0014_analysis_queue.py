"""the analyses' queue: who runs a round's analysis, and the rounds someone waits for

Issue 35: the analyses may run in worker processes of their own, on other
machines (`escoba worker`), and the queue is served fairly. `claimed_by`
names the process that runs (or ran) a row, `host:pid`, for an operator
and for the workers' tests; `wanted_at` is when someone first opened the
replay of a round still queued: those rounds go before the backlog.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06 18:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("round_analyses") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("wanted_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("round_analyses") as batch:
        batch.drop_column("wanted_at")
        batch.drop_column("claimed_by")
