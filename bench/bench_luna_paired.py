"""Luna's variants against Carmen on the same deals, compared pair by pair
(development aid for issue 16).

    .venv/bin/python bench/bench_luna_paired.py DEALS SEED JOBS VARIANT [VARIANT ...]
    .venv/bin/python bench/bench_luna_paired.py 500 11 2 base prior=0.8 beta=40

A VARIANT is `base` (today's Luna) or `key=value[,key=value...]`, keyword
arguments of `TunableLuna(...)` (bench/research_luna.py: Luna's settings and
the knobs of her research; numbers, `true`/`false`, or names); the Luna
before the careful playouts is `rollout=probable`. A try of `bench/tries/` is named
with its settings after a colon: `exact_earlier:worlds=16`. Each variant
plays every deal of SEED against Carmen in both seatings (the tournament's
decks and robot random sources), and prints its margin per round over Carmen
with the 95% interval. Then each variant is compared with the first: the
mean of the per-deal differences, whose interval is far narrower than either
margin's, because a deal's luck hits both alike and the two Lunas play alike
wherever they choose alike.

Decisions are made with a budget of 10 s and no limit, so `max_worlds` alone decides how
many worlds a decision samples: the results do not depend on the machine's
load (decision times are printed, but measure them on a quiet machine). A
variant may set `budget` and `limit` itself (`budget=0.15,limit=0.4`:
Luna's own) to be measured as she would play, by the clock. The
per-deal margins are kept in `bench/results/paired/` and reused (`base` under
a name that spells today's defaults, so a change of Luna is not mistaken for
her old self).
"""

from __future__ import annotations

import inspect
import json
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from escoba.bots.carmen import Carmen
from escoba.engine import SITE_RULES, Phase, apply, new_game, view
from escoba.tournament import deal_deck
from research_luna import TunableLuna

CACHE = Path(__file__).parent / "results" / "paired"


def parse(text: str) -> dict[str, Any]:
    if text == "base":
        return {}
    out: dict[str, Any] = {}
    for part in text.split(","):
        key, _, raw = part.partition("=")
        value: Any
        if raw in ("true", "false"):
            value = raw == "true"
        elif raw == "none":
            value = None
        else:
            try:
                value = int(raw)
            except ValueError:
                try:
                    value = float(raw)
                except ValueError:
                    value = raw
        out[key] = value
    return out


def make(variant: str) -> TunableLuna:
    """The Luna a variant names: `base`, `TunableLuna`'s settings, or a try of
    bench/tries/ by name and its settings (`exact_earlier:worlds=16`)."""
    name, colon, settings = variant.partition(":")
    fixed: dict[str, Any] = {"budget": 10.0, "limit": None}
    if not colon:
        return TunableLuna(**(fixed | parse(variant)))
    from tries import TRIES

    return TRIES[name](**(fixed | (parse(settings) if settings else {})))


def deal_pair(args: tuple[str, int, int]) -> tuple[int, float, list[float]]:
    """Luna's mean margin over Carmen in the two seatings of one deal, and
    her decision times."""
    variant, seed, deal = args
    luna = make(variant)
    carmen = Carmen()
    margin = 0.0
    times: list[float] = []
    for li, seating in enumerate(((luna, carmen), (carmen, luna))):
        rngs = [random.Random(f"escoba-robot:{seed}:{deal}:{li}:{s}") for s in range(2)]
        state = new_game(SITE_RULES, 2, deal_deck(seed, deal), first_dealer=deal % 2)
        while state.phase is Phase.PLAYING:
            seat = state.round.turn
            t0 = time.perf_counter()
            action = seating[seat].choose(view(state, seat), rngs[seat])
            if seating[seat] is luna:
                times.append(time.perf_counter() - t0)
            state, _ = apply(state, seat, action)
        points = [s.points for s in state.finished_rounds[-1].scores]
        mine = li  # Luna sits at seat 0, then seat 1
        margin += points[mine] - points[1 - mine]
    return deal, margin / 2, times


def cache_name(variant: str) -> str:
    if variant != "base":
        return variant.replace("/", "_").replace(":", "~")
    defaults = inspect.signature(TunableLuna).parameters
    shown = ("rollout", "max_worlds", "prior", "beta", "carmen_reply", "endgame", "horizon")
    return "base(" + ",".join(f"{k}={defaults[k].default}" for k in shown) + ")"


def margins(variant: str, seed: int, deals: int, jobs: int) -> list[float]:
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{cache_name(variant)}@{seed}.json"
    known: dict[str, float] = json.loads(path.read_text()) if path.exists() else {}
    todo = [(variant, seed, d) for d in range(deals) if str(d) not in known]
    if todo:
        t0 = time.perf_counter()
        times: list[float] = []
        with Pool(jobs) as pool:
            for deal, margin, ts in pool.imap_unordered(deal_pair, todo, chunksize=2):
                known[str(deal)] = margin
                times.extend(ts)
        times.sort()
        path.write_text(json.dumps(known))
        if times:
            p95 = times[int(0.95 * (len(times) - 1))]
            print(
                f"  {variant}: {len(todo)} deals in {time.perf_counter() - t0:.0f} s, "
                f"decision p95 {1000 * p95:.1f} ms, max {1000 * times[-1]:.1f} ms",
                file=sys.stderr,
            )
    return [known[str(d)] for d in range(deals)]


def interval(xs: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
    return mean, half


def main() -> None:
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    deals, seed, jobs = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    variants = sys.argv[4:]
    results = {v: margins(v, seed, deals, jobs) for v in variants}
    first = variants[0]
    print(f"seed {seed}, {deals} deal pairs, against Carmen")
    for v, xs in results.items():
        m, h = interval(xs)
        line = f"{v:40s} {m:+.3f} ± {h:.3f}"
        if v != first:
            d, dh = interval([a - b for a, b in zip(xs, results[first], strict=True)])
            same = sum(1 for a, b in zip(xs, results[first], strict=True) if a == b)
            line += f"   vs {first}: {d:+.3f} ± {dh:.3f} ({same} deals alike)"
        print(line)


if __name__ == "__main__":
    main()
