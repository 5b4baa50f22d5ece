"""Luna with the knobs of her research (issues 16, 27, 35): the settings a
seated Luna never changes, kept here for the benchmarks that try them
(bench_luna_paired.py, bench_bots_variants.py, the tries of bench/tries/);
and the analysis as it was before issue 35 (`PlayedOutEvaluator`).

`TunableLuna()` at its defaults is `escoba.bots.luna.Luna` and plays as she
does, choice for choice (tests/bots/test_bench_tries.py); each knob's default is
what she always does in src/:

- `rollout`: the playout by name (playouts.py's `PLAYOUTS`; hers: `careful`);
- `prior`: the weight of Carmen's judgement (`luna.PRIOR`; 0: none);
- `beta`: the sharpness of the opponent model that weighs the worlds
  (`inference.BETA`; 0: uniform worlds);
- `horizon`: the deals played out after the current one before the
  position is scored by `policy.expected_points` (hers: `luna.HORIZON`, 0;
  None: to the round's end, as she played before issue 35);
- `carmen_reply`: the candidates are answered by Carmen's rule (`reply`);
- `endgame`: once she sees the whole rest of the round, only the exactly
  best moves compete (`endgame`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

from escoba.analysis import EvaluatorInfo, LunaEvaluator
from escoba.analysis.evaluator import WORLDS
from escoba.bots.base import legal_of, moves_of
from escoba.bots.endgame import known_world, solve
from escoba.bots.inference import BETA
from escoba.bots.judge import Judge
from escoba.bots.knowledge import Knowledge, knowledge
from escoba.bots.luna import (
    HORIZON,
    PRIOR,
    Luna,
    Timer,
    _combine,
    best_action,
    playout_stop,
    search,
)
from escoba.bots.policy import careful_playout
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine.actions import Action
from escoba.engine.view import View
from playouts import PLAYOUTS


class TunableLuna(Luna):
    """Luna, every setting of her search a knob (see the module)."""

    def __init__(
        self,
        budget: float = 0.15,
        min_worlds: int = 6,
        max_worlds: int = 64,
        clock: Timer = time.perf_counter,
        rollout: str = "careful",
        prior: float = PRIOR,
        beta: float = BETA,
        horizon: int | None = HORIZON,
        carmen_reply: bool = True,
        endgame: bool = True,
        limit: float | None = 0.4,
    ) -> None:
        super().__init__(
            budget=budget, min_worlds=min_worlds, max_worlds=max_worlds, clock=clock, limit=limit
        )
        self.rollout = PLAYOUTS[rollout]
        self.prior = prior
        self.beta = beta
        self.horizon = horizon
        self.carmen_reply = carmen_reply
        self.endgame = endgame

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        start = self.clock()
        know = knowledge(view)
        moves = moves_of(view, legal)
        sample = know.sample
        odds = None
        known = known_world(know)
        exact = solve(know.sample(rng), moves) if known and self.endgame else None
        if self.beta > 0:
            sampler = self.posterior(view, know, rng)
            sample = sampler.sample
            odds = sampler.value_odds((know.seat + 1) % know.players)
        return self.weigh(
            know, legal, moves, sample, rng, odds=odds, exact=exact, one_world=known, start=start
        )

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
        _, totals, worlds = search(
            sample,
            moves,
            know.base.side[know.seat],
            rng,
            clock=self.clock,
            budget=self.budget,
            min_worlds=1 if one_world else self.min_worlds,
            max_worlds=1 if one_world else self.max_worlds,
            rollout=cut_at(self.rollout, self.horizon, know),
            reply=self.replier(know, moves) if self.carmen_reply else None,
            limit=self.limit,
            start=start,
        )
        return combined(
            totals, worlds, legal, Judge(know, odds) if self.prior else None, self.prior, exact
        )


def combined(
    totals: Sequence[float],
    worlds: int,
    legal: Sequence[Action],
    judge: Judge | None,
    prior: float,
    exact: Sequence[int] | None = None,
) -> Action:
    """Luna's choice (`luna._combine`), or with no judgement (a prior of 0,
    a knob no robot turns: no `Judge` made) the search's values alone."""
    if judge is None or not prior:
        return best_action(legal, [t / worlds for t in totals], exact)
    return _combine(totals, worlds, legal, judge, prior, exact)


def cut_at(
    policy: Callable[..., None], horizon: int | None, know: Knowledge
) -> Callable[[RoundSim], None]:
    """The playout `policy`, cut `horizon` deals after the current one if
    given (None: to the round's end)."""
    if horizon is None:
        return policy
    return partial(policy, stop=playout_stop(horizon, know))


class PlayedOutEvaluator(LunaEvaluator):
    """The analysis before issue 35: every playout to the round's end, and
    exactly `worlds` worlds a decision (no stopping rule); its settings are
    those its analyses stored (no `horizon`). bench/RESULTS-analysis.md
    compares it with today's cut playouts."""

    reuse_worlds = False  # a playout to the round's end reads the deck's order
    reads_deck = True

    def __init__(self, worlds: int = WORLDS) -> None:
        super().__init__(worlds, se=0.0)

    def playout(self, know: Knowledge) -> tuple[Callable[[RoundSim], None], float]:
        return careful_playout, 0.0

    def describe(self) -> EvaluatorInfo:
        info = super().describe()
        cut = ("horizon", "round_cut_four")
        return replace(info, settings=tuple(kv for kv in info.settings if kv[0] not in cut))
