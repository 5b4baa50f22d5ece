"""the analysis of each finished round, computed by the server in the background

`round_analyses` holds one row per finished round of a table's game (issue
28): queued in the transaction that finishes the round, `running` while a
worker weighs its plays (`done` of `total` actions), `done` with the
analysis («escoba-analysis/1») in `analysis`. A process that starts (or
sweeps) takes up rows left queued, and running rows whose `updated_at`
went stale with a process that died.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-09 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "round_analyses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("total", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("analysis", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "game_number", "round", name="uq_round_analysis"),
    )
    with op.batch_alter_table("round_analyses", schema=None) as batch_op:
        batch_op.create_index("ix_round_analyses_status", ["status"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("round_analyses", schema=None) as batch_op:
        batch_op.drop_index("ix_round_analyses_status")
    op.drop_table("round_analyses")
