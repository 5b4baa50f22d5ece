"""a new token for every seat whose token may have travelled in a link

Until the «Seguir en otro dispositivo» codes (revision 0008), a seat's
token went in the URL of its permanent link, `/t/{invite}/continue/{token}`
(the table page's and the API's `continue_url`): such a URL stays in browser
histories, chat apps and proxy logs. The route is retired, but the token it
carried still opened the seat through the JSON API as a bearer token.

A database does not record when a seat was made relative to 0008, so every
seat that holds a token when this runs gets a new one: its old hash moves to
`retired_tokens` (the API refuses it as `token_retired`, saying how to get a
new token) and the seat gets the hash of a fresh random token nobody knows.
Browsers keep their seats: a device holds a seat by its id
(`device_seats`), never by its token, and an old per-table cookie, which
the server signed, still moves its browser onto the seat. An API client
gets a new token by redeeming a transfer code (`POST /api/transfer`) that
the seat's browser makes.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06 16:00:00
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

_SEATS = sa.table(
    "seats",
    sa.column("id", sa.Integer()),
    sa.column("token_hash", sa.String(64)),
)
_RETIRED = sa.table(
    "retired_tokens",
    sa.column("token_hash", sa.String(64)),
    sa.column("seat_id", sa.Integer()),
    sa.column("retired_at", sa.DateTime()),
)
_BATCH = 500


def upgrade() -> None:
    op.create_table(
        "retired_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("retired_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["seat_id"], ["seats.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index(
        op.f("ix_retired_tokens_seat_id"), "retired_tokens", ["seat_id"], unique=False
    )
    conn = op.get_bind()
    now = datetime.now(UTC).replace(tzinfo=None)  # UTC, as UTCDateTime keeps it
    seats = conn.execute(
        sa.select(_SEATS.c.id, _SEATS.c.token_hash)
        .where(_SEATS.c.token_hash.is_not(None))
        .order_by(_SEATS.c.id)
    ).all()
    for start in range(0, len(seats), _BATCH):
        batch = seats[start : start + _BATCH]
        conn.execute(
            sa.insert(_RETIRED),
            [{"token_hash": s.token_hash, "seat_id": s.id, "retired_at": now} for s in batch],
        )
        for seat in batch:
            fresh = hashlib.sha256(secrets.token_urlsafe(24).encode()).hexdigest()
            conn.execute(
                sa.update(_SEATS).where(_SEATS.c.id == seat.id).values(token_hash=fresh)
            )


def downgrade() -> None:
    # The new tokens stay: giving the old ones back would reopen the leak.
    op.drop_index(op.f("ix_retired_tokens_seat_id"), table_name="retired_tokens")
    op.drop_table("retired_tokens")
