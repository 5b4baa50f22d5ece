from __future__ import annotations

import pytest

from escoba.engine import parse_card
from escoba.names import (
    Design,
    card_name,
    cards_phrase,
    diamonds_word,
    is_face,
    parse_design,
    rank_label,
    seven_of_diamonds_name,
    the_card,
)


@pytest.mark.parametrize(
    ("notation", "french", "spanish"),
    [
        ("7D", "7 de diamantes", "siete de oros"),
        ("10S", "rey de picas", "rey de espadas"),
        ("8H", "reina de corazones", "sota de copas"),
        ("9C", "jota de tréboles", "caballo de bastos"),
        ("1D", "as de diamantes", "as de oros"),
        ("4C", "4 de tréboles", "cuatro de bastos"),
    ],
)
def test_card_names_in_both_designs(notation: str, french: str, spanish: str) -> None:
    card = parse_card(notation)
    assert card_name(card, Design.FRENCH) == french
    assert card_name(card, Design.SPANISH) == spanish


def test_every_card_has_a_distinct_name_per_design() -> None:
    for design in Design:
        names = {card_name(c, design) for c in range(40)}
        assert len(names) == 40


def test_corner_ranks() -> None:
    assert [rank_label(v * 4, Design.FRENCH) for v in range(10)] == [
        "A", "2", "3", "4", "5", "6", "7", "Q", "J", "K",
    ]  # fmt: skip
    assert [rank_label(v * 4, Design.SPANISH) for v in range(7, 10)] == ["S", "C", "R"]
    assert [is_face(v * 4) for v in range(10)] == [False] * 7 + [True] * 3


def test_phrases_and_scoring_words() -> None:
    cards = [parse_card(n) for n in ("7D", "3S", "5H")]
    assert cards_phrase(cards) == "7 de diamantes, 3 de picas y 5 de corazones"
    assert cards_phrase(cards[:1], Design.SPANISH) == "siete de oros"
    assert cards_phrase([]) == ""
    assert diamonds_word(Design.SPANISH) == "oros"
    assert seven_of_diamonds_name(Design.FRENCH) == "siete de diamantes"


def test_parse_design_falls_back_to_french() -> None:
    assert parse_design("spanish") is Design.SPANISH
    assert parse_design(None) is Design.FRENCH
    assert parse_design("klingon") is Design.FRENCH


def test_no_such_card() -> None:
    with pytest.raises(ValueError):
        card_name(40)


def test_articles() -> None:
    assert the_card(parse_card("9H"), Design.FRENCH) == "la jota de corazones"
    assert the_card(parse_card("9H"), Design.SPANISH) == "el caballo de copas"
    assert the_card(parse_card("8S"), Design.SPANISH) == "la sota de espadas"
    assert the_card(parse_card("7D")) == "el 7 de diamantes"
