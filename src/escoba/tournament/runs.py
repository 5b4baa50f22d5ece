"""Running a tournament: what to play (`TournamentSpec`), every deal of every
match and seed (in a process pool with `jobs` > 1), and the results pooled
and by seed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from escoba.engine import SITE_RULES, RuleSet
from escoba.simulate import describe_rules
from escoba.tournament.entrants import entrant
from escoba.tournament.matches import DealOutcome, Match, lineup_match, pair_match, play_deal
from escoba.tournament.stats import (
    Contribution,
    MatchSummary,
    TeamFigures,
    contribution,
    summarize,
)

#: The format of the JSON a run writes.
FORMAT = "escoba-tournament/2"


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
