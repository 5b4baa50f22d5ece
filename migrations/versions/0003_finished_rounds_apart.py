"""finished rounds apart from the live state of a table

A move rewrote and a page re-read every finished round of the game (8–9 kB of
JSON late in a game); they now live in `tables.rounds`, written when a round
ends, and `tables.state` keeps the rest (format 2, with the rounds' count).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-04 10:00:00
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_tables = sa.table(
    "tables",
    sa.column("id", sa.Integer()),
    sa.column("state", sa.JSON()),
    sa.column("rounds", sa.JSON()),
)


def _rows() -> list[Any]:
    bind = op.get_bind()
    return list(
        bind.execute(
            sa.select(_tables.c.id, _tables.c.state, _tables.c.rounds).where(
                _tables.c.state.is_not(None)
            )
        )
    )


def upgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rounds", sa.JSON(), nullable=True))
    bind = op.get_bind()
    for row in _rows():
        state = dict(row.state)
        if state.get("v") != 1:
            continue
        rounds = state.pop("finished_rounds")
        state["v"] = 2
        state["rounds"] = len(rounds)
        bind.execute(
            _tables.update().where(_tables.c.id == row.id).values(state=state, rounds=rounds)
        )


def downgrade() -> None:
    bind = op.get_bind()
    for row in _rows():
        state = dict(row.state)
        if state.get("v") != 2:
            continue
        count = state.pop("rounds")
        rounds = list(row.rounds or [])
        if len(rounds) != count:
            raise RuntimeError(f"table {row.id}: {len(rounds)} rounds stored, {count} expected")
        state["v"] = 1
        state["finished_rounds"] = rounds
        bind.execute(_tables.update().where(_tables.c.id == row.id).values(state=state))
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_column("rounds")
