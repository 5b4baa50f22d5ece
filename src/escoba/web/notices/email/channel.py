"""E-mail as a notices channel: at once, or as a daily digest.

`EmailChannel.deliver` runs on the dispatcher's thread: it decides, in one
short transaction per seat, which notices become e-mails, and queues them in
the outbox (escoba.web.notices.email.mail), whose own thread talks to the SMTP server; so
neither a command nor the dispatcher ever waits on SMTP.

* **At once** (`email_mode` «now»): one e-mail per notice, in the seat's
  language, with a link to the table and the seat's unsubscribe link. At most
  one per seat within `smtp_quiet_minutes` (the claim is a conditional UPDATE
  of `email_sent_at`): a notice within the quiet period is held (the weightier
  one, if several) and sent when it ends, if it still stands — its turn, the
  round waiting for SIGUIENTE RONDA, the absence button — so a quick game
  makes one e-mail, and a stale «te toca jugar» is never sent.
* **Daily** («daily»): at `smtp_digest_hour` (UTC), one e-mail per address
  listing its tables that wait on it (its turn, SIGUIENTE RONDA, TERMINAR POR
  AUSENCIA possible), none when nothing waits. One conditional UPDATE claims
  every seat of an address for the day, in the transaction that queues its
  digest, so several processes send it once.

Only confirmed addresses hear anything, and only of the kinds their seat
chose (`seat_notices.kinds`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final, cast

from babel.dates import format_timedelta
from markupsafe import Markup
from sqlalchemy import Connection, RowMapping, Table, or_, select, update

from escoba.engine import Phase
from escoba.names import and_list
from escoba.web.base.models import SeatNoticeRow, SeatRow, TableRow
from escoba.web.base.settings import Settings
from escoba.web.notices.email.mail import MailLoop, Outbox, compose
from escoba.web.notices.email.seats import EmailSeats
from escoba.web.notices.notice import Notice, NoticeKind, notice_text, parse_kinds
from escoba.web.table.pages import TableStatus
from escoba.web.table.service import TableService
from escoba.web.table.store import HeldSeat
from escoba.words import say

log = logging.getLogger("escoba.mail")

_N = cast(Table, SeatNoticeRow.__table__)
_S = cast(Table, SeatRow.__table__)
_T = cast(Table, TableRow.__table__)
#: Which notice a seat hears of when several come at once or within its
#: quiet period: what waits on it first, the chat last.
_WEIGHT: Final = {
    NoticeKind.CHAT: 0,
    NoticeKind.EXPIRY: 1,
    NoticeKind.END: 2,
}
PURGE_EVERY: Final = timedelta(hours=1)


def _weight(kind: NoticeKind) -> int:
    return _WEIGHT.get(kind, 3)


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a table stands for one seat: what waits on it now."""

    invite: str
    players: tuple[str, ...]
    status: TableStatus
    turn: bool  # its turn
    next_round: bool  # the round waits for SIGUIENTE RONDA
    absent: str | None  # who it may end the game for absence against
    turn_since: datetime

    def lines(self, kinds: frozenset[NoticeKind], lang: str, now: datetime) -> list[str]:
        """What waits on the seat, among the kinds it hears of, in `lang`."""
        since = format_timedelta(now - self.turn_since, threshold=1.5, locale=lang)
        out = []
        if self.turn and NoticeKind.TURN in kinds:
            out.append(say("waiting_turn", lang, since=since))
        if self.next_round and NoticeKind.ROUND in kinds:
            out.append(say("waiting_round", lang))
        if self.absent is not None and NoticeKind.ABSENCE in kinds:
            out.append(say("waiting_absence", lang, who=self.absent, since=since))
        return out

    def stands(self, kind: NoticeKind) -> bool:
        """A notice of this kind is still true (a held one is sent only then)."""
        match kind:
            case NoticeKind.TURN | NoticeKind.WARNING:
                return self.turn
            case NoticeKind.ROUND:
                return self.next_round
            case NoticeKind.ABSENCE:
                return self.absent is not None
            case NoticeKind.EXPIRY:
                return self.status in (TableStatus.LOBBY, TableStatus.PLAYING)
            case _:
                return True


class EmailChannel:
    """The e-mail channel of the notices (`escoba.web.notices.notice.Channel`), the
    seats' addresses (`seats`), the outbox and the mail loop that sends."""

    name = "email"

    def __init__(self, service: TableService, settings: Settings, secret: str) -> None:
        self.service = service
        self.settings = settings
        self.db = service.db
        self.clock = service.clock
        self.outbox = Outbox(service.db, service.clock, settings)
        self.seats = EmailSeats(service, self.outbox, secret)
        self.loop = MailLoop(self.outbox.send_due, self.tick, settings.smtp_poll_seconds)
        self.outbox.on_queued = self.loop.wake
        self._purged: datetime | None = None

    @property
    def quiet(self) -> timedelta:
        return timedelta(minutes=self.settings.smtp_quiet_minutes)

    def start(self) -> None:
        self.loop.start()

    def stop(self) -> None:
        self.loop.stop()

    def tick(self) -> None:
        """The mail loop's regular pass: retries, held notices whose quiet
        period ended, the digest once its hour has come, old rows."""
        for job in (self.outbox.send_due, self.release_held, self.send_digests, self._purge):
            try:
                job()
            except Exception:
                log.exception("mail pass failed", extra={"job": job.__name__})

    def _purge(self) -> None:
        now = self.clock.now()
        if self._purged is None or now - self._purged > PURGE_EVERY:
            self._purged = now
            self.outbox.purge()

    # ------------------------------------------------------------------
    # At once

    def deliver(self, notices: Sequence[Notice]) -> None:
        """Queue the e-mails these notices make (never raises)."""
        try:
            queued = self._deliver(notices)
        except Exception:
            log.exception("e-mail notices not queued")
            return
        if queued:
            self.outbox.wake()

    def _deliver(self, notices: Sequence[Notice]) -> int:
        weightiest: dict[int, Notice] = {}
        for notice in notices:
            kept = weightiest.get(notice.seat_id)
            if kept is None or _weight(notice.kind) >= _weight(kept.kind):
                weightiest[notice.seat_id] = notice
        if not weightiest:
            return 0
        with self.db.snapshot() as conn:
            rows = conn.execute(
                select(_N).where(
                    _N.c.seat_id.in_(list(weightiest)),
                    _N.c.email.is_not(None),
                    _N.c.email_confirmed_at.is_not(None),
                    _N.c.email_mode == "now",
                )
            ).all()
        wanted = sorted(  # (rows locked in one order: no deadlock with another process)
            (row for row in rows if weightiest[row.seat_id].kind in parse_kinds(row.kinds)),
            key=lambda row: int(row.seat_id),
        )
        if not wanted:
            return 0
        now = self.clock.now()
        with self.db.write() as conn:  # one transaction (one sync) for the batch
            return sum(self._notify(conn, r._mapping, weightiest[r.seat_id], now) for r in wanted)

    def _notify(self, conn: Connection, row: RowMapping, notice: Notice, now: datetime) -> int:
        """Send this notice to the seat's address, unless its quiet period
        holds it (then it is kept, if weightier than what is held)."""
        address = row["email"]
        seat = (_N.c.seat_id == notice.seat_id, _N.c.email == address)
        claimed = conn.execute(
            update(_N)
            .where(
                *seat,
                _N.c.email_confirmed_at.is_not(None),
                or_(_N.c.email_sent_at.is_(None), _N.c.email_sent_at <= now - self.quiet),
            )
            .values(email_sent_at=now, email_held=None)
        )
        if claimed.rowcount != 1:
            held = conn.scalar(select(_N.c.email_held).where(*seat).with_for_update())
            if held is None or _weight(notice.kind) >= _weight(NoticeKind(held["kind"])):
                conn.execute(update(_N).where(*seat).values(email_held=_held(notice)))
            return 0
        if self.outbox.over_hourly(conn, address):
            log.info("notice e-mail dropped: the address's hour is full")
            return 0
        self.outbox.queue(conn, address, "notice", self._notice_message(row, notice, now))
        return 1

    def release_held(self) -> int:
        """Send the held notices whose quiet period has ended, if they
        still stand; the number queued."""
        now = self.clock.now()
        with self.db.snapshot() as conn:
            rows = conn.execute(
                select(_N).where(
                    _N.c.email_held.is_not(None),
                    _N.c.email.is_not(None),
                    _N.c.email_confirmed_at.is_not(None),
                    _N.c.email_mode == "now",
                    or_(_N.c.email_sent_at.is_(None), _N.c.email_sent_at <= now - self.quiet),
                )
            ).all()
        queued = 0
        for row in rows:
            queued += self._release(row._mapping, now)
        if queued:
            self.outbox.wake()
        return queued

    def _release(self, row: RowMapping, now: datetime) -> int:
        notice = _unheld(row["seat_id"], row["email_held"])
        stands = notice is not None and (
            notice.kind in (NoticeKind.END, NoticeKind.CHAT)
            or self._stands(notice.seat_id, notice.kind)
        )
        with self.db.write() as conn:
            current = conn.execute(
                select(_N).where(_N.c.seat_id == row["seat_id"]).with_for_update()
            ).first()
            if current is None or current.email_held != row["email_held"]:
                return 0  # taken or changed meanwhile
            if current.email != row["email"] or current.email_sent_at != row["email_sent_at"]:
                return 0
            if not stands or notice is None:
                conn.execute(
                    update(_N).where(_N.c.seat_id == row["seat_id"]).values(email_held=None)
                )
                return 0
            conn.execute(
                update(_N)
                .where(_N.c.seat_id == row["seat_id"])
                .values(email_held=None, email_sent_at=now)
            )
            if self.outbox.over_hourly(conn, row["email"]):
                return 0
            message = self._notice_message(row, notice, now)
            self.outbox.queue(conn, row["email"], "notice", message)
        return 1

    def _stands(self, seat_id: int, kind: NoticeKind) -> bool:
        standing = self.standing(seat_id)
        return standing is not None and standing.stands(kind)

    def _notice_message(self, row: RowMapping, notice: Notice, now: datetime) -> Any:
        lang = row["email_lang"] or "es"
        origin = self._origin(row)
        address = row["email"]
        title, body = notice_text(notice, lang, now)
        table_url = f"{origin}/t/{notice.invite}"
        leave_url = self.seats.unsubscribe_url(origin, notice.seat_id, address)
        why = say("email_why", lang, players=and_list(list(notice.players), lang))
        open_table = say("email_open_table", lang)
        text = f"{body}\n\n{open_table} {table_url}\n\n-- \n{why}\n{leave_url}\n"
        html = Markup(
            '<p>{}</p>\n<p><a href="{}">{}</a></p>\n<hr>\n<p><small>{} <a href="{}">{}</a>'
            "</small></p>\n"
        ).format(body, table_url, open_table.rstrip(":"), why, leave_url, leave_url)
        return compose(
            self.settings,
            address,
            title,
            text,
            lang,
            now,
            html=str(html),
            unsubscribe_url=leave_url,
        )

    def _origin(self, row: RowMapping) -> str:
        """The links' origin: ESCOBA_BASE_URL, else the one the address was saved from."""
        return self.settings.base_url.rstrip("/") or (row["email_origin"] or "").rstrip("/")

    # ------------------------------------------------------------------
    # What waits on a seat

    def standing(self, seat_id: int) -> Standing | None:
        """Where the seat's table stands for it now (None: no such seat)."""
        with self.db.snapshot() as conn:
            seat = conn.execute(
                select(_S.c.token_hash, _T.c.invite, _T.c.turn_since)
                .join(_T, _T.c.id == _S.c.table_id)
                .where(_S.c.id == seat_id)
            ).first()
        if seat is None or seat.token_hash is None:
            return None
        page = self.service.pages.page(seat.invite, HeldSeat(seat.token_hash), with_chat=False)
        view = page.view
        playing = page.status == TableStatus.PLAYING and view is not None
        absent = None
        if page.can.absence and page.can.absent_seat is not None:
            absent = page.names[page.can.absent_seat]
        return Standing(
            invite=page.invite,
            players=page.names or tuple(s.name for s in page.seats),
            status=page.status,
            turn=playing and view is not None and view.phase is Phase.PLAYING and view.my_turn,
            next_round=page.can.next_round,
            absent=absent,
            turn_since=seat.turn_since,
        )

    # ------------------------------------------------------------------
    # The daily digest

    def digest_due(self, now: datetime) -> datetime:
        """The last digest hour at or before `now`."""
        due = now.replace(hour=self.settings.smtp_digest_hour, minute=0, second=0, microsecond=0)
        return due if due <= now else due - timedelta(days=1)

    def send_digests(self) -> int:
        """Each address whose digest of today is not out yet gets it, if
        anything waits on it; the number queued."""
        now = self.clock.now()
        due = self.digest_due(now)
        waiting = (
            _N.c.email_mode == "daily",
            _N.c.email.is_not(None),
            _N.c.email_confirmed_at.is_not(None),
            or_(_N.c.email_sent_at.is_(None), _N.c.email_sent_at < due),
        )
        with self.db.snapshot() as conn:
            rows = conn.execute(select(_N).where(*waiting).order_by(_N.c.seat_id)).all()
        by_address: dict[str, list[RowMapping]] = {}
        for row in rows:
            by_address.setdefault(row.email, []).append(row._mapping)
        queued = 0
        for address, seats in by_address.items():
            queued += self._digest(address, seats, waiting, now)
        if queued:
            self.outbox.wake()
        return queued

    def _digest(self, address: str, seats: list[RowMapping], waiting: Any, now: datetime) -> int:
        newest = seats[-1]
        lang = newest["email_lang"] or "es"
        items: dict[int, tuple[Standing, list[str], str]] = {}
        for row in seats:
            standing = self.standing(row["seat_id"])
            if standing is None:
                continue
            lines = standing.lines(parse_kinds(row["kinds"]), lang, now)
            if lines:
                items[row["seat_id"]] = (standing, lines, self._origin(row))
        with self.db.write() as conn:
            claimed = set(
                conn.scalars(
                    update(_N)
                    .where(_N.c.email == address, *waiting)
                    .values(email_sent_at=now)
                    .returning(_N.c.seat_id)
                ).all()
            )
            chosen = [items[seat_id] for seat_id in sorted(claimed) if seat_id in items]
            if not chosen:
                return 0  # another process has it, or nothing waits today
            message = self._digest_message(address, chosen, lang, self._origin(newest), now)
            self.outbox.queue(conn, address, "digest", message)
        return 1

    def _digest_message(
        self,
        address: str,
        items: list[tuple[Standing, list[str], str]],
        lang: str,
        origin: str,
        now: datetime,
    ) -> Any:
        subject = say("digest_subject", lang, count=len(items))
        leave_url = self.seats.unsubscribe_url(origin, None, address)
        why = say("email_why_digest", lang)
        parts = [say("digest_intro", lang), ""]
        html = [Markup("<p>{}</p>\n<ul>").format(say("digest_intro", lang))]
        for standing, lines, table_origin in items:
            table = say("digest_table", lang, players=and_list(list(standing.players), lang))
            url = f"{table_origin}/t/{standing.invite}"
            parts += [f"• {table}: {' '.join(lines)}", f"  {url}", ""]
            html.append(
                Markup('<li><a href="{}">{}</a>: {}</li>').format(url, table, " ".join(lines))
            )
        parts += ["-- ", why, leave_url, ""]
        html.append(
            Markup('</ul>\n<hr>\n<p><small>{} <a href="{}">{}</a></small></p>\n').format(
                why, leave_url, leave_url
            )
        )
        return compose(
            self.settings,
            address,
            subject,
            "\n".join(parts),
            lang,
            now,
            html=str(Markup("\n").join(html)),
            unsubscribe_url=leave_url,
        )


def _held(notice: Notice) -> dict[str, Any]:
    """A notice as `email_held` keeps it (JSON)."""
    return {
        "kind": notice.kind.value,
        "table_id": notice.table_id,
        "invite": notice.invite,
        "players": list(notice.players),
        "who": notice.who,
        "at": notice.at.isoformat(),
        "deadline": None if notice.deadline is None else notice.deadline.isoformat(),
    }


def _unheld(seat_id: int, data: Mapping[str, Any] | None) -> Notice | None:
    """The notice `email_held` keeps (None if it cannot be read)."""
    if not data:
        return None
    try:
        deadline = data.get("deadline")
        return Notice(
            kind=NoticeKind(data["kind"]),
            seat_id=seat_id,
            table_id=int(data["table_id"]),
            invite=str(data["invite"]),
            players=tuple(str(p) for p in data["players"]),
            who=None if data.get("who") is None else str(data["who"]),
            at=datetime.fromisoformat(data["at"]),
            deadline=None if deadline is None else datetime.fromisoformat(deadline),
        )
    except (KeyError, TypeError, ValueError):
        log.warning("a held notice could not be read", extra={"seat_id": seat_id})
        return None
