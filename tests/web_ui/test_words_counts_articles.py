"""Words (issue 15, item 12): every count takes the language's plural rules
(Brazilian Portuguese writes zero in the plural: «0 cartas», never «0 carta»),
and the play log names each card with its article («lleva el 4 de picas y el
6 de picas»), in every language."""

from __future__ import annotations

import pytest

from escoba.engine import GameState, Phase, parse_card
from escoba.engine.state import RoundAction, TableTake
from escoba.i18n import LANGUAGES, translations
from escoba.names import Design, the_cards
from escoba.web.rendering.board import board_model
from escoba.web.rendering.templating import render_table
from escoba.words import say

from .conftest import make_page, start, text_of

# --------------------------------------------------------------------------
# Plurals


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_zero_and_many_take_the_plural_one_the_singular(lang: str) -> None:
    tr = translations(lang)
    forms = {n: tr.ngettext("%(num)s carta", "%(num)s cartas", n) % {"num": n} for n in (0, 1, 2)}
    many = {"es": "cartas", "pt_BR": "cartas", "en": "cards"}[lang]
    one = {"es": "carta", "pt_BR": "carta", "en": "card"}[lang]
    assert forms == {0: f"0 {many}", 1: f"1 {one}", 2: f"2 {many}"}


def test_the_seats_of_a_new_round_read_zero_in_the_plural() -> None:
    """…and say what they count: the cards taken this round (beside the
    small cards of the hand, «0 cartas» read as an empty hand)."""
    page = make_page(start(seed=5), seat=0)
    pt = text_of(render_table(page, Design.FRENCH, lang="pt_BR"))
    assert "0 cartas levadas" in pt and "0 escobas" in pt
    assert "0 carta " not in pt and "0 escoba " not in pt
    en = text_of(render_table(page, Design.FRENCH, lang="en"))
    assert "0 cards taken" in en and "0 escobas" in en
    es = text_of(render_table(page, Design.FRENCH, lang="es"))
    assert "0 cartas llevadas" in es and "0 escobas" in es
    assert "0 cartas 0" not in es


def test_sentences_of_the_catalog_count_zero_in_the_plural() -> None:
    assert say("digest_subject", "pt_BR", count=0) == "Escoba del 15: 0 mesas esperam por você"
    assert say("digest_subject", "pt_BR", count=1) == "Escoba del 15: 1 mesa espera por você"


# --------------------------------------------------------------------------
# Articles in the play log


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def with_history(
    state: GameState, *actions: RoundAction, take: TableTake | None = None
) -> GameState:
    from dataclasses import replace

    rnd = replace(state.round, history=tuple(actions), table_take=take)
    return replace(state, round=rnd)


PLAY = RoundAction(seat=1, kind="play", card=parse_card("5S"), cards=cards("4S 6S"), escoba=False)
CLAIM = RoundAction(seat=0, kind="claim", card=parse_card("8H"), cards=cards("8H 7C"), escoba=True)
LEAVE = RoundAction(seat=0, kind="play", card=parse_card("1C"), cards=(), escoba=False)


@pytest.mark.parametrize(
    ("lang", "design", "lines"),
    [
        (
            "es",
            Design.FRENCH,
            [
                "Ana deja el as de tréboles en la mesa",
                "Beto juega el 5 de picas y lleva el 4 de picas y el 6 de picas",
                "Ana lleva el 15: la reina de corazones y el 7 de tréboles — ¡ESCOBA!",
            ],
        ),
        (
            "es",
            Design.SPANISH,
            [
                "Ana deja el as de bastos en la mesa",
                "Beto juega el cinco de espadas y lleva el cuatro de espadas y el seis de espadas",
                "Ana lleva el 15: la sota de copas y el siete de bastos — ¡ESCOBA!",
            ],
        ),
        (
            "es",
            Design.BRAZILIAN,
            [
                "Ana deja el as de bastos en la mesa",
                "Beto juega el 5 de espadas y lleva el 4 de espadas y el 6 de espadas",
                "Ana lleva el 15: la jota de copas y el 7 de bastos — ¡ESCOBA!",
            ],
        ),
        (
            "pt_BR",
            Design.BRAZILIAN,
            [
                "Ana deixa o ás de paus na mesa",
                "Beto joga o 5 de espadas e leva o 4 de espadas e o 6 de espadas",
                "Ana leva o 15: o valete de copas e o 7 de paus — ¡ESCOBA!",
            ],
        ),
        (
            "en",
            Design.BRAZILIAN,
            [
                "Ana leaves the ace of clubs on the table",
                "Beto plays the 5 of spades and takes the 4 of spades and the 6 of spades",
                "Ana takes the 15: the jack of hearts and the 7 of clubs — ¡ESCOBA!",
            ],
        ),
        (
            "en",
            Design.FRENCH,
            [
                "Ana leaves the ace of clubs on the table",
                "Beto plays the 5 of spades and takes the 4 of spades and the 6 of spades",
                "Ana takes the 15: the queen of hearts and the 7 of clubs — ¡ESCOBA!",
            ],
        ),
        (
            "pt_BR",
            Design.FRENCH,
            [
                "Ana deixa o ás de paus na mesa",
                "Beto joga o 5 de espadas e leva o 4 de espadas e o 6 de espadas",
                "Ana leva o 15: a dama de copas e o 7 de paus — ¡ESCOBA!",
            ],
        ),
    ],
)
def test_the_play_log_names_cards_with_their_articles(
    lang: str, design: Design, lines: list[str]
) -> None:
    state = with_history(start(seed=5), CLAIM, PLAY, LEAVE)
    assert state.phase is Phase.PLAYING
    board = board_model(make_page(state, seat=0), design, lang)
    assert board is not None
    assert [text_of(line) for line in board.recent] == lines
    html = text_of(render_table(make_page(state, seat=0), design, lang=lang))
    assert lines[1] in html


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("es", "Beto reparte y se lleva la mesa: el 5 de picas, el 4 de picas y el 6 de picas"),
        (
            "en",
            "Beto deals and takes the table: the 5 of spades, the 4 of spades and the 6 of spades",
        ),
        (
            "pt_BR",
            "Beto dá as cartas e leva a mesa: o 5 de espadas, o 4 de espadas e o 6 de espadas",
        ),
    ],
)
def test_the_dealers_table_take_names_cards_with_their_articles(lang: str, line: str) -> None:
    take = TableTake(seat=1, cards=cards("5S 4S 6S"), escobas=1)
    state = with_history(start(seed=5), take=take)
    board = board_model(make_page(state, seat=0), Design.FRENCH, lang)
    assert board is not None
    assert text_of(board.recent[-1]).startswith(line)


def test_the_cards_joins_names_with_articles() -> None:
    assert the_cards(cards("4S 6S")) == "el 4 de picas y el 6 de picas"
    assert the_cards(cards("8D"), Design.SPANISH) == "la sota de oros"
    assert the_cards(cards("8D 9D 10D"), Design.FRENCH, "pt_BR") == (
        "a dama de ouros, o valete de ouros e o rei de ouros"
    )
    assert the_cards(()) == ""
