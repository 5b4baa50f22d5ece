"""Compare robot variants in duplicate 2-player matches (development aid).

    .venv/bin/python bench/bench_bots_variants.py VARIANT_A VARIANT_B DEALS [SEED [JOBS]]

Variants are the registry robots plus the named configurations below (Luna's
research knobs: bench/research_luna.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from escoba.bots import ROBOTS, Robot
from escoba.tournament import TournamentSpec, render_table, run_tournament
from research_luna import TunableLuna

VARIANTS: dict[str, Callable[[], Robot]] = {
    "luna-plain": lambda: TunableLuna(rollout="plain", prior=0.0, beta=0.0, carmen_reply=False),
    "luna-v1": lambda: TunableLuna(
        rollout="informed", beta=0.0, carmen_reply=False
    ),  # the first release
    "luna-uniform": lambda: TunableLuna(beta=0.0),
    "luna-informed": lambda: TunableLuna(rollout="informed"),
    "luna-no-reply": lambda: TunableLuna(carmen_reply=False),
    "luna-p15": lambda: TunableLuna(prior=1.5),
    "luna-p07": lambda: TunableLuna(prior=0.7),
    "luna-b10": lambda: TunableLuna(beta=10.0),
    "luna-h1": lambda: TunableLuna(horizon=1),
    "luna-160": lambda: TunableLuna(budget=0.1, max_worlds=160),
    "luna-no-endgame": lambda: TunableLuna(endgame=False),  # before the exact last deal
}


def main() -> None:
    a, b, deals = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    jobs = int(sys.argv[5]) if len(sys.argv) > 5 else 1  # (processes fork: they see VARIANTS)
    ROBOTS.update(VARIANTS)
    spec = TournamentSpec(robots=(a, b), players=2, deals=deals, seeds=(seed,), jobs=jobs)
    from rich.console import Console

    Console(width=160).print(render_table(run_tournament(spec)))


if __name__ == "__main__":
    main()
