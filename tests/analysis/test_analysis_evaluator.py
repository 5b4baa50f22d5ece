"""The evaluator: Luna's machinery at a fixed number of worlds, what its
figures mean, and the seam another robot plugs into."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from escoba.analysis import (
    THRESHOLDS,
    Evaluation,
    EvaluatorInfo,
    LunaEvaluator,
    analyse_round,
    margin,
    position_rng,
)
from escoba.analysis.rounds import move_of
from escoba.bots.base import moves_of
from escoba.bots.endgame import known_world, solve
from escoba.bots.knowledge import knowledge
from escoba.engine import Phase, view
from escoba.engine.round_steps import recorded_action, round_states
from escoba.engine.view import View

from .helpers import random_round


def positions(players: int, seed: int) -> list[View]:
    """The views of the seat on turn through a round played by Carmen."""
    final = random_round(players, seed)
    states = round_states(final.finished_rounds[-1], players, final.rules)
    return [view(s, s.round.turn) for s, _ in states if s.phase is Phase.PLAYING]


def test_the_margin_is_the_side_s_points_less_the_others_mean() -> None:
    assert margin([3, 5], 1) == 2
    assert margin([5, 2, 4], 0) == 2  # a point to one of two rivals costs half
    assert margin([5, 2, 4], 1) == -2.5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_search_plays_every_candidate_in_the_same_fixed_worlds(players: int) -> None:
    evaluator = LunaEvaluator(worlds=10)
    v = next(v for v in positions(players, 3) if len(v.legal) >= 3)
    ev = evaluator.evaluate(v, position_rng(v))
    assert ev.method == "search" and ev.worlds == 10 and ev.actions == v.legal
    side = knowledge(v).base.side[knowledge(v).seat]
    for value, samples, points in zip(ev.values, ev.samples, ev.points, strict=True):
        assert len(samples) == 10 and value == pytest.approx(sum(samples) / 10)
        assert len(points) == (2 if players != 3 else 3)
        assert value == pytest.approx(margin(points, side))
    assert ev.noise(0, 0) == 0 and ev.noise(0, 1) >= 0
    # the same view and source, the same figures; another source, other worlds
    assert evaluator.evaluate(v, position_rng(v)) == ev
    assert evaluator.evaluate(v, position_rng(v, "other")).samples != ev.samples


def test_once_the_seat_sees_every_card_the_figures_are_exact() -> None:
    found = 0
    for v in positions(2, 5):
        know = knowledge(v)
        if not known_world(know) or len(v.legal) < 2:
            continue
        ev = LunaEvaluator(worlds=4).evaluate(v, random.Random(0))
        assert ev.method == "exact" and ev.noise(0, 1) == 0
        world = know.sample(random.Random(1))  # the one world there is
        exact = [solve(world, [m]) for m in moves_of(v, v.legal)]
        assert list(ev.values) == [float(e[0]) for e in exact if e is not None]
        side = know.base.side[know.seat]
        assert list(ev.values) == [margin(points, side) for points in ev.points]
        found += 1
    assert found


def test_one_legal_action_is_forced() -> None:
    v = next(v for v in positions(2, 6) if len(v.legal) == 1)
    ev = LunaEvaluator(worlds=4).evaluate(v, random.Random(0))
    assert ev.method == "forced" and ev.best() == 0 and ev.noise(0, 0) == 0


def test_settings_that_make_no_analysis_are_refused() -> None:
    with pytest.raises(ValueError, match="two worlds"):
        LunaEvaluator(worlds=1)
    with pytest.raises(ValueError, match="unknown playout"):
        LunaEvaluator(rollout="lucky")
    info = LunaEvaluator(worlds=8).describe()
    assert info.name == "luna" and info.display_name == "Luna"
    assert dict(info.settings)["worlds"] == 8


class FirstIsBest:
    """Another robot behind the seam: it likes the first legal action best."""

    display_name = "Prima"

    def evaluate(self, v: View, rng: random.Random) -> Evaluation:
        n = len(v.legal)
        values = tuple(float(-i) for i in range(n))
        sides = 3 if v.players == 3 else 2
        return Evaluation(v.legal, values, ((0.0,) * sides,) * n, "exact", 1)

    def describe(self) -> EvaluatorInfo:
        return EvaluatorInfo("prima", self.display_name, (("worlds", 1),))


def test_another_evaluator_plugs_into_the_same_analysis() -> None:
    final = random_round(3, seed=8)
    summary = final.finished_rounds[-1]
    analysis = analyse_round(summary, 3, final.rules, evaluator=FirstIsBest())
    assert analysis.evaluator.display_name == "Prima"
    pairs = pairwise(round_states(summary, 3, final.rules))
    for step, ((before, _), (_, recorded)) in zip(analysis.steps, pairs, strict=True):
        assert recorded is not None
        v = view(before, before.round.turn)
        played = v.legal.index(recorded_action(recorded))
        assert step.best == move_of(v, v.legal[0])
        assert step.cost == played and step.given_away == played
        assert step.mark == THRESHOLDS.mark(played, 0.0)
