"""The answer as Carmen gives it (a try of issue 27). Luna's reply model
(`reply.CarmenReply`) works Carmen's judgement out once per candidate, for
every world alike, with Carmen's own hand among the cards she cannot see;
the real Carmen knows her hand, and her odds of what Luna holds leave it
out. Here the answer in each world is Carmen's rule with her knowledge in
that world: her hand known, the rest unseen. In the true world it is
Carmen's real answer wherever she answers with a play
(tests/bots/test_bench_tries.py); `CarmenReply`'s was hers in 1,166 of
the 1,200 answers to Luna's choices in her games against Carmen (seed 2026,
deals 0-39)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from escoba.bots.judge import Judge
from escoba.bots.knowledge import Knowledge
from escoba.bots.reply import BestPlays, CarmenReply
from escoba.bots.sim import RoundSim, SimMove
from research_luna import TunableLuna


class ExactReply(CarmenReply):
    """`CarmenReply` with the judgement of each world's Carmen: her hand
    taken out of the cards she cannot see."""

    def __init__(self, know: Knowledge, moves: Sequence[SimMove]) -> None:
        super().__init__(know, moves)
        self.by_hand: dict[tuple[int, tuple[int, ...]], tuple[Judge, BestPlays]] = {}

    def judgement(self, sim: RoundSim, i: int) -> tuple[Judge, BestPlays]:
        hand = tuple(sorted(sim.hands[sim.turn]))
        found = self.by_hand.get((i, hand))
        if found is None:
            general, _ = super().judgement(sim, i)
            k = general.know
            unseen = tuple(c for c in k.unseen if c not in hand)
            found = self.by_hand[(i, hand)] = (Judge(replace(k, unseen=unseen)), {})
        return found


class LunaExactReply(TunableLuna):
    replier = ExactReply
