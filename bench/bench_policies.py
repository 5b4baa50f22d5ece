"""Playout policies head to head on the sim, on duplicate deals (development
aid for issue 27: a search's playouts are only as good as the policy that
plays them, so a stronger quick policy is measured here before Luna uses it).

    .venv/bin/python bench/bench_policies.py DEALS SEED JOBS A B [--players N] [--out FILE]
    .venv/bin/python bench/bench_policies.py 20000 1 2 sharp careful --out sharp.jsonl

A and B are names of `PLAYOUT_MOVES` below, optionally with keyword
settings after a colon (`sharp:reply=0.8,last=0.5`: bench/tries/sharp.py).
Each deal is played in both seatings on `RoundSim` (the engine's rules, ten
times faster): with two players A against B; with four, A's pair against B's.
It prints A's margin per round over B with its 95% interval (mean ± 1.96
standard errors over the deal pairs); `--out` adds it, with the margin
of every deal pair, as a line of a JSON-lines file.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
from collections.abc import Callable
from multiprocessing import Pool

from escoba.bots.policy import careful_move, unplayed_of
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine.cards import FIFTEEN, VALUE
from escoba.engine.rules import HAND_SIZE, SITE_RULES, TABLE_SIZE
from playouts import greedy_move, probable_move
from tries.endplay import end_minimax, end_reply
from tries.sharp import Sharp

#: A quick player: the move of the seat on turn, from the sim and the count
#: and fixed worth of the cards of each value still in hands or deck.
Mover = Callable[[RoundSim, list[int], list[float]], SimMove]

#: The players, by name; their settings are keyword arguments.
PLAYOUT_MOVES: dict[str, Callable[..., Mover]] = {
    "careful": lambda: careful_move,
    "probable": lambda: lambda sim, count, worth: probable_move(sim, count),
    "greedy": lambda: lambda sim, count, worth: greedy_move(sim),
    "sharp": Sharp,
    "end_minimax": lambda: end_minimax,
    "end_reply": lambda: end_reply,
}


def new_round(players: int, dealer: int, deck: list[int]) -> RoundSim:
    """A round dealt from `deck` (card numbers) as the engine deals it: three
    to each from the dealer's right, four to the table, the dealer's take of a
    table of 15 or 30."""
    sim = RoundSim.empty(players, SITE_RULES)
    sim.dealer = dealer
    pos = 0
    for k in range(1, players + 1):
        sim.hands[(dealer + k) % players] = deck[pos : pos + HAND_SIZE]
        pos += HAND_SIZE
    table = sorted(deck[pos : pos + TABLE_SIZE])
    pos += TABLE_SIZE
    sim.deck = deck[pos:]
    total = sum(VALUE[c] for c in table)
    if total in (FIFTEEN, 2 * FIFTEEN):
        side = sim.side[dealer]
        sim.add_captured(side, table)
        sim.escobas[side] += 1 if total == FIFTEEN else 2
        sim.last = dealer
        table = []
    sim.table = table
    sim.turn = (dealer + 1) % players
    sim.plays_left = players * HAND_SIZE + len(sim.deck)
    return sim


def play_round(sim: RoundSim, movers: list[Mover]) -> list[int]:
    """The round played to its end, seat k by `movers[k]`; each side's points."""
    count, worth = unplayed_of(sim)
    gain = sim.gain
    while not sim.over:
        move = movers[sim.turn](sim, count, worth)
        if not move[0]:
            count[VALUE[move[1]]] -= 1
            worth[VALUE[move[1]]] -= gain[move[1]]
        sim.apply(move)
    return sim.points()


def deal_pair(args: tuple[str, str, int, int, int]) -> float:
    """A's margin per round over B on one deal, the mean of both seatings."""
    a, b, players, seed, deal = args
    deck = list(range(40))
    random.Random(f"policies:{seed}:{deal}").shuffle(deck)
    margin = 0.0
    for swap in (False, True):
        # A sits at the even seats, then at the odd ones (its pair with four)
        names = [(b if swap else a) if s % 2 == 0 else (a if swap else b) for s in range(players)]
        movers = [_mover(n) for n in names]
        pts = play_round(new_round(players, deal % players, deck), movers)
        side_a = 1 if swap else 0
        margin += pts[side_a] - pts[1 - side_a]
    return margin / 2


_MOVERS: dict[str, Mover] = {}


def _mover(spec: str) -> Mover:
    found = _MOVERS.get(spec)
    if found is None:
        name, _, settings = spec.partition(":")
        kwargs: dict[str, float] = {}
        for part in filter(None, settings.split(",")):
            key, _, raw = part.partition("=")
            kwargs[key] = float(raw)
        make: Callable[..., Mover] = PLAYOUT_MOVES[name]
        found = _MOVERS[spec] = make(**kwargs)
    return found


def main() -> None:
    argv = sys.argv[1:]
    players, out = 2, None
    if "--players" in argv:
        at = argv.index("--players")
        players = int(argv[at + 1])
        del argv[at : at + 2]
    if "--out" in argv:
        at = argv.index("--out")
        out = argv[at + 1]
        del argv[at : at + 2]
    if len(argv) != 5:
        raise SystemExit(__doc__)
    deals, seed, jobs, a, b = int(argv[0]), int(argv[1]), int(argv[2]), argv[3], argv[4]
    todo = [(a, b, players, seed, d) for d in range(deals)]
    with Pool(jobs) as pool:
        margins = pool.map(deal_pair, todo, chunksize=64)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / len(margins) ** 0.5
    print(
        f"{a} vs {b}, {players} players, {deals} deal pairs, seed {seed}: {mean:+.3f} ± {half:.3f}"
    )
    if out:
        record = {"a": a, "b": b, "players": players, "deals": deals, "seed": seed}
        record |= {"margin": mean, "half_interval": half, "per_deal": margins}
        with open(out, "a") as f:
            f.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
