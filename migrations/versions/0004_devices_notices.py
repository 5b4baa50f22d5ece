"""devices, transfer codes, push subscriptions, seat notices

A browser holds one signed device cookie, and the server knows which seats each
device holds (`device_seats`), instead of one cookie per table. A seat (or the
whole list) moves to another device with a short-lived, single-use code
(`transfer_codes`). Web Push subscriptions (`push_subscriptions`) serve the
seats they were made for (`seat_pushes`); what each seat wants to hear of, its
e-mail address and the warnings already sent live in `seat_notices`; a seat
whose table page is open right now is in `watching`.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 08:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "devices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_devices_key_hash"), "devices", ["key_hash"], unique=True)
    op.create_table(
        "device_seats",
        sa.Column("device_id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("added_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["device_id"], ["devices.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["seat_id"], ["seats.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("device_id", "seat_id"),
    )
    op.create_index(op.f("ix_device_seats_seat_id"), "device_seats", ["seat_id"], unique=False)
    op.create_table(
        "transfer_codes",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("device_id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["device_id"], ["devices.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["seat_id"], ["seats.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("code_hash"),
    )
    op.create_index(
        op.f("ix_transfer_codes_device_id"), "transfer_codes", ["device_id"], unique=False
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=1024), nullable=False),
        sa.Column("p256dh", sa.String(length=128), nullable=False),
        sa.Column("auth", sa.String(length=64), nullable=False),
        sa.Column("device_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False, server_default="0"),
        sa.ForeignKeyConstraint(["device_id"], ["devices.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        op.f("ix_push_subscriptions_endpoint"), "push_subscriptions", ["endpoint"], unique=True
    )
    op.create_index(
        op.f("ix_push_subscriptions_device_id"), "push_subscriptions", ["device_id"], unique=False
    )
    op.create_table(
        "seat_pushes",
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["seat_id"], ["seats.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["subscription_id"], ["push_subscriptions.id"], ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("seat_id", "subscription_id"),
    )
    op.create_index(
        op.f("ix_seat_pushes_subscription_id"), "seat_pushes", ["subscription_id"], unique=False
    )
    op.create_table(
        "seat_notices",
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("kinds", sa.String(length=64), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("email_mode", sa.String(length=8), nullable=False, server_default="now"),
        sa.Column("email_sent_at", sa.DateTime(), nullable=True),
        sa.Column("warned_turn_since", sa.DateTime(), nullable=True),
        sa.Column("warned_level", sa.Integer(), nullable=False, server_default="0"),
        sa.ForeignKeyConstraint(["seat_id"], ["seats.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("seat_id"),
    )
    op.create_table(
        "watching",
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("until", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["seat_id"], ["seats.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("seat_id"),
    )


def downgrade() -> None:
    op.drop_table("watching")
    op.drop_table("seat_notices")
    op.drop_index(op.f("ix_seat_pushes_subscription_id"), table_name="seat_pushes")
    op.drop_table("seat_pushes")
    op.drop_index(op.f("ix_push_subscriptions_device_id"), table_name="push_subscriptions")
    op.drop_index(op.f("ix_push_subscriptions_endpoint"), table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_index(op.f("ix_transfer_codes_device_id"), table_name="transfer_codes")
    op.drop_table("transfer_codes")
    op.drop_index(op.f("ix_device_seats_seat_id"), table_name="device_seats")
    op.drop_table("device_seats")
    op.drop_index(op.f("ix_devices_key_hash"), table_name="devices")
    op.drop_table("devices")
