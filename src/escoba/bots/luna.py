"""Luna, the strongest robot: a determinized (information-set) Monte Carlo
search, and the benchmark cheater that runs the same search on the true cards.

For a decision Luna samples worlds consistent with everything her seat has
seen this round (`knowledge`), and in each world plays every candidate action
followed by the rest of the round under the fast policy of
`policy.informed_playout` (greedy, shy of leaving a sweep to a player who, in
that world, holds the sweeping card).
Every candidate is played out in the *same* worlds (common random numbers):
the luck of a sample then hits all candidates alike, and their differences
show through far sooner than with independent samples. The value of a playout
is the round's point difference for her side (her pair, with four players)
against the other sides. She samples until `max_worlds` or her time budget,
whichever comes first, and always at least `min_worlds`. The mean value of
each action is then added to Carmen's judgement of it (`prior` times her
score, also in round points): a few dozen worlds are a noisy measure, her
judgement a steady one, and together they beat either alone.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from escoba.bots.base import legal_of, move_of
from escoba.bots.carmen import carmen_judge
from escoba.bots.knowledge import knowledge
from escoba.bots.policy import informed_playout, playout
from escoba.bots.sim import Move, RoundSim
from escoba.engine.actions import Action
from escoba.engine.state import GameState
from escoba.engine.view import View, view

Clock = Callable[[], float]


def search(
    sample: Callable[[random.Random], RoundSim],
    moves: Sequence[Move],
    side: int,
    rng: random.Random,
    *,
    clock: Clock,
    budget: float,
    min_worlds: int,
    max_worlds: int,
    rollout: Callable[[RoundSim], None] = playout,
) -> tuple[int, list[float], int]:
    """The index of the best move, the total value of each move, and the
    number of worlds used. Stops at `max_worlds`, or once `budget` seconds of
    `clock` have passed and `min_worlds` are done."""
    start = clock()
    totals = [0.0] * len(moves)
    worlds = 0
    while worlds < max_worlds:
        if worlds >= min_worlds and clock() - start >= budget:
            break
        world = sample(rng)
        for i, (claim, card, group) in enumerate(moves):
            sim = world.copy()
            if claim:
                sim.claim(group)
            else:
                sim.play(card, group)
            rollout(sim)
            pts = sim.points()
            mine = pts[side]
            others = (sum(pts) - mine) / (len(pts) - 1)
            totals[i] += mine - others
        worlds += 1
    best = max(range(len(moves)), key=lambda i: totals[i])
    return best, totals, worlds


def _combine(
    totals: Sequence[float], worlds: int, legal: Sequence[Action], v: View, prior: float
) -> int:
    """The chosen index: the mean playout value of each action plus `prior`
    times Carmen's judgement of it (both in round points). The judgement is a
    steady, low-noise opinion; the search corrects it where the worlds agree."""
    values = [t / worlds for t in totals]
    if prior:
        judge = carmen_judge(knowledge(v))
        values = [x + prior * judge.score(a) for x, a in zip(values, legal, strict=True)]
    return max(range(len(legal)), key=values.__getitem__)


class Luna:
    name = "luna"
    display_name = "Luna"

    def __init__(
        self,
        budget: float = 0.08,
        min_worlds: int = 6,
        max_worlds: int = 64,
        clock: Clock = time.perf_counter,
        informed: bool = True,
        prior: float = 1.5,
    ) -> None:
        self.prior = prior
        self.rollout = informed_playout if informed else playout
        self.budget = budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.clock = clock

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        know = knowledge(view)
        claim_card = -1 if view.claimable is None else int(view.claimable)
        moves = [move_of(a, claim_card) for a in legal]
        _, totals, worlds = search(
            know.sample,
            moves,
            know.base.side[know.seat],
            rng,
            clock=self.clock,
            budget=self.budget,
            min_worlds=self.min_worlds,
            max_worlds=self.max_worlds,
            rollout=self.rollout,
        )
        if self.prior:
            judge = carmen_judge(know)
            values = [
                t / worlds + self.prior * judge.score(a) for t, a in zip(totals, legal, strict=True)
            ]
        else:
            values = totals
        return legal[max(range(len(legal)), key=values.__getitem__)]


class Cheater:
    """Benchmark only, never seated: Luna's search with the true hidden cards
    (the other hands and the deck order) instead of samples. The playouts are
    then all the same, so one world is enough. It measures how much Luna's
    uncertainty costs her: the ceiling of this kind of search."""

    name = "cheater"
    display_name = "Tramposo"
    omniscient = True

    def __init__(self, informed: bool = True, prior: float = 1.5) -> None:
        self.rollout = informed_playout if informed else playout
        self.prior = prior

    def choose_seeing(self, state: GameState, seat: int, rng: random.Random) -> Action:
        seat_view = view(state, seat)
        legal = legal_of(seat_view)
        if len(legal) == 1:
            return legal[0]
        true_world = RoundSim.from_state(state)
        claim = state.round.claim
        claim_card = -1 if claim is None else int(claim.card)
        moves = [move_of(a, claim_card) for a in legal]
        _, totals, _ = search(
            lambda _rng: true_world,
            moves,
            true_world.side[seat],
            rng,
            clock=time.perf_counter,
            budget=0.0,
            min_worlds=1,
            max_worlds=1,
            rollout=self.rollout,
        )
        return legal[_combine(totals, 1, legal, seat_view, self.prior)]
