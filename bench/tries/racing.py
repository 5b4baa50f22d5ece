"""Racing (a try of issue 27): the same playouts as Luna's, spent where they
decide something. Luna plays every candidate in every world; most
candidates are plainly worse after a dozen worlds, and the rest of her
playouts measure them again for nothing. Here every candidate is played in
`first` worlds, then, world by world, only those still within reach of the
best (their mean, with Carmen's judgement added, less than `reach`
standard errors of the paired difference below the leader's), until the
playouts Luna would have spent (`max_worlds` per candidate) are spent or
one candidate is left. The survivors reach several times Luna's worlds for
the same work.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from escoba.bots.judge import Judge
from escoba.bots.knowledge import Knowledge
from escoba.bots.luna import played_out
from escoba.bots.reply import CarmenReply
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine.actions import Action
from research_luna import TunableLuna, cut_at


class LunaRacing(TunableLuna):
    def __init__(
        self, first: int = 12, reach: float = 2.0, cap: int = 512, **kwargs: object
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.first = first
        self.reach = reach
        self.cap = cap

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
        if one_world:
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
        side = know.base.side[know.seat]
        rollout = cut_at(self.rollout, self.horizon, know)
        reply = CarmenReply(know, moves) if self.carmen_reply else None
        judge = Judge(know, odds) if self.prior else None
        prior = [self.prior * judge.score(a) if judge else 0.0 for a in legal]
        allowed = list(range(len(moves)))
        if exact is not None:
            top = max(exact)
            allowed = [i for i in allowed if exact[i] == top]
        values: list[list[float]] = [[] for _ in moves]
        budget = self.max_worlds * len(allowed)
        spent = 0
        alive = allowed[:]
        worlds = 0
        while spent + len(alive) <= budget and worlds < self.cap:
            world = sample(rng)
            for i in alive:
                values[i].append(played_out(world, moves[i], i, side, rollout, reply))
            spent += len(alive)
            worlds += 1
            if worlds >= self.first and len(alive) > 1:
                alive = self._survivors(alive, values, prior, worlds)
                if len(alive) == 1:
                    break
        # the leader by the worlds all survivors share
        n = min(len(values[i]) for i in alive)
        best = max(alive, key=lambda i: sum(values[i][:n]) / n + prior[i])
        return legal[best]

    def _survivors(
        self, alive: list[int], values: list[list[float]], prior: list[float], n: int
    ) -> list[int]:
        means = {i: sum(values[i][-n:]) / n + prior[i] for i in alive}
        lead = max(alive, key=means.__getitem__)
        out = []
        for i in alive:
            if i == lead:
                out.append(i)
                continue
            diffs = [a - b for a, b in zip(values[lead][-n:], values[i][-n:], strict=True)]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            se = (var / n) ** 0.5
            if means[lead] - means[i] < self.reach * se + 1e-9:
                out.append(i)
        return out
