"""Luna's next move searched too, on her own information set (issue 27).

Today's Luna plays every candidate in each world, lets Carmen answer, and
plays the rest out by Carmen's rule, her own next move included: one step of
improvement over Carmen's rule. Here, in a two-player round where she holds
two cards or more, her next move of the deal is searched as well, without
seeing the world: the worlds in which a candidate met the same answer (the
same table and tallies after it: what she will have seen) form one of her
information sets, and there every move of hers is played out in each of its
worlds; she then plays, in each world, the move that did best in the *other*
worlds of that set (leave one out, so that a world's luck does not choose
its own move: no strategy fusion, and no optimism from picking a maximum of
noisy means). A set of one world plays Carmen's rule, as today. The
candidate's worth in a world is what that play then makes; Carmen's
judgement is added as ever.

Against today's Luna on the same 500 deals: −0.029 ± 0.070
(bench/RESULTS-bots.md, «Issue 27, the other directions»). Not kept.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from escoba.bots.judge import Judge
from escoba.bots.knowledge import Knowledge
from escoba.bots.luna import answered, side_value
from escoba.bots.reply import CarmenReply
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine.actions import Action
from research_luna import TunableLuna, combined

Key = tuple[object, ...]


def _public(sim: RoundSim) -> Key:
    """What the searcher sees of `sim`, her own hand aside (the same in
    every world of a decision)."""
    return (
        tuple(sim.table),
        tuple(sim.cards),
        tuple(sim.diamonds),
        tuple(sim.sevens),
        tuple(sim.escobas),
        sim.seven_d,
        sim.claim_card,
        sim.claim_seat,
        sim.plays_left,
    )


class LunaTwoStep(TunableLuna):
    """Luna with her next move of the deal searched on her information sets
    (the module's docstring); `max_worlds` worlds a decision."""

    def weigh(
        self,
        know: Knowledge,
        legal: Sequence[Action],
        moves: Sequence[SimMove],
        sample: Callable[[random.Random], RoundSim],
        rng: random.Random,
        *,
        odds: Sequence[float] | None,
        exact: Sequence[int] | None,
        one_world: bool,
        start: float | None = None,
    ) -> Action:
        if one_world or know.players != 2 or len(know.hand) < 2:
            return super().weigh(
                know,
                legal,
                moves,
                sample,
                rng,
                odds=odds,
                exact=exact,
                one_world=one_world,
                start=start,
            )
        seat = know.seat
        side = know.base.side[seat]
        reply = CarmenReply(know, moves)
        totals = [0.0] * len(moves)
        sets: dict[tuple[int, Key], list[RoundSim]] = {}
        for _ in range(self.max_worlds):
            world = sample(rng)
            for i, move in enumerate(moves):
                sim = answered(world, move, i, reply)
                if (
                    sim.over
                    or sim.turn != seat
                    or len(sim.hands[seat]) != len(know.hand) - (0 if move[0] else 1)
                ):
                    # no next move of this deal to search: played out as today
                    self.rollout(sim)
                    totals[i] += side_value(sim, side)
                else:
                    sets.setdefault((i, _public(sim)), []).append(sim)
        for (i, _), sims in sets.items():
            if len(sims) == 1:  # her next move by Carmen's rule, as today
                self.rollout(sims[0])
                totals[i] += side_value(sims[0], side)
                continue
            nexts = sims[0].legal_moves()
            values = []
            for sim in sims:
                row = []
                for move in nexts:
                    after = sim.copy()
                    after.apply(move)
                    self.rollout(after)
                    row.append(side_value(after, side))
                values.append(row)
            sums = [sum(col) for col in zip(*values, strict=True)]
            for row in values:
                best = max(range(len(nexts)), key=lambda k: sums[k] - row[k])
                totals[i] += row[best]
        judge = Judge(know, odds) if self.prior else None
        return combined(totals, self.max_worlds, legal, judge, self.prior, exact)
