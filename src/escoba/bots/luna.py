"""Luna, the strongest robot: a determinized (information-set) Monte Carlo
search. (The benchmark cheater, `escoba.cheater`, runs the same search on the
true cards, its playouts to the round's end since it sees the deck; it lives
outside this package, for it reads the game state.)

For a decision Luna samples worlds consistent with everything her seat has
seen this round (`knowledge`), weighed by what the other players' plays of
this deal say about their hands (`inference`: a player who let the 7 of
diamonds lie probably could not take it). In each world she plays every
candidate action; the next player answers it as Carmen would (`reply`: the
answer is the step the outcome depends on most, and a careful player's rule
describes a real opponent better than a quick playout), and the rest of the
current deal is played by `policy.careful_playout`: every seat plays
Carmen's rule on the sim (what a play takes, less what the next player can
expect to take from the table it leaves, each value weighed by the chance
that player holds it, as judged from the mover's seat: nobody peeks). The
rest of the round is estimated as the analysis estimates it
(`policy.expected_points`: `HORIZON`, issue 35); the last deal is played to
its end.

Every candidate is played out in the *same* worlds (common random numbers):
the luck of a sample then hits all candidates alike, and their differences
show through far sooner than with independent samples. The value of a playout
is the round's point difference for her side (her pair, with four players)
against the other sides. She samples until `max_worlds` or her time budget,
whichever comes first, and always at least `min_worlds`. The mean value of
each action is then added to Carmen's judgement of it (`prior` times her
score, also in round points, with the next player's odds of holding each value
taken from the weighed worlds): a few dozen worlds are a noisy measure, her
judgement a steady one, and together they beat either alone.

Once nothing is hidden from her any more (two sides, the deck empty, one
other hand left: the last deal of a two-player round), the rest of the round
is solved exactly (`endgame`), and she chooses as above only among the moves
that are exactly best.

Those are all fixed: what a seated Luna plays by. Her constructor takes only
how long she may think (`budget`, `limit`, `clock`) and how many worlds
(`min_worlds`, `max_worlds`). The research variants (another playout, a
horizon, no reply, uniform worlds, no exact last deal, another weight of
Carmen's judgement) are `TunableLuna` of bench/research_luna.py, a subclass
the benchmarks use."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Final

from escoba.bots.base import legal_of, moves_of
from escoba.bots.endgame import known_world, solve
from escoba.bots.inference import BETA, PosteriorSampler, observations
from escoba.bots.judge import Judge
from escoba.bots.knowledge import Knowledge, knowledge
from escoba.bots.policy import careful_playout, expected_points
from escoba.bots.reply import CarmenReply
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine.actions import Action
from escoba.engine.rules import HAND_SIZE
from escoba.engine.view import View

#: What a decision's time is read from: seconds since some fixed moment, for
#: intervals only (`time.perf_counter`; a test's fake). Not the web app's
#: `Clock` (`web.base.clock`), which tells the date.
Timer = Callable[[], float]

#: The weight of Carmen's judgement added to each candidate's mean playout
#: value, both in round points (bench/RESULTS-bots.md: 0.7 and 1.5 did no
#: better).
PRIOR: Final = 1.0

#: The deals played out after the current one before the rest of the round
#: is estimated (`policy.expected_points`), as the analysis does (issue 35);
#: None: to the round's end. At 0 a decision costs 0.24 / 0.36 / 0.46 of
#: the playouts to the end at 2 / 3 / 4 players, for the same strength
#: against Carmen (−0.003 ± 0.027 points a round over 6,000 deal pairs,
#: bench/RESULTS-bots.md). `PlayedOutLuna` keeps them to the end.
HORIZON: Final = 0


def playout_stop(horizon: int | None, know: Knowledge) -> int:
    """The plays left in the round at which a playout cut `horizon` deals
    after the current one stops (0: it plays the round to its end)."""
    if horizon is None:
        return 0
    return max(0, know.deck_size - horizon * HAND_SIZE * know.players)


def answered(
    world: RoundSim,
    move: SimMove,
    i: int,
    reply: Callable[[RoundSim, int], None] | None,
) -> RoundSim:
    """A copy of `world` (left as it was) after candidate `i`, `move`, and
    the next player's `reply` to it, if any."""
    sim = world.copy()
    claim, card, group = move
    if claim:
        sim.claim(group)
    else:
        sim.play(card, group)
    if reply is not None:
        reply(sim, i)
    return sim


def side_value(sim: RoundSim, side: int) -> float:
    """The round's points of `side` less the other sides' mean, as they
    stand at its end (or as `expected_points` estimates them short of it)."""
    pts = sim.points() if sim.over else expected_points(sim)
    mine = pts[side]
    return mine - (sum(pts) - mine) / (len(pts) - 1)


def played_out(
    world: RoundSim,
    move: SimMove,
    i: int,
    side: int,
    rollout: Callable[[RoundSim], None],
    reply: Callable[[RoundSim, int], None] | None,
) -> float:
    """The value for `side` of candidate `i`, `move`, in `world` (left as it
    was): the move, the next player's `reply` if any, the `rollout` to the
    end (or its horizon), and `side_value` there."""
    sim = answered(world, move, i, reply)
    rollout(sim)
    return side_value(sim, side)


def search(
    sample: Callable[[random.Random], RoundSim],
    moves: Sequence[SimMove],
    side: int,
    rng: random.Random,
    *,
    clock: Timer,
    budget: float,
    min_worlds: int,
    max_worlds: int,
    rollout: Callable[[RoundSim], None] = careful_playout,
    reply: Callable[[RoundSim, int], None] | None = None,
    limit: float | None = None,
    start: float | None = None,
) -> tuple[int, list[float], int]:
    """The index of the best move, the total value of each move, and the
    number of worlds used. Stops at `max_worlds`, or once `min_worlds` are
    done and `budget` seconds of `clock` have passed or the next world, at
    the pace so far (the time spent over the worlds done), would end past
    it. With a `limit` (seconds), no world is begun that would end past it at
    that pace, even short of `min_worlds`: on a slow or busy machine a
    decision then still ends in time (the first world is always played).
    Both count from `start`, a reading of `clock` (default: now), so that
    what a decision spends before its search counts too."""
    if start is None:
        start = clock()
    totals = [0.0] * len(moves)
    worlds = 0
    while worlds < max_worlds:
        if worlds >= min_worlds or (limit is not None and worlds):
            elapsed = clock() - start
            ahead = elapsed + elapsed / worlds if worlds else elapsed
            if worlds >= min_worlds and (elapsed >= budget or ahead > budget):
                break
            if limit is not None and ahead > limit:
                break
        world = sample(rng)
        for i, move in enumerate(moves):
            totals[i] += played_out(world, move, i, side, rollout, reply)
        worlds += 1
    best = max(range(len(moves)), key=lambda i: totals[i])
    return best, totals, worlds


def _combine(
    totals: Sequence[float],
    worlds: int,
    legal: Sequence[Action],
    judge: Judge,
    prior: float,
    exact: Sequence[int] | None = None,
) -> Action:
    """The chosen action: the mean playout value of each plus `prior` times
    Carmen's judgement of it (both in round points). The judgement is a
    steady, low-noise opinion; the search corrects it where the worlds agree.
    With `exact` worths (`endgame`), only the exactly best actions compete."""
    values = [t / worlds + prior * judge.score(a) for t, a in zip(totals, legal, strict=True)]
    return best_action(legal, values, exact)


def best_action(
    legal: Sequence[Action], values: Sequence[float], exact: Sequence[int] | None = None
) -> Action:
    """The action of the highest value; with `exact` worths, among the
    exactly best actions only."""
    allowed: Sequence[int] = range(len(legal))
    if exact is not None:
        top = max(exact)
        allowed = [i for i in allowed if exact[i] == top]
    return legal[max(allowed, key=values.__getitem__)]


class Luna:
    name = "luna"
    display_name = "Luna"
    #: The next player's answer to each candidate: Carmen's rule (`reply`).
    replier: Callable[[Knowledge, Sequence[SimMove]], Callable[[RoundSim, int], None]] = CarmenReply
    #: The sharpness of the opponent model that weighs her worlds
    #: (`inference`).
    beta: float = BETA
    #: The weight of Carmen's judgement (`PRIOR`).
    prior: float = PRIOR
    #: Where her playouts stop (`HORIZON`).
    horizon: int | None = HORIZON

    def __init__(
        self,
        budget: float = 0.15,
        min_worlds: int = 6,
        max_worlds: int = 64,
        clock: Timer = time.perf_counter,
        limit: float | None = 0.4,
    ) -> None:
        """`budget`: the seconds of `clock` a decision spends once it has
        `min_worlds` worlds (`search`), never more than `max_worlds`;
        `limit`: the seconds a decision may take even short of `min_worlds`
        (None: no limit, for benchmarks that fix the number of worlds)."""
        self.budget = budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.clock = clock
        self.limit = limit

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        start = self.clock()  # the budget is the decision's, reading and weighing too
        know = knowledge(view)
        moves = moves_of(view, legal)
        known = known_world(know)  # then every sample is the one true world
        exact = solve(know.sample(rng), moves) if known else None
        sampler = self.posterior(view, know, rng)
        odds = sampler.value_odds((know.seat + 1) % know.players)
        return self.weigh(
            know,
            legal,
            moves,
            sampler.sample,
            rng,
            odds=odds,
            exact=exact,
            one_world=known,
            start=start,
        )

    def posterior(self, view: View, know: Knowledge, rng: random.Random) -> PosteriorSampler:
        """The worlds weighed by what the other players' plays of this deal
        say of their hands (`inference`)."""
        return PosteriorSampler(know, observations(view, know, self.beta), rng)

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
        """The choice among `legal` (`moves` in the sim): each answered by
        the next player (`replier`) and played out carefully in the worlds
        `sample` draws (only one when `one_world`: it is known), then
        combined with Carmen's judgement (with the next player's `odds` of
        holding each value) and, if given, kept to the `exact` best."""
        _, totals, worlds = search(
            sample,
            moves,
            know.base.side[know.seat],
            rng,
            clock=self.clock,
            budget=self.budget,
            min_worlds=1 if one_world else self.min_worlds,
            max_worlds=1 if one_world else self.max_worlds,
            rollout=partial(careful_playout, stop=playout_stop(self.horizon, know)),
            reply=self.replier(know, moves),
            limit=self.limit,
            start=start,
        )
        return _combine(totals, worlds, legal, Judge(know, odds), self.prior, exact)


class PlayedOutLuna(Luna):
    """Luna with her playouts to the round's end (`horizon` None), as she
    played before issue 35: for those who must not have them cut, never
    seated. The frozen `luna-2026-12` (the mark of issue 27) and the
    benchmark cheater, who sees the deck: cut like hers, the cheater lost
    0.66 points a round against Carmen (1,000 deal pairs), for the cut
    estimates exactly the deals it knows."""

    horizon = None
