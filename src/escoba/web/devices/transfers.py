"""«Seguir en otro dispositivo»: a short-lived, single-use code gives a seat
(or every seat of a device's list) to the browser that redeems it, instead of
the seat's permanent token in a link, which stays in browser histories and
proxy logs and cannot be taken back.

A code is 10 characters of an alphabet without look-alikes (no 0/O, 1/I/L),
shown as `XXXXX-XXXXX`: about 49 bits, valid `transfer_code_minutes`, and
only its hash is stored. Redeeming marks it used in the same statement that
checks it is unused and unexpired, so of two redemptions, even at the same
moment, one wins and the other is refused; tries are rate-limited per IP at
the door (web/frame/security.py). The device that redeems gains the seats; the
device that made the code keeps them (each seat lists its devices and may
revoke one: seat_devices.py).

The JSON API redeems a seat's code for a new bearer token
(`token_for_code`): the seat's token is replaced (the old one is retired,
`retired_tokens`, and refused by name), the browsers that hold the seat keep
it. It is how an API client gets a token again: after migration 0013 gave
every seat whose token had travelled in the retired continue links a new
one, or when its token is lost or leaked.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final, cast

from sqlalchemy import Connection, Table, delete, func, insert, select, update

from escoba.web.base.errors import Conflict, Forbidden, Invalid, NotFound
from escoba.web.base.models import (
    DeviceSeatRow,
    RetiredTokenRow,
    SeatRow,
    TableRow,
    TransferCodeRow,
)
from escoba.web.devices.devices import hold_seat_id, insert_device, name_if_unnamed
from escoba.web.table.command_path import SERVER, CommandPath
from escoba.web.table.lobby import Joined
from escoba.web.table.store import Credential, TableTx, find_seat, hash_token, new_token

ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH: Final = 10
#: how long a used or expired code is kept (to say «already used» or
#: «expired» rather than «no such code»)
KEPT: Final = timedelta(days=1)

_TC = cast(Table, TransferCodeRow.__table__)
_DS = cast(Table, DeviceSeatRow.__table__)
_S = cast(Table, SeatRow.__table__)
_T = cast(Table, TableRow.__table__)
_RT = cast(Table, RetiredTokenRow.__table__)
_SEPARATORS = re.compile(r"[\s\-_.·]+")


@dataclass(frozen=True, slots=True)
class TransferCode:
    """A code just made: `code` as a person reads it (`XXXXX-XXXXX`)."""

    code: str
    expires_at: datetime
    seats: int  # how many seats it gives

    @property
    def path(self) -> str:
        return f"/seguir/{self.code}"


@dataclass(frozen=True, slots=True)
class Redeemed:
    """A code redeemed: the device that holds the seats now, the secret of
    its cookie when it was made for a browser that had none, and the tables."""

    device_id: int
    new_secret: str | None
    invites: tuple[str, ...]
    whole_list: bool


def new_code() -> str:
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return show_code(raw)


def show_code(raw: str) -> str:
    half = CODE_LENGTH // 2
    return f"{raw[:half]}-{raw[half:]}"


def parse_code(text: object) -> str | None:
    """A code as typed (any case, with or without its dash or spaces), in
    its stored form; None if it cannot be one."""
    if not isinstance(text, str) or len(text) > 64:
        return None
    raw = _SEPARATORS.sub("", text).upper()
    if len(raw) != CODE_LENGTH or any(c not in ALPHABET for c in raw):
        return None
    return raw


class Transfers:
    """The codes, made, redeemed and traded for a token: on the command
    path (`path`), whose database, table store, clock and settings they
    use, and whose one way a new token is written (`token_for_code`)."""

    def __init__(self, path: CommandPath) -> None:
        self.path = path
        self.db = path.db
        self.store = path.store
        self.clock = path.clock
        self.settings = path.settings

    def seat_code(
        self, invite: str, token: Credential, device_id: int | None = None
    ) -> TransferCode:
        """A code for the seat `token` holds (made by `device_id`'s browser,
        or by the API)."""
        with self.db.snapshot() as conn:
            table = self.store.snap(conn, invite)
            seat = find_seat(table.seats, token)
        if seat is None or seat.id is None:
            raise Forbidden("not_seated")
        return self._new_code(device_id, seat.id, 1)

    def list_code(self, device_id: int) -> TransferCode:
        """A code for every seat this device holds."""
        with self.db.snapshot() as conn:
            count = conn.scalar(
                select(func.count()).select_from(_DS).where(_DS.c.device_id == device_id)
            )
        if not count:
            raise Conflict("nothing_to_transfer")
        return self._new_code(device_id, None, int(count))

    def _new_code(self, device_id: int | None, seat_id: int | None, seats: int) -> TransferCode:
        code = new_code()
        now = self.clock.now()
        expires_at = now + timedelta(minutes=self.settings.transfer_code_minutes)
        with self.db.write() as conn:
            conn.execute(delete(_TC).where(_TC.c.expires_at < now - KEPT))
            conn.execute(
                insert(_TC).values(
                    code_hash=hash_token(parse_code(code) or ""),
                    device_id=device_id,
                    seat_id=seat_id,
                    created_at=now,
                    expires_at=expires_at,
                )
            )
        return TransferCode(code, expires_at, seats)

    def redeem(self, text: str, device_id: int | None, user_agent: str | None) -> Redeemed:
        """Give the code's seats to the device `device_id` (or to a device
        made now, in the same transaction, for a browser that has none).
        Refused, changing nothing, when the code is malformed, unknown,
        already used or expired."""
        raw = parse_code(text)
        if raw is None:
            raise Invalid("transfer_malformed")
        digest = hash_token(raw)
        now = self.clock.now()
        with self.db.write() as conn:
            taken = conn.execute(
                update(_TC)
                .where(_TC.c.code_hash == digest, _TC.c.used_at.is_(None), _TC.c.expires_at > now)
                .values(used_at=now)
                .returning(_TC.c.device_id, _TC.c.seat_id)
            ).first()
            if taken is None:
                raise _why_not(conn, digest)
            if taken.seat_id is not None:
                seat_ids = [taken.seat_id]
            else:
                seat_ids = list(
                    conn.scalars(select(_DS.c.seat_id).where(_DS.c.device_id == taken.device_id))
                )
            new_secret: str | None = None
            if device_id is None:
                device, new_secret = insert_device(conn, user_agent, now)
                device_id = device.id
            for seat_id in seat_ids:
                hold_seat_id(conn, device_id, seat_id, now)
            name_if_unnamed(conn, device_id, seat_ids)
            tables = conn.execute(
                select(_T.c.id, _T.c.invite)
                .join(_S, _S.c.table_id == _T.c.id)
                .where(_S.c.id.in_(seat_ids))
                .distinct()
                .order_by(_T.c.id)
            )
            invites = tuple(row.invite for row in tables)
        return Redeemed(device_id, new_secret, invites, taken.seat_id is None)

    def token_for_code(self, text: str) -> Joined:
        """A new bearer token for the seat a code names (the JSON API's way
        to a token it lost, or that was retired): the code is used, the
        seat's token replaced and the old one retired, in one command on its
        table (a new version: every process's copy of the seats is renewed).
        Refused, changing nothing, when the code is malformed, unknown, used,
        expired, or names a device's whole list (those open in a browser)."""
        raw = parse_code(text)
        if raw is None:
            raise Invalid("transfer_malformed")
        digest = hash_token(raw)
        with self.db.snapshot() as conn:
            found = conn.execute(
                select(_TC.c.seat_id, _T.c.invite)
                .select_from(
                    _TC.outerjoin(_S, _S.c.id == _TC.c.seat_id).outerjoin(
                        _T, _T.c.id == _S.c.table_id
                    )
                )
                .where(_TC.c.code_hash == digest)
            ).first()
        if found is None:
            raise NotFound("transfer_unknown")
        if found.seat_id is None or found.invite is None:
            raise Conflict("transfer_list")
        token = new_token()
        positions: list[int] = []

        def command(tx: TableTx) -> None:
            now = self.clock.now()
            taken = tx.conn.execute(
                update(_TC)
                .where(_TC.c.code_hash == digest, _TC.c.used_at.is_(None), _TC.c.expires_at > now)
                .values(used_at=now)
                .returning(_TC.c.seat_id)
            ).first()
            if taken is None:
                raise _why_not(tx.conn, digest)
            seat = next((s for s in tx.table.seats if s.id == taken.seat_id), None)
            if seat is None:  # (the code's seat is at this table: read above)
                raise NotFound("transfer_unknown")
            if seat.token_hash is not None:
                tx.conn.execute(
                    insert(_RT).values(token_hash=seat.token_hash, seat_id=seat.id, retired_at=now)
                )
            seat.token_hash = hash_token(token)
            positions.append(seat.position)

        self.path.run(found.invite, None, None, command, SERVER)
        return Joined(invite=found.invite, token=token, position=positions[0])

    def token_retired(self, token: str | None) -> bool:
        """Whether `token` is a seat's retired token (refused by name)."""
        if not token or len(token) > 128:
            return False
        with self.db.snapshot() as conn:
            found = conn.scalar(select(_RT.c.seat_id).where(_RT.c.token_hash == hash_token(token)))
        return found is not None


def _why_not(conn: Connection, digest: str) -> Exception:
    row = conn.execute(
        select(_TC.c.used_at, _TC.c.expires_at).where(_TC.c.code_hash == digest)
    ).first()
    if row is None:
        return NotFound("transfer_unknown")
    if row.used_at is not None:
        return Conflict("transfer_used")
    return Conflict("transfer_expired")
