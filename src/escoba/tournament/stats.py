"""A match's figures: the teams' points, margins with their 95% intervals,
win rates to the target, escobas and decision times; and a lineup's
contribution against its baseline."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from escoba.engine.scoring import winner_on_points
from escoba.engine.seats import side_count
from escoba.tournament.matches import DealOutcome, Match


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
