"""What every legal action of a seat is worth, from that seat's view alone:
the one seam between the analysis and a robot's search.

An evaluator takes a seat's view of its turn and a random source and gives,
for each of `view.legal`, the **expected round points**: the round's points
(everything scored in it, what was taken before this moment included) that
the seat's side can expect after that action, against the others. We call
the figure the *margin*:

- with 2 players, and with 4 (two pairs), the side's points less the other
  side's: every point counts, whoever wins or loses it (an escoba handed to
  the next player costs as much as one missed);
- with 3 players, the side's points less the mean of the two others' (Luna's
  value): a point that goes to one rival helps only one of the two, so it
  costs half a point, and a point missed costs a whole one.

That teaches best because it is what a play changes: a play can raise one's
own points or lower the others', and both count, by how much they matter to
winning the round. Each side's expected points are given too (`points`), so
a page can say «your side could expect 4.2 points, the other 3.6», and
each side's by scoring line (`lines`, `escoba.analysis.lines`: escobas,
cards, diamonds, sevens or la setenta, the 7 of diamonds, the leftover),
the sums the playouts scored, kept line by line.

`LunaEvaluator` is Luna's machinery (`escoba.bots`): what the seat knows
(`knowledge`), worlds drawn by the weighed posterior
(`inference.PosteriorSampler`: the other players' plays of this deal say
what they hold), every candidate answered by Carmen's rule (`reply`) and the
current deal played out carefully (`policy.careful_playout`) in the *same*
worlds (common random numbers, in `luna.search`'s order; at four players
one table round only, `ROUND_CUT_FOUR`), the rest of the round estimated
from the tallies (`HORIZON`: issue 35; the last deal is always played to
its end), and, once the seat can see the whole rest of the
round, the exact solver (`endgame.solve`) instead of samples. It samples
until the figures that could grade the play are precise enough
(`SE_TARGET`) or `WORLDS` are done. A rule that reads only the worlds'
figures, never a time budget, makes the result the same on a busy machine
as on a quiet one; the caller seeds the random source from what the seat
can see (`escoba.analysis.seeding`), so the figure never depends on a card
the seat could not see. Those settings are fixed, and stored with every
analysis (`describe`): the worlds, the posterior's pool and the stopping
rule are the evaluator's to vary; the analysis before issue 35 (every
playout to the round's end, 512 worlds) is bench/research_luna.py's
`PlayedOutEvaluator`.

A stronger robot plugs in by implementing `Evaluator` (its `evaluate` and
`describe`), nothing else of the analysis changes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Final, Protocol

from escoba.analysis.lines import LINES, line_points
from escoba.analysis.model import EvaluatorInfo, Method
from escoba.bots.base import moves_of
from escoba.bots.endgame import MAX_NODES, known_world, solve
from escoba.bots.inference import BETA, PosteriorSampler, observations
from escoba.bots.knowledge import Knowledge, knowledge
from escoba.bots.luna import answered
from escoba.bots.policy import careful_playout
from escoba.bots.reply import CarmenReply
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine.actions import Action
from escoba.engine.rules import HAND_SIZE
from escoba.engine.view import View

#: The most worlds of an analysis: bench/RESULTS-analysis.md measures the
#: noise and the CPU time that chose it.
WORLDS = 512
#: A search stops sampling a decision once the standard error of every
#: difference that could grade it (the best candidate less each other one,
#: `graded_pairs`) is at most this many round points, or at `WORLDS`; 0:
#: always `WORLDS`. With playouts cut at `HORIZON` the noise of a decision
#: varies far more than before (a quiet deal at two players, a sweep-prone
#: one at four), and the rule spends the worlds where it is: a third of
#: them on average, for a cost's spread over random sources of 0.089 rms
#: (with `SE_FOUR`) against the 0.092 of 512 worlds played out (issue 35,
#: bench/RESULTS-analysis.md). Before the cut it saved little: 8 % of the
#: playouts at 0.05, for more noise than the fixed search.
SE_TARGET = 0.09
#: The target at four players, where a decision's noise is highest and was
#: before (0.130 rms at 512 worlds played out, against 0.072 and 0.052 at
#: two and three players): 0.12 keeps it there (0.126) at three quarters of
#: the worlds 0.09 takes (bench/RESULTS-analysis.md).
SE_FOUR = 0.12
#: The deals a playout plays after the current one before the rest of the
#: round is estimated (`policy.expected_points`, line by line:
#: `lines.line_points`). At 0 the current deal is played out and the rest
#: estimated: 5 times less work than every playout to the round's end (the
#: analysis before issue 35), the half of a cost's noise that came from later
#: deals gone, and the marks of a round played out in 96 % of decisions
#: (bench/RESULTS-analysis.md).
HORIZON: Final = 0
#: At four players, before the last deal, a playout stops sooner: one table
#: round after the candidate (its answer and the two plays after it, the
#: mover's turn again), the rest of the round estimated as at `HORIZON`.
#: Four players spend the most on a decision (up to eleven plays after a
#: candidate, three hidden hands that rarely repeat); the cut takes 40 % of
#: that work away, and its noise is lower (0.110 rms against 0.126 at the
#: deal's end) for the same marks as a round played out in 95 % of
#: decisions (bench/RESULTS-analysis.md). The last deal is still played to
#: its end (the leftover is decided there).
ROUND_CUT_FOUR: Final = True
#: The escobas still to come after a cut playout, by the number of players
#: and of deals after the cut: careful playouts from the first play of a
#: deal to the round's end (150 random rounds each, 2026-12-06). Added to
#: every side's escobas in equal shares, the same for every candidate, they
#: change no margin and no cost; they keep each side's expected points
#: comparable with a round played to its end.
FUTURE_ESCOBAS: dict[int, tuple[float, ...]] = {
    2: (0.0, 0.16, 0.47, 0.82, 1.12, 1.54),
    3: (0.0, 0.32, 0.81, 1.24),
    4: (0.0, 0.58, 1.29),
}
#: The worlds sampled before the rule is first looked at, and how many more
#: between two looks.
MIN_WORLDS = 64
STEP_WORLDS = 16
#: Uniform deals the posterior weighs per position: at Luna's 256 the pool's
#: own luck added to the noise; more than 2,048 did not lower it.
POOL = 2048
#: Positions the exact solver may visit per action before it gives up (the
#: search then decides): a last deal at two players takes a few dozen.
EXACT_NODES = 5 * MAX_NODES
#: The settings of the search that an analysis stores (`describe`) and no
#: evaluator varies: Luna's playout (`policy.careful_playout`), worlds weighed
#: by the posterior at `inference.BETA`, every candidate answered by
#: Carmen's rule, the exact solver once nothing is hidden, and `HORIZON`.
SEARCH_SETTINGS: Final[dict[str, str | int | float | bool]] = {
    "rollout": "careful",
    "beta": BETA,
    "carmen_reply": True,
    "endgame": True,
    "horizon": HORIZON,
    "round_cut_four": ROUND_CUT_FOUR,
}


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The worth of each of `actions` (a view's legal actions, in order):
    `values[i]` the expected margin (see the module), `points[i]` each side's
    expected points. `method` says how: sampled worlds (`search`, with
    `samples[i][w]`, the margin in world w), the exact solver (`exact`: the
    rest of the round with every card known to the seat and perfect play
    after) or nothing to weigh (`forced`: one legal action).
    `lines[i][s][k]` is side s's expected points on scoring line k
    (`lines.LINES`) after action i: they add up to `points[i][s]` (empty:
    the evaluator does not split its figures by line)."""

    actions: tuple[Action, ...]
    values: tuple[float, ...]
    points: tuple[tuple[float, ...], ...]
    method: Method
    worlds: int
    samples: tuple[tuple[float, ...], ...] = ()
    lines: tuple[tuple[tuple[float, ...], ...], ...] = ()

    def best(self) -> int:
        """The index of the best action (the first of equals)."""
        top = max(self.values)
        return next(i for i, v in enumerate(self.values) if v >= top - 1e-9)

    def noise(self, i: int, j: int) -> float:
        """The standard error of `values[i] - values[j]`: the spread of the
        difference over the worlds (common to both), over their square root;
        0 for an exact or forced evaluation."""
        if self.method != "search" or i == j or self.worlds < 2:
            return 0.0
        diffs = [a - b for a, b in zip(self.samples[i], self.samples[j], strict=True)]
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        return math.sqrt(var / len(diffs))


class Evaluator(Protocol):
    """The seam: `evaluate(view, rng)` weighs every legal action of the
    view's seat (on its turn) from that view alone; `describe()` names the
    evaluator and its settings for the analysis it makes (stored with it)."""

    @property
    def display_name(self) -> str:
        """Who «would have played» the best action («Luna»: a name)."""
        ...

    def evaluate(self, view: View, rng: random.Random) -> Evaluation: ...

    def describe(self) -> EvaluatorInfo: ...


def margin(points: Sequence[float], side: int) -> float:
    """The side's points less the mean of the other sides' (see the module)."""
    mine = points[side]
    return mine - (sum(points) - mine) / (len(points) - 1)


def standard_error(a: Sequence[float], b: Sequence[float]) -> float:
    """The standard error of `mean(a) - mean(b)` over paired samples (the
    same worlds): the spread of the differences over their count's root."""
    n = len(a)
    if n < 2:
        return math.inf
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return math.sqrt(var / n)


def graded_pairs(values: Sequence[float]) -> list[tuple[int, int]]:
    """The differences whose standard error decides when a search may stop:
    the best candidate (the first of equals) less each of the others, for
    any of them may be the play made (a step's cost is the best's value
    less the play's)."""
    top = max(values)
    best = next(i for i, v in enumerate(values) if v >= top - 1e-9)
    return [(best, i) for i in range(len(values)) if i != best]


class LunaEvaluator:
    """Luna's search at `worlds` worlds (or fewer, with a stopping rule:
    `se`), see the module."""

    display_name = "Luna"
    #: Whether a horizon-0 search takes the figures of hands drawn before
    #: (`_search`) instead of playing them out again; the same figures
    #: either way (a test turns it off to check; an evaluator whose
    #: playouts read the deck's order must).
    reuse_worlds = True
    #: Whether a playout reads the deck's order (it plays past the current
    #: deal): else the posterior draws the hidden hands alone and leaves the
    #: deck unshuffled (`inference.PosteriorSampler`'s `hands_only`, stored
    #: as `pool_draw`: "hands"): the same worlds' law for about a third of
    #: the random draws.
    reads_deck = HORIZON > 0

    def __init__(
        self,
        worlds: int = WORLDS,
        pool: int = POOL,
        se: float = SE_TARGET,
        se_four: float | None = SE_FOUR,
        min_worlds: int = MIN_WORLDS,
        step_worlds: int = STEP_WORLDS,
    ) -> None:
        """`worlds`: the worlds a decision samples (the most, with a
        stopping rule); `se`: 0 for none, else the standard error (round
        points) of the graded differences (`graded_pairs`) at which sampling
        stops (`se_four` at four players, if given), looked at after
        `min_worlds` worlds and then every `step_worlds`. The rule reads
        only the worlds' figures, never a clock: the result is the same on a
        busy machine as on a quiet one, and a search that stops at n worlds
        gives exactly the figures of a fixed search of n worlds from the same
        random source; `pool`: the uniform deals the posterior weighs."""
        if worlds < 2:
            raise ValueError("an analysis needs at least two worlds")
        if se < 0 or min_worlds < 2 or step_worlds < 1:
            raise ValueError("a stopping rule needs se >= 0, min_worlds >= 2, step_worlds >= 1")
        self.worlds = worlds
        self.pool = pool
        self.se = se
        self.se_four = se_four
        self.min_worlds = min_worlds
        self.step_worlds = step_worlds

    def describe(self) -> EvaluatorInfo:
        settings = SEARCH_SETTINGS | {"worlds": self.worlds, "pool": self.pool}
        if not self.reads_deck:
            settings["pool_draw"] = "hands"
        if self.se > 0:
            if self.se_four:
                settings["se_four"] = self.se_four
            settings |= {
                "se": self.se,
                "min_worlds": self.min_worlds,
                "step_worlds": self.step_worlds,
            }
        return EvaluatorInfo("luna", self.display_name, tuple(sorted(settings.items())))

    def evaluate(self, view: View, rng: random.Random) -> Evaluation:
        legal = view.legal
        if not legal:
            raise ValueError("the view is not of its seat's turn")
        know = knowledge(view)
        side = know.base.side[know.seat]
        if len(legal) == 1:
            nsides = know.base.nsides
            zero = ((0.0,) * len(LINES),) * nsides
            return Evaluation(legal, (0.0,), ((0.0,) * nsides,), "forced", 0, (), (zero,))
        moves = moves_of(view, legal)
        if known_world(know):
            exact = exact_values(know.sample(rng), moves, side)
            if exact is not None:
                values, points, lines = exact
                return Evaluation(legal, values, points, "exact", 1, (), lines)
        obs = observations(view, know, BETA)
        sample = PosteriorSampler(know, obs, rng, self.pool, hands_only=not self.reads_deck).sample
        return self._search(know, legal, moves, sample, rng, side)

    def target(self, players: int) -> float:
        """The standard error a search at `players` stops at (0: none)."""
        if self.se <= 0:
            return 0.0
        return self.se_four if players == 4 and self.se_four else self.se

    def enough(
        self, samples: Sequence[Sequence[float]], worlds: int, se: float | None = None
    ) -> bool:
        """Whether a search may stop after `worlds` worlds (`samples[i][w]`:
        candidate i's margin in world w): at the cap; or, with a target `se`
        (default: `self.se`), at a look (`min_worlds`, then every
        `step_worlds`) where every graded difference's (`graded_pairs`)
        standard error is at most `se`."""
        if se is None:
            se = self.se
        if worlds >= self.worlds:
            return True
        if se <= 0 or worlds < self.min_worlds:
            return False
        if (worlds - self.min_worlds) % self.step_worlds:
            return False
        values = [sum(s) / worlds for s in samples]
        return all(standard_error(samples[i], samples[j]) <= se for i, j in graded_pairs(values))

    def playout(self, know: Knowledge) -> tuple[Callable[[RoundSim], None], float]:
        """How a world is played on after a candidate and its answer: the
        careful playout, cut `HORIZON` deals after the current one (at four
        players before the last deal, one table round after the candidate:
        `ROUND_CUT_FOUR`); and each
        side's share of the escobas still to come after the cut
        (`FUTURE_ESCOBAS`, 0 when the playout reaches the round's end)."""
        cut = max(0, know.deck_size - HORIZON * HAND_SIZE * know.players)
        if ROUND_CUT_FOUR and know.players == 4 and know.deck_size > 0:
            # one table round: the candidate and every other seat's play
            # (a claim is no play: it takes no card from a hand)
            cut = max(cut, know.base.plays_left - know.players)
        after = FUTURE_ESCOBAS.get(know.players, ())
        deals = cut // (HAND_SIZE * know.players)
        future = after[min(deals, len(after) - 1)] / know.base.nsides if after and deals else 0.0
        return partial(careful_playout, stop=cut), future

    def _search(
        self,
        know: Knowledge,
        legal: tuple[Action, ...],
        moves: Sequence[SimMove],
        sample: Callable[[random.Random], RoundSim],
        rng: random.Random,
        side: int,
    ) -> Evaluation:
        """Luna's search (`luna.search`'s worlds, in its order: one world
        drawn, every candidate answered by Carmen's rule and played out in
        it, then the next), each world's points kept by side and line,
        until `enough`. With a horizon of 0 (the current deal played out,
        the rest estimated), a world's figures depend on the hidden hands
        alone, never on the deck's order: a world whose hands were drawn
        before (the posterior draws its likely deals again and again) takes
        their figures instead of playing them out again."""
        playout, future = self.playout(know)
        nsides = know.base.nsides
        reply = CarmenReply(know, moves)
        n = len(moves)
        samples: list[list[float]] = [[] for _ in range(n)]
        points = [[0.0] * nsides for _ in range(n)]
        lines = [[[0.0] * len(LINES) for _ in range(nsides)] for _ in range(n)]
        seen: dict[tuple[tuple[int, ...], ...], list[tuple[float, list[float], list[list[float]]]]]
        seen = {}
        reuse = HORIZON == 0 and self.reuse_worlds
        target = self.target(know.players)
        worlds = 0
        while True:
            world = sample(rng)
            key = tuple([tuple(h) for h in world.hands]) if reuse else ()
            figures = seen.get(key) if reuse else None
            if figures is None:
                figures = []
                for i, move in enumerate(moves):
                    sim = answered(world, move, i, reply)
                    playout(sim)
                    by_line = line_points(sim)
                    if future and not sim.over:
                        for side_lines in by_line:
                            side_lines[0] += future
                    pts = [sum(side_lines) for side_lines in by_line]
                    figures.append((margin(pts, side), pts, by_line))
                if reuse:
                    seen[key] = figures
            for i, (value, pts, by_line) in enumerate(figures):
                samples[i].append(value)
                for s in range(nsides):
                    points[i][s] += pts[s]
                    acc = lines[i][s]
                    for k, x in enumerate(by_line[s]):
                        acc[k] += x
            worlds += 1
            if self.enough(samples, worlds, target):
                break
        return Evaluation(
            legal,
            tuple(sum(s) / worlds for s in samples),
            tuple(tuple(p / worlds for p in pts) for pts in points),
            "search",
            worlds,
            tuple(tuple(s) for s in samples),
            tuple(
                tuple(tuple(x / worlds for x in by_side) for by_side in by_line)
                for by_line in lines
            ),
        )


Lines = tuple[tuple[tuple[float, ...], ...], ...]


def exact_values(
    world: RoundSim, moves: Sequence[SimMove], side: int
) -> tuple[tuple[float, ...], tuple[tuple[float, ...], ...], Lines] | None:
    """Each move's exact margin in a known `world` (two sides), each side's
    points at the end of a perfect line after it, and those points by
    scoring line; None when the solver gives up."""
    values: list[float] = []
    points: list[tuple[float, ...]] = []
    lines: list[tuple[tuple[float, ...], ...]] = []
    for move in moves:
        child = world.copy()
        child.apply(move)
        line = perfect_line(child)
        if line is None:
            return None
        pts = line.points()
        values.append(float(margin(pts, side)))
        points.append(tuple(float(p) for p in pts))
        lines.append(tuple(tuple(by_line) for by_line in line_points(line)))
    return tuple(values), tuple(points), tuple(lines)


def perfect_line(sim: RoundSim, max_nodes: int = EXACT_NODES) -> RoundSim | None:
    """The round of `sim` (two sides, every card known) played to its end by
    perfect play on both sides (`endgame.solve` at every step: the first of
    the exactly best moves); None when the solver gives up."""
    sim = sim.copy()
    while not sim.over:
        moves = sim.legal_moves()
        if len(moves) == 1:
            sim.apply(moves[0])
            continue
        worths = solve(sim, moves, max_nodes)
        if worths is None:
            return None
        top = max(worths)
        sim.apply(moves[worths.index(top)])
    return sim
