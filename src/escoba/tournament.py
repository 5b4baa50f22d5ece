"""Duplicate robot tournaments: `escoba tournament --bots luna,carmen`.

In a duplicate match every deal (a round, from a shuffled deck) is played
again with the seats rotated, so that each robot holds each hand and the luck
of the cards cancels. A match has two *teams*, and each side of each seating
belongs to one of them. There are two kinds of match:

**Pairs of robots** (`--bots a,b,c`: every pair plays, at `--players` seats):

- 2 players: A B, then B A;
- 4 players (pairs 0+2 against 1+3): A B A B, then B A B A (a robot partners
  itself);
- 3 players: the three rotations of A B B and of B A A (six plays a deal:
  one A against two Bs, and two As against one B, mixed in one figure).

**A lineup** (`--lineup luna,carmen,carmen`: one robot per seat, 2 to 4 of
them, the seat count is the lineup's length). The lineup is played in each of
its rotations: rotation k seats the lineup's robot i at seat (i + k) mod n, so
every robot sits in every seat, and partners (seats 0 and 2 with four) stay
partners. The first robot's side is the *hero* team, the other sides the
*field*: `--lineup luna,carmen,carmen` is Luna against two Carmens (the
field's points are the mean of the two Carmens'), and `--lineup
luna,carmen,carmen,carmen` is a Luna–Carmen pair (seats 0 and 2) against a
Carmen pair. `--baseline carmen` plays the same deals once more with the
first robot replaced (`carmen,carmen,carmen,carmen`), and reports the
**contribution**: deal by deal, the hero's margin with the first robot minus
the margin with the baseline in its seat, with its interval. So
`--lineup luna,carmen,carmen,carmen --baseline carmen` measures what Luna
brings as Carmen's partner instead of another Carmen.

A team's points in a deal are the mean, over the deal's seatings, of the
points of the side(s) it held; the margin is the team's points minus the
other team's, deal by deal, and its 95% interval is the mean ± 1.96 standard
errors of those per-deal differences. The deal number k is dealt by seat
k mod players. `--seeds 2026,7,11` plays every match on each seed's deals:
each seed has its own row, and the pooled row is the same statistic over all
the deal pairs of all the seeds.

Win rate to the target: for each seating (and seed), the deals are chained in
order into games, adding each round's points to running totals until the
engine's rule (`winner_on_points`: the target reached with strictly more
points than every other side) names a winner; then a new game starts from
zero. A team's win rate is the share of those completed games won by a side
it held (the last, unfinished game of each chain is not counted).

The rules are the site's unless the options choose house rules (`--setenta`,
`--ties each`, `--compulsory`, `--thirty-single`, `--target`), as in
`escoba simulate`; the output and the records name them. Every run writes
its figures as JSON (`--out FILE`, by default a name stating the matches,
seeds and rules, in the current directory), and `--compare OLD.json` prints
each margin's change against an earlier run.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any, Literal, Protocol

import typer

from escoba.bots import ROBOTS, Robot, get_robot
from escoba.cheater import Cheater
from escoba.engine import (
    SITE_RULES,
    GameState,
    Phase,
    RuleSet,
    apply,
    new_game,
    shuffled_deck,
    to_record,
    view,
)
from escoba.engine.actions import Action
from escoba.engine.scoring import winner_on_points
from escoba.engine.seats import seats_of_side, side_count, side_of
from escoba.simulate import describe_rules, rules_from_options

#: Benchmark-only entrants, never seatable at a table.
BENCHMARK_ONLY = ("cheater",)
#: The format of the JSON a run writes.
FORMAT = "escoba-tournament/2"


class _Player(Protocol):
    @property
    def name(self) -> str: ...

    def act(self, state: GameState, seat: int, rng: random.Random) -> Action: ...


@dataclass(frozen=True, slots=True)
class _ViewPlayer:
    """A seatable robot: it gets its seat's view, nothing else."""

    name: str

    def act(self, state: GameState, seat: int, rng: random.Random) -> Action:
        return _robot(self.name).choose(view(state, seat), rng)


@dataclass(frozen=True, slots=True)
class _CheaterPlayer:
    name: str = "cheater"

    def act(self, state: GameState, seat: int, rng: random.Random) -> Action:
        return _CHEATER.choose_seeing(state, seat, rng)


_CHEATER = Cheater()
_ROBOT_CACHE: dict[str, Robot] = {}


def _robot(name: str) -> Robot:
    robot = _ROBOT_CACHE.get(name)
    if robot is None:
        robot = _ROBOT_CACHE[name] = get_robot(name)
    return robot


def entrant(name: str) -> _Player:
    if name == "cheater":
        return _CheaterPlayer()
    if name not in ROBOTS:
        known = ", ".join([*ROBOTS, *BENCHMARK_ONLY])
        raise ValueError(f"unknown robot {name!r} (known: {known})")
    return _ViewPlayer(name)


# --------------------------------------------------------------------------
# Matches


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


# --------------------------------------------------------------------------
# Statistics


@dataclass(frozen=True, slots=True)
class TeamFigures:
    name: str
    points_per_round: float
    margin: float  # minus the other team's points per round
    margin_ci95: tuple[float, float]
    win_rate: float
    games: int
    escobas_per_round: float
    decision_ms: dict[str, float]  # p50, p95, max
    decisions: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "points_per_round": round(self.points_per_round, 4),
            "margin": round(self.margin, 4),
            "margin_ci95": [round(self.margin_ci95[0], 4), round(self.margin_ci95[1], 4)],
            "win_rate": round(self.win_rate, 4),
            "games": self.games,
            "escobas_per_round": round(self.escobas_per_round, 4),
            "decision_ms": {k: round(v, 3) for k, v in self.decision_ms.items()},
            "decisions": self.decisions,
        }


#: The name of the figures of one robot in a pair match (kept for callers).
RobotFigures = TeamFigures


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A match's figures over a set of deals (one seed's, or all pooled);
    `margins` is the first team's margin deal by deal, keyed by (seed, deal)."""

    match: Match
    deals: int
    seeds: tuple[int, ...]
    figures: tuple[TeamFigures, TeamFigures]
    margins: dict[tuple[int, int], float] = field(default_factory=dict)

    @property
    def robots(self) -> tuple[str, str]:
        return self.match.teams

    @property
    def players(self) -> int:
        return self.match.players

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.match.to_dict(),
            "deals": self.deals,
            "seeds": list(self.seeds),
            "results": {f.name: f.to_dict() for f in self.figures},
        }


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (0 when empty)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its normal 95% interval."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, m, m
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def team_points(outcome: DealOutcome, table: list[list[int]], match: Match, team: int) -> float:
    """Mean, over the seatings, of the figure of the sides `team` held."""
    total = 0.0
    for li, owners in enumerate(match.team_of):
        sides = [sd for sd, t in enumerate(owners) if t == team]
        total += sum(table[li][sd] for sd in sides) / len(sides)
    return total / len(match.team_of)


def chain_wins(
    outcomes: Sequence[DealOutcome], match: Match, target: int
) -> tuple[tuple[int, int], int]:
    """Games to `target` won per team, chaining each seating's deals of each
    seed in order."""
    sides = side_count(match.players)
    wins = [0, 0]
    games = 0
    by_seed: dict[int, list[DealOutcome]] = {}
    for o in outcomes:
        by_seed.setdefault(o.seed, []).append(o)
    for seed in sorted(by_seed):
        chain = sorted(by_seed[seed], key=lambda o: o.deal)
        for li, owners in enumerate(match.team_of):
            totals = [0] * sides
            for outcome in chain:
                for sd, pts in enumerate(outcome.side_points[li]):
                    totals[sd] += pts
                winner = winner_on_points(totals, target)
                if winner is not None:
                    wins[owners[winner]] += 1
                    games += 1
                    totals = [0] * sides
    return (wins[0], wins[1]), games


def summarize(match: Match, target: int, outcomes: Sequence[DealOutcome]) -> MatchSummary:
    outcomes = sorted(outcomes, key=lambda o: (o.seed, o.deal))
    points = [[team_points(o, o.side_points, match, t) for o in outcomes] for t in (0, 1)]
    escobas = [[team_points(o, o.side_escobas, match, t) for o in outcomes] for t in (0, 1)]
    wins, games = chain_wins(outcomes, match, target)
    figures = []
    diffs: list[float] = []
    for t, name in enumerate(match.teams):
        team_diffs = [p - q for p, q in zip(points[t], points[1 - t], strict=True)]
        if t == 0:
            diffs = team_diffs
        margin, lo, hi = mean_ci95(team_diffs)
        times = sorted(x for o in outcomes for x in o.times[name])
        figures.append(
            TeamFigures(
                name=name,
                points_per_round=statistics.fmean(points[t]),
                margin=margin,
                margin_ci95=(lo, hi),
                win_rate=wins[t] / games if games else 0.0,
                games=games,
                escobas_per_round=statistics.fmean(escobas[t]),
                decision_ms={
                    "p50": 1000 * percentile(times, 50),
                    "p95": 1000 * percentile(times, 95),
                    "max": 1000 * (times[-1] if times else 0.0),
                },
                decisions=len(times),
            )
        )
    seeds = tuple(sorted({o.seed for o in outcomes}))
    margins = {(o.seed, o.deal): d for o, d in zip(outcomes, diffs, strict=True)}
    return MatchSummary(match, len(outcomes), seeds, (figures[0], figures[1]), margins)


@dataclass(frozen=True, slots=True)
class Contribution:
    """What the lineup's first robot brings instead of the baseline robot:
    per deal, the hero's margin in the lineup minus the hero's margin with
    the baseline robot in its seat."""

    lineup: tuple[str, ...]
    baseline: tuple[str, ...]
    margin: float
    margin_ci95: tuple[float, float]
    deals: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "robot": self.lineup[0],
            "instead_of": self.baseline[0],
            "lineup": list(self.lineup),
            "baseline": list(self.baseline),
            "margin": round(self.margin, 4),
            "margin_ci95": [round(self.margin_ci95[0], 4), round(self.margin_ci95[1], 4)],
            "deals": self.deals,
        }


def contribution(main: MatchSummary, base: MatchSummary) -> Contribution:
    keys = sorted(main.margins.keys() & base.margins.keys())
    if not keys:
        raise ValueError("a lineup and its baseline have no deal in common")
    diffs = [main.margins[k] - base.margins[k] for k in keys]
    m, lo, hi = mean_ci95(diffs)
    return Contribution(main.match.lineup, base.match.lineup, m, (lo, hi), len(keys))


# --------------------------------------------------------------------------
# Running


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """`robots`: every pair plays at `players` seats; `lineup_list`: each
    lineup plays in its rotations (and, with `baseline`, once more with its
    first robot replaced by the baseline)."""

    robots: tuple[str, ...] = ()
    players: int = 2
    deals: int = 1000
    seeds: tuple[int, ...] = (1,)
    rules: RuleSet = SITE_RULES
    jobs: int = 1
    with_records: bool = False
    lineup_list: tuple[tuple[str, ...], ...] = ()
    baseline: str | None = None

    def matches(self) -> list[Match]:
        names = self.robots
        out = [
            pair_match(names[i], names[j], self.players)
            for i in range(len(names))
            for j in range(i + 1, len(names))
        ]
        for lineup in self.lineup_list:
            out.append(lineup_match(lineup))
            if self.baseline is not None:
                out.append(lineup_match((self.baseline, *lineup[1:]), kind="baseline"))
        return out

    def check(self) -> None:
        """Refuse what cannot run, before any work (ValueError)."""
        for name in (*self.robots, *(n for lu in self.lineup_list for n in lu)):
            entrant(name)
        if self.baseline is not None:
            entrant(self.baseline)
            if not self.lineup_list:
                raise ValueError("a baseline replaces a lineup's first robot: give a lineup")
        if self.robots:
            if len(set(self.robots)) != len(self.robots) or len(self.robots) < 2:
                raise ValueError("a tournament needs at least two different robots")
            if self.players not in (2, 3, 4):
                raise ValueError("Escoba is played by 2, 3 or 4 players")
        if not self.robots and not self.lineup_list:
            raise ValueError("nothing to play: name robots or a lineup")
        for lineup in self.lineup_list:
            if len(lineup) not in (2, 3, 4):
                raise ValueError("a lineup names 2, 3 or 4 robots, one per seat")
        if self.deals < 1:
            raise ValueError("a match needs at least one deal")
        if not self.seeds or len(set(self.seeds)) != len(self.seeds):
            raise ValueError("the seeds must be different from one another")


_Task = tuple[int, Match, RuleSet, int, int, bool]


def _task(args: _Task) -> DealOutcome:
    return play_deal(*args)


def run_outcomes(
    spec: TournamentSpec, progress: Callable[[], None] | None = None
) -> Iterator[DealOutcome]:
    """Every (match, seed, deal) outcome, in completion order."""
    spec.check()
    tasks: list[_Task] = [
        (m, match, spec.rules, seed, deal, spec.with_records)
        for seed in spec.seeds
        for m, match in enumerate(spec.matches())
        for deal in range(spec.deals)
    ]
    if spec.jobs <= 1:
        for t in tasks:
            yield _task(t)
            if progress is not None:
                progress()
        return
    with Pool(spec.jobs) as pool:
        for outcome in pool.imap_unordered(_task, tasks, chunksize=4):
            yield outcome
            if progress is not None:
                progress()


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A match pooled over every seed, each seed alone, and (for a lineup
    with a baseline) the first robot's contribution, pooled and by seed."""

    pooled: MatchSummary
    by_seed: tuple[MatchSummary, ...]
    contribution: Contribution | None = None
    contribution_by_seed: tuple[Contribution, ...] = ()

    @property
    def match(self) -> Match:
        return self.pooled.match

    @property
    def robots(self) -> tuple[str, str]:
        return self.pooled.match.teams

    @property
    def figures(self) -> tuple[TeamFigures, TeamFigures]:
        return self.pooled.figures

    def to_dict(self) -> dict[str, Any]:
        out = self.pooled.to_dict()
        out["per_seed"] = {
            str(s.seeds[0]): {f.name: f.to_dict() for f in s.figures} for s in self.by_seed
        }
        if self.contribution is not None:
            out["contribution"] = {
                **self.contribution.to_dict(),
                "per_seed": {
                    str(seed): c.to_dict()
                    for seed, c in zip(self.pooled.seeds, self.contribution_by_seed, strict=True)
                },
            }
        return out


@dataclass(frozen=True, slots=True)
class TournamentResult:
    spec: TournamentSpec
    matches: tuple[MatchResult, ...]
    records: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        spec = self.spec
        return {
            "format": FORMAT,
            "players": spec.players,
            "deals": spec.deals,
            "seeds": list(spec.seeds),
            "seed": spec.seeds[0],
            "target": spec.rules.target,
            "rules": spec.rules.to_dict(),
            "rules_in_words": describe_rules(spec.rules),
            "bots": list(spec.robots),
            "lineups": [list(lu) for lu in spec.lineup_list],
            "baseline": spec.baseline,
            "matches": [m.to_dict() for m in self.matches],
        }


def run_tournament(
    spec: TournamentSpec, progress: Callable[[], None] | None = None
) -> TournamentResult:
    by_match: dict[int, list[DealOutcome]] = {}
    for outcome in run_outcomes(spec, progress):
        by_match.setdefault(outcome.match, []).append(outcome)
    target = spec.rules.target
    matches = spec.matches()
    summaries: list[tuple[MatchSummary, tuple[MatchSummary, ...]]] = []
    records: list[str] = []
    for m, match in enumerate(matches):
        outcomes = sorted(by_match.get(m, []), key=lambda o: (o.seed, o.deal))
        per_seed = tuple(
            summarize(match, target, [o for o in outcomes if o.seed == seed]) for seed in spec.seeds
        )
        summaries.append((summarize(match, target, outcomes), per_seed))
        for o in outcomes:
            records.extend(o.records)
    results = []
    for m, (pooled, per_seed) in enumerate(summaries):
        if pooled.match.kind == "baseline":
            continue
        following = summaries[m + 1] if m + 1 < len(summaries) else None
        if following is not None and following[0].match.kind == "baseline":
            base, base_seeds = following
            results.append(
                MatchResult(
                    pooled,
                    per_seed,
                    contribution(pooled, base),
                    tuple(contribution(a, b) for a, b in zip(per_seed, base_seeds, strict=True)),
                )
            )
            results.append(MatchResult(base, base_seeds))
        else:
            results.append(MatchResult(pooled, per_seed))
    return TournamentResult(spec, tuple(results), tuple(records))


# --------------------------------------------------------------------------
# Files: the default name, and the comparison with an earlier run


def default_out_name(spec: TournamentSpec) -> str:
    """A file name stating what was played: the robots or lineups, the seat
    count, the deals, the seeds and any house rules."""
    parts = ["tournament"]
    if spec.robots:
        parts.append("-".join(spec.robots) + f"_{spec.players}p")
    for lineup in spec.lineup_list:
        parts.append("lineup-" + "-".join(lineup))
    if spec.baseline is not None:
        parts.append(f"baseline-{spec.baseline}")
    parts.append(f"{spec.deals}deals")
    parts.append("seeds-" + "-".join(str(s) for s in spec.seeds))
    variants = spec.rules.variants()
    if variants or spec.rules.target != SITE_RULES.target:
        parts.append("-".join([f"to{spec.rules.target}", *variants]))
    return "_".join(parts) + ".json"


@dataclass(frozen=True, slots=True)
class MarginChange:
    label: str  # the match, or "<match>: contribution"
    team: str
    old: float
    new: float
    change: float
    change_ci95: tuple[float, float]


def _half(ci: Sequence[float]) -> float:
    return (float(ci[1]) - float(ci[0])) / 2


def _margins(data: dict[str, Any]) -> dict[tuple[str, str], tuple[float, float]]:
    """(match, team) → (margin, half-width of its interval), of a run's JSON."""
    out: dict[tuple[str, str], tuple[float, float]] = {}
    for match in data.get("matches", []):
        label = match.get("label") or " vs ".join(match["robots"])
        for team, fig in match["results"].items():
            out[(label, team)] = (float(fig["margin"]), _half(fig["margin_ci95"]))
        contrib = match.get("contribution")
        if contrib is not None:
            key = (f"{label}: contribution", contrib["robot"])
            out[key] = (float(contrib["margin"]), _half(contrib["margin_ci95"]))
    return out


def compare(old: dict[str, Any], new: dict[str, Any]) -> list[MarginChange]:
    """The change of every margin present in both runs (the first team's of
    each match, and contributions), with a 95% interval of the change that
    treats the two runs as independent (on the same deals it is cautious)."""
    before, after = _margins(old), _margins(new)
    seen: set[str] = set()
    out = []
    for (label, team), (new_m, new_h) in after.items():
        if (label, team) not in before or label in seen:
            continue
        seen.add(label)
        old_m, old_h = before[(label, team)]
        change = new_m - old_m
        half = math.hypot(old_h, new_h)
        out.append(MarginChange(label, team, old_m, new_m, change, (change - half, change + half)))
    return out


def _run_settings(data: dict[str, Any]) -> dict[str, Any]:
    """What makes two runs' deals and rules the same (a run of before the
    rule options named only its target: the site's rules)."""
    try:
        rules = RuleSet.from_dict({**data.get("rules", {}), "target": data.get("target", 21)})
        named: Any = rules.to_dict()
    except (TypeError, ValueError):
        named = data.get("rules")
    return {
        "rules": named,
        "deals": data.get("deals"),
        "seeds": data.get("seeds", [data.get("seed")]),
    }


# --------------------------------------------------------------------------
# The command


def render_table(result: TournamentResult) -> Any:
    from rich.table import Table

    spec = result.spec
    seeds = ", ".join(str(s) for s in spec.seeds)
    table = Table(
        title=(
            f"Duplicate tournament: {spec.deals} deals per seed, "
            f"seed{'s' if len(spec.seeds) > 1 else ''} {seeds}; to {spec.rules.target}, "
            f"{describe_rules(spec.rules)}"
        )
    )
    for col in ("match", "seed", "team", "pts/round", "margin ± 95% CI"):
        table.add_column(col, justify="left" if col in ("match", "team") else "right")
    for col in (f"wins to {spec.rules.target}", "escobas/round", "p50 ms", "p95 ms", "max ms"):
        table.add_column(col, justify="right")
    for res in result.matches:
        m = res.match
        label = f"{m.label} ({m.players}p)"
        rows: list[tuple[str, MatchSummary]] = []
        if len(res.by_seed) > 1:
            rows.extend((str(s.seeds[0]), s) for s in res.by_seed)
            rows.append(("all", res.pooled))
        else:
            rows.append((seeds, res.pooled))
        for seed_label, summary in rows:
            for f in summary.figures:
                half = (f.margin_ci95[1] - f.margin_ci95[0]) / 2
                table.add_row(
                    label,
                    seed_label,
                    f.name,
                    f"{f.points_per_round:.3f}",
                    f"{f.margin:+.3f} ± {half:.3f}",
                    f"{100 * f.win_rate:.1f}% of {f.games}",
                    f"{f.escobas_per_round:.3f}",
                    f"{f.decision_ms['p50']:.2f}",
                    f"{f.decision_ms['p95']:.2f}",
                    f"{f.decision_ms['max']:.2f}",
                )
                label = ""
                seed_label = ""
        if res.contribution is not None:
            c = res.contribution
            label = f"{c.lineup[0]} instead of {c.baseline[0]}"
            crow: list[tuple[str, Contribution]] = []
            if len(spec.seeds) > 1:
                crow.extend(
                    zip((str(s) for s in spec.seeds), res.contribution_by_seed, strict=True)
                )
                crow.append(("all", c))
            else:
                crow.append((seeds, c))
            for seed_label, x in crow:
                table.add_row(
                    label,
                    seed_label,
                    "contribution",
                    "",
                    f"{x.margin:+.3f} ± {_half(x.margin_ci95):.3f}",
                )
                label = ""
        table.add_section()
    return table


def render_comparison(changes: Sequence[MarginChange], old_path: str) -> Any:
    from rich.table import Table

    table = Table(title=f"Margins against {old_path}")
    for col in ("match", "team", "old", "new", "change ± 95% CI"):
        table.add_column(col, justify="left" if col in ("match", "team") else "right")
    for c in changes:
        half = (c.change_ci95[1] - c.change_ci95[0]) / 2
        table.add_row(
            c.label, c.team, f"{c.old:+.3f}", f"{c.new:+.3f}", f"{c.change:+.3f} ± {half:.3f}"
        )
    return table


def _names(text: str) -> tuple[str, ...]:
    return tuple(n.strip().lower() for n in text.split(",") if n.strip())


def parse_seeds(text: str) -> tuple[int, ...]:
    """`2026,7,11` → (2026, 7, 11); ValueError on anything else."""
    try:
        seeds = tuple(int(s) for s in text.split(",") if s.strip())
    except ValueError:
        raise ValueError(f"seeds are whole numbers separated by commas, not {text!r}") from None
    if not seeds:
        raise ValueError("name at least one seed")
    if len(set(seeds)) != len(seeds):
        raise ValueError("the seeds must be different from one another")
    return seeds


def tournament_command(
    bots: str | None = typer.Option(
        None, help="Robots, comma separated; every pair plays (default luna,carmen)."
    ),
    lineup: list[str] | None = typer.Option(
        None,
        help=(
            "A table, one robot per seat in play order (2-4; seats 0 and 2 are partners "
            "at 4), played in every rotation: the first robot's side against the others. "
            "E.g. luna,carmen,carmen. May be repeated."
        ),
    ),
    baseline: str | None = typer.Option(
        None,
        help=(
            "Play each lineup again with its first robot replaced by this one, and report "
            "the first robot's contribution (e.g. --lineup luna,carmen,carmen,carmen "
            "--baseline carmen: Luna as Carmen's partner)."
        ),
    ),
    players: int | None = typer.Option(
        None, help="Players at the table for --bots: 2, 3 or 4 (default 2)."
    ),
    deals: int = typer.Option(1000, help="Deals per match and seed (each in every seating)."),
    seed: int | None = typer.Option(None, help="Seed of the decks and robots (default 1)."),
    seeds: str | None = typer.Option(
        None, help="Several seeds, comma separated (2026,7,11): each has its row, and all pooled."
    ),
    target: int = typer.Option(21, help="Points of a game (15, 21, 30 or 31), for the win rate."),
    setenta: bool = typer.Option(False, "--setenta", help="House rule: la setenta."),
    ties: str = typer.Option("nobody", help="A tie for the most: nobody|each."),
    compulsory: bool = typer.Option(
        False, "--compulsory", help="House rule: capture is compulsory."
    ),
    thirty_single: bool = typer.Option(
        False, "--thirty-single", help="House rule: a first table of 30 is one escoba."
    ),
    jobs: int = typer.Option(1, help="Worker processes."),
    records: str = typer.Option("", help="Write every played round as escoba-record/1 lines here."),
    out: Path | None = typer.Option(
        None, help="Write the figures as JSON here (default: a name stating the run, in .)."
    ),
    compare_with: Path | None = typer.Option(
        None, "--compare", help="An earlier run's JSON: print how each margin changed."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one JSON object."),
) -> None:
    """Play duplicate matches between robots and print their figures.

    --bots a,b,c: every pair plays, at --players seats. --lineup
    luna,carmen,carmen: one robot per seat, played in every rotation, the
    first robot's side against the others; --baseline carmen plays the same
    deals with carmen in the first robot's seat and reports the first
    robot's contribution. --seeds pools several seeds. The figures are also
    written as JSON (--out); --compare an earlier file to see what moved.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    rules = rules_from_options(target, setenta, ties, compulsory, thirty_single)
    lineups_given = tuple(_names(lu) for lu in lineup or ())
    if bots is None and not lineups_given:
        bots = "luna,carmen"
    names = _names(bots) if bots is not None else ()
    if players is None:
        players = 2
    elif not names:
        raise typer.BadParameter(
            "--players is for --bots; a lineup's length is its number of players",
            param_hint="--players",
        )
    if players not in (2, 3, 4):
        raise typer.BadParameter("Escoba is played by 2, 3 or 4 players", param_hint="--players")
    if deals < 1:
        raise typer.BadParameter("at least one deal", param_hint="--deals")
    if seed is not None and seeds is not None:
        raise typer.BadParameter("give --seed or --seeds, not both", param_hint="--seeds")
    try:
        seed_list = parse_seeds(seeds) if seeds is not None else (1 if seed is None else seed,)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--seeds") from None
    old: dict[str, Any] | None = None
    if compare_with is not None:
        try:
            old = json.loads(compare_with.read_text(encoding="utf-8"))
            if not isinstance(old, dict) or not isinstance(old.get("matches"), list):
                raise ValueError("not the JSON of a tournament")
        except (OSError, ValueError) as err:
            raise typer.BadParameter(f"{compare_with}: {err}", param_hint="--compare") from None
    spec = TournamentSpec(
        robots=names,
        players=players,
        deals=deals,
        seeds=seed_list,
        rules=rules,
        jobs=max(1, jobs),
        with_records=bool(records),
        lineup_list=lineups_given,
        baseline=baseline.strip().lower() if baseline is not None else None,
    )
    named = (
        ("--bots", names),
        ("--lineup", tuple(n for lu in lineups_given for n in lu)),
        ("--baseline", (spec.baseline,) if spec.baseline is not None else ()),
    )
    for option, group in named:
        try:
            for name in group:
                entrant(name)
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint=option) from None
    try:
        spec.check()
    except ValueError as err:
        if "lineup" in str(err):
            hint = "--lineup" if lineups_given else "--baseline"
        else:
            hint = "--bots" if names else "--lineup"
        raise typer.BadParameter(str(err), param_hint=hint) from None
    total = deals * len(spec.matches()) * len(seed_list)
    err_console = Console(stderr=True)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        "left",
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
    ) as bar:
        task = bar.add_task("deals", total=total)
        result = run_tournament(spec, progress=lambda: bar.advance(task))
    if records:
        with open(records, "w", encoding="utf-8") as fh:
            for line in result.records:
                fh.write(line + "\n")
    data = result.to_dict()
    path = out if out is not None else Path(default_out_name(spec))
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    if as_json:  # stdout is the JSON alone; a comparison goes to stderr
        print(json.dumps(data))
        console = err_console
    else:
        console = Console()
        if not console.is_terminal:
            console = Console(width=160)
        console.print(render_table(result))
        console.print(f"figures: {path}", soft_wrap=True)
    if old is not None:
        if _run_settings(old) != _run_settings(data):
            console.print(
                f"note: the earlier run used other rules, deals or seeds: {_run_settings(old)}",
                soft_wrap=True,
            )
        console.print(render_comparison(compare(old, data), str(compare_with)))
