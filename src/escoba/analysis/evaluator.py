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

`LunaEvaluator` is Luna's machinery (`escoba.bots`) at a fixed number of
worlds: what the seat knows (`knowledge`), worlds drawn by the weighed
posterior (`inference.PosteriorSampler`: the other players' plays of this
deal say what they hold), every candidate answered by Carmen's rule
(`reply`) and played out carefully (`policy.careful_playout`) in the *same*
worlds (common random numbers, `luna.search` itself), and, once the seat can
see the whole rest of the round, the exact solver (`endgame.solve`) instead
of samples. A fixed number of worlds, never a time budget, makes the result
the same on a busy machine as on a quiet one; the caller seeds the random
source from what the seat can see (`escoba.analysis.seeding`), so the figure
never depends on a card the seat could not see.

A stronger robot plugs in by implementing `Evaluator` (its `evaluate` and
`describe`), nothing else of the analysis changes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from escoba.analysis.lines import LINES, line_points
from escoba.analysis.model import EvaluatorInfo, Method
from escoba.bots.base import moves_of
from escoba.bots.endgame import MAX_NODES, known_world, solve
from escoba.bots.inference import BETA, PosteriorSampler, observations
from escoba.bots.knowledge import Knowledge, knowledge
from escoba.bots.luna import search
from escoba.bots.policy import PLAYOUTS
from escoba.bots.reply import CarmenReply
from escoba.bots.sim import Move, RoundSim
from escoba.engine.actions import Action
from escoba.engine.view import View

#: The worlds of an analysis: bench/RESULTS-analysis.md measures the noise
#: and the CPU time that chose it.
WORLDS = 512
#: Uniform deals the posterior weighs per position: at Luna's 256 the pool's
#: own luck added to the noise; more than 2,048 did not lower it.
POOL = 2048
#: Positions the exact solver may visit per action before it gives up (the
#: search then decides): a last deal at two players takes a few dozen.
EXACT_NODES = 5 * MAX_NODES


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


class LunaEvaluator:
    """Luna's search at a fixed number of worlds (see the module)."""

    display_name = "Luna"

    def __init__(
        self,
        worlds: int = WORLDS,
        rollout: str = "careful",
        beta: float = BETA,
        carmen_reply: bool = True,
        endgame: bool = True,
        pool: int = POOL,
    ) -> None:
        if worlds < 2:
            raise ValueError("an analysis needs at least two worlds")
        if rollout not in PLAYOUTS:
            raise ValueError(f"unknown playout {rollout!r} (known: {', '.join(PLAYOUTS)})")
        self.worlds = worlds
        self.rollout = rollout
        self.beta = beta
        self.carmen_reply = carmen_reply
        self.endgame = endgame
        self.pool = pool

    def describe(self) -> EvaluatorInfo:
        settings: dict[str, str | int | float | bool] = {
            "worlds": self.worlds,
            "rollout": self.rollout,
            "beta": self.beta,
            "pool": self.pool,
            "carmen_reply": self.carmen_reply,
            "endgame": self.endgame,
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
        if self.endgame and known_world(know):
            exact = exact_values(know.sample(rng), moves, side)
            if exact is not None:
                values, points, lines = exact
                return Evaluation(legal, values, points, "exact", 1, (), lines)
        sample: Callable[[random.Random], RoundSim] = know.sample
        if self.beta > 0:
            obs = observations(view, know, self.beta)
            sample = PosteriorSampler(know, obs, rng, self.pool).sample
        return self._search(know, legal, moves, sample, rng, side)

    def _search(
        self,
        know: Knowledge,
        legal: tuple[Action, ...],
        moves: Sequence[Move],
        sample: Callable[[random.Random], RoundSim],
        rng: random.Random,
        side: int,
    ) -> Evaluation:
        """`luna.search` at exactly `self.worlds` worlds, its playout wrapped
        to keep each world's points (search calls it for every candidate in
        order, world after world)."""
        playout = PLAYOUTS[self.rollout]
        seen: list[list[float]] = []
        seen_lines: list[list[list[float]]] = []

        def rollout(sim: RoundSim) -> None:
            playout(sim)
            by_line = line_points(sim)
            seen_lines.append(by_line)
            seen.append([sum(side_lines) for side_lines in by_line])

        _, totals, worlds = search(
            sample,
            moves,
            side,
            rng,
            clock=lambda: 0.0,
            budget=math.inf,
            min_worlds=self.worlds,
            max_worlds=self.worlds,
            rollout=rollout,
            reply=CarmenReply(know, moves) if self.carmen_reply else None,
        )
        n = len(moves)
        if worlds != self.worlds or len(seen) != worlds * n:
            raise RuntimeError("the search did not play every candidate in every world")
        samples = tuple(
            tuple(margin(seen[w * n + i], side) for w in range(worlds)) for i in range(n)
        )
        for i in range(n):
            if not math.isclose(sum(samples[i]), totals[i], rel_tol=1e-9, abs_tol=1e-6):
                raise RuntimeError("the worlds' points do not add up to the search's totals")
        nsides = know.base.nsides
        points = tuple(
            tuple(sum(seen[w * n + i][s] for w in range(worlds)) / worlds for s in range(nsides))
            for i in range(n)
        )
        lines = tuple(
            tuple(
                tuple(
                    sum(seen_lines[w * n + i][s][k] for w in range(worlds)) / worlds
                    for k in range(len(LINES))
                )
                for s in range(nsides)
            )
            for i in range(n)
        )
        values = tuple(t / worlds for t in totals)
        return Evaluation(legal, values, points, "search", worlds, samples, lines)


Lines = tuple[tuple[tuple[float, ...], ...], ...]


def exact_values(
    world: RoundSim, moves: Sequence[Move], side: int
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
