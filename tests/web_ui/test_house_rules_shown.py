"""The round's summary and the pages under the house rules (issue 17): la
setenta's line («Setenta 74 → 1», «coja»), a tie's point on each tied side,
the leftover check («Cuenta de los restos: suman 25 = 10 + 15», and what the
check is) and the rules in force."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from escoba.engine import GameState, Phase, RuleSet, new_game, shuffled_deck
from escoba.engine.cards import parse_card
from escoba.engine.scoring import score_round
from escoba.engine.state import Leftover
from escoba.names import Design
from escoba.web.rendering.templating import render_table
from escoba.words import leftover_sum, say, say_rules

from .conftest import make_page, play_until, text_of
from .test_summary_lines import summary_rows

SUITS = "DHSC"


def suit(letter: str, values: range = range(1, 11)) -> list[str]:
    return [f"{v}{letter}" for v in values]


def round_over(rules: RuleSet) -> GameState:
    state = new_game(rules, 2, shuffled_deck(random.Random(8)))
    return play_until(state, lambda s: s.phase is Phase.ROUND_OVER, seed=5)


def with_piles(state: GameState, piles: list[list[str]], leftover: list[str]) -> GameState:
    """The round over, as if the sides had taken these piles (under the
    state's rules) and these cards had been left on the table."""
    cards = [tuple(parse_card(c) for c in p) for p in piles]
    scores = score_round(cards, (0, 0), 2, state.rules)
    last = state.finished_rounds[-1]
    summary = replace(
        last,
        scores=scores,
        totals=tuple(s.points for s in scores),
        leftover=Leftover(0, tuple(parse_card(c) for c in leftover)),
    )
    return replace(state, finished_rounds=(*state.finished_rounds[:-1], summary))


def test_la_setenta_replaces_the_sevens_and_a_side_missing_a_suit_is_coja() -> None:
    rules = RuleSet(setenta=True)
    # Ana: every diamond and spade, and the aces of hearts and clubs (22
    # cards); Beto: the other hearts and clubs, no diamond nor spade: «coja»
    ana = suit("D") + suit("S") + ["1H", "1C"]
    beto = suit("H", range(2, 11)) + suit("C", range(2, 11))
    state = with_piles(round_over(rules), [ana, beto], ["10H", "5C", "10C"])
    page = make_page(state, seat=0, rules=rules)
    html = render_table(page, Design.SPANISH)
    rows = summary_rows(html)
    assert "Sietes" not in rows
    # 7D 21 + 7S 21 + 1H 16 + 1C 16
    assert rows["Setenta"] == ["74 → 1", "coja → 0"]
    assert rows["Cartas"] == ["22 → 1", "18 → 0"]
    assert rows["Oros"] == ["10 → 2", "0 → 0"]
    assert rows["Siete de oros"] == ["sí → 1", "—"]
    assert rows["Puntos de la ronda"] == ["5", "0"]
    text = text_of(html)
    assert (
        "Cuenta de los restos: suman 25 = 10 + 15 "
        "(lo que queda siempre suma 10 más un múltiplo de 15)." in text
    )
    assert "Reglas de la casa, a 21 puntos: la setenta." in text
    # read aloud: «coja, 0 puntos»
    assert "coja, 0 puntos<" in html and "74, 1 punto<" in html


def test_a_tie_shared_shows_its_point_on_each_side() -> None:
    rules = RuleSet(setenta=True, ties="each")
    # 20 cards each; Ana's setenta 7D 21 + 7S 21 + 7H 21 + 6C 18 = 81,
    # Beto's 7C 21 + 6D 18 + 6S 18 + 6H 18 = 75
    ana = suit("D", range(7, 11)) + suit("S", range(7, 11)) + suit("H", range(7, 11))
    ana += ["1D", "2D", "3D", "4D", "5D", "1S", "2S", "6C"]
    beto = [c for s in SUITS for c in suit(s) if c not in ana]
    assert len(ana) == len(beto) == 20
    state = with_piles(round_over(rules), [ana, beto], ["10H"])
    html = render_table(make_page(state, seat=1, rules=rules), Design.SPANISH)
    rows = summary_rows(html)
    assert rows["Cartas"] == ["20 → 1", "20 → 1"]  # a tie: a point to each
    assert rows["Setenta"] == ["81 → 1", "75 → 0"]
    a, b = state.finished_rounds[-1].scores
    assert rows["Puntos de la ronda"] == [str(a.points), str(b.points)]
    # Ana: the tied cards, 9 diamonds, the setenta, the 7 of diamonds; Beto: the tie
    assert (a.points, b.points) == (4, 1)
    assert "Cuenta de los restos: suman 10 (" in text_of(html)


@pytest.mark.parametrize(
    ("total", "fifteens", "shown"),
    [(10, 0, "10"), (25, 1, "25 = 10 + 15"), (40, 2, "40 = 10 + 2 × 15")],
)
def test_the_leftover_check_in_numbers(total: int, fifteens: int, shown: str) -> None:
    assert leftover_sum(total, fifteens) == shown


def test_the_leftover_check_says_what_it_is_in_every_language() -> None:
    """Issue 25: «Restos: 25 = 10 + 15» meant nothing to a newcomer; the line
    says what is checked (RULES.md, «A round» 7)."""
    check = leftover_sum(25, 1)
    assert [say("leftover_check", lang, check=check) for lang in ("es", "en", "pt_BR")] == [
        "Cuenta de los restos: suman 25 = 10 + 15 "
        "(lo que queda siempre suma 10 más un múltiplo de 15).",
        "Leftover check: they add up to 25 = 10 + 15 "
        "(what is left always adds up to 10 plus a multiple of 15).",
        "Conta das sobras: somam 25 = 10 + 15 (o que sobra sempre soma 10 mais um múltiplo de 15).",
    ]


@pytest.mark.parametrize(
    ("rules", "es", "en", "pt"),
    [
        (
            RuleSet(target=31),
            "Reglas del sitio, a 31 puntos.",
            "Site rules, to 31 points.",
            "Regras do site, a 31 pontos.",
        ),
        (
            RuleSet(target=15),
            "Reglas de la casa: a 15 puntos.",
            "House rules: to 15 points.",
            "Regras da casa: a 15 pontos.",
        ),
        (
            RuleSet(setenta=True, ties="each", compulsory_capture=True, thirty_is_double=False),
            "Reglas de la casa, a 21 puntos: la setenta, empates: punto para cada uno, "
            "captura obligatoria, 30 en la mesa cuenta una escoba.",
            "House rules, to 21 points: the setenta, ties: a point for each, compulsory "
            "capture, 30 on the table counts one escoba.",
            "Regras da casa, a 21 pontos: a setenta, empates: ponto para cada um, captura "
            "obrigatória, 30 na mesa conta uma escoba.",
        ),
    ],
)
def test_the_rules_in_a_sentence(rules: RuleSet, es: str, en: str, pt: str) -> None:
    assert (say_rules(rules, "es"), say_rules(rules, "en"), say_rules(rules, "pt_BR")) == (
        es,
        en,
        pt,
    )


def test_the_game_bar_marks_a_table_of_house_rules() -> None:
    state = round_over(RuleSet(target=15, setenta=True))
    playing = make_page(
        play_until(new_game(state.rules, 2, shuffled_deck(random.Random(2))), lambda s: True),
        seat=0,
        rules=state.rules,
        target=15,
    )
    html = render_table(playing, Design.SPANISH)
    assert 'class="chip chip-house" href="#table-rules"' in html
    assert 'id="table-rules"' in html
    assert "A 15 · casa" in text_of(html)
    site = render_table(
        make_page(new_game(RuleSet(), 2, shuffled_deck(random.Random(2)))), Design.SPANISH
    )
    assert "chip-house" not in site and "Reglas del sitio, a 21 puntos." in text_of(site)
