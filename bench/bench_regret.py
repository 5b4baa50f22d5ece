"""Where Luna's decisions lose against Carmen, by what she has seen of the
other hand (development aid for issue 27).

    .venv/bin/python bench/bench_regret.py DEALS SEED JOBS [--out FILE]

Luna (64 worlds a decision, no clock) plays Carmen on the first DEALS deals
of SEED in both seatings, as `bench_luna_paired.py` does. At each decision
of hers with a choice, a *seer* decides too: her search, her judgement
added, but knowing the other hand (not the deck: each world deals the rest
afresh). Both choices are then valued on 128 other such worlds (Carmen's
answer, Carmen's rule to the end, as in Luna's playouts); the seer's value
less Luna's is her *loss* in that decision, in round points: what knowing
the hand was worth there. (Valued on worlds of their own, so a lucky
valuation does not favour the seer's pick: where both choose alike the loss
is exactly 0.) The losses are summed per round and split by how many cards
of the deal the other hand had already played (0: Luna leads the deal) and
by the deck's size.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence
from functools import partial
from multiprocessing import Pool

from escoba.bots.base import legal_of, moves_of
from escoba.bots.carmen import Carmen
from escoba.bots.endgame import solve
from escoba.bots.knowledge import Knowledge, knowledge
from escoba.bots.luna import Luna, search
from escoba.bots.policy import careful_playout
from escoba.bots.reply import CarmenReply
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine import SITE_RULES, Phase, apply, new_game, view
from escoba.engine.actions import Action
from escoba.engine.cards import VALUE
from escoba.engine.rules import HAND_SIZE
from escoba.tournament import deal_deck

#: Worlds a decision of Luna and the seer; worlds that value their choices.
LUNA_WORLDS = 64
EVAL_WORLDS = 128


def hand_seen(know: Knowledge, other: int, hand: list[int], rng: random.Random) -> RoundSim:
    """A world of `know` where seat `other` holds `hand`, the deck shuffled."""
    sim = know.base.copy()
    sim.hands[other] = hand[:]
    deck = [c for c in know.unseen if c not in hand]
    rng.shuffle(deck)
    sim.deck = deck
    return sim


def seer(
    luna: Luna,
    know: Knowledge,
    legal: Sequence[Action],
    moves: Sequence[SimMove],
    hand: list[int],
    rng: random.Random,
    *,
    last_exact: bool = False,
) -> Action:
    """The seer's choice: Luna's search and judgement in worlds where the
    other seat holds `hand` (the deck shuffled). With `last_exact`, once
    the deck is empty the one world is played exactly, as Luna plays it."""
    other = 1 - know.seat
    held = {VALUE[c] for c in hand}
    sample = partial(hand_seen, know, other, hand)
    last = last_exact and know.deck_size == 0
    return luna.weigh(
        know,
        legal,
        moves,
        sample,
        rng,
        odds=[1.0 if x in held else 0.0 for x in range(11)],
        exact=solve(sample(rng), moves) if last else None,
        one_world=last,
    )


def arguments(doc: str | None, out: str) -> argparse.Namespace:
    """DEALS SEED JOBS [--out FILE], as both benches of the seer read them."""
    parser = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("deals", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("jobs", type=int)
    parser.add_argument("--out", help=out)
    return parser.parse_args()


def deal_pair(args: tuple[int, int]) -> list[tuple[int, int, float, bool]]:
    """For each decision of Luna with a choice in the two seatings of one
    deal: the other hand's cards already played this deal, the deck's size,
    her loss, and whether she chose as the seer."""
    seed, deal = args
    luna = Luna(budget=10.0, limit=None, max_worlds=LUNA_WORLDS)
    carmen = Carmen()
    out: list[tuple[int, int, float, bool]] = []
    for li, seating in enumerate(((luna, carmen), (carmen, luna))):
        rngs = [random.Random(f"escoba-robot:{seed}:{deal}:{li}:{s}") for s in range(2)]
        eval_rng = random.Random(f"regret:{seed}:{deal}:{li}")
        state = new_game(SITE_RULES, 2, deal_deck(seed, deal), first_dealer=deal % 2)
        while state.phase is Phase.PLAYING:
            seat = state.round.turn
            v = view(state, seat)
            action = seating[seat].choose(v, rngs[seat])
            legal = legal_of(v)
            if seating[seat] is luna and len(legal) > 1:
                other = 1 - seat
                hand = [int(c) for c in state.round.hands[other]]
                know = knowledge(v)
                moves = moves_of(v, legal)
                _, totals, worlds = search(
                    partial(hand_seen, know, other, hand),
                    moves,
                    know.base.side[seat],
                    eval_rng,
                    clock=time.perf_counter,
                    budget=1e9,
                    min_worlds=EVAL_WORLDS,
                    max_worlds=EVAL_WORLDS,
                    rollout=careful_playout,
                    reply=CarmenReply(know, moves),
                )
                values = [t / worlds for t in totals]
                chosen = seer(luna, know, legal, moves, hand, eval_rng)
                gap = values[legal.index(chosen)] - values[legal.index(action)]
                out.append((HAND_SIZE - len(hand), len(state.round.deck), gap, chosen == action))
            state, _ = apply(state, seat, action)
    return out


def main() -> None:
    args = arguments(__doc__, "the decisions, as JSON")
    deals, seed, jobs, out_file = args.deals, args.seed, args.jobs, args.out
    with Pool(jobs) as pool:
        per_deal = pool.map(deal_pair, [(seed, d) for d in range(deals)], chunksize=1)
    rounds = 2 * deals
    by_played: dict[int, list[float]] = defaultdict(list)
    by_deck: dict[int, list[float]] = defaultdict(list)
    alike: dict[int, list[bool]] = defaultdict(list)
    for decisions in per_deal:
        for played, deck, loss, same in decisions:
            by_played[played].append(loss)
            by_deck[deck].append(loss)
            alike[played].append(same)
    total = sum(sum(r) for r in by_played.values())
    print(f"seed {seed}, {deals} deal pairs: loss {total / rounds:.3f} points a round")
    print("other hand's cards played this deal: decisions, loss a round, chosen as the seer")
    for k in sorted(by_played):
        rs = by_played[k]
        share = statistics.fmean(alike[k])
        print(f"  {k}: {len(rs):5d}  {sum(rs) / rounds:.3f}  {share:.0%}")
    print("deck's size: decisions, loss a round")
    for k in sorted(by_deck, reverse=True):
        print(f"  {k:2d}: {len(by_deck[k]):5d}  {sum(by_deck[k]) / rounds:.3f}")
    if out_file:
        record = {"seed": seed, "deals": deals, "eval_worlds": EVAL_WORLDS, "decisions": per_deal}
        with open(out_file, "w") as f:
            json.dump(record, f)


if __name__ == "__main__":
    main()
