"""Cards, notation and the capture search (RULES.md «Cards»)."""

from __future__ import annotations

import itertools
import random

import pytest
from engine_positions import cs

from escoba.engine import CARDS, SEVEN_OF_DIAMONDS, CardNotationError, parse_card, shuffled_deck
from escoba.engine.captures import _memo, can_capture, capture_groups, groups_for_hand
from escoba.engine.cards import FIFTEEN, VALUE, is_full_deck, sorted_cards


@pytest.mark.parametrize(
    ("text", "value", "suit"),
    [
        ("1D", 1, "D"),
        ("7D", 7, "D"),
        ("10S", 10, "S"),
        ("8H", 8, "H"),
        ("9C", 9, "C"),
        (" 7d ", 7, "D"),
        ("10s", 10, "S"),
    ],
)
def test_notation_parses_value_then_suit(text: str, value: int, suit: str) -> None:
    card = parse_card(text)
    assert (card.value, card.suit) == (value, suit)
    assert str(card) == f"{value}{suit}"


@pytest.mark.parametrize("text", ["", "D7", "11D", "0D", "7X", "7", "D", "1 0D", "7DD", "A D"])
def test_notation_refuses_what_is_not_a_card(text: str) -> None:
    with pytest.raises(CardNotationError) as err:
        parse_card(text)
    assert (err.value.code, err.value.params) == ("not_a_card", {"text": text})


def test_every_card_round_trips_through_its_notation() -> None:
    assert [parse_card(str(c)) for c in CARDS] == list(CARDS)
    assert len({str(c) for c in CARDS}) == 40


def test_forty_cards_ten_per_suit_with_capture_values_one_to_ten() -> None:
    assert len(CARDS) == 40
    for suit in "DHSC":
        assert sorted(c.value for c in CARDS if c.suit == suit) == list(range(1, 11))
    assert sum(VALUE) == 4 * 55
    assert parse_card("7D") == SEVEN_OF_DIAMONDS
    assert SEVEN_OF_DIAMONDS.is_diamond and SEVEN_OF_DIAMONDS.is_seven


def test_canonical_order_sorts_by_value_then_suit() -> None:
    assert sorted_cards(cs("10S 1C 7H 7D 1D")) == cs("1D 1C 7D 7H 10S")


def test_shuffle_comes_from_the_injected_source() -> None:
    a = shuffled_deck(random.Random(5))
    b = shuffled_deck(random.Random(5))
    c = shuffled_deck(random.Random(6))
    assert a == b
    assert a != c
    assert is_full_deck(a) and is_full_deck(c)


def brute_force_groups(card: int, table: list[int]) -> list[tuple[int, ...]]:
    out = []
    for r in range(1, len(table) + 1):
        for combo in itertools.combinations(sorted(table), r):
            if VALUE[card] + sum(VALUE[c] for c in combo) == FIFTEEN:
                out.append(combo)
    return sorted(out)


def test_capture_groups_golden() -> None:
    table = cs("2H 4S 8D 6C")
    assert capture_groups(parse_card("7D"), table) == (cs("2H 6C"), cs("8D"))
    assert capture_groups(parse_card("5D"), table) == (cs("2H 8D"), cs("4S 6C"))
    assert capture_groups(parse_card("10D"), table) == ()
    assert capture_groups(parse_card("3D"), ()) == ()


@pytest.mark.parametrize("cold", [False, True])
def test_capture_groups_match_brute_force_on_random_tables(cold: bool) -> None:
    rng = random.Random(1234)
    for _ in range(400):
        cards = rng.sample(range(40), rng.randint(1, 13))
        card, table = CARDS[cards[0]], [CARDS[c] for c in cards[1:]]
        if cold:
            _memo.clear()
        got = capture_groups(card, table)
        assert [tuple(int(c) for c in g) for g in got] == brute_force_groups(card, table)
        assert can_capture(card, table) == bool(got)
        for g in got:
            assert list(g) == sorted(g)


def test_capture_groups_with_many_equal_values() -> None:
    """Value patterns with repeats: every choice of suits is its own group."""
    table = cs("1D 1H 1S 1C 2D 2H 2S 2C 3D 3H 3S 3C")
    for card in cs("1D 5H 9S 10C"):
        _memo.clear()
        got = capture_groups(card, [c for c in table if c != card])
        assert [tuple(map(int, g)) for g in got] == brute_force_groups(
            card, [c for c in table if c != card]
        )


def test_groups_for_hand_agrees_with_capture_groups() -> None:
    table = cs("1D 2H 3S 4C 5D 6H 9S")
    hand = cs("10C 7H 5S")
    assert groups_for_hand(hand, table) == [(c, capture_groups(c, table)) for c in hand]
