"""a table's rules: the site's, or the house rules its creator chose

`tables.rules` holds the table's `RuleSet` as a record names it
(shared/RECORD.md, «The rules of the game»); empty (every table made before
it) is the site's rules to the table's `target`, which stays the target.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 14:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rules", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_column("rules")
