"""Luna's variants, CPU per decision on the same positions in one run
(issue 35: Luna at half her CPU).

    .venv/bin/python bench/bench_luna_cpu.py --players 2,3,4 --rounds 2 horizon=1 horizon=0

Every turn with a choice of `--rounds` rounds of Carmen per table size
(seeds from `--seed`), decided by today's Luna (`base`) and by each
VARIANT (`TunableLuna`'s keywords, as in bench_luna_paired.py), all at
exactly `--worlds` worlds and no clock (so the same choices on any
machine), one after the other on each position, their order turning from
one position to the next; the CPU time (`time.process_time`) of each, and
how often a variant chose as `base` did. The ratios pair the variants
position by position in one process: a busy machine slows them alike.
Each variant keeps memos of its own (`policy`'s caches of careful moves and
takes, swapped in before its decision), as if it ran alone in a process:
one variant's playouts never warm another's.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time

from bench_analysis import choice_views
from bench_luna_paired import parse
from escoba.bots import policy
from escoba.bots.luna import Luna
from research_luna import TunableLuna

#: policy's memos, by name: each variant has its own set
MEMOS = ("_CAREFUL", "_TAKES", "_POSITIVE", "_CLAIMS")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", nargs="+", help="TunableLuna keywords, e.g. horizon=1")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--worlds", type=int, default=64)
    args = ap.parse_args()
    fixed = {"budget": math.inf, "min_worlds": args.worlds, "max_worlds": args.worlds}
    lunas: dict[str, Luna] = {"base": Luna(**fixed, limit=None)}
    for name in args.variants:
        lunas[name] = TunableLuna(**(fixed | {"limit": None} | parse(name)))
    memos = {name: {m: {} for m in MEMOS} for name in lunas}
    out: dict[str, object] = {"load_before": os.getloadavg(), "worlds": args.worlds}
    for players in (int(p) for p in args.players.split(",")):
        cpu = dict.fromkeys(lunas, 0.0)
        alike = dict.fromkeys(lunas, 0)
        n = 0
        for seen in choice_views(players, args.rounds, args.seed):
            names = list(lunas)
            order = names[n % len(names) :] + names[: n % len(names)]
            chose = {}
            for name in order:
                for memo, held in memos[name].items():
                    setattr(policy, memo, held)
                start = time.process_time()
                chose[name] = lunas[name].choose(seen, random.Random(n))
                cpu[name] += time.process_time() - start
            for name in lunas:
                alike[name] += chose[name] == chose["base"]
            n += 1
        row = {
            name: {
                "ms_per_decision": round(1000 * cpu[name] / n, 1),
                "ratio": round(cpu[name] / cpu["base"], 3),
                "same_choice": round(alike[name] / n, 3),
            }
            for name in lunas
        }
        out[str(players)] = {"decisions": n, **row}
        print(json.dumps({players: out[str(players)]}), flush=True)
    out["load_after"] = os.getloadavg()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
