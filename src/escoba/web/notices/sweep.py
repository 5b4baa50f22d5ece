"""The notices time brings, found by a sweep (every `notice_sweep_seconds`
in each process, escoba.web.notices.dispatch):

- **WARNING** to the person on turn, before TERMINAR POR AUSENCIA becomes
  possible against them: at each fraction of `absence_hours` in
  `notice_warnings` (24 h and 40 h of 48);
- **ABSENCE** to the other people of the game, once, when it becomes
  possible (table/ending.py `absent_seat` says when); open pages hear of it too,
  through the live stream, so their board shows the button at once;
- **EXPIRY** to every person at a table `notice_expiry_hours` before it
  expires for want of play (table/jobs.py `expire`), once per quiet spell.

Several processes may sweep at once: each notice is claimed with a
conditional UPDATE (the turn's `seat_notices.warned_turn_since` and
`warned_level`: the warnings sent, then the absence; a table's
`table_notices.expiry_warned_for`), so exactly one process sends it. A new
turn, or any game action, starts them over. A claim also checks that the
table is still as it was read (its version, or its last action), so a move
made meanwhile wins.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import Connection, Table, exists, func, or_, select, update

from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.errors import Busy
from escoba.web.base.models import SeatNoticeRow, SeatRow, TableNoticeRow, TableRow
from escoba.web.base.settings import Settings
from escoba.web.notices.notice import Notice, NoticeKind
from escoba.web.table.command_path import Change, SideWrite
from escoba.web.table.pages import TableStatus
from escoba.web.table.store import SeatRecord, TableRecord, TableStore, names, person_on_turn

log = logging.getLogger("escoba.notices")

_T = cast(Table, TableRow.__table__)
_S = cast(Table, SeatRow.__table__)
_SN = cast(Table, SeatNoticeRow.__table__)
_TN = cast(Table, TableNoticeRow.__table__)
_OPEN = (TableStatus.LOBBY.value, TableStatus.PLAYING.value)

# How far the notices of each table's current turn went (None: not at all).
_TURN_DONE = (
    select(func.max(_SN.c.warned_level))
    .select_from(_SN.join(_S, _S.c.id == _SN.c.seat_id))
    .where(_S.c.table_id == _T.c.id, _SN.c.warned_turn_since == _T.c.turn_since)
    .correlate(_T)
    .scalar_subquery()
)


class NoticeSweep:
    """The sweep's finding and claiming: on the database, reading tables
    through the table store (the service's, whose caches serve), at the
    clock's time, by the settings' hours; the command path's hook hears of
    an absence reached, so that the table's open pages show TERMINAR POR
    AUSENCIA at once."""

    def __init__(
        self,
        db: Database,
        store: TableStore,
        clock: Clock,
        settings: Settings,
        write: SideWrite,
    ) -> None:
        """`write`: the command path's door for a write beside the commands
        (`CommandPath.write`), through which an absence the sweep marks
        reaches the table's pages."""
        self.db = db
        self.store = store
        self.clock = clock
        self.settings = settings
        self.write = write

    def due(self) -> list[Notice]:
        """The notices that came due since the last sweep (by any process),
        claimed for this one to send."""
        now = self.clock.now()
        return self._turn_notices(now) + self._expiry_notices(now)

    # ------------------------------------------------------------------
    # The turn: warnings, then TERMINAR POR AUSENCIA

    def _turn_level(self, idle: timedelta) -> int:
        """How far a turn idle this long has come: 0, each warning passed
        (1, 2…), then the absence (one past the last warning)."""
        absence = timedelta(hours=self.settings.absence_hours)
        if idle > absence:
            return len(self.settings.warning_fractions) + 1
        return sum(1 for f in self.settings.warning_fractions if idle >= absence * f)

    def _turn_notices(self, now: datetime) -> list[Notice]:
        absence = timedelta(hours=self.settings.absence_hours)
        first = min(self.settings.warning_fractions, default=1.0)
        with self.db.snapshot() as conn:
            rows = conn.execute(
                select(_T.c.id, _T.c.turn_since, _TURN_DONE.label("done")).where(
                    _T.c.status == TableStatus.PLAYING.value,
                    _T.c.robot_due.is_(False),
                    _T.c.turn_since <= now - absence * first,
                )
            ).all()
        out: list[Notice] = []
        for row in rows:
            if self._turn_level(now - row.turn_since) <= (row.done or 0):
                continue
            try:
                out += self._turn_notice(row.id, now)
            except Busy:
                log.warning("notice sweep: table busy", extra={"table_id": row.id})
        return out

    def _turn_notice(self, table_id: int, now: datetime) -> list[Notice]:
        with self.db.snapshot() as conn:
            found = self.store.read(conn, "id", table_id)
        if found is None:
            return []
        table, state = found
        on_turn = person_on_turn(table, state)
        if on_turn is None or on_turn.id is None:
            return []
        level = self._turn_level(now - table.turn_since)
        if level == 0 or not self._claim_turn(table, on_turn.id, level):
            return []
        absence = timedelta(hours=self.settings.absence_hours)
        players = tuple(names(table))
        if level <= len(self.settings.warning_fractions):
            deadline = table.turn_since + absence
            notice = Notice(
                NoticeKind.WARNING,
                on_turn.id,
                table.id,
                table.invite,
                players,
                None,
                table.turn_since,
                deadline,
            )
            return [notice]
        return [
            Notice(
                NoticeKind.ABSENCE,
                seat.id,
                table.id,
                table.invite,
                players,
                on_turn.name,
                table.turn_since,
            )
            for seat in _people(table)
            if seat.id is not None and seat.game_seat is not None and seat.id != on_turn.id
        ]

    def _claim_turn(self, table: TableRecord, seat_id: int, level: int) -> bool:
        """Take the turn's notices up to `level` for this process (True), if
        no process did and the table is still at the version read. When the
        absence is reached, the table's open pages hear of it (after the
        commit; PostgreSQL's NOTIFY rides the claim's transaction)."""
        absence = level > len(self.settings.warning_fractions)
        claimed: list[bool] = []

        def write(conn: Connection) -> Change | None:
            conn.execute(
                self.db.upsert(_SN)
                .values(seat_id=seat_id, kinds=None, warned_level=0)
                .on_conflict_do_nothing(index_elements=[_SN.c.seat_id])
            )
            done = conn.execute(
                update(_SN)
                .where(
                    _SN.c.seat_id == seat_id,
                    or_(
                        _SN.c.warned_turn_since.is_(None),
                        _SN.c.warned_turn_since != table.turn_since,
                        _SN.c.warned_level < level,
                    ),
                    exists().where(_T.c.id == table.id, _T.c.version == table.version),
                )
                .values(warned_turn_since=table.turn_since, warned_level=level)
            )
            if done.rowcount != 1:
                return None
            claimed.append(True)
            # the same version: the pages fetch their board again (now with
            # TERMINAR POR AUSENCIA), and no command made on it goes stale
            return Change(table.id, table.version) if absence else None

        self.write(write)
        return bool(claimed)

    # ------------------------------------------------------------------
    # The table's expiry

    def _expiry_notices(self, now: datetime) -> list[Notice]:
        ahead = timedelta(hours=self.settings.notice_expiry_hours)
        expiry = timedelta(days=self.settings.expiry_days)
        if ahead <= timedelta(0):
            return []
        with self.db.snapshot() as conn:
            rows = conn.execute(
                select(_T.c.id, _T.c.last_action_at)
                .select_from(_T.outerjoin(_TN, _TN.c.table_id == _T.c.id))
                .where(
                    _T.c.status.in_(_OPEN),
                    _T.c.last_action_at <= now - (expiry - ahead),
                    _T.c.last_action_at >= now - expiry,  # (else the expiry is due now)
                    or_(
                        _TN.c.expiry_warned_for.is_(None),
                        _TN.c.expiry_warned_for != _T.c.last_action_at,
                    ),
                )
            ).all()
        out: list[Notice] = []
        for row in rows:
            if not self._claim_expiry(row.id, row.last_action_at):
                continue
            try:
                with self.db.snapshot() as conn:
                    found = self.store.read(conn, "id", row.id)
            except Busy:
                log.warning("notice sweep: table busy", extra={"table_id": row.id})
                continue
            if found is None:
                continue
            table, state = found
            players = tuple(names(table) if state is not None else (s.name for s in table.seats))
            deadline = row.last_action_at + expiry
            out += [
                Notice(
                    NoticeKind.EXPIRY,
                    seat.id,
                    table.id,
                    table.invite,
                    players,
                    None,
                    row.last_action_at,
                    deadline,
                )
                for seat in _people(table)
                if seat.id is not None
            ]
        return out

    def _claim_expiry(self, table_id: int, last_action_at: datetime) -> bool:
        """Take the expiry warning of this quiet spell (True), if no process
        did and nobody played since."""
        with self.db.write() as conn:
            conn.execute(
                self.db.upsert(_TN)
                .values(table_id=table_id, expiry_warned_for=None)
                .on_conflict_do_nothing(index_elements=[_TN.c.table_id])
            )
            claimed = conn.execute(
                update(_TN)
                .where(
                    _TN.c.table_id == table_id,
                    or_(
                        _TN.c.expiry_warned_for.is_(None),
                        _TN.c.expiry_warned_for != last_action_at,
                    ),
                    exists().where(
                        _T.c.id == table_id,
                        _T.c.last_action_at == last_action_at,
                        _T.c.status.in_(_OPEN),
                    ),
                )
                .values(expiry_warned_for=last_action_at)
            )
            return claimed.rowcount == 1


def _people(table: TableRecord) -> list[SeatRecord]:
    return [s for s in table.seats if s.robot is None]
