"""Table storage: how a table, its seats and its game are read and written.

The records (`TableRecord`, `SeatRecord`) are a table's row and its seats'
rows as plain data; `TableTx` is one command's unit of work on one locked
table; `TableStore` reads committed tables and games, through caches of
committed data keyed by version (a version names exactly one committed row
and state, so an entry never goes stale). The hot statements are made once:
a prepared statement skips building the query and its cache key on every
request.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar, cast

from sqlalchemy import Connection, Table, bindparam, delete, insert, select, update

from escoba.engine import GameState, Phase, RoundSummary, RuleSet
from escoba.engine.serialize import (
    rounds_from_list,
    state_from_dict,
    state_from_parts,
    stored_rounds_count,
)
from escoba.web.base.db import Database
from escoba.web.base.errors import Busy, Conflict, NotFound
from escoba.web.base.models import ActionLogRow, ChatRow, RoundAnalysisRow, SeatRow, TableRow
from escoba.web.table.pages import TableStatus

STATE_CACHE = 4096  # parsed states kept per process (a few MB)
ROUNDS_CACHE = 1024  # parsed finished rounds of games, the same way
READ_TRIES = 5  # a read that raced a commit (PostgreSQL) loads the table again
MAX_SEATS = 4

_TABLE_FIELDS = (
    "status",
    "target",
    "version",
    "game_number",
    "partner_position",
    "turn_since",
    "last_action_at",
    "robot_due",
)
_SEAT_FIELDS = ("name", "robot", "token_hash", "game_seat", "rematch")
UNSET: Any = object()


_T = cast(Table, TableRow.__table__)
_S = cast(Table, SeatRow.__table__)
_AT_VERSION = (_T.c.id == bindparam("id"), _T.c.version == bindparam("version"))
_STATE_AT = select(_T.c.state).where(*_AT_VERSION)
_ROUNDS_AT = select(_T.c.rounds).where(*_AT_VERSION)
_ROW_AT = select(_T.c.id).where(*_AT_VERSION)
_TABLE_COLUMNS = tuple(c for c in _T.c if c.name not in ("state", "rounds", "created_at"))
_SEAT_COLUMNS = ("id", "position", *_SEAT_FIELDS)
_SNAP_BY_ID = (
    select(*_TABLE_COLUMNS, *(_S.c[c].label(f"seat_{c}") for c in _SEAT_COLUMNS))
    .select_from(_T.outerjoin(_S, _S.c.table_id == _T.c.id))
    .where(_T.c.id == bindparam("key"))
    .order_by(_S.c.position)
)
# A table's id and version, by "invite" or "id": all a read needs when the
# table at that version is in the cache. A command's load locks the row on
# PostgreSQL (SQLite's writers queue for its write lock; it has no FOR UPDATE).
_VERSION_BY = {
    column: select(_T.c.id, _T.c.version).where(_T.c[column] == bindparam("key"))
    for column in ("invite", "id")
}
_LOCK_BY = {column: query.with_for_update() for column, query in _VERSION_BY.items()}
# The writes of a command (TableTx.write): the SET clause is the keys given.
_UPDATE_TABLE = update(_T).where(
    _T.c.id == bindparam("key_id"), _T.c.version == bindparam("key_version")
)
_UPDATE_SEAT = update(_S).where(_S.c.id == bindparam("key_id"))
_DELETE_SEAT = delete(_S).where(_S.c.id == bindparam("key_id"))
# inline(): the new rows' ids are not needed (no RETURNING round trip)
_INSERT_SEAT = insert(_S).inline()
_INSERT_LOG = insert(cast(Table, ActionLogRow.__table__)).inline()
_INSERT_CHAT = insert(cast(Table, ChatRow.__table__)).inline()
_INSERT_ANALYSIS = insert(cast(Table, RoundAnalysisRow.__table__)).inline()
_INSERT_TABLE = insert(_T)


@dataclass(frozen=True, slots=True, eq=False)
class SeatRecord:
    """A seat as committed (`id` is None until a command inserts it): read
    from its row, shared through the cache, never changed."""

    id: int | None
    position: int
    name: str
    robot: str | None
    token_hash: str | None
    game_seat: int | None
    rematch: bool

    def draft(self) -> SeatDraft:
        return SeatDraft(*(getattr(self, f) for f in _SEAT_ALL))


@dataclass(slots=True, eq=False)
class SeatDraft:
    """A seat in a command's working copy of its table (`TableDraft`): the
    same fields as `SeatRecord`, which the command may change."""

    id: int | None
    position: int
    name: str
    robot: str | None
    token_hash: str | None
    game_seat: int | None
    rematch: bool

    def record(self) -> SeatRecord:
        return SeatRecord(*(getattr(self, f) for f in _SEAT_ALL))


@dataclass(frozen=True, slots=True, eq=False)
class TableRecord:
    """A table and its seats as committed: read from its rows, shared through
    the cache (and with the commit's listeners), never changed. A command
    changes its own `draft` instead."""

    id: int
    invite: str
    status: str
    target: int
    version: int
    game_number: int
    partner_position: int | None
    turn_since: datetime
    last_action_at: datetime
    robot_due: bool
    seats: tuple[SeatRecord, ...]
    rules: dict[str, Any] | None = None  # as stored: see `rules_of`

    def draft(self) -> TableDraft:
        """A command's working copy."""
        fields = {f: getattr(self, f) for f in _TABLE_ALL}
        return TableDraft(**fields, seats=[s.draft() for s in self.seats], rules=self.rules)


@dataclass(slots=True, eq=False)
class TableDraft:
    """A command's working copy of a `TableRecord`, which the command changes
    and `TableTx` writes back; once committed, its `record` is what the
    cache keeps."""

    id: int
    invite: str
    status: str
    target: int
    version: int
    game_number: int
    partner_position: int | None
    turn_since: datetime
    last_action_at: datetime
    robot_due: bool
    seats: list[SeatDraft]
    rules: dict[str, Any] | None = None

    def record(self) -> TableRecord:
        fields = {f: getattr(self, f) for f in _TABLE_ALL}
        seats = tuple(s.record() for s in self.seats)
        return TableRecord(**fields, seats=seats, rules=self.rules)


#: A table read (committed) or a command's working copy: what a function
#: that only reads a table takes.
AnyTable = TableRecord | TableDraft
#: A seat of either: a function that finds a seat gives back the kind it got.
AnySeat = TypeVar("AnySeat", SeatRecord, SeatDraft)
_SEAT_ALL = ("id", "position", *_SEAT_FIELDS)
_TABLE_ALL = ("id", "invite", *_TABLE_FIELDS)


class TableTx:
    """One command's unit of work on one locked table: the command changes
    `table` (and its seats) and adds log entries, seats and chat lines here;
    the command path (`CommandPath.run`) then writes back only what changed, with Core
    statements made once (no ORM identity map or flush on the hot path)."""

    def __init__(self, conn: Connection, committed: TableRecord) -> None:
        self.conn = conn
        self.committed = committed  # the table as loaded: what `write` compares with
        self.table = committed.draft()
        self.state: Any = UNSET  # the game as the command has left it so far
        self.state_before: Any = UNSET  # the committed game, once the command read it
        self.state_json: Any = UNSET  # to write to tables.state
        self.rounds_json: Any = UNSET  # to write to tables.rounds
        self.new_seats: list[dict[str, Any]] = []
        self.removed_seats: list[int] = []
        self.log_rows: list[dict[str, Any]] = []
        self.chat_rows: list[dict[str, Any]] = []
        self.analysis_rows: list[dict[str, Any]] = []  # rounds it finished, to analyse
        self._seats_before = {s.id: s for s in committed.seats}

    def add_seat(self, seat: SeatDraft, joined_at: datetime) -> None:
        self.table.seats.append(seat)
        self.table.seats.sort(key=lambda s: s.position)
        self.new_seats.append(
            {"table_id": self.table.id, "joined_at": joined_at, "position": seat.position}
            | {f: getattr(seat, f) for f in _SEAT_FIELDS}
        )

    def remove_seat(self, seat: SeatDraft) -> None:
        self.table.seats.remove(seat)
        if seat.id is not None:
            self.removed_seats.append(seat.id)

    def write(self) -> None:
        """Write back what the command changed, in this transaction. The
        table's UPDATE also checks the version it was loaded at."""
        table, before, conn = self.table, self.committed, self.conn
        changes: dict[str, Any] = {
            f: getattr(table, f) for f in _TABLE_FIELDS if getattr(table, f) != getattr(before, f)
        }
        if self.state_json is not UNSET:
            changes["state"] = self.state_json
        if self.rounds_json is not UNSET:
            changes["rounds"] = self.rounds_json
        if changes:
            if table.version == before.version:
                raise RuntimeError("a table changed without a new version")  # see Lru use
            done = conn.execute(
                _UPDATE_TABLE, {"key_id": table.id, "key_version": before.version, **changes}
            )
            if done.rowcount != 1:
                raise Conflict("stale")
        if self.removed_seats:
            conn.execute(_DELETE_SEAT, [{"key_id": i} for i in self.removed_seats])
        if self.new_seats:
            conn.execute(_INSERT_SEAT, self.new_seats)
        for seat in table.seats:
            was = self._seats_before.get(seat.id)
            if was is None:
                continue
            seat_changes = {
                f: getattr(seat, f) for f in _SEAT_FIELDS if getattr(seat, f) != getattr(was, f)
            }
            if seat_changes:
                conn.execute(_UPDATE_SEAT, {"key_id": seat.id, **seat_changes})
        if self.log_rows:
            conn.execute(_INSERT_LOG, self.log_rows)
        if self.chat_rows:
            conn.execute(_INSERT_CHAT, self.chat_rows)
        if self.analysis_rows:
            conn.execute(_INSERT_ANALYSIS, self.analysis_rows)


_K = TypeVar("_K")
_V = TypeVar("_V")


class _Moved(Exception):
    """The table's row moved on to another version between two statements of
    a read (PostgreSQL's READ COMMITTED): load it again."""


class Lru(Generic[_K, _V]):
    """A small thread-safe LRU map (the service's caches of committed data)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[_K, _V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: _K) -> _V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: _K, value: _V) -> None:
        with self._lock:
            self._put(key, value)

    def raise_to(self, key: _K, value: _V) -> None:
        """Keep `value` unless a greater one is kept (one step, under the lock)."""
        with self._lock:
            kept = self._items.get(key)
            if kept is None or kept < value:  # type: ignore[operator]
                self._put(key, value)

    def _put(self, key: _K, value: _V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        if len(self._items) > self._size:
            self._items.popitem(last=False)


class TableStore:
    """Reads of committed tables and games, and the inserts that make a
    table. Committed tables (with their seats) and states are cached by
    (table id, version), for reads and commands alike: every change to a
    table's row or seats bumps its version, so a version names exactly one
    committed row and state and an entry never goes stale (a command reads
    the row's version under the lock before it uses one, and only committed
    data is ever put here). The finished rounds of a game are cached by
    (table id, game number, count): within a game they only grow."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._tables: Lru[tuple[int, int], TableRecord] = Lru(STATE_CACHE)
        self._states: Lru[tuple[int, int], GameState] = Lru(STATE_CACHE)
        self._rounds: Lru[tuple[int, int, int], tuple[RoundSummary, ...]] = Lru(ROUNDS_CACHE)
        # The newest committed version this process has seen of a table, by
        # invite. Versions only grow, so a command made on an older one is
        # stale for sure: it is refused from here, without the write lock (a
        # double tap or a replayed request never queues behind the writers).
        self._newest: Lru[str, int] = Lru(STATE_CACHE)

    def insert_table(
        self, conn: Connection, table: dict[str, Any], seat: dict[str, Any], log: dict[str, Any]
    ) -> int:
        """A new table with its first seat and log entry; its id."""
        key = conn.execute(_INSERT_TABLE, table).inserted_primary_key
        assert key is not None
        table_id: int = key[0]
        conn.execute(_INSERT_SEAT, seat | {"table_id": table_id})
        conn.execute(_INSERT_LOG, log | {"table_id": table_id})
        return table_id

    def is_stale(self, invite: str, version: int) -> bool:
        """A command made on `version` is stale for sure: a newer one was seen."""
        return version < (self._newest.get(invite) or 0)

    def saw(self, invite: str, version: int) -> None:
        """`version` of the table is committed: kept if the newest seen."""
        self._newest.raise_to(invite, version)

    def keep(self, table: TableRecord, state: GameState | None, new_seats: bool) -> None:
        """A command's table and state, just committed, for the next reads."""
        if not new_seats:  # (a new seat's id is known once read back)
            self._tables.put((table.id, table.version), table)
        if state is not None:
            self.remember(table.id, table.version, table.game_number, state)

    def snap(self, conn: Connection, key: Any, column: str = "invite") -> TableRecord:
        """The committed table by "invite" or "id", or NotFound."""
        if column == "invite" and not is_invite(key):
            raise NotFound("no_table")
        found = self.select(conn, column, key)
        if found is None:
            raise NotFound("no_table")
        return found

    def select(
        self, conn: Connection, column: str, key: Any, lock: bool = False
    ) -> TableRecord | None:
        """The table (by "invite" or "id") and its seats: its id and version
        in one small statement, the rest from the cache of committed tables
        or else in one more. `lock`: for a command, which gets its own copy
        (PostgreSQL locks the table's row)."""
        query = _LOCK_BY if lock and not self.db.is_sqlite else _VERSION_BY
        probe = conn.execute(query[column], {"key": key}).first()
        if probe is None:
            return None
        if column == "invite":
            self.saw(key, probe.version)
        table = self._tables.get((probe.id, probe.version))
        if table is None:
            table = self._load(conn, probe.id)
            if table is None:
                return None
            if table.version == probe.version:
                self._tables.put((table.id, table.version), table)
        return table

    def _load(self, conn: Connection, table_id: int) -> TableRecord | None:
        """The table's row and seats, in one statement."""
        rows = conn.execute(_SNAP_BY_ID, {"key": table_id}).all()
        if not rows:
            return None
        # the records' fields are the selected columns (a seat's with "seat_")
        seats = tuple(
            SeatRecord(**{c: row._mapping[f"seat_{c}"] for c in _SEAT_COLUMNS})
            for row in rows
            if row.seat_id is not None
        )
        first = rows[0]._mapping
        return TableRecord(**{c.name: first[c.name] for c in _TABLE_COLUMNS}, seats=seats)

    def read(
        self, conn: Connection, column: str, key: Any
    ) -> tuple[TableRecord, GameState | None] | None:
        """A table and its committed state, for reading."""
        for _ in range(READ_TRIES):
            table = self.select(conn, column, key)
            if table is None:
                return None
            try:
                return table, self.committed(conn, table)
            except _Moved:
                continue
        raise Busy("busy")

    def read_invite(self, conn: Connection, invite: str) -> tuple[TableRecord, GameState | None]:
        if not is_invite(invite):
            raise NotFound("no_table")
        found = self.read(conn, "invite", invite)
        if found is None:
            raise NotFound("no_table")
        return found

    def committed(self, db: Connection, table: TableRecord) -> GameState | None:
        """The committed state of a table row as loaded (its version): from
        this process's cache, or else from the row, parsed once per version.
        Raises `_Moved` if the row has moved on since it was loaded."""
        if not has_game(table):
            return None
        state = self._states.get((table.id, table.version))
        if state is not None:
            return state
        same = {"id": table.id, "version": table.version}
        data = db.scalar(_STATE_AT, same)
        if data is None:
            if db.scalar(_ROW_AT, same) is None:
                raise _Moved
            return None
        if data.get("v") == 1:
            state = state_from_dict(data)
        else:
            count = stored_rounds_count(data)
            rounds_key = (table.id, table.game_number, count)
            rounds = self._rounds.get(rounds_key) if count else ()
            if rounds is None:
                stored = db.scalar(_ROUNDS_AT, same)
                if stored is None and db.scalar(_ROW_AT, same) is None:
                    raise _Moved
                rounds = rounds_from_list(stored or [])
            state = state_from_parts(data, rounds)
        self.remember(table.id, table.version, table.game_number, state)
        return state

    def cached_state(self, table_id: int, version: int) -> GameState | None:
        """The committed state of a table at `version`, if this process has it
        parsed (a read that must not load it: a list of many tables)."""
        return self._states.get((table_id, version))

    def remember(self, table_id: int, version: int, game_number: int, state: GameState) -> None:
        """Keep a committed state (and its finished rounds) for later."""
        self._states.put((table_id, version), state)
        if state.finished_rounds:
            rounds_key = (table_id, game_number, len(state.finished_rounds))
            self._rounds.put(rounds_key, state.finished_rounds)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A seat or invite secret: 192 bits from the OS's CSPRNG."""
    return secrets.token_urlsafe(24)


# what secrets.token_urlsafe makes (and some room): anything else names no
# table, and never reaches the database (PostgreSQL refuses a NUL byte)
_INVITE = re.compile(r"[A-Za-z0-9_-]{8,64}")


def is_invite(invite: object) -> bool:
    return isinstance(invite, str) and _INVITE.fullmatch(invite) is not None


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat a browser's device holds (escoba.web.devices.devices read it from the
    device's own rows): it stands for the seat's token, which the browser
    never sees. Only the server makes one; no request can spell it."""

    token_hash: str


#: Who is acting: a seat's token (the API's bearer), a seat a device holds,
#: or nobody (a spectator).
Credential = str | HeldSeat | None


def find_seat(seats: Sequence[AnySeat], token: Credential) -> AnySeat | None:
    """The seat that holds `token`, if any."""
    if isinstance(token, HeldSeat):
        digest = token.token_hash
    elif not token or len(token) > 128:
        return None
    else:
        digest = hash_token(token)
    return next((s for s in seats if s.token_hash == digest), None)


def rules_of(table: AnyTable) -> RuleSet:
    """The table's rules: those its creator chose, or (a table made before
    the house rules) the site's to its target."""
    return RuleSet.from_dict({**(table.rules or {}), "target": table.target})


def has_game(table: AnyTable) -> bool:
    """A game was started at this table (so it has a state): the state is
    first saved by the command that makes the first game."""
    return table.game_number > 0


def free_position(table: AnyTable) -> int | None:
    taken = {s.position for s in table.seats}
    return next((p for p in range(MAX_SEATS) if p not in taken), None)


def names(table: AnyTable) -> list[str]:
    """The players' names by engine seat."""
    seats = [s for s in table.seats if s.game_seat is not None]
    return [s.name for s in sorted(seats, key=lambda s: s.game_seat or 0)]


def queued_analysis(
    table_id: int, game_number: int, summary: RoundSummary, now: datetime, wanted: bool = False
) -> dict[str, Any]:
    """The row of a finished round's analysis, queued (the command that
    finishes a round writes it; a read writes it for a round left without
    one). `wanted`: someone waits for it, so it goes before the backlog."""
    return {
        "table_id": table_id,
        "game_number": game_number,
        "round": summary.number,
        "status": "queued",
        "done": 0,
        "total": len(summary.actions),
        "analysis": None,
        "created_at": now,
        "updated_at": now,
        "wanted_at": now if wanted else None,
    }


# ----------------------------------------------------------------------
# What a table's seats are doing now: worked out here once, read by the
# commands, the pages, the notices and the jobs (issue 36).


def turn_is_played(table: AnyTable, state: GameState | None) -> bool:
    """A seat is on turn in a round being played (not between rounds, not
    after the game): `tables.turn_since` is when its turn began."""
    return (
        table.status == TableStatus.PLAYING and state is not None and state.phase is Phase.PLAYING
    )


def seat_on_turn(table: AnyTable, state: GameState | None) -> SeatRecord | SeatDraft | None:
    """The seat on turn in a round being played (`turn_is_played`), or None."""
    if state is None or not turn_is_played(table, state):
        return None
    turn = state.round.turn
    return next((s for s in table.seats if s.game_seat == turn), None)


def robot_on_turn(table: AnyTable, state: GameState | None) -> bool:
    """A robot is on turn in a round being played: its runner plays next."""
    seat = seat_on_turn(table, state)
    return seat is not None and seat.robot is not None


def person_on_turn(table: AnyTable, state: GameState | None) -> SeatRecord | SeatDraft | None:
    """The person on turn in a round being played (whom the notices warn,
    and against whom TERMINAR POR AUSENCIA may be pressed), or None."""
    seat = seat_on_turn(table, state)
    return seat if seat is not None and seat.robot is None else None


def robot_seats(table: AnyTable) -> frozenset[int]:
    """The engine seats a robot plays."""
    return frozenset(
        s.game_seat for s in table.seats if s.robot is not None and s.game_seat is not None
    )


def creators_partner(table: AnyTable) -> int | None:
    """LAS PAREJAS, at a table of four: the position of the creator's
    partner, who sits opposite: the seat chosen, or else the third seat by
    position. None with fewer seats than four."""
    if len(table.seats) != MAX_SEATS:
        return None
    others = sorted(s.position for s in table.seats if s.position != 0)
    chosen = table.partner_position
    return chosen if chosen in others else sorted(s.position for s in table.seats)[2]
