"""«Mis mesas»: the tables whose seats a browser's device holds, grouped and
ordered for a player coming back — their turn first, then the tables waiting
for others, the lobbies, and the games that ended in the last days (older
finished tables and expired ones are left out).

The whole list costs two statements whatever its length: one reads the
device's tables with all their seats; the games' states come from the
store's cache of parsed states (by table and version), and those it misses
from one more statement that reads only the few values the list shows out of
each state's JSON (phase, turn, totals, winners), never the whole state.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from functools import lru_cache
from typing import Any, Final, cast

from sqlalchemy import Connection, Row, Table, Text, and_, bindparam, or_, select
from sqlalchemy import cast as sql_cast
from sqlalchemy.orm import aliased

from escoba.engine import GameState, Phase, RuleSet
from escoba.engine.seats import seats_of_side
from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.models import DeviceSeatRow, SeatRow, TableRow
from escoba.web.base.settings import Settings
from escoba.web.table.pages import TableStatus
from escoba.web.table.store import TableStore

_T = cast(Table, TableRow.__table__)
_S = cast(Table, SeatRow.__table__)
_DS = cast(Table, DeviceSeatRow.__table__)


class Group(StrEnum):
    """The list's groups (`GROUPS`: in the order the page shows them)."""

    YOUR_TURN = "your_turn"  # one of this device's seats is awaited
    WAITING = "waiting"  # a game is on, the others are to play
    LOBBY = "lobby"
    FINISHED = "finished"


GROUPS: Final = tuple(Group)


class Why(StrEnum):
    """Why a table waits on this device."""

    PLAY = "play"  # its seat is on turn
    NEXT_ROUND = "next_round"  # the round ended: SIGUIENTE RONDA
    ABSENCE = "absence"  # the player on turn is absent: TERMINAR POR AUSENCIA


@dataclass(frozen=True, slots=True)
class ListedSeat:
    name: str
    is_robot: bool
    is_yours: bool  # this device holds it
    robot: str | None = None  # the robot's key (its level is shown beside its name)


@dataclass(frozen=True, slots=True)
class ListedSide:
    seats: tuple[ListedSeat, ...]
    points: int
    won: bool


@dataclass(frozen=True, slots=True)
class ListedTable:
    """One line of «Mis mesas»."""

    table_id: int
    invite: str
    group: Group
    status: TableStatus
    target: int
    rules: RuleSet  # the site's or the house rules (the row says which)
    seats: tuple[ListedSeat, ...]  # lobby order, or play order once a game exists
    sides: tuple[ListedSide, ...]  # empty in a lobby
    why: Why | None  # set in the YOUR_TURN group
    on_turn: ListedSeat | None  # whose turn it is (a game being played)
    since: datetime  # the turn began (a game on); the last news (a lobby, an end)
    ended_without_winner: bool = False
    games_over: int = 0  # its finished games (each readable at /t/{invite}/partidas)

    @property
    def rules_id(self) -> str | None:
        """The id of the page's description of the table's house rules (None:
        the site's): `TableList.house_rules` has one per distinct rules."""
        return None if self.rules.is_site else rules_id(self.rules)


def rules_id(rules: RuleSet) -> str:
    """«my-rules-21-setenta-ties_each»: the same rules, the same id."""
    return "-".join(("my-rules", str(rules.target), *rules.variants()))


@dataclass(frozen=True, slots=True)
class TableList:
    """A device's list. `mark` changes whenever the list may show something
    else (a version of a listed table grows, a table comes or goes): the
    page's live stream compares it (`MyTables.mark`)."""

    tables: tuple[ListedTable, ...]
    mark: int

    def group(self, group: Group) -> tuple[ListedTable, ...]:
        return tuple(t for t in self.tables if t.group == group)

    @property
    def house_rules(self) -> tuple[tuple[str, RuleSet], ...]:
        """The distinct house rules of the list's tables, by `rules_id`: the
        page says each in words once, and their lines point to it."""
        found = {t.rules_id: t.rules for t in self.tables if t.rules_id is not None}
        return tuple(found.items())

    @property
    def groups(self) -> tuple[tuple[Group, tuple[ListedTable, ...]], ...]:
        """The non-empty groups, in order."""
        found = ((g, self.group(g)) for g in GROUPS)
        return tuple((g, tables) for g, tables in found if tables)


@dataclass(frozen=True, slots=True)
class Elsewhere:
    """A table page's way on: the viewer's other tables that wait for them
    (the list's `YOUR_TURN` group, in its order: the one waiting longest
    first), where «Siguiente mesa (N)» leads; and the ids of all the other
    tables of the list, whose changes may bring more (a page's live stream
    listens to them: web/live/my_tables_live.py)."""

    invites: tuple[str, ...] = ()
    table_ids: frozenset[int] = frozenset()  # read only for a stream (`listening`)

    @property
    def next(self) -> str | None:
        return self.invites[0] if self.invites else None

    @property
    def digest(self) -> int:
        """The same tables waiting, the same number (in every process): what
        a page's stream compares (`?elsewhere=` says what its board shows)."""
        return zlib.crc32(" ".join(self.invites).encode())


@dataclass(frozen=True, slots=True)
class Glance:
    """What the list needs of a game's state."""

    phase: Phase
    turn: int
    players: int
    totals: tuple[int, ...]
    winners: tuple[int, ...] | None  # None while the game has no result

    @classmethod
    def of(cls, state: GameState) -> Glance:
        result = state.result
        return cls(
            state.phase,
            state.round.turn,
            state.players,
            state.totals,
            None if result is None else tuple(result.winners),
        )


# --------------------------------------------------------------------------
# The statements, made once

_MINE = aliased(_DS, name="mine")
_HELD = aliased(_S, name="held")
#: the tables where the device holds a seat
_DEVICE_TABLES = (
    select(_HELD.c.table_id)
    .join(_MINE, _MINE.c.seat_id == _HELD.c.id)
    .where(_MINE.c.device_id == bindparam("device"))
)
_LISTED = or_(
    _T.c.status.in_((TableStatus.LOBBY.value, TableStatus.PLAYING.value)),
    and_(_T.c.status == TableStatus.FINISHED.value, _T.c.last_action_at >= bindparam("cutoff")),
)
_LIST = (
    select(
        _T.c.id,
        _T.c.invite,
        _T.c.status,
        _T.c.target,
        # as its text: parsed once per distinct rules (`_rules`), not per row
        sql_cast(_T.c.rules, Text).label("rules"),
        _T.c.version,
        _T.c.game_number,
        _T.c.turn_since,
        _T.c.last_action_at,
        _S.c.position,
        _S.c.name,
        _S.c.robot,
        _S.c.game_seat,
        _DS.c.seat_id.is_not(None).label("yours"),
    )
    .join(_S, _S.c.table_id == _T.c.id)
    .outerjoin(_DS, and_(_DS.c.seat_id == _S.c.id, _DS.c.device_id == bindparam("device")))
    .where(_T.c.id.in_(_DEVICE_TABLES), _LISTED)
    .order_by(_T.c.id, _S.c.position)
)
#: the list's games being played (what may wait on the device: `elsewhere`)
_PLAYING = _LIST.where(_T.c.status == TableStatus.PLAYING.value)
_STATE = _T.c.state
#: the few values of the states the cache did not have, read inside the JSON
_GLANCES = select(
    _T.c.id,
    _T.c.version,
    _STATE["phase"].as_string().label("phase"),
    _STATE[("round", "turn")].as_integer().label("turn"),
    _STATE["players"].as_integer().label("players"),
    _STATE["totals"].as_json().label("totals"),
    _STATE[("result", "winners")].as_json().label("winners"),
).where(_T.c.id.in_(bindparam("ids", expanding=True)))
#: the listed tables' ids and versions: what the list's mark is made of
_MARK = select(_T.c.id, _T.c.version).where(_T.c.id.in_(_DEVICE_TABLES), _LISTED)
#: the listed tables' ids and invites (a table page listens to the others)
_LISTED_IDS = select(_T.c.id, _T.c.invite).where(_T.c.id.in_(_DEVICE_TABLES), _LISTED)


class MyTables:
    """«Mis mesas» (see the module's docstring): read on the database, the
    games' states from the table store's cache, at the clock's time, by the
    settings' days and hours."""

    def __init__(self, db: Database, store: TableStore, clock: Clock, settings: Settings) -> None:
        self.db = db
        self.store = store
        self.clock = clock
        self.settings = settings

    def of(self, device_id: int) -> TableList:
        """The list of the device `device_id`."""
        now = self.clock.now()
        params = {"device": device_id, "cutoff": self._finished_cutoff(now)}
        with self.db.snapshot() as conn:
            rows = conn.execute(_LIST, params).all()
            by_table: dict[int, list[Any]] = {}
            for row in rows:
                by_table.setdefault(row.id, []).append(row)
            glances = self._glances(conn, [seats[0] for seats in by_table.values()])
        tables = [
            _listed(seats, glances.get(table_id), now, self.settings.absence_hours)
            for table_id, seats in by_table.items()
        ]
        tables.sort(key=_order)
        mark = _mark(len(by_table), sum(seats[0].version for seats in by_table.values()))
        return TableList(tuple(tables), mark)

    def elsewhere(self, device_id: int, invite: str, listening: bool = False) -> Elsewhere:
        """The device's tables other than `invite` that wait for it: the
        list's `YOUR_TURN` group, in its order, read as the list reads it
        (the same statement, its games only, the same `_why`) but with none
        of the rest a line shows, since every board of a table page asks
        (bench/RESULTS-my-tables.md). `listening`: with the ids of all the
        list's tables too (one small statement more: what a live stream
        listens to)."""
        now = self.clock.now()
        params = {"device": device_id, "cutoff": self._finished_cutoff(now)}
        hours = self.settings.absence_hours
        with self.db.snapshot() as conn:
            by_table: dict[int, list[Any]] = {}
            for row in conn.execute(_PLAYING, params):
                if row.invite != invite:
                    by_table.setdefault(row.id, []).append(row)
            glances = self._glances(conn, [seats[0] for seats in by_table.values()])
            others = (
                frozenset(r.id for r in conn.execute(_LISTED_IDS, params) if r.invite != invite)
                if listening
                else frozenset()
            )
        waiting = sorted(
            (seats[0].turn_since, table_id, seats[0].invite)
            for table_id, seats in by_table.items()
            if (glance := glances.get(table_id)) is not None
            and _why(glance, seats, seats[0].turn_since, now, hours) is not None
        )
        return Elsewhere(tuple(w[2] for w in waiting), others)

    def mark(self, device_id: int) -> tuple[int, tuple[int, ...]]:
        """The list's `mark` now, and the ids of its tables (what a live
        stream of the list listens to), in one small statement."""
        params = {"device": device_id, "cutoff": self._finished_cutoff(self.clock.now())}
        with self.db.snapshot() as conn:
            rows = conn.execute(_MARK, params).all()
        return _mark(len(rows), sum(row.version for row in rows)), tuple(r.id for r in rows)

    def _finished_cutoff(self, now: datetime) -> datetime:
        return now - timedelta(days=self.settings.my_tables_finished_days)

    def _glances(self, conn: Connection, tables: Sequence[Row[Any]]) -> dict[int, Glance]:
        """The games' glances by table id: from the cache of parsed states,
        else from their JSON in one statement."""
        found: dict[int, Glance] = {}
        missing: list[int] = []
        for table in tables:
            if table.game_number == 0:
                continue
            state = self.store.cached_state(table.id, table.version)
            if state is not None:
                found[table.id] = Glance.of(state)
            else:
                missing.append(table.id)
        if missing:
            for row in conn.execute(_GLANCES, {"ids": missing}):
                if row.phase is None:
                    continue
                found[row.id] = Glance(
                    Phase(row.phase),
                    int(row.turn),
                    int(row.players),
                    tuple(row.totals),
                    None if row.winners is None else tuple(row.winners),
                )
        return found


#: how many tables a redirect after «Seguir en otro dispositivo» names (past
#: that, their number alone: the address stays short)
ARRIVALS_NAMED: Final = 60


@dataclass(frozen=True, slots=True)
class Arrivals:
    """What a code just brought to this browser, as the home page says it
    («Ya tienes tus 3 mesas en este dispositivo»): `tables`, those of the
    list it names (marked there), and how many came."""

    tables: tuple[ListedTable, ...]
    count: int

    @property
    def invites(self) -> frozenset[str]:
        return frozenset(t.invite for t in self.tables)


def arrivals_query(invites: Sequence[str]) -> str:
    """The home page's `llegadas` for the tables a code brought: their
    invites, or past `ARRIVALS_NAMED` their number."""
    return ",".join(invites) if len(invites) <= ARRIVALS_NAMED else str(len(invites))


def arrivals(mine: TableList | None, given: str | None) -> Arrivals | None:
    """`llegadas` read back against the browser's own list: only its tables
    are named (a made-up address names nothing); None when it says nothing."""
    if mine is None or not given or len(given) > 4096:
        return None
    if given.isdigit() and len(given) < 6:
        return Arrivals((), min(int(given), len(mine.tables))) if int(given) else None
    named = set(given.split(",")[:ARRIVALS_NAMED])
    tables = tuple(t for t in mine.tables if t.invite in named)
    return Arrivals(tables, len(tables)) if tables else None


def _mark(count: int, versions: int) -> int:
    # versions only grow: the sum changes with any change of a listed table;
    # the count, with a table that comes or goes
    return versions * 1000 + count


def _listed(
    rows: Sequence[Row[Any]], glance: Glance | None, now: datetime, absence_hours: float
) -> ListedTable:
    first = rows[0]
    status = TableStatus(first.status)
    if glance is not None:  # the players, in play order
        rows = sorted((r for r in rows if r.game_seat is not None), key=lambda r: r.game_seat)
    seats = tuple(ListedSeat(r.name, r.robot is not None, bool(r.yours), r.robot) for r in rows)
    by_game_seat = {r.game_seat: seat for r, seat in zip(rows, seats, strict=True)}
    sides: tuple[ListedSide, ...] = ()
    on_turn: ListedSeat | None = None
    why: Why | None = None
    group = {TableStatus.LOBBY: Group.LOBBY, TableStatus.FINISHED: Group.FINISHED}.get(
        status, Group.WAITING
    )
    since = first.last_action_at
    if glance is not None:
        winners = glance.winners or ()
        sides = tuple(
            ListedSide(
                tuple(
                    by_game_seat[s]
                    for s in seats_of_side(side, glance.players)
                    if s in by_game_seat
                ),
                points,
                side in winners,
            )
            for side, points in enumerate(glance.totals)
        )
        if status == TableStatus.PLAYING:
            since = first.turn_since
            on_turn = by_game_seat.get(glance.turn) if glance.phase is Phase.PLAYING else None
            why = _why(glance, rows, since, now, absence_hours)
            if why is not None:
                group = Group.YOUR_TURN
    return ListedTable(
        table_id=first.id,
        invite=first.invite,
        group=group,
        status=status,
        target=first.target,
        rules=_rules(first.rules, first.target),
        seats=seats,
        sides=sides,
        why=why,
        on_turn=on_turn,
        since=since,
        ended_without_winner=status == TableStatus.FINISHED
        and glance is not None
        and not glance.winners,
        games_over=max(0, first.game_number - (status == TableStatus.PLAYING)),
    )


def _why(
    glance: Glance, rows: Sequence[Row[Any]], since: datetime, now: datetime, absence_hours: float
) -> Why | None:
    """Why a game being played waits on this device, if it does: its seat on
    turn, SIGUIENTE RONDA, or TERMINAR POR AUSENCIA open to it (the player on
    turn, a person, absent). `rows`: the table's seats as the list reads
    them (`yours`: this device holds it); `since`: the turn's start."""
    yours = {r.game_seat for r in rows if r.yours and r.game_seat is not None}
    if not yours:
        return None
    if glance.phase is Phase.ROUND_OVER:
        return Why.NEXT_ROUND
    if glance.phase is not Phase.PLAYING:
        return None
    if glance.turn in yours:
        return Why.PLAY
    on_turn = next((r for r in rows if r.game_seat == glance.turn), None)
    if on_turn is None or on_turn.robot is not None:
        return None
    return Why.ABSENCE if now - since > timedelta(hours=absence_hours) else None


@lru_cache(maxsize=64)
def _rules(text: str | None, target: int) -> RuleSet:
    """A table's rules from its column's text (`store.rules_of`): a device's
    tables have few distinct ones, so each is parsed once."""
    chosen = json.loads(text) if text else None  # SQL or JSON null: none chosen
    return RuleSet.from_dict({**(chosen or {}), "target": target})


def _order(table: ListedTable) -> tuple[int, float]:
    """The groups in order; within one, a game that waits longest first (its
    turn began earliest: nearest to TERMINAR POR AUSENCIA); lobbies and
    finished games newest first."""
    moment = table.since.timestamp()
    if table.group in (Group.YOUR_TURN, Group.WAITING):
        return GROUPS.index(table.group), moment
    return GROUPS.index(table.group), -moment
