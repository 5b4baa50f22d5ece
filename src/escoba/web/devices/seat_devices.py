"""A seat's devices: which browsers hold a seat (each one that redeemed a
«Seguir en otro dispositivo» code for it, and the one that took it), and
taking the seat back from one. A device that lets go of a seat stops acting
for it and hearing of it (its push subscriptions for the seat go too); the
seat itself, and its other devices, stay."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import cast

from sqlalchemy import Connection, Table, delete, select

from escoba.web.base.db import Database
from escoba.web.base.errors import Forbidden, NotFound
from escoba.web.base.models import (
    DeviceRow,
    DeviceSeatRow,
    PushSubscriptionRow,
    SeatPushRow,
    SeatRow,
    TableRow,
)
from escoba.web.table.store import is_invite

_D = cast(Table, DeviceRow.__table__)
_DS = cast(Table, DeviceSeatRow.__table__)
_S = cast(Table, SeatRow.__table__)
_T = cast(Table, TableRow.__table__)
_PS = cast(Table, PushSubscriptionRow.__table__)
_SP = cast(Table, SeatPushRow.__table__)


@dataclass(frozen=True, slots=True)
class SeatDevice:
    id: int
    label: str  # «Firefox · Android»
    since: datetime  # it holds the seat since
    last_seen: datetime  # to the hour (devices.py)
    is_this: bool  # the device asking


class SeatDevices:
    """A seat's devices, on the database: no table command (the table's
    version stays), only which device holds which seat."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def of(self, invite: str, device_id: int) -> tuple[SeatDevice, ...]:
        """The devices that hold the seat this device holds at `invite`,
        oldest first."""
        with self.db.snapshot() as conn:
            seat_id = _held_seat_id(conn, invite, device_id)
            rows = conn.execute(
                select(_D.c.id, _D.c.label, _D.c.last_seen_at, _DS.c.added_at)
                .join(_DS, _DS.c.device_id == _D.c.id)
                .where(_DS.c.seat_id == seat_id)
                .order_by(_DS.c.added_at, _D.c.id)
            ).all()
        return tuple(
            SeatDevice(r.id, r.label, r.added_at, r.last_seen_at, r.id == device_id) for r in rows
        )

    def revoke(self, invite: str, device_id: int, other_id: int) -> None:
        """Take this device's seat at `invite` back from device `other_id`
        (this device itself: `forget_table`)."""
        if other_id == device_id:
            self.forget_table(invite, device_id)
            return
        with self.db.write() as conn:
            seat_id = _held_seat_id(conn, invite, device_id)
            gone = conn.execute(
                delete(_DS).where(_DS.c.device_id == other_id, _DS.c.seat_id == seat_id)
            ).rowcount
            if not gone:
                raise NotFound("no_such_device")
            _drop_pushes(conn, other_id, [seat_id])

    def forget_table(self, invite: str, device_id: int) -> None:
        """This device lets go of its seats at `invite` (the table leaves its
        «Mis mesas»)."""
        if not is_invite(invite):
            raise NotFound("no_table")
        with self.db.write() as conn:
            seat_ids = list(
                conn.scalars(
                    select(_DS.c.seat_id)
                    .join(_S, _S.c.id == _DS.c.seat_id)
                    .join(_T, _T.c.id == _S.c.table_id)
                    .where(_DS.c.device_id == device_id, _T.c.invite == invite)
                )
            )
            if not seat_ids:
                raise Forbidden("not_seated")
            conn.execute(
                delete(_DS).where(_DS.c.device_id == device_id, _DS.c.seat_id.in_(seat_ids))
            )
            _drop_pushes(conn, device_id, seat_ids)


def _held_seat_id(conn: Connection, invite: str, device_id: int) -> int:
    """The seat this device holds at `invite` (its newest, as the routes'
    `Devices.held`), or a refusal."""
    if not is_invite(invite):
        raise NotFound("no_table")
    seat_id = conn.scalar(
        select(_DS.c.seat_id)
        .join(_S, _S.c.id == _DS.c.seat_id)
        .join(_T, _T.c.id == _S.c.table_id)
        .where(_DS.c.device_id == device_id, _T.c.invite == invite)
        .order_by(_DS.c.added_at.desc())
        .limit(1)
    )
    if seat_id is None:
        raise Forbidden("not_seated")
    return int(seat_id)


def _drop_pushes(conn: Connection, device_id: int, seat_ids: list[int]) -> None:
    """The device's push subscriptions stop serving these seats."""
    conn.execute(
        delete(_SP).where(
            _SP.c.seat_id.in_(seat_ids),
            _SP.c.subscription_id.in_(select(_PS.c.id).where(_PS.c.device_id == device_id)),
        )
    )
