"""The one path every command takes, whoever sends it (a person's browser,
the JSON API, a robot, the absence button or the expiry job).

A command runs in one write transaction: load the table (locked), check who is
acting and the version the command was made on, apply it through the engine,
append it to the action log, bump the version, commit — and only after the
commit tell whoever follows commits, through the one `CommitHook`. A repeated
or stale command changes nothing and gets a clear message — unless what it
asked for is what the table did since (two players pressed SIGUIENTE RONDA
together): then it is no error, and its answer is the table as it is now.

`CommandPath` holds what every command needs, and its public face is all a
concern of the table sees of it: `run` (the one door of a command), `write`
(the named writes beside the commands) and, inside a command, `player`,
`state`, `current_state`, `save`, `log_entry` and `shuffle`. Each concern
(lobby.py, play.py, ending.py, rematch.py, chat.py, jobs.py, coaching.py)
is a class given the path; service.py builds them.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Protocol, cast, overload

from sqlalchemy import Connection, Table, select
from sqlalchemy.exc import OperationalError

from escoba.engine import Action, Card, GameState, Phase, View, shuffled_deck
from escoba.engine.serialize import live_state_to_dict, rounds_to_list
from escoba.web.base import metrics
from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.errors import Busy, Conflict, Forbidden, NotFound, ServiceError
from escoba.web.base.models import ActionLogRow
from escoba.web.base.settings import Settings
from escoba.web.table.pages import TableStatus
from escoba.web.table.store import (
    UNSET,
    AnyTable,
    Credential,
    SeatDraft,
    SeatRecord,
    TableDraft,
    TableRecord,
    TableStore,
    TableTx,
    find_seat,
    is_invite,
    queued_analysis,
    robot_on_turn,
)

log = logging.getLogger("escoba.service")


class RobotBrain(Protocol):
    def __call__(self, robot: str, view: View, rng: random.Random) -> Action: ...


class AlreadyDone(Protocol):
    """Whether a command made on `version`, stale now, asks for what the
    table has done since (`table`: as committed, read on `conn`)."""

    def __call__(self, conn: Connection, table: TableRecord, version: int) -> bool: ...


def robot_brain(robot: str, view: View, rng: random.Random) -> Action:
    """The robots of escoba.bots, each seeing only its seat's view."""
    from escoba.bots import get_robot

    return get_robot(robot).choose(view, rng)


@dataclass(frozen=True, slots=True)
class Outcome:
    table_id: int
    version: int


@dataclass(frozen=True, slots=True)
class Commit:
    """What a committed command did, for those who hear of it afterwards (the
    notices' dispatcher, escoba.web.notices.dispatch): the table and game as
    committed (shared, never changed), the status and game before, who acted
    (a seat's position; None: the server) and whether it wrote a chat line."""

    table: TableRecord
    status_before: str
    state_before: GameState | None
    state: GameState | None
    actor: int | None
    chat: bool
    at: datetime


@dataclass(frozen=True, slots=True)
class Change:
    """A change of a table the commit hook tells its listeners of: the table
    and its version (None: no new version for the pages, as a round's
    analysis queued by a read), the seat whose command it was (`mover`, a
    seat id: its own page has the new board already), the command's `commit`
    (None: a table's creation, the sweep's mark of an absence), and whether
    it left a robot on turn or queued a round's analysis."""

    table_id: int
    version: int | None
    mover: int | None = None
    commit: Commit | None = None
    robot_next: bool = False
    analysis_queued: bool = False


class CommitListener(Protocol):
    """One who follows the table's commits: the live hub, the notices'
    dispatcher, the robots' runner, the analyses' runner."""

    def during(self, conn: Connection, change: Change) -> None:
        """Inside the transaction, before it commits (PostgreSQL's NOTIFY
        rides it: sent only if it commits, on no connection of its own)."""

    def after(self, change: Change) -> None:
        """Once it committed. It runs on the command's own path: it must only
        take note (queue, wake), never wait."""


class AfterOnly:
    """A listener with nothing to do inside the transaction."""

    def during(self, conn: Connection, change: Change) -> None:
        return None


#: A write beside the commands, told to the hook (`CommandPath.write`).
SideWrite = Callable[[Callable[[Connection], Change | None]], Change | None]


class CommitHook:
    """The one hook of the command path: every listener hears of every change
    the table's commands commit, in the order they were added (the app adds
    the live hub, then the notices' dispatcher, the robots and the analyses:
    the pages hear first). The table names none of them: whatever must follow
    a commit is a listener added at start-up (`escoba.web.app`)."""

    def __init__(self, *listeners: CommitListener) -> None:
        self.listeners: list[CommitListener] = list(listeners)

    def add(self, listener: CommitListener) -> None:
        self.listeners.append(listener)

    def during(self, conn: Connection, change: Change) -> None:
        for listener in self.listeners:
            listener.during(conn, change)

    def after(self, change: Change) -> None:
        for listener in self.listeners:
            listener.after(change)


@dataclass(frozen=True, slots=True)
class Kind:
    """What a command's commit does besides what the command wrote, by the
    kind of command: whether it makes a new version of the table (what a
    command is made on, what the pages redraw at and the caches are keyed
    by), and whether it counts as the table being played (expiry counts
    from the last one)."""

    name: str
    new_version: bool
    counts_as_play: bool


#: A person's or a robot's move, and everything done in the lobby: a new
#: version, and the table is in use.
MOVE: Final = Kind("move", new_version=True, counts_as_play=True)
#: The server's change of a table (its expiry, a seat moved to another
#: device): a new version, but nobody played.
SERVER: Final = Kind("server", new_version=True, counts_as_play=False)
#: A note beside the game (a chat line, a seat's coach): no new version, so
#: it never makes a player's move stale, and no play.
NOTE: Final = Kind("note", new_version=False, counts_as_play=False)


@dataclass(frozen=True, slots=True)
class _Transaction:
    """What `CommandPath.run` runs in its write transaction."""

    invite: str
    version: int | None
    command: Callable[[TableTx], None]
    kind: Kind
    done: AlreadyDone | None


class _DiedBeforeWriting(Exception):
    """The command's connection was dead at its first statement: nothing was
    written, the command may run again."""


class CommandPath:
    """The command path and what commands share: the store, the clock, the
    settings, the hook (`after_commit`), the robots' brain and the shuffles."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        clock: Clock,
        listener: CommitListener,
        brain: RobotBrain | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """`listener`: the first to hear of each commit (the live hub; the
        app adds the others to `after_commit`); `brain` chooses the robots'
        moves (jobs.py); `rng` shuffles (the OS's CSPRNG unless a test
        injects a seed)."""
        self.db = db
        self.settings = settings
        self.clock = clock
        self.after_commit = CommitHook(listener)
        self.store = TableStore(db)
        self.brain: RobotBrain = brain or robot_brain
        # Shuffles come from the OS's CSPRNG unless a test injects a seed.
        self.rng = rng or random.SystemRandom()

    def run(
        self,
        invite: str,
        token: Credential,
        version: int | None,
        command: Callable[[TableTx], None],
        kind: Kind = MOVE,
        done: AlreadyDone | None = None,
    ) -> Outcome:
        """The one door of every command of a table (the table's concerns',
        and the transfers' new token: escoba.web.devices.transfers): run
        `command` on the locked table, its commit as its `kind` says; `done`:
        whether what a stale command asks for has happened since its
        version. Counted in the metrics (web/base/metrics.py): by kind (the
        concern's method that made `command`) and outcome."""
        started = time.perf_counter()
        outcome = "error"
        try:
            result = self._run_command(invite, token, version, command, kind, done)
            outcome = "ok"
            return result
        except ServiceError as err:
            outcome = err.code
            raise
        finally:
            metrics.command_done(command_kind(command), outcome, time.perf_counter() - started)

    def _run_command(
        self,
        invite: str,
        token: Credential,
        version: int | None,
        command: Callable[[TableTx], None],
        kind: Kind = MOVE,
        done: AlreadyDone | None = None,
    ) -> Outcome:
        """`run` itself. A stale command whose wish is `done` (someone else
        did it) is no error: its answer is the table as it is now."""
        if not is_invite(invite):
            raise NotFound("no_table")
        if version is not None and self.store.is_stale(invite, version):
            if done is None:
                raise Conflict("stale")
            with self.db.snapshot() as conn:
                now = self.store.snap(conn, invite)
                if done(conn, now, version):
                    return Outcome(now.id, now.version)
            raise Conflict("stale")
        run = _Transaction(invite, version, command, kind, done)
        try:
            try:
                ran = self._transaction(run, retry=True)
            except _DiedBeforeWriting:
                # a pooled connection that died with the database's last
                # server: nothing was written, so once more on a fresh one
                log.info("command retried on a fresh connection", extra={"invite": invite})
                ran = self._transaction(run, retry=False)
        except OperationalError as err:
            log.warning("command failed: database busy", extra={"invite": invite})
            raise Busy("busy") from err
        if isinstance(ran, Outcome):  # done already by someone else
            return ran
        table, tx, state, robot_next = ran
        outcome = Outcome(table.id, table.version)
        self.store.saw(invite, outcome.version)
        if kind.new_version:  # committed: the next version's table and state
            self.store.keep(table, state, new_seats=bool(tx.new_seats))
        log.info(
            "command",
            extra={"table_id": outcome.table_id, "version": outcome.version, "invite": invite},
        )
        actor = find_seat(table.seats, token) if token else None
        self.after_commit.after(
            Change(
                outcome.table_id,
                outcome.version,
                mover=None if actor is None else actor.id,
                commit=committed(table, tx, state, self.clock.now()),
                robot_next=bool(robot_next),
                analysis_queued=bool(tx.analysis_rows),
            )
        )
        return outcome

    def _transaction(
        self, run: _Transaction, retry: bool
    ) -> Outcome | tuple[TableRecord, TableTx, GameState | None, bool]:
        """The command's one write transaction: the locked table, the
        command, the new version written. `retry`: a connection that proves
        dead at the first statement (before anything was written) raises
        `_DiedBeforeWriting` instead of the database's error."""
        with self.db.write() as conn:
            try:
                loaded = self.store.select(conn, "invite", run.invite, lock=True)
            except OperationalError as err:
                if retry and err.connection_invalidated:
                    raise _DiedBeforeWriting from err
                raise
            if loaded is None:
                raise NotFound("no_table")
            version = run.version
            if version is not None and version != loaded.version:
                if run.done is not None and run.done(conn, loaded, version):
                    return Outcome(loaded.id, loaded.version)
                raise Conflict("stale")
            tx = TableTx(conn, loaded)
            table = tx.table  # the command's working copy
            run.command(tx)
            state = self.current_state(tx)
            robot_next = robot_on_turn(table, state)
            if run.kind.new_version:  # (a note changes no row of the table)
                table.version += 1
                table.robot_due = robot_next
            if run.kind.counts_as_play:
                table.last_action_at = self.clock.now()
            tx.write()
            self.after_commit.during(conn, Change(table.id, table.version))
        return table.record(), tx, state, bool(robot_next)

    def write(self, write: Callable[[Connection], Change | None]) -> Change | None:
        """A write that is no command on a locked table, told to the hook as
        a command's commit is: the one way the path lets anything else write
        a table's rows (its creation, an absence the sweep marks, an analysis
        a read queues; docs/architecture.md lists them). `write` runs in one
        write transaction and says what changed (None: nothing to tell); the
        hook hears of it inside that transaction and after its commit."""
        with self.db.write() as conn:
            change = write(conn)
            if change is not None:
                self.after_commit.during(conn, change)
        if change is not None:
            self.after_commit.after(change)
        return change

    # ------------------------------------------------------------------
    # Inside a command: what the concerns' commands build on

    def log_entry(
        self, tx: TableTx, position: int | None, kind: str, payload: dict[str, Any]
    ) -> None:
        """An entry of the action log, written with the command (`position`:
        the seat that acted; None: the server)."""
        table = tx.table
        tx.log_rows.append(
            {
                "table_id": table.id,
                "version": table.version + 1,
                "game_number": table.game_number,
                "position": position,
                "kind": kind,
                "payload": payload,
                "created_at": self.clock.now(),
            }
        )

    def state(self, tx: TableTx) -> GameState:
        """In a command: the game as the command has left it so far; a
        refusal (`not_started`) before the first game."""
        state = self.current_state(tx)
        if state is None:
            raise Conflict("not_started")
        return state

    def current_state(self, tx: TableTx) -> GameState | None:
        """In a command: the state as the command has left it so far."""
        if tx.state is UNSET:
            tx.state = tx.state_before = self.store.committed(tx.conn, tx.committed)
        state: GameState | None = tx.state
        return state

    def save(self, tx: TableTx, state: GameState, turn_started: bool = False) -> None:
        """The game the command made (`turn_started`: a new turn began even
        if the seat on turn is the same); a round it finished is queued for
        its analysis here, and the game's end finishes the table."""
        table = tx.table
        before = self.current_state(tx)
        tx.state_json = live_state_to_dict(state)
        if before is None or before.finished_rounds != state.finished_rounds:
            tx.rounds_json = rounds_to_list(state.finished_rounds)
            # each round it finished is analysed, queued in this transaction
            known = {r.number for r in before.finished_rounds} if before is not None else set()
            now = self.clock.now()
            tx.analysis_rows.extend(
                queued_analysis(table.id, table.game_number, r, now)
                for r in state.finished_rounds
                if r.number not in known
            )
        tx.state = state
        if turn_started or before is None or before.round.turn != state.turn:
            table.turn_since = self.clock.now()
        if state.phase is Phase.GAME_OVER and table.status == TableStatus.PLAYING:
            table.status = TableStatus.FINISHED.value

    def shuffle(self) -> tuple[Card, ...]:
        """A new deck, shuffled by the path's source."""
        return shuffled_deck(self.rng)

    # ------------------------------------------------------------------
    # Who is acting

    @overload
    def player(self, table: TableDraft, token: Credential) -> SeatDraft: ...
    @overload
    def player(self, table: TableRecord, token: Credential) -> SeatRecord: ...

    def player(self, table: AnyTable, token: Credential) -> SeatRecord | SeatDraft:
        """The seat of `token`, playing in the game: the one who acts (in a
        command, the draft's seat, which the command may change)."""
        seat: SeatRecord | SeatDraft | None
        if isinstance(table, TableDraft):
            seat = find_seat(table.seats, token)
        else:
            seat = find_seat(table.seats, token)
        if seat is None:
            raise Forbidden("not_seated")
        if table.status == TableStatus.LOBBY:
            raise Conflict("not_started")
        if seat.game_seat is None:
            raise Forbidden("not_playing")
        return seat


_LOG = cast(Table, ActionLogRow.__table__)


def command_kind(command: Callable[..., object]) -> str:
    """The service's method that made `command` (`Play.act.<locals>.command`:
    «act»), or the function itself when it is no closure."""
    name = getattr(command, "__qualname__", "") or "command"
    return name.split(".<locals>", 1)[0].rsplit(".", 1)[-1]


def logged_since(
    conn: Connection, table: TableRecord, version: int, kind: str, reason: str | None = None
) -> bool:
    """Whether a command of `kind` (an «end» of `reason`) changed the table
    after `version`: what a stale command asked for, done by someone else.
    A version the table never reached (a forged form's) saw nothing happen."""
    if not 0 <= version < table.version:
        return False
    query = select(_LOG.c.payload).where(
        _LOG.c.table_id == table.id, _LOG.c.kind == kind, _LOG.c.version > version
    )
    return any(reason is None or p.get("reason") == reason for (p,) in conn.execute(query))


def committed(table: TableRecord, tx: TableTx, state: GameState | None, now: datetime) -> Commit:
    """A committed command's `Commit`: who acted is the seat of its first log
    entry or chat line (a rematch's last acceptance comes before the start
    it makes)."""
    first = tx.log_rows[0] if tx.log_rows else tx.chat_rows[0] if tx.chat_rows else None
    before = tx.state_before
    return Commit(
        table=table,
        status_before=tx.committed.status,
        state_before=None if before is UNSET else before,
        state=state,
        actor=None if first is None else first["position"],
        chat=bool(tx.chat_rows),
        at=now,
    )
