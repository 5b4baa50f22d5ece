"""Compare robot variants in duplicate 2-player matches (development aid).

    .venv/bin/python bench/bench_bots_variants.py VARIANT_A VARIANT_B DEALS [SEED]

Variants are the registry robots plus the named configurations below.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from escoba.bots import ROBOTS, Robot
from escoba.bots.luna import Luna
from escoba.tournament import TournamentSpec, render_table, run_tournament

VARIANTS: dict[str, Callable[[], Robot]] = {
    "luna-plain": lambda: Luna(informed=False, prior=0.0),
    "luna-p0": lambda: Luna(prior=0.0),
    "luna-p05": lambda: Luna(prior=0.5),
    "luna-p1": lambda: Luna(prior=1.0),
    "luna-p2": lambda: Luna(prior=2.0),
    "luna-p1-96": lambda: Luna(prior=1.0, max_worlds=96, budget=0.1),
    "luna-informed": lambda: Luna(informed=True),
    "luna-200": lambda: Luna(budget=0.12, max_worlds=200),
    "luna-plain-200": lambda: Luna(budget=0.12, max_worlds=200, informed=False),
}


def main() -> None:
    a, b, deals = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    ROBOTS.update(VARIANTS)
    spec = TournamentSpec(robots=(a, b), players=2, deals=deals, seed=seed, jobs=1)
    from rich.console import Console

    Console(width=160).print(render_table(run_tournament(spec)))


if __name__ == "__main__":
    main()
