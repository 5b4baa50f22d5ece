"""The analysis and the coach in the game's words: es, pt_BR and en, in
each viewer's deck design."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from escoba.analysis import (
    Move,
    coach_facts,
    say_coach,
    say_move,
    say_seat,
    say_step,
    weigh_play,
)
from escoba.analysis.model import MarkCounts, SeatSummary, StepAnalysis
from escoba.analysis.wording import say_mark
from escoba.engine import GameState, RuleSet, make_play, new_game, parse_card, parse_cards, view
from escoba.names import Design

from .helpers import QUICK, deck_for

NAMES = ["Ana", "Beto"]


def ana_first(hand: str, table: str) -> GameState:
    return new_game(RuleSet(), 2, deck_for(2, dealer=1, hands={0: hand}, table=table), 1)


@pytest.fixture(scope="module")
def seven_left() -> StepAnalysis:
    """Ana leaves the 2 of hearts where the queen took the 7 of diamonds."""
    state = ana_first("8S 1C 2H", "7D 10H 9C 10S")
    return weigh_play(view(state, 0), make_play(parse_card("2H")), step=1, evaluator=QUICK)


@pytest.mark.parametrize(
    ("lang", "design", "played", "mark", "cost", "reason", "best", "expected"),
    [
        (
            "es",
            Design.FRENCH,
            "Ana dejó el 2 de corazones en la mesa.",
            "Error",
            r"Costó \d+,\d puntos, contando lo que ganaba el otro lado\.",
            "Dejaste el 7 de diamantes en la mesa.",
            "Luna habría jugado la reina de picas y se llevaba el 7 de diamantes.",
            r"Ana podía esperar \d+(,\d)? puntos en la ronda con esta jugada, "
            r"y \d+(,\d)? con la de Luna\.",
        ),
        (
            "es",
            Design.SPANISH,
            "Ana dejó el dos de copas en la mesa.",
            "Error",
            r"Costó \d+,\d puntos, contando lo que ganaba el otro lado\.",
            "Dejaste el siete de oros en la mesa.",
            "Luna habría jugado la sota de espadas y se llevaba el siete de oros.",
            r"Ana podía esperar .* con la de Luna\.",
        ),
        (
            "pt_BR",
            Design.BRAZILIAN,
            "Ana deixou o 2 de copas na mesa.",
            "Erro",
            r"Custou \d+,\d pontos, contando o que o outro lado ganhava\.",
            "Você deixou o 7 de ouros na mesa.",
            "Luna teria jogado o valete de espadas e levado o 7 de ouros.",
            r"Ana podia esperar \d+(,\d)? pontos na rodada com esta jogada, "
            r"e \d+(,\d)? com a de Luna\.",
        ),
        (
            "en",
            Design.FRENCH,
            "Ana left the 2 of hearts on the table.",
            "Mistake",
            r"It cost \d+\.\d points, counting what the other side gained\.",
            "You left the 7 of diamonds on the table.",
            "Luna would have played the queen of spades and taken the 7 of diamonds.",
            r"Ana could expect \d+(\.\d)? points in the round with this play, "
            r"and \d+(\.\d)? with Luna's\.",
        ),
    ],
)
def test_a_costly_step_in_words(
    seven_left: StepAnalysis,
    lang: str,
    design: Design,
    played: str,
    mark: str,
    cost: str,
    reason: str,
    best: str,
    expected: str,
) -> None:
    step = replace(seven_left, mark="mistake")  # the wording of the mark, whatever its grade
    sentences = say_step(step, NAMES, lang, design)
    assert sentences[0] == played
    assert sentences[1] == mark
    assert re.fullmatch(cost, sentences[2]), sentences[2]
    # why: the 7 of diamonds left on the table, its line the costliest
    assert sentences[3] == reason
    assert sentences[-2] == best
    # the points of Ana's own side, named, with her play and Luna's: said once
    assert re.fullmatch(expected, sentences[-1]), sentences[-1]
    assert sum("Beto" in s for s in sentences) == 0


def test_the_marks_and_the_best_in_words() -> None:
    assert [say_mark(m, "en") for m in ("imprecise", "mistake", "blunder")] == [
        "Inaccuracy",
        "Mistake",
        "Blunder",
    ]
    assert say_mark("blunder", "es") == "Error grave"
    assert say_mark("imprecise", "pt_BR") == "Imprecisão"
    state = ana_first("5S 3D 10C", "1S 2C 3H 4C")
    sweep = weigh_play(
        view(state, 0), make_play(parse_card("5S"), state.round.table), evaluator=QUICK
    )
    said = say_step(sweep, NAMES, "es")
    assert said[0] == (
        "Ana jugó el 5 de picas y se llevó el as de picas, el 2 de tréboles, "
        "el 3 de corazones y el 4 de tréboles: ¡ESCOBA!"
    )
    assert said[1] == "Es la mejor jugada que encontró Luna."
    assert re.fullmatch(
        r"Ana podía esperar \d+(,\d)? puntos? en la ronda con esta jugada\.", said[2]
    )
    assert len(said) == 3


def test_a_claim_in_words() -> None:
    claim = Move("claim", parse_card("5D"), parse_cards(["5D", "4S", "6C"]), escoba=True)
    assert say_move(claim, "Beto", "es") == (
        "Beto hizo LLEVAR EL 15: el 5 de diamantes, el 4 de picas y el 6 de tréboles. ¡ESCOBA!"
    )
    assert say_move(replace(claim, escoba=False), "Luna", "en", best=True) == (
        "Luna would have taken LLEVAR EL 15: the 5 of diamonds, the 4 of spades and the 6 of clubs."
    )


def test_a_seat_s_round_in_words() -> None:
    seat = SeatSummary(0, 0, 12, 1.25, MarkCounts(mistake=1), (4,), None)
    assert say_seat(seat, NAMES, "es") == "Ana regaló 1,2 puntos en la ronda."
    assert say_seat(seat, NAMES, "en") == "Ana gave away 1.2 points in the round."
    assert say_seat(replace(seat, given_away=1.0), NAMES, "pt_BR") == (
        "Ana entregou 1 ponto na rodada."
    )
    assert say_seat(replace(seat, given_away=0.0), NAMES, "es") == (
        "Ana no regaló puntos en la ronda."
    )


def test_the_coach_in_words() -> None:
    state = ana_first("5S 3D 10C", "1S 2C 3H 4C")
    v = view(state, 0)
    facts = coach_facts(v, make_play(parse_card("3D")))
    assert say_coach(facts, NAMES, "es") == [
        "La mesa queda en 13.",
        "Con una carta que vale 2, el siguiente barre la mesa: la probabilidad de que "
        "tenga una es del 26 %.",
        "Queda 1 carta de diamantes en la mesa para el siguiente.",
    ]
    assert say_coach(facts, NAMES, "en", Design.SPANISH)[1:] == [
        "With a card worth 2 the next player sweeps the table: the chance they hold one is 26%.",
        "1 card of coins stays on the table for the next player.",
    ]
    assert say_coach(facts, NAMES, "pt_BR")[0] == "A mesa fica em 13."
    left = coach_facts(v, make_play(parse_card("10C")))
    assert say_coach(left, NAMES, "es")[-1] == (
        "Dejas el rey de tréboles, que hace 15 con la mesa: el siguiente puede LLEVAR EL 15."
    )
    escoba = coach_facts(v, make_play(parse_card("5S"), state.round.table))
    assert say_coach(escoba, NAMES, "en") == ["You take the whole table: ¡ESCOBA!"]
    seven = ana_first("8S 1C 2H", "7D 10H 9C 10S")
    took = coach_facts(view(seven, 0), make_play(parse_card("8S"), (parse_card("7D"),)))
    assert say_coach(took, NAMES, "es", Design.SPANISH)[0] == (
        "Te llevas el siete de oros: un punto."
    )
