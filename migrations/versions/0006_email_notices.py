"""e-mail notices: a seat's confirmed address, its language and origin; the outbox

A seat's address (`seat_notices.email`) hears nothing until the link of its
confirmation e-mail is opened (`email_confirmed_at`); each e-mail says its
words in the seat's language (`email_lang`) and links to the origin the address
was saved from (`email_origin`); a notice that comes within a seat's quiet
period is held (`email_held`) and sent when it ends. Every e-mail goes through
`email_outbox`: sent by a background loop (any process claims a row), retried
later when the SMTP server fails, and counted there for the per-address limits.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 08:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat_notices") as batch:
        batch.add_column(sa.Column("email_lang", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("email_origin", sa.String(length=255), nullable=True))
        batch.add_column(sa.Column("email_confirmed_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("email_held", sa.JSON(), nullable=True))
        batch.create_index(op.f("ix_seat_notices_email"), ["email"], unique=False)
    op.create_table(
        "email_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("next_try_at", sa.DateTime(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_email_outbox_address"), "email_outbox", ["address"], unique=False)
    op.create_index(
        op.f("ix_email_outbox_next_try_at"), "email_outbox", ["next_try_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_email_outbox_next_try_at"), table_name="email_outbox")
    op.drop_index(op.f("ix_email_outbox_address"), table_name="email_outbox")
    op.drop_table("email_outbox")
    with op.batch_alter_table("seat_notices") as batch:
        batch.drop_index(op.f("ix_seat_notices_email"))
        batch.drop_column("email_held")
        batch.drop_column("email_confirmed_at")
        batch.drop_column("email_origin")
        batch.drop_column("email_lang")
