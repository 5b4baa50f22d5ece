"""The coach's facts: what a play leaves, from the seat's view alone."""

from __future__ import annotations

from math import comb

import pytest

from escoba.analysis import coach_facts
from escoba.analysis.coach import holds_chance
from escoba.engine import (
    Claim,
    GameState,
    Phase,
    RuleSet,
    apply,
    make_play,
    new_game,
    parse_card,
    parse_cards,
    view,
)
from escoba.engine.round_steps import round_states

from .helpers import deck_for, random_round


def ana_first(hand: str, table: str) -> GameState:
    """Two players; Ana (seat 0) plays first, from `hand` on `table`."""
    return new_game(RuleSet(), 2, deck_for(2, dealer=1, hands={0: hand}, table=table), 1)


def test_a_table_of_5_to_14_can_be_swept_with_one_card_and_how_likely_that_is() -> None:
    state = ana_first("5S 3D 10C", "1S 2C 3H 4C")
    facts = coach_facts(view(state, 0), make_play(parse_card("3D")))
    assert facts.table == tuple(sorted(parse_cards(["1S", "2C", "3H", "4C", "3D"])))
    assert facts.table_sum == 13 and facts.next_seat == 1 and facts.claim_left is None
    sweep = facts.sweep
    assert sweep is not None and sweep.value == 2 and sweep.unseen == 3
    # 33 cards unseen by Ana (40 less her 3 and the table's 4), three of them 2s
    assert sweep.chance == pytest.approx(1 - comb(30, 3) / comb(33, 3))
    assert sweep.weighed is None  # Beto has not played yet
    assert (facts.leaves_diamonds, facts.leaves_sevens) == (1, 0)


def test_an_escoba_leaves_nothing_to_sweep() -> None:
    state = ana_first("5S 3D 10C", "1S 2C 3H 4C")
    facts = coach_facts(view(state, 0), make_play(parse_card("5S"), state.round.table))
    assert facts.move.escoba and facts.table == () and facts.table_sum == 0
    assert facts.sweep is None and facts.claim_left is None


def test_a_card_left_that_made_15_opens_llevar_el_15_for_the_next() -> None:
    state = ana_first("5S 3D 10C", "1S 2C 3H 4C")
    facts = coach_facts(view(state, 0), make_play(parse_card("10C")))
    assert facts.claim_left == parse_card("10C")
    assert facts.table_sum == 20 and facts.sweep is None


def test_the_seven_of_diamonds_taken_or_left_and_who_can_take_it() -> None:
    state = ana_first("8S 1C 2H", "7D 10H 9C 10S")
    v = view(state, 0)
    taken = coach_facts(v, make_play(parse_card("8S"), (parse_card("7D"),)))
    assert taken.takes_seven_of_diamonds and (taken.takes_sevens, taken.takes_diamonds) == (1, 1)
    assert not taken.leaves_seven_of_diamonds and taken.seven_of_diamonds_chance is None
    left = coach_facts(v, make_play(parse_card("1C")))
    assert left.leaves_seven_of_diamonds and (left.leaves_sevens, left.leaves_diamonds) == (1, 1)
    # an 8 takes it alone, a 7 with the ace just left: three of each unseen
    assert left.seven_of_diamonds_chance == pytest.approx(holds_chance(33, 6, 3))
    assert holds_chance(33, 6, 3) == pytest.approx(1 - comb(27, 3) / comb(33, 3))


def test_the_seven_of_diamonds_left_on_a_15_is_the_next_player_s_for_sure() -> None:
    state = ana_first("7D 1C 2H", "8S 10H 9C 10S")
    facts = coach_facts(view(state, 0), make_play(parse_card("7D")))
    assert facts.claim_left == parse_card("7D") and facts.seven_of_diamonds_chance == 1.0
    state = ana_first("6S 1C 2H", "7D 2C 10H 10S")  # the 6 left on 7 + 2: the claim takes it
    facts = coach_facts(view(state, 0), make_play(parse_card("6S")))
    assert facts.claim_left == parse_card("6S") and facts.seven_of_diamonds_chance == 1.0


def test_a_claim_is_followed_by_the_claimer_s_own_play() -> None:
    state = ana_first("5S 3D 10C", "1S 2C 3H 4C")
    state, _ = apply(state, 0, make_play(parse_card("10C")))  # left on a 15: Beto may claim
    v = view(state, 1)
    claim = next(a for a in v.legal if isinstance(a, Claim))
    facts = coach_facts(v, claim)
    assert facts.move.kind == "claim" and facts.move.card == parse_card("10C")
    assert facts.next_seat is None and facts.sweep is None
    assert facts.leftover_seat == 1


def test_what_the_next_player_s_plays_of_this_deal_say_weighs_the_chance() -> None:
    state = ana_first("5S 3D 10C", "1S 2C 3H 4C")
    for _ in range(2):  # Ana, then Beto, play a card each
        seat = state.round.turn
        state, _ = apply(state, seat, view(state, seat).legal[0])
    v = view(state, 0)
    weighed = [f.sweep.weighed for a in v.legal if (f := coach_facts(v, a)).sweep is not None]
    assert weighed and all(w is not None and 0.0 <= w <= 1.0 for w in weighed)


def test_at_ultimas_what_stays_goes_to_the_last_to_capture() -> None:
    for players in (2, 4):
        seen = 0
        for state in _states_of(random_round(players, seed=70 + players)):
            rs = state.round
            if not rs.is_last_deal:
                continue
            v = view(state, rs.turn)
            for action in v.legal:
                facts = coach_facts(v, action)
                captures = facts.move.kind == "claim" or bool(facts.move.taken)
                assert facts.last_deal
                assert facts.leftover_seat == (rs.turn if captures else rs.last_capturer)
                cards_left = sum(len(h) for h in rs.hands)
                assert facts.last_play == (cards_left == 1 and facts.move.kind == "play")
                seen += 1
        assert seen


def _states_of(final: GameState) -> list[GameState]:
    """The states of the round of `final` in which a seat is on turn."""
    states = round_states(final.finished_rounds[-1], final.players, final.rules)
    return [s for s, _ in states if s.phase is Phase.PLAYING]


def test_the_last_card_of_the_round_is_the_last_play() -> None:
    last = _states_of(random_round(2, seed=80))[-1]
    v = view(last, last.round.turn)
    assert sum(len(h) for h in last.round.hands) == 1
    facts = coach_facts(v, v.legal[0])
    assert facts.last_play and facts.next_seat is None and facts.sweep is None


def test_the_coach_reads_nothing_its_seat_cannot_see() -> None:
    """Beto's hand and the deck changed, Ana's view the same: the same facts."""
    deck = list(deck_for(2, 1, {0: "5S 3D 10C"}, "1S 2C 3H 4C", seed=9))
    state = new_game(RuleSet(), 2, deck, 1)
    beto = state.round.hands[1]
    for k, card in enumerate(beto):  # Beto's three change places with the deck's last three
        i, j = deck.index(card), len(deck) - 1 - k
        deck[i], deck[j] = deck[j], deck[i]
    twin = new_game(RuleSet(), 2, deck, 1)
    v, w = view(state, 0), view(twin, 0)
    assert twin.round.hands[1] != beto and v == w
    assert [coach_facts(v, a) for a in v.legal] == [coach_facts(w, a) for a in w.legal]


def test_an_action_that_is_not_legal_is_refused() -> None:
    state = ana_first("5S 3D 10C", "1S 2C 3H 4C")
    with pytest.raises(ValueError, match="legal"):
        coach_facts(view(state, 0), make_play(parse_card("7D")))
    with pytest.raises(ValueError, match="legal"):
        coach_facts(view(state, 1), make_play(parse_card("5S")))
