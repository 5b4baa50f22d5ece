"""Engine speed on one core: random full rounds per second (2, 3 and 4
players, through `legal_actions` + `apply`, the path robots and the web use),
and `capture_groups` on random 12-card tables, warm (value pattern already in
the memo) and cold (memo cleared before each call), with the worst table.

    .venv/bin/python bench/bench_engine.py [--seconds 3] [--tables 2000]

Prints a markdown table; the figures in bench/RESULTS-engine.md come from it.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence

from escoba.engine import CARDS, Card, Phase, RuleSet, apply, captures, legal_actions, new_game
from escoba.engine.cards import shuffled_deck


def rounds_per_second(players: int, seconds: float, seed: int) -> tuple[float, float, int]:
    """Play random rounds for `seconds` of wall time. Returns rounds per CPU
    second of this process (what one core gives it, whatever else runs on the
    machine), rounds per wall second, and the rounds played."""
    rng = random.Random(seed)
    rules = RuleSet()
    rounds = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    deadline = wall0 + seconds
    while time.perf_counter() < deadline:
        state = new_game(rules, players, shuffled_deck(rng))
        while state.phase is Phase.PLAYING:
            state, _ = apply(state, state.round.turn, rng.choice(legal_actions(state)))
        rounds += 1
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    return rounds / cpu, rounds / wall, rounds


def random_tables(n: int, seed: int) -> list[tuple[Card, tuple[Card, ...]]]:
    """A played card and the 12 table cards around it, all distinct."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        picked = rng.sample(CARDS, 13)
        out.append((picked[0], tuple(picked[1:])))
    return out


def time_calls(
    cases: Sequence[tuple[Card, tuple[Card, ...]]], cold: bool, repeat: int
) -> list[float]:
    """Per table, the best of `repeat` timed calls, in microseconds."""
    per_call = []
    clock = time.perf_counter_ns
    memo = captures._memo
    capture_groups = captures.capture_groups
    for card, table in cases:
        best = None
        for _ in range(repeat):
            if cold:
                memo.clear()
            else:
                capture_groups(card, table)
            t0 = clock()
            capture_groups(card, table)
            dt = clock() - t0
            best = dt if best is None else min(best, dt)
        assert best is not None
        per_call.append(best / 1000)
    return per_call


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per player count")
    parser.add_argument("--tables", type=int, default=2000, help="random 12-card tables")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--warmup", type=float, default=2.0, help="seconds of play before measuring"
    )
    args = parser.parse_args(argv)

    print(f"Python {platform.python_version()} on {platform.machine()}, one process, one core")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    # The value-pattern memo of capture_groups fills during a process's first
    # ~1,000 rounds (a robot or a server runs far longer): measure after that.
    rounds_per_second(2, args.warmup, args.seed + 1)
    print("| measure | result |")
    print("|---|---|")
    for players in (2, 3, 4):
        cpu_rate, wall_rate, rounds = rounds_per_second(players, args.seconds, args.seed)
        print(
            f"| random full rounds, {players} players | {cpu_rate:,.0f} rounds per CPU second "
            f"({wall_rate:,.0f} per wall second, {rounds} rounds) |"
        )
        sys.stdout.flush()

    cases = random_tables(args.tables, args.seed)
    warm = time_calls(cases, cold=False, repeat=3)
    cold = time_calls(cases, cold=True, repeat=3)
    groups = [len(captures.capture_groups(c, t)) for c, t in cases]
    worst = max(range(len(cases)), key=cold.__getitem__)
    card, table = cases[worst]
    rows = [
        ("warm (memo hit), mean", statistics.mean(warm)),
        ("cold (memo cleared), mean", statistics.mean(cold)),
        ("cold, median", statistics.median(cold)),
    ]
    for label, micros in rows:
        print(f"| capture_groups, 12-card table, {label} | {micros:.2f} µs |")
    print(
        f"| capture_groups, 12-card table, cold, worst of {len(cases)} | {cold[worst]:.2f} µs "
        f"({card} on {' '.join(map(str, sorted(table)))}: {groups[worst]} groups) |"
    )
    print(f"| capture_groups, 12-card table, warm, worst | {max(warm):.2f} µs |")
    print(f"| groups per call, mean / max | {statistics.mean(groups):.2f} / {max(groups)} |")

    # the densest table there is: the twelve lowest cards, under an ace
    low = tuple(sorted(CARDS[:13]))
    dense = time_calls([(low[0], low[1:])], cold=True, repeat=20)[0]
    n = len(captures.capture_groups(low[0], low[1:]))
    print(f"| capture_groups, 1D on the 12 lowest cards, cold | {dense:.2f} µs ({n} groups) |")


if __name__ == "__main__":
    main()
