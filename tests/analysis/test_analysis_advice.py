"""The coach's advice (issue 34, point 4): which play it would make and
why, in one sentence, from the facts of every legal action; the plays that
take told before the ones that leave a card. Hand-built positions."""

from __future__ import annotations

import pytest

from escoba.analysis import coach_facts
from escoba.analysis.advice import Advice, advise, capture_first, say_advice
from escoba.engine import (
    Claim,
    GameState,
    RuleSet,
    View,
    apply,
    make_play,
    new_game,
    parse_card,
    parse_cards,
    view,
)
from escoba.engine.actions import Play

from .helpers import deck_for

NAMES = ("Ana", "Beto")


def deal(hands: dict[int, str], table: str, rules: RuleSet | None = None) -> GameState:
    """Two players; Ana (seat 0) plays first, from her hand on `table`."""
    return new_game(rules or RuleSet(), 2, deck_for(2, dealer=1, hands=hands, table=table), 1)


def advice_of(v: View) -> Advice:
    advice = advise([(a, coach_facts(v, a)) for a in v.legal], v.players)
    assert advice is not None
    return advice


def play(card: str, capture: str = "") -> Play:
    return make_play(parse_card(card), parse_cards(capture.split()) if capture else ())


def test_it_takes_the_seven_of_diamonds_and_leaves_a_table_nobody_sweeps() -> None:
    # the 7 of spades takes the 7 of diamonds and the ace (2 + 2 stay:
    # nobody sweeps 4); the 6 takes the 7 of diamonds and a 2, a seven less;
    # the 10 takes the rest and leaves the 7 of diamonds alone
    v = view(deal({0: "7S 6C 10C"}, "7D 1S 2C 2H"), 0)
    advice = advice_of(v)
    assert advice.action == play("7S", "7D 1S")
    assert advice.reasons == ("seven_of_diamonds", "no_sweep")
    assert say_advice(advice, NAMES, "es") == (
        "Yo llevaría el 15 con el 7 de picas: te llevas el 7 de diamantes, que vale un "
        "punto y la mesa queda en 4, que nadie barre con una carta."
    )
    assert say_advice(advice, NAMES, "en").startswith("I would take 15 with the 7 of spades:")
    assert say_advice(advice, NAMES, "pt_BR").startswith("Eu levaria 15 com o 7 de espadas:")


def test_with_nothing_to_take_it_leaves_the_card_that_leaves_no_sweep() -> None:
    # 10 on the table: the 2 left makes 12 (a 3 sweeps it), the 3 makes 13
    # (a 2); the queen (8) makes 18, which no card sweeps
    v = view(deal({0: "2H 3C 8S"}, "4C 4H 1S 1C"), 0)
    assert all(not a.capture for a in v.legal if isinstance(a, Play))
    advice = advice_of(v)
    assert advice.action == play("8S")
    assert advice.reasons == ("no_sweep",)
    assert say_advice(advice, NAMES, "es") == (
        "Yo dejaría la reina de picas en la mesa: la mesa queda en 18, que nadie barre "
        "con una carta."
    )


def test_an_escoba_is_the_play_and_says_so() -> None:
    v = view(deal({0: "5S 3D 10C"}, "1S 2C 3H 4C"), 0)
    advice = advice_of(v)
    assert advice.action == play("5S", "1S 2C 3H 4C") and advice.reasons == ("escoba",)
    assert say_advice(advice, NAMES, "es") == (
        "Yo llevaría el 15 con el 5 de picas: te llevas toda la mesa y haces ESCOBA."
    )


def test_it_does_not_leave_a_card_on_a_15_for_the_next() -> None:
    # leaving the 10 opens LLEVAR EL 15 for Beto (10 + 1 + 4); the 8 takes
    # the 3 and the 4, leaving 1 + 2: nobody sweeps a 3
    v = view(deal({0: "10C 8H 9S"}, "1S 2C 3H 4C"), 0)
    advice = advice_of(v)
    assert isinstance(advice.action, Play) and advice.action.capture
    leave_ten = coach_facts(v, play("10C"))
    assert leave_ten.claim_left == parse_card("10C")
    from escoba.analysis.advice import score

    assert score(leave_ten, 2) < advice.score


def test_llevar_el_15_comes_first_and_is_the_advice() -> None:
    state = deal({0: "5S 3D 10C", 1: "9H 9C 9S"}, "1S 2C 3H 4C")
    state, _ = apply(state, 0, play("10C"))  # left on a 15: Beto may claim it
    v = view(state, 1)
    ordered = capture_first(v.legal)
    assert isinstance(ordered[0], Claim)
    advice = advice_of(v)
    assert isinstance(advice.action, Claim) and advice.reasons == ("claim",)
    sentence = say_advice(advice, NAMES, "es")
    assert sentence.startswith("Yo haría LLEVAR EL 15 con el rey de tréboles, ")
    assert sentence.endswith(": te llevas 3 cartas sin gastar ninguna de tu mano.")


def test_the_plays_that_take_are_told_before_those_that_leave() -> None:
    v = view(deal({0: "7S 6C 10C"}, "7D 1S 2C 2H"), 0)
    ordered = capture_first(v.legal)
    kinds = [bool(a.capture) for a in ordered if isinstance(a, Play)]
    assert kinds == sorted(kinds, reverse=True) and kinds[0] and not kinds[-1]
    assert sorted(ordered, key=repr) == sorted(v.legal, key=repr)
    # within a kind the engine's order stays
    takes = [a for a in v.legal if isinstance(a, Play) and a.capture]
    assert [a for a in ordered if isinstance(a, Play) and a.capture] == takes


def test_a_card_with_two_groups_names_the_cards_it_would_take() -> None:
    # the 5 of diamonds takes the king (10), or the 4 and the 6: two groups,
    # the coach says which (the one with more cards)
    v = view(deal({0: "5D 1C 2C"}, "10H 4C 6S 9S"), 0)
    advice = advice_of(v)
    assert advice.action == play("5D", "4C 6S") and not advice.single
    assert say_advice(advice, NAMES, "es") == (
        "Yo me llevaría el 4 de tréboles y el 6 de picas con el 5 de diamantes: te llevas "
        "1 carta de diamantes y la mesa queda en 19, que nadie barre con una carta."
    )


def test_a_sweep_the_next_may_make_is_said_with_its_chance() -> None:
    # nothing to take: any queen (8) left makes 14, which an ace sweeps
    v = view(deal({0: "8C 8H 8S"}, "2D 1D 1S 2C"), 0)
    advice = advice_of(v)
    assert advice.reasons == ("sweep",)
    facts = advice.facts
    assert facts.sweep is not None and facts.sweep.value == 1 and facts.sweep.unseen == 2
    percent = round(100 * facts.sweep.chance)
    assert say_advice(advice, NAMES, "es").endswith(
        f"la mesa queda en 14, que el siguiente barre si tiene una carta que vale 1 "
        f"(una probabilidad del {percent} %)."
    )


@pytest.mark.parametrize("lang", ["es", "pt_BR", "en"])
def test_the_advice_is_one_sentence_in_every_language(lang: str) -> None:
    for hands, table in (
        ({0: "7S 6C 10C"}, "7D 1S 2C 2H"),
        ({0: "2H 3C 8S"}, "4C 4H 1S 1C"),
        ({0: "5S 3D 10C"}, "1S 2C 3H 4C"),
    ):
        sentence = say_advice(advice_of(view(deal(hands, table), 0)), NAMES, lang)
        assert sentence.count(".") == 1 and sentence.endswith(".")
        assert "%(" not in sentence


def test_no_legal_action_no_advice() -> None:
    assert advise([], 2) is None


def test_a_card_left_on_a_15_is_told_as_the_next_player_s_llevar_el_15() -> None:
    from escoba.analysis.advice import reasons_of, score

    v = view(deal({0: "10C 8H 9S"}, "1S 2C 3H 4C"), 0)
    facts = coach_facts(v, play("10C"))
    assert reasons_of(facts, 2) == ("claim_left",)
    advice = Advice(play("10C"), facts, score(facts, 2), ("claim_left",), True)
    assert say_advice(advice, NAMES, "es") == (
        "Yo dejaría el rey de tréboles en la mesa: hace 15 con la mesa, y el siguiente "
        "puede LLEVAR EL 15."
    )
    # and it costs more than the 15 it could take itself
    assert score(facts, 2) < score(coach_facts(v, play("10C", "1S 4C")), 2)


def test_at_the_round_s_last_card_it_says_whose_the_leftover_is() -> None:
    from escoba.engine import Phase
    from escoba.engine.round_steps import round_states

    from .helpers import random_round

    final = random_round(2, seed=80)
    states = round_states(final.finished_rounds[-1], final.players, final.rules)
    last = [s for s, _ in states if s.phase is Phase.PLAYING][-1]
    v = view(last, last.round.turn)
    advice = advice_of(v)
    assert advice.facts.last_play and advice.facts.table  # cards stay at the end
    assert advice.reasons[-1].startswith("leftover_")
    assert "ÚLTIMAS" in say_advice(advice, NAMES, "es")
    assert "ÚLTIMAS" in say_advice(advice, NAMES, "en")
