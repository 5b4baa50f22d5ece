"""A run's file: the default name stating what was played, and the comparison
of a run's margins with an earlier run's."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from escoba.engine import SITE_RULES, RuleSet
from escoba.tournament.runs import TournamentSpec


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
