"""What Carmen's plays tell Luna of her hand (development aid for issue 27):
at each of Luna's decisions against Carmen where the plays of the deal weigh
the worlds,

- the effective size of the pool of weighed deals, (Σw)² / Σw², of its 256
  (`inference.POOL`), as Luna weighs them (Carmen softened, `beta`) and as
  the exact reading of `bench/tries/exact_read.py` does;
- how well each foretells the values Carmen holds: the Brier score of the
  chances of her holding each value 1-10 (the sum over values of the squared
  difference with 1 if she holds one, else 0; lower is better), against the
  uniform chances of the unseen cards.

    .venv/bin/python bench/bench_posterior.py DEALS [SEED]
"""

from __future__ import annotations

import random
import statistics
import sys

from escoba.bots.carmen import Carmen
from escoba.bots.inference import BETA, PosteriorSampler, observations, past_plays
from escoba.bots.judge import Judge
from escoba.bots.knowledge import knowledge
from escoba.bots.luna import Luna
from escoba.engine import SITE_RULES, Phase, apply, new_game, view
from escoba.engine.cards import VALUE
from escoba.tournament import deal_deck
from tries.exact_read import ExactPosterior


def effective_size(sampler: PosteriorSampler) -> float:
    cum = sampler.cum
    weights = [b - a for a, b in zip([0.0, *cum], cum, strict=False)]
    return sum(weights) ** 2 / sum(w * w for w in weights)


def brier(odds: list[float], held: set[int]) -> float:
    return sum((odds[x] - (x in held)) ** 2 for x in range(1, 11))


def main() -> None:
    deals = int(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    sizes: dict[str, list[float]] = {"soft": [], "exact": []}
    scores: dict[str, list[float]] = {"uniform": [], "soft": [], "exact": []}
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
                    held = {VALUE[int(c)] for c in state.round.hands[1]}
                    soft = PosteriorSampler(know, obs, rng)
                    exact = ExactPosterior(know, past_plays(v, know), rng, eps=0.05)
                    for name, sampler in (("soft", soft), ("exact", exact)):
                        sizes[name].append(effective_size(sampler))
                        scores[name].append(brier(sampler.value_odds(1) or [], held))
                    scores["uniform"].append(brier(Judge(know).p_value, held))
            state, _ = apply(state, seat, seats[seat].choose(v, rng))

    for name, xs in sizes.items():
        xs.sort()
        p10, p50, p90 = (xs[int(q * (len(xs) - 1))] for q in (0.1, 0.5, 0.9))
        print(
            f"{len(xs)} decisions, {name} reading: effective pool p10 {p10:.0f}, "
            f"median {p50:.0f}, p90 {p90:.0f} of 256"
        )
    print(
        "Brier score of the values Carmen holds (lower is better): "
        + ", ".join(f"{k} {statistics.fmean(v):.3f}" for k, v in scores.items())
    )


if __name__ == "__main__":
    main()
