"""The tables of the database. Alembic migrations (migrations/) are the only
way the schema is made; these classes must match them (a test checks)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every database (SQLite keeps no time zone)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSON,
        list[Any]: JSON,
        datetime: UTCDateTime,
    }


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    invite: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    target: Mapped[int] = mapped_column(Integer)
    # the table's RuleSet as a record names it (RuleSet.to_dict); null: the
    # site's rules to `target` (tables made before the house rules)
    rules: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    game_number: Mapped[int] = mapped_column(Integer, default=0)
    partner_position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The game, hidden cards included (escoba.engine.serialize, format 2): the
    # live part, rewritten by every move, and the finished rounds of the game,
    # written when a round ends. Both are loaded only when the service's cache
    # of parsed states misses (TableStore.committed, web/table/store.py).
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, deferred=True)
    rounds: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True, deferred=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_action_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    turn_since: Mapped[datetime] = mapped_column(UTCDateTime)
    # a robot is on turn: the runners' sweep finds tables a crashed process left
    robot_due: Mapped[bool] = mapped_column(default=False, index=True)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", order_by="SeatRow.position", lazy="selectin"
    )


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "position", name="uq_seat_position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    robot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    game_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rematch: Mapped[bool] = mapped_column(default=False)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime)

    table: Mapped[TableRow] = relationship(back_populates="seats")


class ActionLogRow(Base):
    """Append-only: every command that changed a table, in order (of `id`). Game entries
    carry what the engine needs to rebuild the game (decks included), so the
    log never leaves the server."""

    __tablename__ = "action_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column(Integer)  # the table version this entry made
    game_number: Mapped[int] = mapped_column(Integer)
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(24))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ChatRow(Base):
    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class SecretRow(Base):
    __tablename__ = "site_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class RateLimitRow(Base):
    """Fixed-window counters shared by every process (see escoba.web.base.limits)."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(96), primary_key=True)
    slot: Mapped[int] = mapped_column(Integer)
    hits: Mapped[int] = mapped_column(Integer)


class DeviceRow(Base):
    """One browser: its signed cookie carries a secret whose hash is here.
    Revoking a device deletes it (its seats, codes and subscriptions go too)."""

    __tablename__ = "devices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    label: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # the name its person last sat down with (the next «Tu nombre» starts
    # with it); null until a seat is taken from it
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)


class DeviceSeatRow(Base):
    """Which seats a device holds (and so may act for)."""

    __tablename__ = "device_seats"

    device_id: Mapped[int] = mapped_column(
        ForeignKey("devices.id", ondelete="CASCADE"), primary_key=True
    )
    seat_id: Mapped[int] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    added_at: Mapped[datetime] = mapped_column(UTCDateTime)


class TransferCodeRow(Base):
    """A short-lived, single-use code that gives a seat (or, with no seat, all
    of a device's seats) to the device that redeems it. `device_id` is the
    device that made it (none when the JSON API made it for a seat)."""

    __tablename__ = "transfer_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    device_id: Mapped[int | None] = mapped_column(
        ForeignKey("devices.id", ondelete="CASCADE"), nullable=True, index=True
    )
    seat_id: Mapped[int | None] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class PushSubscriptionRow(Base):
    """A Web Push subscription (RFC 8030): one per push endpoint, whichever
    seats it serves; made from a device's page, or by the API (no device)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True, index=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    device_id: Mapped[int | None] = mapped_column(
        ForeignKey("devices.id", ondelete="CASCADE"), nullable=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: the language its notices are written in (the subscriber's, when it subscribed)
    lang: Mapped[str] = mapped_column(String(8), default="es", server_default="es")


class SeatPushRow(Base):
    """Which subscriptions a seat's notices go to."""

    __tablename__ = "seat_pushes"

    seat_id: Mapped[int] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), primary_key=True
    )
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class SeatNoticeRow(Base):
    """What a seat wants to hear of (`kinds`, comma-separated: turn, round,
    end, absence, warning, expiry, chat; NULL until it chooses: the
    defaults), its e-mail address for them (sent at once, or as a daily
    digest), and how far the notices of its turn went (`warned_turn_since`:
    the turn; `warned_level`: the warnings sent, then TERMINAR POR AUSENCIA
    announced; see escoba.web.notices.sweep).

    The address hears nothing until its confirmation link is opened
    (`email_confirmed_at`); e-mails speak `email_lang` and link to
    `email_origin`; `email_sent_at` is the last notice e-mail or digest (the
    quiet period, the digest's claim), and `email_held` a notice that came
    within the quiet period (escoba.web.notices.email.channel)."""

    __tablename__ = "seat_notices"

    seat_id: Mapped[int] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), primary_key=True
    )
    kinds: Mapped[str | None] = mapped_column(String(64), nullable=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True, index=True)
    email_mode: Mapped[str] = mapped_column(String(8), default="now", server_default="now")
    email_sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    email_lang: Mapped[str | None] = mapped_column(String(16), nullable=True)
    email_origin: Mapped[str | None] = mapped_column(String(255), nullable=True)
    email_confirmed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    email_held: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    warned_turn_since: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    warned_level: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class WatchingRow(Base):
    """A seat whose table page is open somewhere right now (a live stream
    renews `until`): no push or e-mail goes to it."""

    __tablename__ = "watching"

    seat_id: Mapped[int] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), primary_key=True
    )
    until: Mapped[datetime] = mapped_column(UTCDateTime)


class TableNoticeRow(Base):
    """The quiet spell (`tables.last_action_at`) whose expiry warning a
    table's seats were sent: a sweep claims it with a conditional UPDATE, so
    it is sent once, whichever process sweeps."""

    __tablename__ = "table_notices"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    expiry_warned_for: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class EmailOutboxRow(Base):
    """An e-mail to send (`sent_at` null) or sent: any process's mail loop
    claims a due row (`next_try_at`), and a failure puts it off; sent rows
    stay a while, to count what an address got (the per-address limits)."""

    __tablename__ = "email_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    address: Mapped[str] = mapped_column(String(254), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # confirm, notice, digest
    message: Mapped[str] = mapped_column(Text)  # the whole RFC 5322 message
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    next_try_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class RoundAnalysisRow(Base):
    """The analysis of a finished round (escoba.web.table.analyses): queued when
    the round ends, `running` with its progress (`done` of `total` actions)
    in the process `claimed_by` names (`host:pid`), then `done` with its
    «escoba-analysis/1» JSON. `wanted_at`: when someone first asked for it
    while it was queued (it then goes before the backlog)."""

    __tablename__ = "round_analyses"
    __table_args__ = (
        UniqueConstraint("table_id", "game_number", "round", name="uq_round_analysis"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    game_number: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(8), index=True)  # queued, running, done
    done: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    total: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    analysis: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    wanted_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class SeatCoachRow(Base):
    """A seat that turned the coach on (escoba.web.table.coaching): off unless here."""

    __tablename__ = "seat_coaches"

    seat_id: Mapped[int] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), primary_key=True
    )
    since: Mapped[datetime] = mapped_column(UTCDateTime)


class RetiredTokenRow(Base):
    """A seat token the server no longer takes as a bearer token (its hash):
    every token that could have travelled in the retired
    `/t/{invite}/continue/{token}` links (migration 0013), and a token a
    transfer code replaced through the API. The API names it (`token_retired`)
    instead of «not seated»; an old per-table cookie (`seat_<invite>`), which
    the server signed, still moves its browser onto the seat."""

    __tablename__ = "retired_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    retired_at: Mapped[datetime] = mapped_column(UTCDateTime)
