"""The analysis of a finished round: plainly bad plays are marked, the best
never is, nothing depends on a card its seat could not see, and the same
round gives the same analysis every time."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from itertools import pairwise

import pytest

from escoba.analysis import (
    THRESHOLDS,
    LunaEvaluator,
    Progress,
    RoundAnalysis,
    analyse_record,
    analyse_round,
    analyse_step,
    game_summary,
    position_rng,
    weigh_play,
)
from escoba.analysis.rounds import HINDSIGHT_PLAYS
from escoba.engine import (
    Action,
    EndReason,
    GameState,
    Phase,
    RecordError,
    RuleSet,
    apply,
    end_game,
    make_play,
    new_game,
    parse_card,
    start_next_round,
    to_record,
    view,
)
from escoba.engine.round_steps import recorded_action, round_states
from escoba.engine.view import View

from .helpers import QUICK, SMALL, Chooser, deck_for, play_round, random_round, robot


def analysed(state: GameState, evaluator: LunaEvaluator = QUICK) -> RoundAnalysis:
    return analyse_round(state.finished_rounds[-1], state.players, state.rules, evaluator=evaluator)


# --------------------------------------------------------------------------
# Plainly bad plays, and the best ones


def test_leaving_the_seven_of_diamonds_that_could_be_taken_is_marked() -> None:
    """Ana holds the queen (8) and the 7 of diamonds lies on the table: she
    leaves the 2 of hearts instead. The rest of the round is Carmen's."""
    deck = deck_for(2, dealer=1, hands={0: "8S 1C 2H"}, table="7D 10H 9C 10S")
    state = new_game(RuleSet(), 2, deck, first_dealer=1)
    final = play_round(state, script=[(0, make_play(parse_card("2H")))])
    step = analysed(final).step(1)
    assert step.seat == 0 and not step.is_best
    assert step.best == replace(step.best, card=parse_card("8S"), taken=(parse_card("7D"),))
    assert step.mark in ("mistake", "blunder")
    assert step.given_away == step.cost >= THRESHOLDS.mistake


def test_leaving_a_table_the_next_can_sweep_when_an_escoba_was_there_is_marked() -> None:
    """The table sums 10 and Ana holds a 5 (¡ESCOBA!); she leaves the 3 of
    diamonds and the table sums 13: a 2 sweeps it."""
    deck = deck_for(2, dealer=1, hands={0: "5S 3D 10C"}, table="1S 2C 3H 4C")
    state = new_game(RuleSet(), 2, deck, first_dealer=1)
    final = play_round(state, script=[(0, make_play(parse_card("3D")))])
    step = analysed(final).step(1)
    assert step.best.escoba and step.best.card == parse_card("5S")
    assert step.mark in ("mistake", "blunder")


def test_the_best_play_is_never_marked() -> None:
    deck = deck_for(2, dealer=1, hands={0: "5S 3D 10C"}, table="1S 2C 3H 4C")
    state = new_game(RuleSet(), 2, deck, first_dealer=1)
    sweep = make_play(parse_card("5S"), tuple(state.round.table))
    step = weigh_play(view(state, 0), sweep, evaluator=QUICK)
    assert step.is_best and step.cost == 0 and step.given_away == 0 and step.mark is None
    assert step.candidates[0].move == step.played


def _evaluator_player(evaluator: LunaEvaluator) -> Chooser:
    """A player that plays the analysis's own best play, from its seat's view."""

    def choose(state: GameState, v: View, rng: random.Random) -> Action:
        ev = evaluator.evaluate(v, position_rng(v))
        return v.legal[ev.best()]

    return choose


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_round_played_by_the_engine_s_own_best_has_no_mark(players: int) -> None:
    evaluator = LunaEvaluator(worlds=16)
    final = random_round(players, seed=players, chooser=_evaluator_player(evaluator))
    analysis = analysed(final, evaluator)
    assert all(s.is_best and s.mark is None and s.given_away == 0 for s in analysis.steps)
    assert all(s.given_away == 0 and s.costliest == () for s in analysis.seats)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_step_is_weighed_and_summed(players: int) -> None:
    final = random_round(players, seed=10 + players, chooser=robot("club"))
    analysis = analysed(final, LunaEvaluator(worlds=24))
    summary = final.finished_rounds[-1]
    assert [s.step for s in analysis.steps] == list(range(1, len(summary.actions) + 1))
    for step, recorded in zip(analysis.steps, summary.actions, strict=True):
        assert step.seat == recorded.seat and step.played.card == recorded.card
        assert step.cost == pytest.approx(step.best_value - step.played_value, abs=1e-6)
        assert step.cost >= 0 and step.given_away in (0.0, step.cost)
        assert (step.mark is None) or step.given_away > 0
        assert {c.move for c in step.candidates} >= {step.played, step.best}
        assert step.candidates[0].move == step.best
        if step.method == "forced":
            assert len(step.candidates) == 1 and step.cost == 0
        if step.method != "search":
            assert step.noise == 0
    for seat in analysis.seats:
        mine = [s for s in analysis.steps if s.seat == seat.seat]
        assert seat.given_away == pytest.approx(sum(s.given_away for s in mine), abs=1e-6)
        assert seat.decisions == sum(1 for s in mine if s.method != "forced")
        costs = [analysis.step(n).given_away for n in seat.costliest]
        assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
        assert sum(seat.marks.to_json().values()) == sum(1 for s in mine if s.mark)


# --------------------------------------------------------------------------
# From what the seat could see, and nothing else


def test_the_analysis_of_a_play_never_depends_on_cards_its_seat_could_not_see() -> None:
    """Two rounds dealt alike but for one card of Beto's first hand,
    swapped with a card of the deck: until Beto plays it, every play of
    Ana's is weighed exactly alike (only Beto's own differ, and they may)."""
    deck = list(deck_for(2, 1, {}, "1S 2C 10H 9C", seed=4))
    state = new_game(RuleSet(), 2, deck, first_dealer=1)
    final = play_round(state)
    pairs = pairwise(round_states(final.finished_rounds[-1], 2, final.rules))
    first_deal = [rec for (before, _), (_, rec) in pairs if before.round.deal_number == 1]
    assert all(a is not None for a in first_deal)
    beto_last = max(i for i, a in enumerate(first_deal) if a and a.seat == 1 and a.kind == "play")
    hidden = first_deal[beto_last].card  # type: ignore[union-attr]
    later = deck[-1]  # dealt to Beto in the ÚLTIMAS, long after
    i, j = deck.index(hidden), deck.index(later)
    deck[i], deck[j] = deck[j], deck[i]
    twin = new_game(RuleSet(), 2, deck, first_dealer=1)
    assert twin.round.hands[1] != state.round.hands[1]
    compared = 0
    for action in first_deal[:beto_last]:
        assert action is not None
        seat = action.seat
        act = recorded_action(action)
        if seat == 0:
            assert view(state, 0) == view(twin, 0)
            ours = analyse_step(state, act, evaluator=QUICK)
            theirs = analyse_step(twin, act, evaluator=QUICK)
            assert ours.to_json() == theirs.to_json()
            compared += ours.method != "forced"
        state, _ = apply(state, seat, act)
        twin, _ = apply(twin, seat, act)
    assert compared >= 1


def test_the_same_round_gives_the_same_analysis_and_another_salt_other_worlds() -> None:
    final = random_round(2, seed=21)
    first = analysed(final, LunaEvaluator(worlds=12))
    again = analysed(final, LunaEvaluator(worlds=12))
    assert first == again and json.dumps(first.to_json()) == json.dumps(again.to_json())
    salted = analyse_round(final.finished_rounds[-1], 2, final.rules, evaluator=SMALL, salt="x")
    searched = [s for s in first.steps if s.method == "search"]
    assert any(
        a.candidates != b.candidates
        for a, b in zip(searched, [salted.step(s.step) for s in searched], strict=True)
    )


# --------------------------------------------------------------------------
# Hindsight, progress, records, the stored value


def test_hindsight_is_given_for_the_last_cards_with_two_sides_only() -> None:
    for players in (2, 3, 4):
        final = random_round(players, seed=30 + players)
        states = list(round_states(final.finished_rounds[-1], players, final.rules))
        analysis = analysed(final, SMALL)
        for (before, _), step in zip(states, analysis.steps, strict=False):
            left = sum(len(h) for h in before.round.hands) + len(before.round.deck)
            expected = players != 3 and left <= HINDSIGHT_PLAYS and step.method == "search"
            assert (step.hindsight is not None) == expected, (players, step.step)
            if step.hindsight is not None:
                h = step.hindsight
                assert h.cost == h.best_value - h.played_value >= 0
                assert float(h.cost).is_integer()
        with_hindsight = [s for s in analysis.steps if s.hindsight is not None]
        assert bool(with_hindsight) == (players != 3)


def test_progress_is_told_after_every_action() -> None:
    final = random_round(3, seed=40)
    told: list[Progress] = []
    summary = final.finished_rounds[-1]
    analyse_round(summary, 3, final.rules, evaluator=LunaEvaluator(worlds=4), progress=told.append)
    total = len(summary.actions)
    assert told == [Progress(summary.number, k, total) for k in range(1, total + 1)]


def test_the_analysis_is_json_and_reads_back_equal() -> None:
    analysis = analysed(random_round(4, seed=50), SMALL)
    data = json.loads(json.dumps(analysis.to_json()))
    assert data["format"] == "escoba-analysis/1"
    assert data["evaluator"]["settings"]["worlds"] == SMALL.worlds
    assert RoundAnalysis.from_json(data) == analysis
    step = data["steps"][0]
    assert set(step) >= {"played", "best", "played_value", "best_value", "cost", "mark"}
    with pytest.raises(ValueError):
        RoundAnalysis.from_json({**data, "format": "escoba-analysis/0"})


def test_a_record_s_finished_rounds_are_analysed_and_a_bad_record_refused() -> None:
    rng = random.Random(3)
    deck = list(deck_for(2, 0, {}, "1S 2C 10H 9C", seed=5))
    state = new_game(RuleSet(target=15), 2, deck)
    state = play_round(state)
    rng.shuffle(deck)
    state, _ = start_next_round(state, deck)
    for _ in range(5):  # a second round cut short
        state, _ = apply(state, state.round.turn, view(state, state.round.turn).legal[0])
    assert state.phase is Phase.PLAYING
    state, _ = end_game(state, EndReason.ABANDON, loser_seat=1)
    record = to_record(state, names=["Ana", "Beto"])
    analyses = analyse_record(record, evaluator=LunaEvaluator(worlds=4))
    assert [a.round for a in analyses] == [1]
    assert analyses[0] == analysed(state, LunaEvaluator(worlds=4))
    record["rounds"][0]["actions"].reverse()
    with pytest.raises(RecordError):
        analyse_record(record, evaluator=LunaEvaluator(worlds=4))


def test_a_game_summary_adds_up_each_seat_s_rounds() -> None:
    rounds = [
        replace(analysed(random_round(2, seed=s, chooser=robot("club")), SMALL), round=k)
        for k, s in enumerate((60, 61), start=1)
    ]
    summary = game_summary(rounds)
    for seat in summary:
        assert [r for r, _ in seat.given_away] == [1, 2]
        assert seat.total == pytest.approx(sum(r.seats[seat.seat].given_away for r in rounds))
        every = sorted(
            (s.given_away for r in rounds for s in r.steps if s.seat == seat.seat),
            reverse=True,
        )
        assert [c.given_away for c in seat.costliest] == [g for g in every if g > 0][:3]
    assert json.loads(json.dumps([s.to_json() for s in summary]))


def test_an_action_that_is_not_legal_is_refused() -> None:
    state = new_game(RuleSet(), 2, deck_for(2, 1, {0: "5S 3D 10C"}, "1S 2C 3H 4C"), first_dealer=1)
    with pytest.raises(ValueError, match="legal"):
        weigh_play(view(state, 0), make_play(parse_card("7D")), evaluator=QUICK)
    with pytest.raises(ValueError, match="legal"):
        weigh_play(view(state, 1), make_play(parse_card("5S")), evaluator=QUICK)
