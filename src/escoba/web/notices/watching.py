"""Watching: a seat whose table page is open right now gets no push or
e-mail (lichess skips a player already watching the game).

A table page holds its live stream (`GET /t/{invite}/events`) open for as
long as it is open. When the stream comes from a browser whose device holds
a seat at that table, the seat is marked in `watching` until `seconds` from
now; the process renews the marks of all its open streams at once (one
statement every third of `seconds`, escoba.web.notices.dispatch) and removes a mark
when the last stream of that seat in this process closes. The marks live in
the database, so every process's dispatcher sees them. If another process
removes a mark while this one still has a stream of that seat open, the
next renewal puts it back.

A page counts as watching only while it really hears its table: while this
process's bridge to the others is down (`hearing` false: escoba.web.live),
a move made elsewhere may not reach its pages, so their seats are not
marked (the renewal removes their marks, and the bridge's state change
renews at once) and the person gets the push or the e-mail.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from typing import cast

from sqlalchemy import Connection, Table, bindparam, delete, select

from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.models import WatchingRow

log = logging.getLogger("escoba.notices")

_W = cast(Table, WatchingRow.__table__)
_WATCHED = select(_W.c.seat_id).where(
    _W.c.seat_id.in_(bindparam("seats", expanding=True)), _W.c.until > bindparam("now")
)
_UNMARK = delete(_W).where(_W.c.seat_id.in_(bindparam("seats", expanding=True)))
_PRUNE = delete(_W).where(_W.c.until < bindparam("now"))


class Watching:
    """This process's open table pages, by seat, and their marks."""

    def __init__(self, db: Database, clock: Clock, seconds: float) -> None:
        self.db = db
        self.clock = clock
        self.seconds = seconds
        self._open: dict[int, int] = {}  # seat → its streams open here
        self._closed: set[int] = set()  # seats whose last stream closed during a renewal
        self._lock = threading.Lock()
        #: this process's pages hear their tables' news now (the live bridge)
        self.hearing: Callable[[], bool] = lambda: True
        insert = db.upsert(_W)
        self._mark_rows = insert.on_conflict_do_update(
            index_elements=[_W.c.seat_id], set_={"until": insert.excluded.until}
        )

    @contextmanager
    def watch(self, seat_id: int) -> Iterator[None]:
        """While a live stream of this seat's table is open."""
        self.open(seat_id)
        try:
            yield
        finally:
            self.close(seat_id)

    def open(self, seat_id: int) -> None:
        with self._lock:
            count = self._open.get(seat_id, 0)
            self._open[seat_id] = count + 1
        if count == 0 and self.hearing():
            self._write(self._mark, [seat_id])

    def close(self, seat_id: int) -> None:
        with self._lock:
            count = self._open.get(seat_id, 0) - 1
            if count > 0:
                self._open[seat_id] = count
                return
            self._open.pop(seat_id, None)
            self._closed.add(seat_id)
        self._write(self._unmark, [seat_id])

    @property
    def seats(self) -> list[int]:
        """The seats with a stream open in this process."""
        with self._lock:
            return sorted(self._open)

    def renew(self) -> None:
        """Every open seat's mark, one statement for all; a seat whose last
        stream closed meanwhile is unmarked again. While the pages do not
        hear their tables (`hearing`), every open seat is unmarked instead."""
        with self._lock:
            seats = sorted(self._open)
            self._closed.clear()
        if not seats:
            return
        if not self.hearing():
            self._unmark(seats)
            return
        self._mark(seats)
        with self._lock:
            gone = [s for s in seats if s in self._closed and s not in self._open]
        if gone:
            self._unmark(gone)

    def prune(self) -> None:
        """Forget marks nobody renewed (a process that died with them)."""
        with self.db.write() as conn:
            conn.execute(_PRUNE, {"now": self.clock.now()})

    def watched(self, conn: Connection, seats: Sequence[int]) -> set[int]:
        """Which of `seats` have their table open somewhere right now."""
        if not seats:
            return set()
        found = conn.execute(_WATCHED, {"seats": list(seats), "now": self.clock.now()})
        return {row.seat_id for row in found}

    def _mark(self, seats: list[int]) -> None:
        until = self.clock.now() + timedelta(seconds=self.seconds)
        with self.db.write() as conn:
            conn.execute(self._mark_rows, [{"seat_id": s, "until": until} for s in seats])

    def _unmark(self, seats: list[int]) -> None:
        with self.db.write() as conn:
            conn.execute(_UNMARK, {"seats": seats})

    @staticmethod
    def _write(job: Callable[[list[int]], None], seats: list[int]) -> None:
        """A mark from a stream's start or end: a failure (the database
        busy) costs at most a notice, never the stream."""
        try:
            job(seats)
        except Exception:
            log.warning("watching mark failed", exc_info=True, extra={"seats": seats})
