"""Duplicate robot tournaments: `escoba tournament --bots luna,carmen`.

In a duplicate match every deal (a round, from a shuffled deck) is played
again with the seats rotated, so that each robot holds each hand and the luck
of the cards cancels. The lineups of a match between robots A and B are:

- 2 players: A B, then B A;
- 4 players (pairs 0+2 against 1+3): A B A B, then B A B A;
- 3 players: the three rotations of A B B and of B A A (six plays a deal).

A robot's points in a deal are the mean, over the deal's lineups, of the
points of the side(s) it held; the margin is A's points minus B's, deal by
deal, and its 95% interval is the mean ± 1.96 standard errors of those
per-deal differences. The deal number k is dealt by seat k mod players.

Win rate to the target: for each lineup, the deals are chained in order into
games, adding each round's points to running totals until the engine's rule
(`winner_on_points`: the target reached with strictly more points than every
other side) names a winner; then a new game starts from zero. A robot's win
rate is the share of those completed games won by a side it held (the last,
unfinished game of each chain is not counted). So a robot plays the same
number of games from each seat and the same cards as its opponent.

With more than two robots every pair plays a match.
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
from typing import Any, Protocol

import typer

from escoba.bots import ROBOTS, Robot, get_robot
from escoba.cheater import Cheater
from escoba.engine import (
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

#: Benchmark-only entrants, never seatable at a table.
BENCHMARK_ONLY = ("cheater",)


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


def deal_deck(seed: int, deal: int) -> tuple[Any, ...]:
    """The deck of deal number `deal`: the same for every lineup."""
    return shuffled_deck(random.Random(f"escoba-tournament:{seed}:{deal}"))


@dataclass(slots=True)
class DealOutcome:
    """One deal of one match, played in every lineup."""

    match: int
    deal: int
    side_points: list[list[int]]  # per lineup, per side
    side_escobas: list[list[int]]
    times: dict[str, list[float]]  # seconds per decision, per robot
    records: list[str] = field(default_factory=list)


def play_deal(
    match: int,
    robots: tuple[str, str],
    players: int,
    target: int,
    seed: int,
    deal: int,
    with_records: bool = False,
) -> DealOutcome:
    rules = RuleSet(target=target)
    deck = deal_deck(seed, deal)
    dealer = deal % players
    out = DealOutcome(match, deal, [], [], {r: [] for r in robots})
    for li, lineup in enumerate(lineups(robots[0], robots[1], players)):
        seated = [entrant(name) for name in lineup]
        rngs = [random.Random(f"escoba-robot:{seed}:{deal}:{li}:{s}") for s in range(players)]
        state = new_game(rules, players, deck, first_dealer=dealer)
        while state.phase is Phase.PLAYING:
            seat = state.round.turn
            t0 = time.perf_counter()
            action = seated[seat].act(state, seat, rngs[seat])
            out.times[lineup[seat]].append(time.perf_counter() - t0)
            state, _ = apply(state, seat, action)
        summary = state.finished_rounds[-1]
        out.side_points.append([s.points for s in summary.scores])
        out.side_escobas.append([s.escobas for s in summary.scores])
        if with_records:
            record = to_record(state, names=list(lineup))
            record["tournament"] = {"seed": seed, "deal": deal, "lineup": li}
            out.records.append(json.dumps(record, ensure_ascii=False))
    return out


# --------------------------------------------------------------------------
# Statistics


@dataclass(frozen=True, slots=True)
class RobotFigures:
    name: str
    points_per_round: float
    margin: float  # minus the opponent's points per round
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


@dataclass(frozen=True, slots=True)
class MatchSummary:
    robots: tuple[str, str]
    players: int
    deals: int
    figures: tuple[RobotFigures, RobotFigures]

    def to_dict(self) -> dict[str, Any]:
        return {
            "robots": list(self.robots),
            "players": self.players,
            "deals": self.deals,
            "plays_per_deal": len(lineups(*self.robots, self.players)),
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


def _per_deal(
    outcome: DealOutcome, table: list[list[int]], lineup_list: list[tuple[str, ...]], robot: str
) -> float:
    """Mean, over the lineups, of the figure of the sides `robot` held."""
    players = len(lineup_list[0])
    total = 0.0
    for li, lineup in enumerate(lineup_list):
        sides = sorted({side_of(s, players) for s in range(players) if lineup[s] == robot})
        total += sum(table[li][sd] for sd in sides) / len(sides)
    return total / len(lineup_list)


def chain_wins(
    outcomes: Sequence[DealOutcome], lineup_list: list[tuple[str, ...]], target: int
) -> tuple[dict[str, int], int]:
    """Games to `target` won per robot, chaining each lineup's deals in order."""
    players = len(lineup_list[0])
    wins = {name: 0 for name in lineup_list[0]}
    games = 0
    for li, lineup in enumerate(lineup_list):
        totals = [0] * side_count(players)
        for outcome in outcomes:
            for sd, pts in enumerate(outcome.side_points[li]):
                totals[sd] += pts
            winner = winner_on_points(totals, target)
            if winner is not None:
                wins[lineup[seats_of_side(winner, players)[0]]] += 1
                games += 1
                totals = [0] * side_count(players)
    return wins, games


def summarize(
    robots: tuple[str, str], players: int, target: int, outcomes: Sequence[DealOutcome]
) -> MatchSummary:
    outcomes = sorted(outcomes, key=lambda o: o.deal)
    lineup_list = lineups(robots[0], robots[1], players)
    points = {r: [_per_deal(o, o.side_points, lineup_list, r) for o in outcomes] for r in robots}
    escobas = {r: [_per_deal(o, o.side_escobas, lineup_list, r) for o in outcomes] for r in robots}
    wins, games = chain_wins(outcomes, lineup_list, target)
    figures = []
    for i, r in enumerate(robots):
        other = robots[1 - i]
        diffs = [p - q for p, q in zip(points[r], points[other], strict=True)]
        margin, lo, hi = mean_ci95(diffs)
        times = sorted(t for o in outcomes for t in o.times[r])
        figures.append(
            RobotFigures(
                name=r,
                points_per_round=statistics.fmean(points[r]),
                margin=margin,
                margin_ci95=(lo, hi),
                win_rate=wins[r] / games if games else 0.0,
                games=games,
                escobas_per_round=statistics.fmean(escobas[r]),
                decision_ms={
                    "p50": 1000 * percentile(times, 50),
                    "p95": 1000 * percentile(times, 95),
                    "max": 1000 * (times[-1] if times else 0.0),
                },
                decisions=len(times),
            )
        )
    return MatchSummary(robots, players, len(outcomes), (figures[0], figures[1]))


# --------------------------------------------------------------------------
# Running


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    robots: tuple[str, ...]
    players: int = 2
    deals: int = 1000
    seed: int = 1
    target: int = 21
    jobs: int = 1
    with_records: bool = False

    def matches(self) -> list[tuple[str, str]]:
        names = self.robots
        return [(names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))]


def _task(args: tuple[int, tuple[str, str], int, int, int, int, bool]) -> DealOutcome:
    return play_deal(*args)


def run_outcomes(
    spec: TournamentSpec, progress: Callable[[], None] | None = None
) -> Iterator[DealOutcome]:
    """Every (match, deal) outcome, in completion order."""
    for name in spec.robots:
        entrant(name)  # unknown names fail before any work
    if len(set(spec.robots)) != len(spec.robots) or len(spec.robots) < 2:
        raise ValueError("a tournament needs at least two different robots")
    tasks = [
        (m, match, spec.players, spec.target, spec.seed, deal, spec.with_records)
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
class TournamentResult:
    spec: TournamentSpec
    matches: tuple[MatchSummary, ...]
    records: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.spec.players,
            "deals": self.spec.deals,
            "seed": self.spec.seed,
            "target": self.spec.target,
            "matches": [m.to_dict() for m in self.matches],
        }


def run_tournament(
    spec: TournamentSpec, progress: Callable[[], None] | None = None
) -> TournamentResult:
    by_match: dict[int, list[DealOutcome]] = {}
    for outcome in run_outcomes(spec, progress):
        by_match.setdefault(outcome.match, []).append(outcome)
    summaries = []
    records: list[str] = []
    for m, match in enumerate(spec.matches()):
        outcomes = sorted(by_match.get(m, []), key=lambda o: o.deal)
        summaries.append(summarize(match, spec.players, spec.target, outcomes))
        for o in outcomes:
            records.extend(o.records)
    return TournamentResult(spec, tuple(summaries), tuple(records))


# --------------------------------------------------------------------------
# The command


def render_table(result: TournamentResult) -> Any:
    from rich.table import Table

    spec = result.spec
    table = Table(
        title=(
            f"Duplicate tournament: {spec.players} players, {spec.deals} deals "
            f"(each in {len(lineups('a', 'b', spec.players))} seatings), seed {spec.seed}"
        )
    )
    for col in ("match", "robot", "pts/round", "margin ± 95% CI", f"wins to {spec.target}"):
        table.add_column(col, justify="right" if col != "robot" else "left")
    for col in ("escobas/round", "p50 ms", "p95 ms", "max ms"):
        table.add_column(col, justify="right")
    for m in result.matches:
        label = f"{m.robots[0]} vs {m.robots[1]}"
        for f in m.figures:
            half = (f.margin_ci95[1] - f.margin_ci95[0]) / 2
            table.add_row(
                label,
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
        table.add_section()
    return table


def tournament_command(
    bots: str = typer.Option("luna,carmen", help="Robots, comma separated; every pair plays."),
    players: int = typer.Option(2, help="Players at the table: 2, 3 or 4."),
    deals: int = typer.Option(1000, help="Deals per match (each replayed in every seating)."),
    seed: int = typer.Option(1, help="Seed of the decks and the robots' random sources."),
    target: int = typer.Option(21, help="Points of a game, for the win rate."),
    jobs: int = typer.Option(1, help="Worker processes."),
    records: str = typer.Option("", help="Write every played round as escoba-record/1 lines here."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one JSON object."),
) -> None:
    """Play duplicate matches between robots and print their figures."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    names = tuple(n.strip().lower() for n in bots.split(",") if n.strip())
    if players not in (2, 3, 4):
        raise SystemExit("--players must be 2, 3 or 4")
    spec = TournamentSpec(
        robots=names,
        players=players,
        deals=deals,
        seed=seed,
        target=target,
        jobs=max(1, jobs),
        with_records=bool(records),
    )
    try:
        for name in names:
            entrant(name)
        RuleSet(target=target)
    except ValueError as err:
        raise SystemExit(str(err)) from None
    total = deals * len(spec.matches())
    err_console = Console(stderr=True)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
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
    if as_json:
        print(json.dumps(result.to_dict()))
    else:
        out = Console()
        if not out.is_terminal:
            out = Console(width=160)
        out.print(render_table(result))
