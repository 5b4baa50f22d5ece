"""Turn `escoba tournament` JSON outputs (the `--out` files, or `--json`) into
the markdown table of bench/RESULTS-bots.md, with the target checks.

    .venv/bin/python bench/bench_bots.py result1.json result2.json ...

A match's rows are its pooled figures (over every seed of the run); a lineup
played with a baseline adds a row with the first robot's contribution. Files
written before the rule options (no "teams", no "label") read the same.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def _ci(fig: dict[str, Any]) -> str:
    lo, hi = fig["margin_ci95"]
    return f"{fig['margin']:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def rows(data: dict[str, Any]) -> list[str]:
    out = []
    seeds = ",".join(str(s) for s in data.get("seeds", [data.get("seed")]))
    for match in data["matches"]:
        teams = match.get("teams") or match["robots"]
        label = match.get("label") or " vs ".join(teams)
        for name in teams:
            r = match["results"][name]
            ms = r["decision_ms"]
            out.append(
                f"| {label} | {name} | {seeds} | {r['points_per_round']:.3f} | {_ci(r)} | "
                f"{100 * r['win_rate']:.1f}% of {r['games']} | {r['escobas_per_round']:.3f} | "
                f"{ms['p50']:.2f} | {ms['p95']:.2f} | {ms['max']:.2f} |"
            )
        contrib = match.get("contribution")
        if contrib is not None:
            out.append(
                f"| {label} | {contrib['robot']} instead of {contrib['instead_of']} "
                f"(contribution) | {seeds} | | {_ci(contrib)} | | | | | |"
            )
    return out


def main() -> None:
    print(
        "| match | team | seeds | pts/round | margin [95% CI] | wins to the target "
        "| escobas/round | p50 ms | p95 ms | max ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as fh:
            for line in rows(json.load(fh)):
                print(line)


if __name__ == "__main__":
    main()
