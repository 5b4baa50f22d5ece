"""Who is told what, and when: the notices' dispatcher.

After a command commits, the command path hands the dispatcher a `Commit`
(`hear`: a queue put, no I/O, so a move's latency does not change). The
dispatcher's own thread, one per process, does the rest: it works out which
seats the change concerns (`notices_for`), adds the time-based notices of
its sweep (`NoticeSweep`, sweep.py) every `notice_sweep_seconds`, keeps this
process's open pages marked as watching (`Watching`, watching.py), and hands
each channel (Web Push, e-mail: `notice.Channel`) what is left once it has
dropped what a seat did not choose (`seat_notices.kinds`) and what would go
to a seat that is looking at its table right now. A channel that fails is
logged and never stops the others.

Who hears of what:

| kind | when | who |
|---|---|---|
| TURN | a seat's turn begins | that seat (`who` just played; None: a round began) |
| ROUND | a round ends | the players, who may press SIGUIENTE RONDA |
| END | the game ends (points, ABANDONAR, absence, expiry) | every player |
| CHAT | someone writes | the others at the table (`who`: the writer) |
| WARNING, ABSENCE, EXPIRY | as time passes (the sweep) | see sweep.py |

People only: robots hear nothing, and nobody hears of their own action.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from datetime import timedelta
from typing import cast

from sqlalchemy import Table, bindparam, select

from escoba.engine import GameState, Phase
from escoba.web.base import metrics
from escoba.web.base.models import SeatNoticeRow
from escoba.web.notices.notice import Channel, Notice, NoticeKind, parse_kinds
from escoba.web.notices.sweep import NoticeSweep
from escoba.web.notices.watching import Watching
from escoba.web.table.command_path import AfterOnly, Change, Commit
from escoba.web.table.pages import TableStatus
from escoba.web.table.service import TableService
from escoba.web.table.store import SeatRecord, names, person_on_turn

log = logging.getLogger("escoba.notices")

#: Commits waiting for the dispatcher; past that (a thread stuck or never
#: started) new ones are dropped with a warning rather than hold up a command.
QUEUE_SIZE = 10_000
#: How long `stop` waits for what is queued to be delivered.
STOP_SECONDS = 5.0

_SN = cast(Table, SeatNoticeRow.__table__)
_KINDS_OF = select(_SN.c.seat_id, _SN.c.kinds).where(
    _SN.c.seat_id.in_(bindparam("seats", expanding=True))
)


def notices_for(commit: Commit, absence_hours: float) -> list[Notice]:
    """The notices a committed command makes: who it concerns, and what to
    tell them (a turn's `deadline`: when TERMINAR POR AUSENCIA becomes
    possible against it)."""
    table, state, before = commit.table, commit.state, commit.state_before
    people = [s for s in table.seats if s.robot is None and s.id is not None]
    others = [s for s in people if s.position != commit.actor]
    actor = next((s for s in table.seats if s.position == commit.actor), None)
    players = tuple(names(table)) if state is not None else tuple(s.name for s in table.seats)

    def notice(kind: NoticeKind, seat: SeatRecord, who: str | None = None) -> Notice:
        assert seat.id is not None
        return Notice(kind, seat.id, table.id, table.invite, players, who, commit.at)

    if commit.chat:
        who = actor.name if actor is not None else None
        return [notice(NoticeKind.CHAT, s, who) for s in others]
    if state is None:
        return []
    playing = [s for s in others if s.game_seat is not None]
    if commit.status_before == TableStatus.PLAYING and table.status in (
        TableStatus.FINISHED,
        TableStatus.EXPIRED,
    ):
        return [notice(NoticeKind.END, s) for s in playing]
    if table.status != TableStatus.PLAYING:
        return []
    if state.phase is Phase.ROUND_OVER:
        if before is not None and before.phase is Phase.ROUND_OVER:
            return []  # (nothing a round's end waits on changed)
        return [notice(NoticeKind.ROUND, s) for s in playing]
    if state.phase is not Phase.PLAYING or not turn_began(before, state):
        return []
    on_turn = person_on_turn(table, state)
    if on_turn is None or on_turn.id is None or on_turn.position == commit.actor:
        return []
    begins = round_began(before, state)
    who = None if begins or actor is None else actor.name
    deadline = table.turn_since + timedelta(hours=absence_hours)
    assert on_turn.id is not None
    since = table.turn_since
    turn = NoticeKind.TURN
    return [Notice(turn, on_turn.id, table.id, table.invite, players, who, since, deadline)]


def round_began(before: GameState | None, state: GameState) -> bool:
    """A new game or round is being played since the command."""
    return (
        before is None
        or before.phase is not Phase.PLAYING
        or before.round.number != state.round.number
    )


def turn_began(before: GameState | None, state: GameState) -> bool:
    """Someone's turn began with the command (as `CommandPath.save` says
    when it moves `turn_since`)."""
    return round_began(before, state) or (
        before is not None and before.round.turn != state.round.turn
    )


class Dispatcher(AfterOnly):
    """One per process: hears committed commands, sweeps for time-based
    notices, renews this process's watching marks, and delivers. Its
    `sweeper` and `watching` are made on the service's database, store,
    clock and settings unless given."""

    def __init__(
        self,
        service: TableService,
        channels: Sequence[Channel] = (),
        watching: Watching | None = None,
        sweeper: NoticeSweep | None = None,
    ) -> None:
        self.service = service
        self.channels = list(channels)
        settings = service.settings
        self.watching = watching or Watching(service.db, service.clock, settings.watching_seconds)
        self.sweeper = sweeper or NoticeSweep(
            service.db, service.store, service.clock, settings, service.path.write
        )
        self.sweep_seconds = settings.notice_sweep_seconds
        # None wakes the thread up (to stop)
        self._queue: queue.Queue[Commit | None] = queue.Queue(QUEUE_SIZE)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._done = threading.Condition()
        self._heard = 0  # commits put in the queue…
        self._handled = 0  # …and those delivered (or dropped)
        self._dropped = 0  # commits dropped since the queue was last taken from
        self._sweeping = threading.Lock()

    # ------------------------------------------------------------------
    # The command path's side: take note, nothing more

    def after(self, change: Change) -> None:
        """The commit hook's listener: a command committed."""
        if change.commit is not None:
            self.hear(change.commit)

    def hear(self, commit: Commit) -> None:
        """A command committed: queue it for the thread."""
        with self._done:
            try:
                self._queue.put_nowait(commit)
            except queue.Full:
                self._dropped += 1
                if self._dropped == 1:  # once per spell, not once per command
                    log.warning("notices dropped: queue full", extra={"table_id": commit.table.id})
                return
            self._dropped = 0
            self._heard += 1

    # ------------------------------------------------------------------
    # The thread

    def start(self) -> None:
        """Start the thread (after any fork of the process: robots' workers)."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="escoba-notices", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Deliver what is queued (for a while), then end the thread."""
        if self._thread is None:
            return
        self.flush(STOP_SECONDS)
        self._stop.set()
        with suppress(queue.Full):  # (the thread is busy: it sees the stop next)
            self._queue.put_nowait(None)
        self._thread.join(timeout=STOP_SECONDS)
        self._thread = None

    def flush(self, seconds: float = 10.0) -> bool:
        """Wait until every commit heard so far is delivered (True), or
        `seconds` pass (False). Without the thread, deliver them here."""
        if self._thread is None:
            self._drain()
            return True
        deadline = time.monotonic() + seconds
        with self._done:
            target = self._heard
            while self._handled < target:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._done.wait(left)
        return True

    def _run(self) -> None:
        renew_every = max(self.watching.seconds / 3, 0.05)
        next_renew = time.monotonic() + renew_every
        next_sweep = time.monotonic() + self.sweep_seconds if self.sweep_seconds > 0 else None
        while not self._stop.is_set():
            now = time.monotonic()
            wake = min(t for t in (next_renew, next_sweep) if t is not None)
            try:
                first = self._queue.get(timeout=max(wake - now, 0.0))
            except queue.Empty:
                first = None
            commits = [c for c in (first, *self._take_queued()) if c is not None]
            if commits:
                self._handle(commits)
            now = time.monotonic()
            if now >= next_renew:
                self._guard("watching renewal", self.watching.renew)
                next_renew = now + renew_every
            if next_sweep is not None and now >= next_sweep:
                self._guard("notice sweep", self.sweep)
                next_sweep = time.monotonic() + self.sweep_seconds

    def _take_queued(self) -> list[Commit | None]:
        out: list[Commit | None] = []
        while True:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                return out

    def _drain(self) -> None:
        commits = [c for c in self._take_queued() if c is not None]
        if commits:
            self._handle(commits)

    def _handle(self, commits: list[Commit]) -> None:
        try:
            hours = self.service.settings.absence_hours
            notices = [n for c in commits for n in notices_for(c, hours)]
            self.deliver(notices)
        except Exception:
            log.exception("notices of committed commands failed")
        finally:
            with self._done:
                self._handled += len(commits)
                self._done.notify_all()

    @staticmethod
    def _guard(what: str, job: Callable[[], object]) -> None:
        try:
            job()
        except Exception:
            log.exception("%s failed", what)

    # ------------------------------------------------------------------
    # The time-based notices and the delivery

    def sweep(self) -> list[Notice]:
        """One sweep for the notices time brings (warnings, absence, expiry),
        delivered here; what it found (before the seats' choices)."""
        with self._sweeping:
            found = self.sweeper.due()
            self.watching.prune()
            self.deliver(found)
            return found

    def deliver(self, notices: Iterable[Notice]) -> list[Notice]:
        """Hand each channel the notices its seats chose and are not watching
        their table for; what was handed."""
        notices = list(notices)
        if not notices:
            return []
        seats = sorted({n.seat_id for n in notices})
        with self.service.db.snapshot() as conn:
            chosen = {row.seat_id: row.kinds for row in conn.execute(_KINDS_OF, {"seats": seats})}
            watching = self.watching.watched(conn, seats)
        kept = [
            n
            for n in notices
            if n.seat_id not in watching and n.kind in parse_kinds(chosen.get(n.seat_id))
        ]
        if not kept:
            return []
        for channel in self.channels:
            try:
                channel.deliver(kept)
            except Exception:
                metrics.notices_handed(channel.name, len(kept), ok=False)
                log.exception("notice channel failed", extra={"channel": channel.name})
            else:
                metrics.notices_handed(channel.name, len(kept), ok=True)
        log.info("notices", extra={"count": len(kept)})
        return kept
