"""Exact search earlier (issue 27's third direction): from the second-to-last
deal of a two-player round, each sampled world is solved to the round's end
by the endgame solver (alpha-beta with every card known) instead of played
out by Carmen's rule; the worths are averaged over the worlds.

Each world is a game of perfect information, so both sides are credited
with seeing every card from there on (the strategy fusion that Luna's fair
playouts avoid), and the opponent with perfect play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from escoba.bots.base import legal_of, moves_of
from escoba.bots.endgame import _after, _OutOfNodes, known_world, solve
from escoba.bots.inference import PosteriorSampler, observations
from escoba.bots.judge import Judge
from escoba.bots.knowledge import knowledge
from escoba.bots.luna import _combine
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine.actions import Action
from escoba.engine.view import View
from research_luna import TunableLuna


def solve_each(world: RoundSim, moves: Sequence[SimMove], max_nodes: int) -> list[int] | None:
    """The exact worth of every one of `moves` (not only of the best)."""
    nodes = [0]
    try:
        return [_after(world, m, -1_000, 1_000, nodes, max_nodes) for m in moves]
    except _OutOfNodes:
        return None


class LunaExactEarlier(TunableLuna):
    """Luna, with each world of a two-player round solved exactly once the
    deck holds `deck_at_most` cards or fewer (6: the second-to-last deal),
    in `worlds` worlds; `prior` of Carmen's judgement is added as ever."""

    def __init__(self, deck_at_most: int = 6, worlds: int = 24, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.deck_at_most = deck_at_most
        self.worlds = worlds

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = legal_of(view)
        know = knowledge(view)
        if (
            len(legal) == 1
            or know.base.nsides != 2
            or know.players != 2
            or known_world(know)
            or know.deck_size > self.deck_at_most
        ):
            return super().choose(view, rng)
        moves = moves_of(view, legal)
        sampler = PosteriorSampler(know, observations(view, know, self.beta), rng)
        totals = [0.0] * len(moves)
        done = 0
        for _ in range(self.worlds):
            worths = solve_each(sampler.sample(rng), moves, 400_000)
            if worths is None:
                continue
            totals = [t + w for t, w in zip(totals, worths, strict=True)]
            done += 1
        if not done:
            return super().choose(view, rng)
        odds = sampler.value_odds((know.seat + 1) % know.players)
        return _combine(totals, done, legal, Judge(know, odds), self.prior)


__all__ = ["LunaExactEarlier", "solve", "solve_each"]
