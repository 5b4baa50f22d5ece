from __future__ import annotations

import pytest

from escoba.engine import parse_card
from escoba.names import (
    Design,
    card_name,
    cards_phrase,
    chosen_design,
    design_faces,
    design_label,
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
    assert [rank_label(v * 4, Design.BRAZILIAN) for v in range(10)] == [
        "A", "2", "3", "4", "5", "6", "7", "J", "Q", "K",
    ]  # fmt: skip
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
    assert parse_design("brazilian") is Design.BRAZILIAN
    assert parse_design(None) is Design.FRENCH
    assert parse_design("klingon") is Design.FRENCH


def test_a_form_names_a_design_or_none() -> None:
    """The chooser's post: an unknown value is no design (refused), not French."""
    assert chosen_design("brazilian") is Design.BRAZILIAN
    assert chosen_design("french") is Design.FRENCH
    for bad in (None, "", "klingon", "Brazilian", "brazilian ", "\x00"):
        assert chosen_design(bad) is None


@pytest.mark.parametrize(
    ("lang", "eight", "nine", "ten", "seven"),
    [
        ("es", "la jota de oros", "la reina de oros", "el rey de oros", "el 7 de oros"),
        ("pt_BR", "o valete de ouros", "a dama de ouros", "o rei de ouros", "o 7 de ouros"),
        ("en", "the jack of diamonds", "the queen of diamonds", "the king of diamonds",
         "the 7 of diamonds"),
    ],
)  # fmt: skip
def test_jota_8_reina_9_names_the_faces_swapped(
    lang: str, eight: str, nine: str, ten: str, seven: str
) -> None:
    """RULES.md «Jota 8, reina 9»: under the Brazilian design the 8 is the J
    and the 9 the Q, named as Brazilian tables name them (ouros/oros)."""
    names = [the_card(parse_card(n), Design.BRAZILIAN, lang) for n in ("8D", "9D", "10D", "7D")]
    assert names == [eight, nine, ten, seven]


def test_jota_8_reina_9_other_suits_and_words() -> None:
    brazilian = Design.BRAZILIAN
    assert card_name(parse_card("8H"), brazilian) == "jota de copas"
    assert card_name(parse_card("9S"), brazilian) == "reina de espadas"
    assert card_name(parse_card("8C"), brazilian) == "jota de bastos"
    assert the_card(parse_card("9C"), brazilian, "pt_BR") == "a dama de paus"
    assert the_card(parse_card("8S"), brazilian, "pt_BR") == "o valete de espadas"
    assert diamonds_word(brazilian) == "oros"
    assert seven_of_diamonds_name(brazilian, "pt_BR") == "sete de ouros"
    assert cards_phrase([parse_card("8D"), parse_card("9D")], brazilian) == (
        "jota de oros y reina de oros"
    )
    # the French design keeps its faces: Q = 8, J = 9
    assert the_card(parse_card("8D"), Design.FRENCH) == "la reina de diamantes"
    assert the_card(parse_card("9D"), Design.FRENCH, "pt_BR") == "o valete de ouros"


def test_the_chooser_names_each_design_and_its_faces() -> None:
    assert [design_label(d) for d in Design] == ["Francesa", "Brasileña", "Española"]
    assert [design_label(d, "pt_BR") for d in Design] == ["Francês", "Brasileiro", "Espanhol"]
    assert [design_label(d, "en") for d in Design] == ["French", "Brazilian", "Spanish"]
    assert design_faces(Design.FRENCH) == "Reina 8, jota 9, rey 10"
    assert design_faces(Design.BRAZILIAN) == "Jota 8, reina 9, rey 10"
    assert design_faces(Design.SPANISH) == "Sota 8, caballo 9, rey 10"
    assert design_faces(Design.BRAZILIAN, "pt_BR") == "Valete 8, dama 9, rei 10"
    assert design_faces(Design.BRAZILIAN, "en") == "Jack 8, queen 9, king 10"


def test_no_such_card() -> None:
    with pytest.raises(ValueError):
        card_name(40)


def test_articles() -> None:
    assert the_card(parse_card("9H"), Design.FRENCH) == "la jota de corazones"
    assert the_card(parse_card("9H"), Design.SPANISH) == "el caballo de copas"
    assert the_card(parse_card("8S"), Design.SPANISH) == "la sota de espadas"
    assert the_card(parse_card("7D")) == "el 7 de diamantes"
