"""Every game a table played, readable for as long as the table exists
(issue 34, point 5): the game in play, and the finished games before it.

**Nothing new is stored.** A table's row keeps only the game in play (its
state and finished rounds, rewritten by every move and replaced by a
rematch); the action log keeps every game (its `start` names the rules, the
deck and who sat where, its `action`, `next_round`, `end` and `expire`
entries the rest, each with its game's number). A game before the one in
play is rebuilt from its entries through the engine, once per process (a
finished game never changes), so the games of every table, those finished
before this module existed included, stay readable: their story, their
rounds' replays, their analyses (`round_analyses` is keyed by game) and
their record.

**Which game.** A read names a game by its number at the table (from 1);
no number means the game in play, as the table's own pages ask. A number
the table never reached is NotFound (`no_such_game`); the number of the
game in play reads that game, with the same answers as the reads that name
no number (a round still in play, a record before the end: the same
refusals).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, func, select

from escoba.engine import (
    CARDS,
    EndReason,
    GameState,
    IllegalAction,
    Phase,
    Result,
    RuleSet,
    action_from_dict,
    apply,
    end_game,
    new_game,
    start_next_round,
)
from escoba.engine.seats import seats_of_side
from escoba.web.base.db import Database
from escoba.web.base.errors import NotFound
from escoba.web.base.models import ActionLogRow
from escoba.web.table.pages import TableStatus
from escoba.web.table.store import Lru, TableRecord, TableStore, robot_seats

PAST_GAMES_CACHE = 256  # finished games kept parsed per process
GAME_KINDS = ("start", "action", "next_round", "end", "expire")

_LOG = cast(Table, ActionLogRow.__table__)
_GAME_ENTRIES = (
    select(_LOG.c.kind, _LOG.c.payload, _LOG.c.created_at)
    .where(
        _LOG.c.table_id == bindparam("table_id"),
        _LOG.c.game_number == bindparam("game_number"),
        _LOG.c.kind.in_(GAME_KINDS),
    )
    .order_by(_LOG.c.id)
)
# each game's first and last entry of play: when it began, and (once over)
# when it ended
_GAME_MOMENTS = (
    select(
        _LOG.c.game_number,
        func.min(_LOG.c.created_at).label("began"),
        func.max(_LOG.c.created_at).label("last"),
    )
    .where(
        _LOG.c.table_id == bindparam("table_id"),
        _LOG.c.game_number >= 1,
        _LOG.c.kind.in_(GAME_KINDS),
    )
    .group_by(_LOG.c.game_number)
)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One game of a table, hidden cards included (for the server's reads,
    which show only what a viewer may see): its number, its state, who
    played each engine seat."""

    table: TableRecord
    number: int
    state: GameState | None  # None: no game was ever started at the table
    names: tuple[str, ...]  # by engine seat
    robots: frozenset[int]  # engine seats a robot plays
    positions: tuple[int, ...]  # lobby position by engine seat
    current: bool  # the table's current game (the one its own pages show)


@dataclass(frozen=True, slots=True)
class ReplayedGame:
    state: GameState
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game in the list of a table's games."""

    number: int
    in_play: bool  # the game is still being played (no result yet)
    current: bool  # the table's current game (in play, or the last one over)
    names: tuple[str, ...]  # by engine seat
    robots: frozenset[int]
    positions: tuple[int, ...]  # lobby position by engine seat
    players: int
    result: Result | None
    totals: tuple[int, ...]  # by side
    rounds: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]
    #: (number, points by side, totals by side) of each finished round
    began: datetime | None
    ended: datetime | None  # None while it is played

    @property
    def winner_positions(self) -> tuple[int, ...]:
        if self.result is None:
            return ()
        return tuple(
            self.positions[s] for w in self.result.winners for s in seats_of_side(w, self.players)
        )


@dataclass(frozen=True, slots=True)
class TableGames:
    """The games of a table, first to last, and the series they make: the
    games won per lobby position (`wins`), of `decided` games with a winner."""

    invite: str
    status: TableStatus
    seats: tuple[tuple[int, str, bool], ...]  # (lobby position, name, is a robot)
    games: tuple[GameLine, ...]
    wins: tuple[tuple[int, int], ...]
    decided: int


def replay_game(entries: Iterable[tuple[str, dict[str, Any]]]) -> ReplayedGame | None:
    """A game rebuilt from its log entries (kind, payload), in order: None
    if they hold no start."""
    state: GameState | None = None
    positions: tuple[int, ...] = ()
    for kind, payload in entries:
        if kind == "start":
            deck = [CARDS[i] for i in payload["deck"]]
            # a game started before tables had house rules names its target only
            rules = RuleSet.from_dict({**payload.get("rules", {}), "target": payload["target"]})
            state = new_game(rules, payload["players"], deck, first_dealer=0)
            seats = {int(k): int(v) for k, v in payload["seats"].items()}
            positions = tuple(seats[s] for s in range(payload["players"]))
        elif state is None:
            continue
        elif kind == "action":
            state, _ = apply(state, payload["seat"], action_from_dict(payload["action"]))
        elif kind == "next_round":
            state, _ = start_next_round(state, [CARDS[i] for i in payload["deck"]])
        elif state.phase is not Phase.GAME_OVER:  # end, expire
            reason = EndReason(payload.get("reason", EndReason.EXPIRED.value))
            state, _ = end_game(state, reason, payload.get("loser_seat"))
    return None if state is None else ReplayedGame(state, positions)


class GameHistory:
    """The reads of a table's games by number, on the database and the
    store; the games before the one in play are kept once rebuilt."""

    def __init__(self, db: Database, store: TableStore) -> None:
        self.db = db
        self.store = store
        self._past_games: Lru[tuple[int, int], ReplayedGame] = Lru(PAST_GAMES_CACHE)

    def past_game(self, conn: Connection, table: TableRecord, number: int) -> ReplayedGame:
        """A game before the one in play, rebuilt from the log once per
        process; NotFound if its entries do not rebuild it."""
        key = (table.id, number)
        found = self._past_games.get(key)
        if found is None:
            rows = conn.execute(_GAME_ENTRIES, {"table_id": table.id, "game_number": number}).all()
            try:
                found = replay_game((r.kind, r.payload) for r in rows)
            except (IllegalAction, ValueError, KeyError, TypeError, IndexError) as err:
                raise NotFound("no_such_game") from err
            if found is None:
                raise NotFound("no_such_game")
            self._past_games.put(key, found)
        return found

    def game_of(self, conn: Connection, invite: str, number: int | None) -> PlayedGame:
        """Game `number` of the table (None: the one in play), in `conn`."""
        table, state = self.store.read_invite(conn, invite)
        return self._game_at(conn, table, state, number)

    def _game_at(
        self, conn: Connection, table: TableRecord, state: GameState | None, number: int | None
    ) -> PlayedGame:
        """Game `number` of `table`, whose committed state is `state`."""
        by_position = {s.position: s for s in table.seats}
        if number is None or number == table.game_number:
            seated = sorted(
                (s for s in table.seats if s.game_seat is not None), key=lambda s: s.game_seat or 0
            )
            return PlayedGame(
                table=table,
                number=table.game_number,
                state=state,
                names=tuple(s.name for s in seated),
                robots=robot_seats(table),
                positions=tuple(s.position for s in seated),
                current=True,
            )
        if not 1 <= number < table.game_number:
            raise NotFound("no_such_game")
        past = self.past_game(conn, table, number)
        seats = [by_position.get(p) for p in past.positions]
        return PlayedGame(
            table=table,
            number=number,
            state=past.state,
            names=tuple(s.name if s is not None else "?" for s in seats),
            robots=frozenset(
                i for i, s in enumerate(seats) if s is not None and s.robot is not None
            ),
            positions=past.positions,
            current=False,
        )

    def played_game(self, invite: str, number: int | None = None) -> PlayedGame:
        """Game `number` of the table (None: the one in play); NotFound
        (`no_such_game`) for a number the table never reached."""
        with self.db.snapshot() as conn:
            return self.game_of(conn, invite, number)

    def table_games(self, invite: str) -> TableGames:
        """Every game of the table, first to last, with their results and
        moments, and the series they make."""
        with self.db.snapshot() as conn:
            table, state = self.store.read_invite(conn, invite)
            moments = {
                r.game_number: (r.began, r.last)
                for r in conn.execute(_GAME_MOMENTS, {"table_id": table.id})
            }
            games = []
            for n in range(1, table.game_number + 1):
                try:
                    games.append(self._game_at(conn, table, state, n))
                except NotFound:  # a log the engine cannot replay: the others still listed
                    continue
        lines = tuple(_line(g, table, moments.get(g.number, (None, None))) for g in games)
        wins = {s.position: 0 for s in table.seats}
        for line in lines:
            for position in line.winner_positions:
                if position in wins:
                    wins[position] += 1
        return TableGames(
            invite=table.invite,
            status=TableStatus(table.status),
            seats=tuple((s.position, s.name, s.robot is not None) for s in table.seats),
            games=lines,
            wins=tuple(sorted(wins.items())),
            decided=sum(1 for line in lines if line.winner_positions),
        )


def _line(
    game: PlayedGame, table: TableRecord, moments: tuple[datetime | None, datetime | None]
) -> GameLine:
    state = game.state
    assert state is not None  # a number the table reached has a game
    over = state.result is not None
    return GameLine(
        number=game.number,
        in_play=not over,
        current=game.number == table.game_number,
        names=game.names,
        robots=game.robots,
        positions=game.positions,
        players=state.players,
        result=state.result,
        totals=state.totals,
        rounds=tuple(
            (s.number, tuple(x.points for x in s.scores), s.totals) for s in state.finished_rounds
        ),
        began=moments[0],
        ended=moments[1] if over else None,
    )
