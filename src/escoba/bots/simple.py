"""The simple robots: `random` and `greedy` (benchmarks only) and Tito, the
friendly beginner."""

from __future__ import annotations

import random
from collections.abc import Sequence

from escoba.bots.base import legal_of
from escoba.bots.worth import W_ESCOBA, gains_for
from escoba.engine.actions import Action, Claim, Play
from escoba.engine.view import View


def capture_gain(action: Action, view: View) -> float:
    """What an action takes, in the table's card prices (`worth.gains_for`),
    the escoba included; 0 for a card left on the table."""
    gains = gains_for(view.rules)
    if isinstance(action, Claim):
        assert view.claimable is not None
        taken = 1 + len(action.group)
        gain = gains[view.claimable] + sum(gains[c] for c in action.group)
    elif action.capture:
        taken = len(action.capture)
        gain = gains[action.card] + sum(gains[c] for c in action.capture)
    else:
        return 0.0
    if taken == len(view.table):
        gain += W_ESCOBA
    return gain


def taken_count(action: Action) -> int:
    if isinstance(action, Claim):
        return 1 + len(action.group)
    return len(action.capture) + 1 if action.capture else 0


class RandomRobot:
    """Any legal action, uniformly: the floor of the benchmarks."""

    name = "random"
    display_name = "Azar"

    def choose(self, view: View, rng: random.Random) -> Action:
        return rng.choice(legal_of(view))


class GreedyRobot:
    """The best immediate capture (a claim of the 15 counts as one), else the
    least valuable card left on the table. Never looks ahead."""

    name = "greedy"
    display_name = "Glotón"

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = legal_of(view)
        captures = [a for a in legal if taken_count(a)]
        if captures:
            return max(captures, key=lambda a: capture_gain(a, view))
        leaves = [a for a in legal if isinstance(a, Play)]
        gains = gains_for(view.rules)
        return min(leaves, key=lambda a: (gains[a.card], int(a.card)))


class Tito:
    """A beginner with a friendly style. Captures when he sees a capture and
    likes big groups, but sometimes he does not see it, and sometimes he takes
    a group that is not the best. Without a capture he puts down a low card,
    or any card when distracted."""

    name = "tito"
    display_name = "Tito"

    sees_capture = 0.85
    sees_claim = 0.6
    picks_biggest = 0.7
    lays_low = 0.6

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = legal_of(view)
        claims = [a for a in legal if isinstance(a, Claim)]
        if claims and rng.random() < self.sees_claim:
            return self._pick_group(claims, rng)
        plays = [a for a in legal if isinstance(a, Play)]
        captures = [a for a in plays if a.capture]
        if captures and rng.random() < self.sees_capture:
            return self._pick_group(captures, rng)
        leaves = [a for a in plays if not a.capture]
        if not leaves:  # compulsory capture: a card that can capture must
            return self._pick_group(captures, rng)
        if rng.random() < self.lays_low:
            return min(leaves, key=lambda a: (int(a.card), rng.random()))
        return rng.choice(leaves)

    def _pick_group(self, options: Sequence[Action], rng: random.Random) -> Action:
        if rng.random() < self.picks_biggest:
            return max(options, key=lambda a: (taken_count(a), rng.random()))
        return rng.choice(options)
