"""A seat's e-mail address for its notices: saved, confirmed, removed.

Anyone can type anyone's address, so a new address hears nothing until the
link of its one confirmation e-mail is opened (`email_confirmed_at`), and an
address gets at most `smtp_confirmations_per_day` of those (and its hourly
share of all e-mail), whoever asks. A browser that already confirmed the
address for another of its seats has shown that it reads that inbox: its
next seats take the address at once, without another e-mail.

The links in e-mails (confirm, unsubscribe) are signed with the app's secret,
each kind with its own salt, and work without signing in: the unsubscribe
link names the seat and the address (or, from a digest, the address alone:
every table of it), and a confirmation link also its moment (it lasts
`CONFIRM_FOR`). Opening one shows a page with a button; only its POST (or a
mail program's one-click POST, RFC 8058) changes anything, so a link scanner
that fetches every URL of a message confirms or removes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal, cast

from itsdangerous import BadSignature, URLSafeSerializer
from markupsafe import Markup
from sqlalchemy import Connection, RowMapping, Table, insert, select, update
from sqlalchemy.exc import IntegrityError

from escoba.names import and_list
from escoba.web.base.errors import Forbidden, NotFound, RateLimited
from escoba.web.base.models import DeviceSeatRow, SeatNoticeRow, SeatRow
from escoba.web.notices.email.address import parse_address
from escoba.web.notices.email.mail import Outbox, compose
from escoba.web.notices.notice import DEFAULT_KINDS, format_kinds
from escoba.web.table.service import TableService
from escoba.web.table.store import Credential, SeatRecord, TableRecord, find_seat, is_invite, names
from escoba.words import say

EmailMode = Literal["now", "daily"]
EMAIL_MODES: Final = ("now", "daily")
#: How long a confirmation link works.
CONFIRM_FOR: Final = timedelta(days=7)
MAX_TOKEN: Final = 1024

_N = cast(Table, SeatNoticeRow.__table__)
_S = cast(Table, SeatRow.__table__)
_DS = cast(Table, DeviceSeatRow.__table__)
#: What a seat's row holds when it has no address.
_NO_ADDRESS: Final[dict[str, Any]] = {
    "email": None,
    "email_confirmed_at": None,
    "email_sent_at": None,
    "email_held": None,
    "email_lang": None,
    "email_origin": None,
}


@dataclass(frozen=True, slots=True)
class SeatEmail:
    """A seat's address as its owner sees it (`address` None: none)."""

    address: str | None
    mode: EmailMode
    confirmed: bool


#: What the table page says after its e-mail form was sent (`?correo=`).
EMAIL_NOTES: Final = ("confirmar", "guardado", "baja")


@dataclass(frozen=True, slots=True)
class EmailForm:
    """The seat's e-mail form on the table page (templates/table/email.html):
    the address in the field (what was typed, after a refusal), the mode
    chosen, what is saved, a note after saving (`EMAIL_NOTES`) or a refusal
    in the viewer's words."""

    saved: SeatEmail
    address: str
    mode: EmailMode
    note: str | None = None
    error: str | None = None

    @classmethod
    def of(cls, saved: SeatEmail, note: str | None = None) -> EmailForm:
        return cls(saved, saved.address or "", saved.mode, note if note in EMAIL_NOTES else None)


@dataclass(frozen=True, slots=True)
class LinkTarget:
    """What a link of an e-mail stands for: the address, and the table it
    is about by its players (`players` None: every table of the address,
    or a seat that is gone); `done`: confirmed, or removed, already."""

    address: str
    players: tuple[str, ...] | None
    invite: str | None
    done: bool


class EmailSeats:
    def __init__(self, service: TableService, outbox: Outbox, secret: str) -> None:
        self.service = service
        self.db = service.db
        self.clock = service.clock
        self.settings = service.settings
        self.outbox = outbox
        self.confirm_signer = URLSafeSerializer(secret, salt="escoba-mail-confirm")
        self.unsubscribe_signer = URLSafeSerializer(secret, salt="escoba-mail-unsubscribe")

    # ------------------------------------------------------------------
    # The seat's own form (the table page, the API)

    def current(self, invite: str, token: Credential) -> SeatEmail:
        """The address of the seat `token` holds at `invite`."""
        with self.db.snapshot() as conn:
            _, seat = self._seat(conn, invite, token)
            row = conn.execute(select(_N).where(_N.c.seat_id == seat.id)).first()
        return _seat_email(row._mapping if row is not None else None)

    def save(
        self,
        invite: str,
        token: Credential,
        text: str,
        mode: EmailMode,
        lang: str,
        origin: str,
        device_id: int | None = None,
    ) -> SeatEmail:
        """Give the seat this address for its notices, at once (`now`) or
        as a daily digest, in `lang`, its links made from `origin`. A new
        address waits for its confirmation (one e-mail is sent); the same
        address again changes only how and in which language."""
        address = parse_address(text)
        if mode not in EMAIL_MODES:
            raise ValueError(mode)
        now = self.clock.now()
        sends = False
        with self.db.write() as conn:
            table, seat = self._seat(conn, invite, token)
            assert seat.id is not None
            row = conn.execute(select(_N).where(_N.c.seat_id == seat.id)).first()
            values: dict[str, Any] = {
                "email_mode": mode,
                "email_lang": lang,
                "email_origin": origin,
            }
            if row is not None and row.email == address and row.email_confirmed_at is not None:
                if mode == "daily" and row.email_mode != "daily":
                    values["email_sent_at"] = now  # its first digest: the next one
                confirmed = True
            else:
                confirmed = self._vouched(conn, device_id, seat.id, address)
                if not confirmed:
                    self._check_limits(conn, address)
                values |= {
                    "email": address,
                    "email_confirmed_at": now if confirmed else None,
                    "email_sent_at": now if confirmed and mode == "daily" else None,
                    "email_held": None,
                }
                sends = not confirmed
            _write(conn, seat.id, row is not None, values)
            if sends:
                self._queue_confirmation(conn, table, seat.id, address, lang, origin)
        if sends:
            self.outbox.wake()
        return SeatEmail(address, mode, confirmed)

    def remove(self, invite: str, token: Credential) -> SeatEmail:
        """«Dejar de recibir»: the seat's address is forgotten."""
        with self.db.write() as conn:
            _, seat = self._seat(conn, invite, token)
            conn.execute(update(_N).where(_N.c.seat_id == seat.id).values(**_NO_ADDRESS))
        return SeatEmail(None, "now", False)

    def _seat(
        self, conn: Connection, invite: str, token: Credential
    ) -> tuple[TableRecord, SeatRecord]:
        if not is_invite(invite):
            raise NotFound("no_table")
        table = self.service.store.select(conn, "invite", invite)
        if table is None:
            raise NotFound("no_table")
        seat = find_seat(table.seats, token)
        if seat is None or seat.id is None:
            raise Forbidden("not_seated")
        return table, seat

    def _vouched(self, conn: Connection, device_id: int | None, seat_id: int, address: str) -> bool:
        """This browser confirmed `address` for another of its seats."""
        if device_id is None:
            return False
        found = conn.scalar(
            select(_N.c.seat_id)
            .join(_DS, _DS.c.seat_id == _N.c.seat_id)
            .where(
                _DS.c.device_id == device_id,
                _N.c.seat_id != seat_id,
                _N.c.email == address,
                _N.c.email_confirmed_at.is_not(None),
            )
            .limit(1)
        )
        return found is not None

    def _check_limits(self, conn: Connection, address: str) -> None:
        per_day = self.settings.smtp_confirmations_per_day
        if self.outbox.count(conn, address, timedelta(days=1), "confirm") >= per_day:
            raise RateLimited("email_rate")
        if self.outbox.over_hourly(conn, address):
            raise RateLimited("email_rate")

    def _queue_confirmation(
        self,
        conn: Connection,
        table: TableRecord,
        seat_id: int,
        address: str,
        lang: str,
        origin: str,
    ) -> None:
        now = self.clock.now()
        players = and_list(list(table_players(table)), lang)
        url = self.confirm_url(origin, seat_id, address)
        lines = (
            say("email_confirm_body", lang, players=players),
            say("email_confirm_ignore", lang),
        )
        text = f"{lines[0]}\n\n{url}\n\n{lines[1]}\n"
        html = Markup('<p>{}</p>\n<p><a href="{}">{}</a></p>\n<p>{}</p>\n').format(
            lines[0], url, url, lines[1]
        )
        subject = say("email_confirm_subject", lang)
        message = compose(self.settings, address, subject, text, lang, now, html=str(html))
        self.outbox.queue(conn, address, "confirm", message)

    # ------------------------------------------------------------------
    # The links

    def confirm_url(self, origin: str, seat_id: int, address: str) -> str:
        moment = int(self.clock.now().timestamp())
        token = self.confirm_signer.dumps({"s": seat_id, "e": address, "t": moment})
        return f"{origin}/correo/confirmar/{token}"

    def unsubscribe_url(self, origin: str, seat_id: int | None, address: str) -> str:
        """A seat's link; with no seat, the digest's: every table of the address."""
        data: dict[str, Any] = {"e": address} if seat_id is None else {"s": seat_id, "e": address}
        return f"{origin}/correo/baja/{self.unsubscribe_signer.dumps(data)}"

    def confirm_target(self, token: str, confirm: bool = False) -> LinkTarget | None:
        """What a confirmation link confirms (None: tampered, expired, or
        the seat has another address now); `confirm`: do it."""
        data = _load(self.confirm_signer, token, ("s", "e", "t"))
        if data is None or not isinstance(data["t"], int):
            return None
        seat_id, address = data["s"], data["e"]
        now = self.clock.now()
        if now - datetime.fromtimestamp(data["t"], UTC) > CONFIRM_FOR:
            return None
        with self.db.write() if confirm else self.db.snapshot() as conn:
            row = conn.execute(select(_N).where(_N.c.seat_id == seat_id)).first()
            if row is None or row.email != address:
                return None
            done = row.email_confirmed_at is not None
            if confirm and not done:
                conn.execute(
                    update(_N)
                    .where(_N.c.seat_id == seat_id, _N.c.email == address)
                    .values(
                        email_confirmed_at=now,
                        email_sent_at=now if row.email_mode == "daily" else None,
                    )
                )
                done = True
            return self._target(conn, seat_id, address, done)

    def unsubscribe_target(self, token: str, remove: bool = False) -> LinkTarget | None:
        """What an unsubscribe link removes (None: tampered); `remove`: do it."""
        data = _load(self.unsubscribe_signer, token, ("s", "e")) or _load(
            self.unsubscribe_signer, token, ("e",)
        )
        if data is None:
            return None
        address: str = data["e"]
        seat_id: int | None = data.get("s")
        which = _N.c.email == address
        if seat_id is not None:
            which = which & (_N.c.seat_id == seat_id)
        with self.db.write() if remove else self.db.snapshot() as conn:
            if remove:
                conn.execute(update(_N).where(which).values(**_NO_ADDRESS))
            done = remove or conn.scalar(select(_N.c.seat_id).where(which).limit(1)) is None
            if seat_id is None:
                return LinkTarget(address, None, None, done)
            return self._target(conn, seat_id, address, done)

    def _target(self, conn: Connection, seat_id: int, address: str, done: bool) -> LinkTarget:
        table_id = conn.scalar(select(_S.c.table_id).where(_S.c.id == seat_id))
        table = None if table_id is None else self.service.store.select(conn, "id", table_id)
        if table is None:
            return LinkTarget(address, None, None, done)
        return LinkTarget(address, table_players(table), table.invite, done)


def table_players(table: TableRecord) -> tuple[str, ...]:
    """A table's players as a notice names them: by engine seat once a game
    began, else by their places in the lobby."""
    return tuple(names(table)) or tuple(s.name for s in table.seats)


def _seat_email(row: RowMapping | None) -> SeatEmail:
    if row is None or row["email"] is None:
        return SeatEmail(None, "now", False)
    mode: EmailMode = "daily" if row["email_mode"] == "daily" else "now"
    return SeatEmail(row["email"], mode, row["email_confirmed_at"] is not None)


def _write(conn: Connection, seat_id: int, exists: bool, values: dict[str, Any]) -> None:
    """Update the seat's row, or make it (with the kinds it hears of by
    default, until its owner chooses)."""
    if not exists:
        try:
            with conn.begin_nested():
                conn.execute(
                    insert(_N).values(seat_id=seat_id, kinds=format_kinds(DEFAULT_KINDS), **values)
                )
            return
        except IntegrityError:  # made meanwhile (the kinds form): update it
            pass
    conn.execute(update(_N).where(_N.c.seat_id == seat_id).values(**values))


def _load(signer: URLSafeSerializer, token: str, keys: tuple[str, ...]) -> dict[str, Any] | None:
    """A link's signed data with exactly these keys (the seat an int, the
    address a string), or None."""
    if not token or len(token) > MAX_TOKEN:
        return None
    try:
        data = signer.loads(token)
    except BadSignature:
        return None
    if not isinstance(data, dict) or set(data) != set(keys):
        return None
    if not isinstance(data["e"], str) or ("s" in data and type(data["s"]) is not int):
        return None
    return data
