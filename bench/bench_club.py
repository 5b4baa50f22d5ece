"""Choose the club player's temperature: its margin against Carmen and against
greedy (duplicate 2-player matches), and what its mistakes cost.

    .venv/bin/python bench/bench_club.py TEMPERATURES DEALS [SEED]
    .venv/bin/python bench/bench_club.py 0.05,0.1,0.2,0.4 1000 2026

For each temperature T it prints the two margins with their 95% intervals,
and, over the club player's own decisions in its match against Carmen (those
with a choice): how often it leaves Carmen's choice («slips»), what a slip
costs by Carmen's judgement (the score of her choice minus the score of its
choice, in round points: mean, median, 90th percentile, the share under 0.25
point), and, beside it, what a uniformly random other action would have cost
in the same positions (a blunder's price). One core, no processes.
"""

from __future__ import annotations

import random
import statistics
import sys
from dataclasses import dataclass, field

from escoba.bots import ROBOTS, get_robot
from escoba.bots.club import Club, draw, softmax_weights
from escoba.engine import Phase, RuleSet, apply, new_game, view
from escoba.tournament import TournamentSpec, deal_deck, percentile, run_tournament


@dataclass
class Slips:
    decisions: int = 0  # with a choice
    gaps: list[float] = field(default_factory=list)  # of the slips
    random_gaps: list[float] = field(default_factory=list)  # any other action, same positions


def slips(temperature: float, deals: int, seed: int) -> Slips:
    """The club player's decisions against Carmen on the tournament's decks."""
    club = Club(temperature)
    carmen = get_robot("carmen")
    out = Slips()
    for deal in range(deals):
        for club_seat in (0, 1):
            rng = random.Random(f"bench-club:{seed}:{deal}:{club_seat}")
            state = new_game(RuleSet(), 2, deal_deck(seed, deal), first_dealer=deal % 2)
            while state.phase is Phase.PLAYING:
                seat = state.round.turn
                v = view(state, seat)
                if seat != club_seat:
                    action = carmen.choose(v, rng)
                elif len(v.legal) == 1:
                    action = v.legal[0]
                else:
                    legal, scores = club.scores(v)
                    best = max(scores)
                    i = draw(softmax_weights(scores, temperature), rng)
                    out.decisions += 1
                    if scores[i] < best - 1e-9:
                        out.gaps.append(best - scores[i])
                    others = [best - s for s in scores if s < best - 1e-9]
                    if others:
                        out.random_gaps.append(statistics.fmean(others))
                    action = legal[i]
                state, _ = apply(state, seat, action)
    return out


def main() -> None:
    temperatures = [float(t) for t in sys.argv[1].split(",")]
    deals = int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 2026
    print(
        "| T | vs carmen | vs greedy | slips | slip cost mean / p50 / p90 | slips < 0.25 "
        "| a random other action's cost |"
    )
    print("|---|---|---|---|---|---|---|")
    for t in temperatures:
        name = f"club-{t:g}"
        ROBOTS[name] = lambda t=t: Club(t)  # type: ignore[misc]
        margins = []
        for other in ("carmen", "greedy"):
            spec = TournamentSpec(robots=(name, other), players=2, deals=deals, seeds=(seed,))
            figure = run_tournament(spec).matches[0].figures[0]
            lo, hi = figure.margin_ci95
            margins.append(f"{figure.margin:+.3f} [{lo:+.3f}, {hi:+.3f}]")
        s = slips(t, deals, seed)
        gaps = sorted(s.gaps)
        share = len(gaps) / s.decisions if s.decisions else 0.0
        cost = (
            f"{statistics.fmean(gaps):.3f} / {percentile(gaps, 50):.3f} / "
            f"{percentile(gaps, 90):.3f}"
            if gaps
            else "–"
        )
        small = sum(1 for g in gaps if g < 0.25) / len(gaps) if gaps else 0.0
        blunder = statistics.fmean(s.random_gaps) if s.random_gaps else 0.0
        print(
            f"| {t:g} | {margins[0]} | {margins[1]} | {100 * share:.1f}% of {s.decisions} "
            f"| {cost} | {100 * small:.0f}% | {blunder:.3f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
