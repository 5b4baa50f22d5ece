"""What knowing the other hand is worth in play (development aid for issue
27): the *seer* of `bench_regret.py` (Luna's search and judgement, knowing
the other hand but not the deck) plays Carmen on the first DEALS deals of
SEED in both seatings, as `bench_luna_paired.py` plays Luna, and her margin
is compared, deal by deal, with today's Luna's (her cached per-deal margins,
`bench/results/paired/rollout=careful@SEED.json`, made by
`bench_luna_paired.py DEALS SEED JOBS rollout=careful`). The cheater, who
sees the deck too, is measured by the tournament (`--bots cheater,carmen`).

    .venv/bin/python bench/bench_seer.py DEALS SEED JOBS [--out FILE]
"""

from __future__ import annotations

import json
import random
from multiprocessing import Pool

from bench_luna_paired import CACHE, interval
from bench_regret import LUNA_WORLDS, arguments, seer
from escoba.bots.base import legal_of, moves_of
from escoba.bots.carmen import Carmen
from escoba.bots.knowledge import knowledge
from escoba.bots.luna import Luna
from escoba.engine import SITE_RULES, Phase, apply, new_game, view
from escoba.tournament import deal_deck


def deal_pair(args: tuple[int, int]) -> tuple[int, float]:
    """The seer's mean margin over Carmen in the two seatings of one deal."""
    seed, deal = args
    luna = Luna(budget=10.0, limit=None, max_worlds=LUNA_WORLDS)
    carmen = Carmen()
    margin = 0.0
    for li in range(2):
        rngs = [random.Random(f"escoba-robot:{seed}:{deal}:{li}:{s}") for s in range(2)]
        state = new_game(SITE_RULES, 2, deal_deck(seed, deal), first_dealer=deal % 2)
        while state.phase is Phase.PLAYING:
            seat = state.round.turn
            v = view(state, seat)
            legal = legal_of(v)
            if seat != li:
                action = carmen.choose(v, rngs[seat])
            elif len(legal) == 1:
                action = legal[0]
            else:
                hand = [int(c) for c in state.round.hands[1 - seat]]
                action = seer(
                    luna, knowledge(v), legal, moves_of(v, legal), hand, rngs[seat], last_exact=True
                )
            state, _ = apply(state, seat, action)
        points = [s.points for s in state.finished_rounds[-1].scores]
        margin += points[li] - points[1 - li]
    return deal, margin / 2


def main() -> None:
    args = arguments(__doc__, "the seer's per-deal margins, as JSON")
    with Pool(args.jobs) as pool:
        by_deal = dict(pool.map(deal_pair, [(args.seed, d) for d in range(args.deals)]))
    margins = [by_deal[d] for d in range(args.deals)]
    cached = json.loads((CACHE / f"rollout=careful@{args.seed}.json").read_text())
    luna = [cached[str(d)] for d in range(args.deals)]
    m, h = interval(margins)
    d, dh = interval([a - b for a, b in zip(margins, luna, strict=True)])
    print(f"seed {args.seed}, {args.deals} deal pairs, against Carmen")
    print(f"the seer (the other hand known)  {m:+.3f} ± {h:.3f}   vs Luna: {d:+.3f} ± {dh:.3f}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({str(k): v for k, v in by_deal.items()}, f)


if __name__ == "__main__":
    main()
