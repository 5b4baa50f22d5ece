"""How many hands Luna's weighed pool really holds (development aid for
issue 27): at each of Luna's decisions against Carmen where the plays of the
deal weigh the worlds, the effective size of the pool of weighed deals,
(Σw)² / Σw², of its 256 (`inference.POOL`).

    .venv/bin/python bench/bench_posterior.py DEALS [SEED]
"""

from __future__ import annotations

import random
import sys

from escoba.bots.carmen import Carmen
from escoba.bots.inference import BETA, PosteriorSampler, observations
from escoba.bots.knowledge import knowledge
from escoba.bots.luna import Luna
from escoba.engine import SITE_RULES, Phase, apply, new_game, view
from escoba.tournament import deal_deck


def main() -> None:
    deals = int(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    sizes: list[float] = []
    seats = (Luna(budget=10.0, limit=None), Carmen())
    for deal in range(deals):
        rng = random.Random(deal)
        state = new_game(SITE_RULES, 2, deal_deck(seed, deal), first_dealer=deal % 2)
        while state.phase is Phase.PLAYING:
            seat = state.round.turn
            v = view(state, seat)
            if seat == 0 and len(v.legal) > 1:
                know = knowledge(v)
                obs = observations(v, know, BETA)
                if obs:
                    cum = PosteriorSampler(know, obs, rng).cum
                    weights = [b - a for a, b in zip([0.0, *cum], cum, strict=False)]
                    sizes.append(sum(weights) ** 2 / sum(w * w for w in weights))
            state, _ = apply(state, seat, seats[seat].choose(v, rng))
    sizes.sort()

    def at(q: float) -> float:
        return sizes[int(q * (len(sizes) - 1))]

    print(
        f"{len(sizes)} decisions: effective pool p10 {at(0.1):.0f}, "
        f"median {at(0.5):.0f}, p90 {at(0.9):.0f} of 256"
    )


if __name__ == "__main__":
    main()
