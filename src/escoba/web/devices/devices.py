"""Devices: one signed cookie per browser, whatever the number of tables.

A browser's `device` cookie carries a random secret (signed, HttpOnly,
SameSite=Lax); the server keeps the secret's hash (`devices`) and which seats
that device holds (`device_seats`). A seat is still its 192-bit token for the
JSON API (a bearer token); in the browser, the device vouches for it: the
routes hand the service a `HeldSeat` (the seat's token hash, read from the
device's own rows) in place of the token.

Browsers that still carry the old year-long per-table cookies (`seat_<invite>`)
are moved over on their next visit: each valid one becomes a seat this device
holds, and the cookie is deleted (`adopt_legacy`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol, cast

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import Connection, Table, and_, insert, select, update
from sqlalchemy.exc import IntegrityError

from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.models import DeviceRow, DeviceSeatRow, RetiredTokenRow, SeatRow, TableRow
from escoba.web.table.store import HeldSeat, hash_token, is_invite, new_token

log = logging.getLogger("escoba.devices")

DEVICE_COOKIE = "device"
LEGACY_PREFIX = "seat_"
#: how stale `last_seen_at` may get before a visit writes it again
SEEN_EVERY = timedelta(hours=1)
LABEL_MAX = 80
COOKIE_MAX_AGE = 60 * 60 * 24 * 365

_D = cast(Table, DeviceRow.__table__)
_DS = cast(Table, DeviceSeatRow.__table__)
_S = cast(Table, SeatRow.__table__)
_T = cast(Table, TableRow.__table__)
_RT = cast(Table, RetiredTokenRow.__table__)


@dataclass(frozen=True, slots=True)
class Device:
    """A browser the server knows (its cookie verified against `devices`)."""

    id: int
    label: str
    name: str | None = None  # the name its person last sat down with


@dataclass(frozen=True, slots=True)
class NewDevice:
    device: Device
    cookie: str  # the signed value to set in the `device` cookie


def device_label(user_agent: str | None) -> str:
    """A name a person recognises their browser by: «Firefox · Android»."""
    ua = user_agent or ""
    browser = next(
        (
            name
            for key, name in (
                ("Edg/", "Edge"),
                ("OPR/", "Opera"),
                ("SamsungBrowser", "Samsung Internet"),
                ("Firefox/", "Firefox"),
                ("FxiOS", "Firefox"),
                ("CriOS", "Chrome"),
                ("Chrome/", "Chrome"),
                ("Chromium/", "Chromium"),
                ("Safari/", "Safari"),
            )
            if key in ua
        ),
        "",
    )
    system = next(
        (
            name
            for key, name in (
                ("Android", "Android"),
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Windows", "Windows"),
                ("Mac OS X", "Mac"),
                ("CrOS", "ChromeOS"),
                ("Linux", "Linux"),
            )
            if key in ua
        ),
        "",
    )
    label = " · ".join(part for part in (browser, system) if part)
    return (label or ua.strip()[:40] or "?")[:LABEL_MAX]


class DeviceListener(Protocol):
    """Who hears that a device holds a new seat (the live hub, so that the
    device's open pages watch that table too: web/live/my_tables_live.py):
    `during` the transaction that gave it, `after` its commit."""

    def during(self, conn: Connection, device_id: int) -> None: ...

    def after(self, device_id: int) -> None: ...


class Devices:
    """The device store: who a cookie is, which seats a device holds."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        signer: URLSafeSerializer,
        listener: DeviceListener | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.signer = signer
        self.listener = listener

    # ------------------------------------------------------------------
    # The cookie

    def identify(self, raw: str | None) -> Device | None:
        """The device this cookie names, if it is still known (not revoked)."""
        secret = device_secret(self.signer, raw)
        if secret is None:
            return None
        with self.db.snapshot() as conn:
            row = conn.execute(
                select(_D.c.id, _D.c.label, _D.c.name, _D.c.last_seen_at).where(
                    _D.c.key_hash == hash_token(secret)
                )
            ).first()
        if row is None:
            return None
        now = self.clock.now()
        if now - row.last_seen_at > SEEN_EVERY:
            with self.db.write() as conn:
                conn.execute(update(_D).where(_D.c.id == row.id).values(last_seen_at=now))
        return Device(row.id, row.label, row.name)

    def create(self, user_agent: str | None) -> NewDevice:
        with self.db.write() as conn:
            device, secret = insert_device(conn, user_agent, self.clock.now())
        return NewDevice(device, self.cookie(secret))

    def cookie(self, secret: str) -> str:
        """The signed `device` cookie value that carries a device's secret."""
        return self.signer.dumps({"d": secret})

    # ------------------------------------------------------------------
    # Seats

    def hold(
        self, device_id: int, invite: str, token: str, sat: bool = False, signed: bool = False
    ) -> bool:
        """Let this device hold the seat `token` opens at table `invite`
        (again, if it already does); False if no such seat. `sat`: its
        person has just taken the seat (made the table, sat down, opened its
        link), so the device remembers the seat's name for the next table's
        «Tu nombre». `signed`: the token comes from a cookie the server
        signed for this browser (`seat_<invite>`), so a retired token
        (`retired_tokens`: it travelled in a link once) still names its
        seat here, though the API refuses it."""
        now = self.clock.now()
        digest = hash_token(token)
        with self.db.write() as conn:
            seat = conn.execute(
                select(_S.c.id, _S.c.name)
                .join(_T, _T.c.id == _S.c.table_id)
                .where(_T.c.invite == invite, _S.c.token_hash == digest)
            ).first()
            if seat is None and signed:
                seat = conn.execute(
                    select(_S.c.id, _S.c.name)
                    .join(_T, _T.c.id == _S.c.table_id)
                    .join(_RT, _RT.c.seat_id == _S.c.id)
                    .where(_T.c.invite == invite, _RT.c.token_hash == digest)
                ).first()
            if seat is None:
                return False
            new = _hold(conn, device_id, seat.id, now)
            if sat:
                conn.execute(update(_D).where(_D.c.id == device_id).values(name=seat.name))
            if new and self.listener is not None:
                self.listener.during(conn, device_id)
        if new and self.listener is not None:
            self.listener.after(device_id)
        return True

    def held(self, device_id: int, invite: str) -> HeldSeat | None:
        """The seat this device holds at table `invite`, if any."""
        if not is_invite(invite):
            return None
        with self.db.snapshot() as conn:
            token_hash = conn.scalar(
                select(_S.c.token_hash)
                .join(_DS, _DS.c.seat_id == _S.c.id)
                .join(_T, _T.c.id == _S.c.table_id)
                .where(_DS.c.device_id == device_id, _T.c.invite == invite)
                .order_by(_DS.c.added_at.desc())
                .limit(1)
            )
        return None if token_hash is None else HeldSeat(token_hash)

    def seat_at(
        self, state: MutableMapping[str, Any], raw: str | None, invite: str
    ) -> HeldSeat | None:
        """The seat the device of cookie `raw` holds at table `invite`, looked
        up once a request: `state` is the request's (ASGI scope «state»)."""
        if "device" not in state:
            state["device"] = self.identify(raw)
        device: Device | None = state["device"]
        if device is None:
            return None
        held: dict[str, HeldSeat | None] = state.setdefault("held", {})
        if invite not in held:
            held[invite] = self.held(device.id, invite)
        return held[invite]

    def adopt_legacy(self, device_id: int, cookies: Mapping[str, str]) -> list[str]:
        """Take over the old per-table seat cookies: each valid one becomes a
        seat this device holds. Returns the names of the cookies to delete
        (all of them, valid or not: none is read again)."""
        names = [name for name in cookies if name.startswith(LEGACY_PREFIX)]
        for name in names:
            invite = name[len(LEGACY_PREFIX) :]
            token = legacy_token(self.signer, cookies[name], invite)
            if token is not None and is_invite(invite):
                self.hold(device_id, invite, token, signed=True)
        return names


def insert_device(conn: Connection, user_agent: str | None, now: datetime) -> tuple[Device, str]:
    """A new device, in the caller's transaction: it and its secret (which
    only its cookie carries; the server keeps the hash)."""
    secret = new_token()
    label = device_label(user_agent)
    key = conn.execute(
        insert(_D).values(
            key_hash=hash_token(secret), label=label, created_at=now, last_seen_at=now
        )
    ).inserted_primary_key
    assert key is not None
    return Device(int(key[0]), label), secret


def hold_seat_id(conn: Connection, device_id: int, seat_id: int, now: datetime) -> None:
    """Let a device hold a seat (by its id), in the caller's transaction."""
    _hold(conn, device_id, seat_id, now)


def name_if_unnamed(conn: Connection, device_id: int, seat_ids: list[int]) -> None:
    """A device that never sat down (a new phone given seats by a code)
    takes the name of the newest of these seats for its next «Tu nombre»;
    one that has a name of its own keeps it. In the caller's transaction."""
    if not seat_ids:
        return
    newest = (
        select(_S.c.name)
        .where(_S.c.id.in_(seat_ids))
        .order_by(_S.c.joined_at.desc(), _S.c.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    conn.execute(update(_D).where(_D.c.id == device_id, _D.c.name.is_(None)).values(name=newest))


def _hold(conn: Connection, device_id: int, seat_id: int, now: datetime) -> bool:
    """Whether the device holds the seat now and did not before."""
    exists = conn.scalar(
        select(_DS.c.seat_id).where(and_(_DS.c.device_id == device_id, _DS.c.seat_id == seat_id))
    )
    if exists is not None:
        return False
    try:
        with conn.begin_nested():
            conn.execute(insert(_DS).values(device_id=device_id, seat_id=seat_id, added_at=now))
    except IntegrityError:  # the same device, twice at once: held all the same
        return False
    return True


def device_secret(signer: URLSafeSerializer, raw: str | None) -> str | None:
    """The device secret a cookie's value carries, or None (absent, tampered
    or some other cookie's signed value)."""
    if not raw or len(raw) > 256:
        return None
    try:
        data = signer.loads(raw)
    except BadSignature:
        return None
    if not isinstance(data, dict) or set(data) != {"d"} or not isinstance(data["d"], str):
        return None
    secret: str = data["d"]
    return secret


def legacy_token(signer: URLSafeSerializer, raw: str | None, invite: str) -> str | None:
    """The seat token an old per-table cookie carries for this table, or None."""
    if not raw:
        return None
    try:
        data = signer.loads(raw)
    except BadSignature:
        return None
    if not isinstance(data, dict) or data.get("i") != invite:
        return None
    token = data.get("t")
    return token if isinstance(token, str) else None
