"""Does a robot gain from playing by its table's scoring? Each robot against a
twin that plays as if the site's scoring were in force (its view names the
site's rules, save compulsory capture, which decides what is legal), under a
house rule: duplicate 2-player matches on the tournament's decks.

    .venv/bin/python bench/bench_rules_aware.py ROBOT RULE DEALS [SEED] [JOBS]
    .venv/bin/python bench/bench_rules_aware.py carmen setenta 1000 11
    .venv/bin/python bench/bench_rules_aware.py luna setenta 300 11 2

RULE is `setenta`, `ties_each` or both (`setenta+ties_each`). It prints the
aware robot's margin per round over its twin with the 95% interval of the
per-deal-pair difference. The twin is not a robot of the registry: only
this question needs it.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import sys
import time
from multiprocessing import Pool

from escoba.bots import get_robot
from escoba.bots.base import Robot
from escoba.engine import Phase, RuleSet, apply, new_game, view
from escoba.tournament import deal_deck


def rules_of(text: str) -> RuleSet:
    named = set(text.split("+"))
    if not named <= {"setenta", "ties_each"}:
        raise SystemExit(f"a rule is setenta or ties_each, not {text!r}")
    return RuleSet(setenta="setenta" in named, ties="each" if "ties_each" in named else "nobody")


def deal_pair(args: tuple[str, str, int, int]) -> float:
    """The aware robot's mean margin over the two seatings of one deal."""
    name, rule, seed, deal = args
    rules = rules_of(rule)
    seen_as = RuleSet(compulsory_capture=rules.compulsory_capture)
    robots: list[Robot] = [get_robot(name), get_robot(name)]
    margin = 0.0
    for aware in (0, 1):
        rngs = [random.Random(f"aware:{seed}:{deal}:{aware}:{s}") for s in range(2)]
        state = new_game(rules, 2, deal_deck(seed, deal), first_dealer=deal % 2)
        while state.phase is Phase.PLAYING:
            seat = state.round.turn
            seen = view(state, seat)
            if seat != aware:
                seen = dataclasses.replace(seen, rules=seen_as)
            state, _ = apply(state, seat, robots[seat].choose(seen, rngs[seat]))
        points = [s.points for s in state.finished_rounds[-1].scores]
        margin += points[aware] - points[1 - aware]
    return margin / 2


def main() -> None:
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    name, rule, deals = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 11
    jobs = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    rules_of(rule)
    start = time.perf_counter()
    tasks = [(name, rule, seed, d) for d in range(deals)]
    if jobs > 1:
        with Pool(jobs) as pool:
            margins = pool.map(deal_pair, tasks, chunksize=4)
    else:
        margins = [deal_pair(t) for t in tasks]
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / len(margins) ** 0.5
    print(
        f"{name} playing by {rule} against its twin playing by the site's scoring, "
        f"{deals} deal pairs, seed {seed}: {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"
        f" ({time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
