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
from escoba.analysis.evaluator import HORIZON, ROUND_CUT_FOUR
from escoba.analysis.rounds import move_of
from escoba.bots.base import moves_of
from escoba.bots.endgame import known_world, solve
from escoba.bots.knowledge import knowledge
from escoba.engine import Phase, view
from escoba.engine.round_steps import recorded_action, round_states
from escoba.engine.view import View
from research_luna import PlayedOutEvaluator

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
    with pytest.raises(ValueError, match="stopping rule"):
        LunaEvaluator(se=-0.1)
    with pytest.raises(ValueError, match="stopping rule"):
        LunaEvaluator(min_worlds=1)
    with pytest.raises(ValueError, match="stopping rule"):
        LunaEvaluator(step_worlds=0)
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


def test_the_stopping_rule_reads_the_standard_error_of_every_graded_difference() -> None:
    """With a target `se`, a search stops at a look (after `min_worlds`,
    then every `step_worlds`) once the best candidate less each other one
    is known to within `se`; a close, noisy decision runs to the cap."""
    rule = LunaEvaluator(worlds=64, se=0.1, min_worlds=8, step_worlds=4)
    rng = random.Random(35)
    # clear: the best is 2 points ahead, world after world alike
    clear = [[2.0 + rng.gauss(0, 0.01) for _ in range(8)], [0.0] * 8]
    assert rule.enough(clear, 8)
    assert not rule.enough([c[:7] for c in clear], 7)  # before the first look
    # twins (candidates that differ by nothing that can score) are clear too
    twins = [[rng.choice((-1.0, 3.0)) for _ in range(8)]] * 2
    assert rule.enough(twins, 8)
    # close: a point either way from world to world
    noisy = [[rng.choice((-1.0, 1.0)) for _ in range(60)], [0.0] * 60]
    for worlds in range(8, 61, 4):
        assert not rule.enough([s[:worlds] for s in noisy], worlds)
    assert rule.enough(noisy, 64)  # the cap
    assert not rule.enough([c[:9] for c in clear], 9)  # between two looks
    # without a target the rule is the cap alone
    assert not LunaEvaluator(worlds=64, se=0.0).enough(clear, 8)
    # the analysis's targets: looser at four players, where the noise was highest
    assert [LunaEvaluator().target(p) for p in (2, 3, 4)] == [0.09, 0.09, 0.12]
    assert LunaEvaluator(se=0.0).target(4) == 0.0
    assert LunaEvaluator(se=0.2, se_four=None).target(4) == 0.2


def test_a_search_that_stops_early_gives_the_figures_of_a_fixed_one() -> None:
    """The rule reads the worlds' figures only: a search that stops after n
    worlds gives exactly what a search of n fixed worlds from the same
    source gives; a target no figure meets runs to the cap."""
    v = next(v for v in positions(2, 3) if len(v.legal) >= 3)
    loose = LunaEvaluator(worlds=40, se=10.0, min_worlds=8, step_worlds=4)
    early = loose.evaluate(v, position_rng(v))
    assert early.method == "search" and early.worlds == 8
    assert LunaEvaluator(worlds=8).evaluate(v, position_rng(v)) == early
    strict = LunaEvaluator(worlds=24, se=1e-6, min_worlds=8, step_worlds=4)
    full = strict.evaluate(v, position_rng(v))
    assert full.worlds == 24
    assert LunaEvaluator(worlds=24).evaluate(v, position_rng(v)) == full
    settings = dict(loose.describe().settings)
    assert (settings["se"], settings["min_worlds"], settings["step_worlds"]) == (10.0, 8, 4)
    assert "se" not in dict(LunaEvaluator(se=0.0).describe().settings)  # as before issue 35
    # the analysis's settings, stored with it
    assert dict(LunaEvaluator().describe().settings) == {
        "beta": 25.0,
        "carmen_reply": True,
        "endgame": True,
        "horizon": 0,
        "min_worlds": 64,
        "pool": 2048,
        "pool_draw": "hands",
        "rollout": "careful",
        "round_cut_four": True,
        "se": 0.09,
        "se_four": 0.12,
        "step_worlds": 16,
        "worlds": 512,
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_cut_playout_plays_the_deal_and_estimates_the_rest(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the analysis's horizon (0: the current deal played out, the rest
    estimated) the deck's order is never read, so the hands drawn again take
    their figures from the first time: the same figures as playing them out
    again. The escobas still to come are shared out evenly: they change no
    margin; each side's points are the margin's and add up by line."""
    evaluator = LunaEvaluator(worlds=48, se=0.0)
    assert HORIZON == 0
    v = next(v for v in positions(players, 4) if len(v.legal) >= 3 and v.deck_size)
    ev = evaluator.evaluate(v, position_rng(v))
    monkeypatch.setattr(LunaEvaluator, "reuse_worlds", False)
    assert evaluator.evaluate(v, position_rng(v)) == ev
    side = knowledge(v).base.side[knowledge(v).seat]
    for value, points, lines in zip(ev.values, ev.points, ev.lines, strict=True):
        assert value == pytest.approx(margin(points, side))
        assert [sum(by_line) for by_line in lines] == pytest.approx(list(points))
        assert all(by_line[-1] == 0 for by_line in lines)  # no leftover before the end
    full = PlayedOutEvaluator(worlds=48).evaluate(v, position_rng(v))
    assert full.worlds == 48 and full.values != ev.values
    assert dict(PlayedOutEvaluator().describe().settings) == {
        "beta": 25.0,
        "carmen_reply": True,
        "endgame": True,
        "pool": 2048,
        "rollout": "careful",
        "worlds": 512,
    }  # the settings stored before issue 35


@pytest.mark.parametrize("players", [2, 3, 4])
def test_at_four_players_a_playout_stops_one_table_round_after_the_candidate(
    players: int,
) -> None:
    """Before the last deal a four-player playout stops when every seat has
    played once after the candidate's (`ROUND_CUT_FOUR`), or at the deal's
    end if that comes first; at two and three players, and in the last
    deal, at the deal's end as before."""
    assert ROUND_CUT_FOUR
    evaluator = LunaEvaluator()
    seen = set()
    for v in positions(players, 5):
        know = knowledge(v)
        playout, _ = evaluator.playout(know)
        stop = playout.keywords["stop"]  # type: ignore[attr-defined]
        if players == 4 and know.deck_size and know.base.plays_left - 4 > know.deck_size:
            assert stop == know.base.plays_left - 4
            seen.add("cut")
        else:
            assert stop == know.deck_size
            seen.add("deal")
    assert seen == ({"cut", "deal"} if players == 4 else {"deal"})
