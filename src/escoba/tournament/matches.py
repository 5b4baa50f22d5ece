"""A match: the seatings each deal is played in (a pair of robots, or a
lineup in its rotations) and which team holds each side; a deal's deck; one
deal played in every seating."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from escoba.engine import Phase, RuleSet, apply, new_game, shuffled_deck, to_record
from escoba.engine.seats import seats_of_side, side_count, side_of
from escoba.tournament.entrants import entrant


def lineups(a: str, b: str, players: int) -> list[tuple[str, ...]]:
    """The seatings of a duplicate match between robots `a` and `b`."""
    if players == 2:
        return [(a, b), (b, a)]
    if players == 4:
        return [(a, b, a, b), (b, a, b, a)]
    if players == 3:
        out = []
        for pattern in ((a, b, b), (b, a, a)):
            for k in range(3):
                out.append(pattern[k:] + pattern[:k])
        return out
    raise ValueError("Escoba is played by 2, 3 or 4 players")


def rotations(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """A lineup in each rotation: rotation k seats robot i at seat i + k."""
    n = len(lineup)
    return [tuple(lineup[(s - k) % n] for s in range(n)) for k in range(n)]


MatchKind = Literal["pair", "lineup", "baseline"]


@dataclass(frozen=True, slots=True)
class Match:
    """The seatings every deal of a match is played in, and which of the two
    teams holds each side of each seating (`team_of[seating][side]`)."""

    kind: MatchKind
    label: str
    players: int
    seatings: tuple[tuple[str, ...], ...]
    teams: tuple[str, str]
    team_of: tuple[tuple[int, ...], ...]
    lineup: tuple[str, ...] = ()  # a lineup (or baseline) match's seats, as given

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "label": self.label}
        if self.kind == "pair":
            out["robots"] = list(self.teams)
        else:
            out["lineup"] = list(self.lineup)
        out["teams"] = list(self.teams)
        out["players"] = self.players
        out["plays_per_deal"] = len(self.seatings)
        return out


def pair_match(a: str, b: str, players: int) -> Match:
    seatings = lineups(a, b, players)
    team_of = tuple(
        tuple(
            0 if seating[seats_of_side(side, players)[0]] == a else 1
            for side in range(side_count(players))
        )
        for seating in seatings
    )
    return Match("pair", f"{a} vs {b}", players, tuple(seatings), (a, b), team_of)


def lineup_match(lineup: Sequence[str], kind: MatchKind = "lineup") -> Match:
    """The match of a lineup in its rotations: the first robot's side (the
    hero) against the other sides (the field)."""
    n = len(lineup)
    if n not in (2, 3, 4):
        raise ValueError("a lineup names 2, 3 or 4 robots, one per seat")
    sides = side_count(n)

    def names(side: int) -> str:
        return "+".join(lineup[s] for s in seats_of_side(side, n))

    hero = names(0)
    rest = ",".join(names(side) for side in range(1, sides))
    if rest == hero:
        rest += " (other side)"
    team_of = tuple(
        tuple(0 if side == side_of(k, n) else 1 for side in range(sides)) for k in range(n)
    )
    label = ",".join(lineup) + (" (baseline)" if kind == "baseline" else "")
    return Match(kind, label, n, tuple(rotations(lineup)), (hero, rest), team_of, tuple(lineup))


def deal_deck(seed: int, deal: int) -> tuple[Any, ...]:
    """The deck of deal number `deal`: the same for every seating and match."""
    return shuffled_deck(random.Random(f"escoba-tournament:{seed}:{deal}"))


@dataclass(slots=True)
class DealOutcome:
    """One deal of one match, played in every seating."""

    match: int
    deal: int
    side_points: list[list[int]]  # per seating, per side
    side_escobas: list[list[int]]
    times: dict[str, list[float]]  # seconds per decision, per team
    records: list[str] = field(default_factory=list)
    seed: int = 0


def play_deal(
    m: int,
    match: Match,
    rules: RuleSet,
    seed: int,
    deal: int,
    with_records: bool = False,
) -> DealOutcome:
    """Deal `deal` of `seed`, played in every seating of `match`. The robots'
    random sources depend on the seed, the deal, the seating and the seat
    only, so a baseline's robots draw what the lineup's drew."""
    players = match.players
    deck = deal_deck(seed, deal)
    dealer = deal % players
    out = DealOutcome(m, deal, [], [], {t: [] for t in match.teams}, seed=seed)
    for li, seating in enumerate(match.seatings):
        seated = [entrant(name) for name in seating]
        team_of_seat = [match.teams[match.team_of[li][side_of(s, players)]] for s in range(players)]
        rngs = [random.Random(f"escoba-robot:{seed}:{deal}:{li}:{s}") for s in range(players)]
        state = new_game(rules, players, deck, first_dealer=dealer)
        while state.phase is Phase.PLAYING:
            seat = state.round.turn
            t0 = time.perf_counter()
            action = seated[seat].act(state, seat, rngs[seat])
            out.times[team_of_seat[seat]].append(time.perf_counter() - t0)
            state, _ = apply(state, seat, action)
        summary = state.finished_rounds[-1]
        out.side_points.append([s.points for s in summary.scores])
        out.side_escobas.append([s.escobas for s in summary.scores])
        if with_records:
            record = to_record(state, names=list(seating))
            record["tournament"] = {"seed": seed, "deal": deal, "lineup": li, "match": match.label}
            out.records.append(json.dumps(record, ensure_ascii=False))
    return out
