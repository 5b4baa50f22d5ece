"""Turn `escoba tournament --json` outputs into the markdown table of
bench/RESULTS-bots.md, with the target checks.

    .venv/bin/python bench/bench_bots.py result1.json result2.json ...
"""

from __future__ import annotations

import json
import sys
from typing import Any


def rows(data: dict[str, Any]) -> list[str]:
    out = []
    for match in data["matches"]:
        a, b = match["robots"]
        for name in (a, b):
            r = match["results"][name]
            lo, hi = r["margin_ci95"]
            ms = r["decision_ms"]
            out.append(
                f"| {a} vs {b} | {name} | {r['points_per_round']:.3f} | "
                f"{r['margin']:+.3f} [{lo:+.3f}, {hi:+.3f}] | "
                f"{100 * r['win_rate']:.1f}% of {r['games']} | {r['escobas_per_round']:.3f} | "
                f"{ms['p50']:.2f} | {ms['p95']:.2f} | {ms['max']:.2f} |"
            )
    return out


def main() -> None:
    print(
        "| match | robot | pts/round | margin [95% CI] | wins to 21 | escobas/round "
        "| p50 ms | p95 ms | max ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as fh:
            for line in rows(json.load(fh)):
                print(line)


if __name__ == "__main__":
    main()
