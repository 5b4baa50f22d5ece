"""The club player: a human-like opponent for benchmarks (never seated).

A good club player sees what Carmen sees but does not always pick the best of
it: between two plays that look about as good, a person often takes the other
one; a play that is clearly worse is almost never chosen. So the club player
scores every legal action with Carmen's own judgement (`judge.Judge.score`,
in round points, from the seat's view only) and draws one by a softmax over
those scores at a temperature `temperature` (in round points too):

    P(action) ∝ exp((score(action) - best score) / temperature)

An action worse than the best by `d` points is chosen `exp(-d / temperature)`
times as often as the best. At the default temperature (`TEMPERATURE`,
chosen by measurement, bench/RESULTS-bots.md «The club player») a slip of
0.1 point is still common, one of a whole point (an escoba, the 7 of
diamonds left to the next player) rare. At temperature 0 it is Carmen.

It draws exactly one number from the `rng` it is given per decision with a
choice (none when only one action is legal), so a seeded source replays it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from escoba.bots.base import legal_of
from escoba.bots.judge import Judge
from escoba.bots.knowledge import knowledge
from escoba.engine.actions import Action
from escoba.engine.view import View

#: The temperature of `Club()`, in round points (bench/RESULTS-bots.md).
TEMPERATURE = 0.2


def softmax_weights(scores: Sequence[float], temperature: float) -> list[float]:
    """The relative chance of each score under the softmax (the best is 1);
    at temperature 0 only the first best has a chance, as Carmen chooses."""
    best = max(scores)
    if temperature <= 0:  # Carmen: the first of the best
        first = next(i for i, s in enumerate(scores) if s >= best - 1e-9)
        return [1.0 if i == first else 0.0 for i in range(len(scores))]
    return [math.exp((s - best) / temperature) for s in scores]


def draw(weights: Sequence[float], rng: random.Random) -> int:
    """An index drawn with chances proportional to `weights` (one draw of
    `rng`)."""
    r = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        r -= w
        if r < 0:
            return i
    return max(i for i, w in enumerate(weights) if w > 0)  # rounding at the top end


class Club:
    """Carmen's judgement, chosen by a softmax at `temperature` round points."""

    name = "club"
    display_name = "Club"

    def __init__(self, temperature: float = TEMPERATURE) -> None:
        if not temperature >= 0:
            raise ValueError("the temperature is a number of round points, 0 or more")
        self.temperature = temperature

    def scores(self, view: View) -> tuple[tuple[Action, ...], list[float]]:
        """The legal actions and Carmen's score of each."""
        legal = legal_of(view)
        judge = Judge(knowledge(view))
        return legal, [judge.score(a) for a in legal]

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        legal, scores = self.scores(view)
        return legal[draw(softmax_weights(scores, self.temperature), rng)]
