"""The game's story (issue 15, item 13): the points of every round, the
score of the series of games played at one table, the game record as a file
and as a page to read and print (issue 25), and the replay of a finished
round, play by play.

Everything here is told from what the table already keeps: the finished
rounds of the game in play (`TableStore`) and, for the games before it, the
server's action log replayed through the engine (the series here; each such
game whole in escoba.web.table.history, whose reads by number these take:
a game before a rematch keeps its story, replays and record). Nothing new
is stored.

**Who a side of a series is.** A table's seats are taken in the lobby and
never change afterwards (a rematch is played by the same people, at the
same lobby positions), so the series counts games won per *person*: per
lobby position. With four, a game won by a pair is a game won by each of its
two players; when the pairs change between games (CAMBIAR), the two partners
of the game in play may have won different numbers of games, and the
series then names each of them with their own count.

**What may be seen.** A replay tells only a finished round of a game (the
one in play, or one before it): every card dealt in it was played, so it
holds no card that was hidden from anyone at the table; and each step
shows only what had been played up to it (the engine's `round_steps`).
The record is the JSON API's: only once the game is over; so is its
readable page, which tells a round cut short (a game ended by leaving or
absence) by its public part alone: the table dealt face up and the plays
made, never a hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, select

from escoba.engine import (
    CARDS,
    GameState,
    IllegalAction,
    Phase,
    RecordError,
    Result,
    RoundSummary,
    RuleSet,
    action_from_dict,
    apply,
    new_game,
    start_next_round,
    to_record,
)
from escoba.engine.cards import Card
from escoba.engine.round_steps import RoundStory, round_story
from escoba.engine.seats import seats_of_side
from escoba.engine.state import RoundAction, TableTake
from escoba.web.base.db import Database
from escoba.web.base.errors import Conflict, NotFound
from escoba.web.base.models import ActionLogRow
from escoba.web.table.history import GameHistory, PlayedGame
from escoba.web.table.pages import RoundPoints, SeriesScore
from escoba.web.table.store import Lru, TableRecord, TableStore

SERIES_CACHE = 1024  # tables whose earlier games' winners are kept (a few ints each)


@dataclass(frozen=True, slots=True)
class RoundReplay:
    """A finished round of a game (the one in play or one before it), for
    the replay page."""

    invite: str
    names: tuple[str, ...]  # by engine seat
    robots: frozenset[int]  # engine seats a robot plays
    story: RoundStory
    finished: tuple[int, ...]  # the numbers of the game's finished rounds
    game_over: bool
    game_number: int = 0  # its number at the table


@dataclass(frozen=True, slots=True)
class CutShortRound:
    """The round in play when a game ended by leaving or absence: its public
    part only (the table dealt face up, the dealer's take, the plays made)."""

    number: int
    dealer: int
    table: tuple[Card, ...]  # the four cards dealt face up
    table_take: TableTake | None
    plays: tuple[RoundAction, ...]
    deals: tuple[bool, ...]  # the deals dealt: each one's «ÚLTIMAS»


@dataclass(frozen=True, slots=True)
class GameStory:
    """A finished game told whole, for its readable record
    (`/t/{invite}/partida`): every finished round replayed by the engine
    (with its summary, for its points), and the round cut short, if any."""

    invite: str
    game_number: int
    names: tuple[str, ...]  # by engine seat
    robots: frozenset[int]  # engine seats a robot plays
    players: int
    rules: RuleSet
    rounds: tuple[tuple[RoundStory, RoundSummary], ...]
    cut_short: CutShortRound | None
    result: Result
    totals: tuple[int, ...]
    points: tuple[RoundPoints, ...]  # every finished round's points and totals


def round_points(state: GameState | None) -> tuple[RoundPoints, ...]:
    if state is None:
        return ()
    return tuple(
        RoundPoints(s.number, tuple(x.points for x in s.scores), s.totals)
        for s in state.finished_rounds
    )


# --------------------------------------------------------------------------
# The series: the games before the one in play, from the action log

_LOG = cast(Table, ActionLogRow.__table__)
_EARLIER_GAMES = (
    select(_LOG.c.kind, _LOG.c.game_number, _LOG.c.payload)
    .where(
        _LOG.c.table_id == bindparam("table_id"),
        _LOG.c.game_number >= 1,
        _LOG.c.game_number < bindparam("game_number"),
        _LOG.c.kind.in_(("start", "action", "next_round")),
    )
    .order_by(_LOG.c.id)
)


def winners_of_games(entries: Iterable[tuple[str, int, dict[str, Any]]]) -> dict[int, list[int]]:
    """The lobby positions that won each game of a table's log entries
    (kind, game number, payload), the games replayed through the engine from
    their decks and actions. A game without a winner (none yet, expired)
    maps to no positions."""
    won: dict[int, list[int]] = {}
    state: GameState | None = None
    positions: dict[int, int] = {}
    game = 0
    for kind, number, payload in entries:
        if kind == "start":
            deck = [CARDS[i] for i in payload["deck"]]
            # a game started before tables had house rules names its target only
            rules = RuleSet.from_dict({**payload.get("rules", {}), "target": payload["target"]})
            state = new_game(rules, payload["players"], deck, 0)
            positions = {int(k): v for k, v in payload["seats"].items()}
            game = number
        elif state is None or number != game:
            continue
        elif kind == "action":
            state, _ = apply(state, payload["seat"], action_from_dict(payload["action"]))
        elif kind == "next_round":
            state, _ = start_next_round(state, [CARDS[i] for i in payload["deck"]])
        if state is not None and state.result is not None and game not in won:
            players = state.players
            won[game] = sorted(
                positions[s] for w in state.result.winners for s in seats_of_side(w, players)
            )
    return won


class StoryReads:
    """The reads of the game's story, on the database, the store and the
    table's games by number (`history`)."""

    def __init__(self, db: Database, store: TableStore, history: GameHistory) -> None:
        self.db = db
        self.store = store
        self.history = history
        #: earlier games' winners by (table, game number): they never change
        self._series_cache: Lru[tuple[int, int], tuple[tuple[int, ...], ...]] = Lru(SERIES_CACHE)

    def _earlier_winners(self, conn: Connection, table: TableRecord) -> tuple[tuple[int, ...], ...]:
        """The positions that won each game before the one in play: replayed
        once per process and game number (earlier games never change)."""
        key = (table.id, table.game_number)
        cache = self._series_cache
        found = cache.get(key)
        if found is None:
            rows = conn.execute(
                _EARLIER_GAMES, {"table_id": table.id, "game_number": table.game_number}
            ).all()
            try:
                won = winners_of_games((r.kind, r.game_number, r.payload) for r in rows)
            except (IllegalAction, ValueError, KeyError, TypeError):
                won = {}  # a log the engine cannot replay: no series rather than no page
            found = tuple(tuple(won.get(g, ())) for g in range(1, table.game_number))
            cache.put(key, found)
        return found

    def series(
        self, conn: Connection, table: TableRecord, state: GameState | None
    ) -> SeriesScore | None:
        """The series at this table: only once a rematch was played (a single
        game's winner is already on the page)."""
        if table.game_number < 2 or state is None:
            return None
        games = [*self._earlier_winners(conn, table)]
        if state.result is not None:
            by_seat = {s.game_seat: s.position for s in table.seats if s.game_seat is not None}
            games.append(
                tuple(
                    by_seat[s]
                    for w in state.result.winners
                    for s in seats_of_side(w, state.players)
                )
            )
        wins = {s.position: 0 for s in table.seats}
        for winners in games:
            for position in winners:
                if position in wins:
                    wins[position] += 1
        decided = sum(1 for w in games if w)
        return SeriesScore(decided, tuple(sorted(wins.items())))

    def round_replay(self, invite: str, number: int, game: int | None = None) -> RoundReplay:
        """A finished round of game `game` (None: the game in play); NotFound
        when there is no such round, or it is not finished."""
        played = self.history.played_game(invite, game)
        state = played.state
        finished = state.finished_rounds if state is not None else ()
        summary = next((s for s in finished if s.number == number), None)
        if state is None or summary is None:
            raise NotFound("no_round")
        try:
            story = round_story(summary, state.players, state.rules)
        except RecordError as err:  # a stored round the engine refuses: a bug, told plainly
            raise NotFound("no_round") from err
        return RoundReplay(
            invite=played.table.invite,
            names=played.names,
            robots=played.robots,
            story=story,
            finished=tuple(s.number for s in finished),
            game_over=state.phase is Phase.GAME_OVER,
            game_number=played.number,
        )

    def last_finished_round(self, invite: str) -> int:
        """The number of the game's last finished round; NotFound if none."""
        with self.db.snapshot() as conn:
            _, state = self.store.read_invite(conn, invite)
        if state is None or not state.finished_rounds:
            raise NotFound("no_round")
        return state.finished_rounds[-1].number

    def game_story(self, invite: str, game: int | None = None) -> GameStory:
        """Game `game` (None: the one in play) told whole, as its readable
        record: only once it is over (as the record file); a stored round
        the engine refuses is NotFound."""
        played, state, result = self._game_over(invite, game, "game_story_not_ready")
        try:
            rounds = tuple(
                (round_story(summary, state.players, state.rules), summary)
                for summary in state.finished_rounds
            )
        except RecordError as err:  # a stored round the engine refuses: a bug, told plainly
            raise NotFound("no_round") from err
        last = state.round
        finished = {summary.number for summary in state.finished_rounds}
        cut_short = None
        if last.number not in finished:
            cut_short = CutShortRound(
                number=last.number,
                dealer=last.dealer,
                table=last.deals[0].table if last.deals else (),
                table_take=last.table_take,
                plays=last.history,
                deals=tuple(deal.last for deal in last.deals),
            )
        return GameStory(
            invite=played.table.invite,
            game_number=played.number,
            names=played.names,
            robots=played.robots,
            players=state.players,
            rules=state.rules,
            rounds=rounds,
            cut_short=cut_short,
            result=result,
            totals=state.totals,
            points=round_points(state),
        )

    def record_file(self, invite: str, game: int | None = None) -> tuple[dict[str, Any], int]:
        """The record of game `game` (None: the one in play), as the JSON
        API gives it (only once the game is over), and its number, to name
        the file."""
        played, state, _ = self._game_over(invite, game, "record_not_ready")
        return to_record(state, list(played.names)), played.number

    def _game_over(
        self, invite: str, game: int | None, words: str
    ) -> tuple[PlayedGame, GameState, Result]:
        """The game, its state and how it ended, once it is over; else a
        Conflict (`not_finished` said with `words`)."""
        played = self.history.played_game(invite, game)
        state = played.state
        if state is None:
            raise Conflict("not_started")
        if state.result is None:
            raise Conflict("not_finished", words=words)
        return played, state, state.result


def series_names(
    series: SeriesScore, sides: Sequence[Sequence[int]]
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The series as the page says it: per side of the game in play (its lobby
    positions), one count when its players won the same games, else each
    player with their own count."""
    wins = dict(series.wins)
    out: list[tuple[tuple[int, ...], int]] = []
    for members in sides:
        counts = {wins.get(p, 0) for p in members}
        if len(counts) == 1:
            out.append((tuple(members), counts.pop()))
        else:
            out.extend(((p,), wins.get(p, 0)) for p in members)
    return tuple(out)
