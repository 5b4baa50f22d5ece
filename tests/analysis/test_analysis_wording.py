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
from escoba.analysis.model import Hindsight, MarkCounts, Reason, SeatSummary, StepAnalysis
from escoba.analysis.wording import say_hindsight, say_mark, say_reason, step_words
from escoba.engine import GameState, RuleSet, make_play, new_game, parse_card, parse_cards, view
from escoba.names import Design
from escoba.words import CATALOG

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
    sentences = say_step(step, NAMES, lang, design, viewer=0)  # read by Ana, who played it
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


# --------------------------------------------------------------------------
# Why a play cost, and the sentences that must not say two things


SWEEP = Reason(
    "analysis_reason_sweep", "escobas", (("percent", 45), ("seat", 1), ("sum", 9), ("value", 6))
)


@pytest.mark.parametrize(
    ("reason", "lang", "design", "said"),
    [
        (
            SWEEP,
            "es",
            Design.FRENCH,
            "Dejaste la mesa en 9: Beto la barría con un 6, y la probabilidad de que tuviera "
            "uno era del 45 %.",
        ),
        (
            SWEEP,
            "pt_BR",
            Design.BRAZILIAN,
            "Você deixou a mesa em 9: Beto a varria com um 6, e a probabilidade de ter um era "
            "de 45 %.",
        ),
        (
            SWEEP,
            "en",
            Design.FRENCH,
            "You left the table at 9: Beto would sweep it with a 6, and held one with a 45 % "
            "chance.",
        ),
        (
            Reason("analysis_reason_left_card", "seven_of_diamonds", (("card", "7D"),)),
            "es",
            Design.SPANISH,
            "Dejaste el siete de oros en la mesa.",
        ),
        (
            Reason("analysis_reason_left_card", "seven_of_diamonds", (("card", "7D"),)),
            "en",
            Design.FRENCH,
            "You left the 7 of diamonds on the table.",
        ),
        (
            Reason("analysis_reason_cards", "cards", (("could", 3), ("took", 1))),
            "es",
            Design.FRENCH,
            "Te llevaste 1 carta donde podías llevarte 3.",
        ),
        (
            Reason("analysis_reason_cards", "cards", (("could", 3), ("took", 0))),
            "pt_BR",
            Design.BRAZILIAN,
            "Você levou 0 cartas onde podia levar 3.",
        ),
        (
            Reason("analysis_reason_cards", "cards", (("could", 3), ("took", 1))),
            "en",
            Design.FRENCH,
            "You took 1 card where you could have taken 3.",
        ),
        (
            Reason("analysis_reason_diamonds", "diamonds", (("could", 2), ("took", 0))),
            "es",
            Design.SPANISH,
            "Te llevaste 0 cartas de oros donde podías llevarte 2.",
        ),
        (
            Reason("analysis_reason_leftover", "leftover", (("seat", 1),)),
            "es",
            Design.FRENCH,
            "En ÚLTIMAS lo que queda es para Beto.",
        ),
        (
            Reason("analysis_reason_leftover", "leftover", (("seat", 1),)),
            "pt_BR",
            Design.BRAZILIAN,
            "Em ÚLTIMAS, o que sobra na mesa é de Beto.",
        ),
        (
            Reason("analysis_reason_leftover", "leftover", (("seat", 1),)),
            "en",
            Design.FRENCH,
            "In ÚLTIMAS what is left on the table goes to Beto.",
        ),
        (
            Reason("analysis_reason_claim_left", "escobas", (("card", "7S"), ("seat", 1))),
            "es",
            Design.FRENCH,
            "Dejaste el 7 de picas, que hacía 15 con la mesa: Beto podía LLEVAR EL 15.",
        ),
        (
            Reason("analysis_reason_missed_escoba", "escobas"),
            "en",
            Design.FRENCH,
            "You could have taken the whole table: ¡ESCOBA!",
        ),
        (
            Reason("analysis_reason_line", "diamonds", (("cost", 0.35), ("of_line", "diamonds"))),
            "es",
            Design.SPANISH,
            "Lo que más pesó: las cartas de oros (0,3 puntos).",
        ),
        (
            Reason("analysis_reason_line", "leftover", (("cost", 1), ("of_line", "leftover"))),
            "en",
            Design.FRENCH,
            "What weighed most: what is left on the table in ÚLTIMAS (1 point).",
        ),
        (
            Reason(
                "analysis_reason_line",
                "seven_of_diamonds",
                (("cost", 0.8), ("of_line", "seven_of_diamonds")),
            ),
            "pt_BR",
            Design.SPANISH,
            "O que mais pesou: o sete de ouros (0,8 pontos).",
        ),
    ],
)
def test_each_reason_in_words(reason: Reason, lang: str, design: Design, said: str) -> None:
    assert say_reason(reason, NAMES, lang, design) == said


def test_a_costly_step_says_its_reasons_after_its_cost(seven_left: StepAnalysis) -> None:
    assert seven_left.reasons
    words = step_words(seven_left, NAMES, "es", viewer=0)
    assert words.reasons == tuple(say_reason(r, NAMES, "es") for r in seven_left.reasons)
    said = words.sentences()
    assert said[said.index(words.verdict or "") + 1] == words.reasons[0]


@pytest.mark.parametrize(
    ("hindsight_best", "cost", "lang", "said"),
    [
        (
            "played",
            0.0,
            "es",
            "A posteriori, viendo todas las cartas: la jugada hecha era la mejor.",
        ),
        (
            "best",
            2.0,
            "es",
            "A posteriori, viendo todas las cartas: la mejor era la de Luna, y la jugada hecha "
            "costó 2 puntos.",
        ),
        (
            "other",
            1.0,
            "en",
            "In hindsight, with every card seen: neither the play made nor Luna's was the best, "
            "and the play made cost 1 point.",
        ),
        (
            "best",
            2.0,
            "pt_BR",
            "A posteriori, vendo todas as cartas: a melhor era a de Luna, e a jogada feita "
            "custou 2 pontos.",
        ),
    ],
)
def test_hindsight_says_whether_the_play_made_or_the_one_suggested_was_best(
    seven_left: StepAnalysis, hindsight_best: str, cost: float, lang: str, said: str
) -> None:
    other = Move("play", parse_card("1C"), (), escoba=False)
    best = {"played": seven_left.played, "best": seven_left.best, "other": other}[hindsight_best]
    step = replace(seven_left, hindsight=Hindsight(best, -cost, 0.0, cost))
    assert say_hindsight(step, lang) == said
    assert step_words(step, NAMES, lang).hindsight == said


def test_a_mark_and_a_hindsight_that_agree_never_contradict(seven_left: StepAnalysis) -> None:
    """The issue's «Imprecisa · Costó 0,5 puntos… A posteriori: era la
    mejor»: now it says which play was best."""
    step = replace(
        seven_left, mark="imprecise", hindsight=Hindsight(seven_left.played, 0.0, 0.0, 0.0)
    )
    said = say_step(step, NAMES, "es")
    assert said[-1] == "A posteriori, viendo todas las cartas: la jugada hecha era la mejor."
    assert not any(s.endswith("era la mejor.") and "hecha" not in s for s in said)


def test_a_seat_s_given_away_agrees_with_its_marked_plays(seven_left: StepAnalysis) -> None:
    marked = replace(seven_left, mark="mistake", given_away=2.5)
    unmarked = replace(seven_left, step=4, mark=None, given_away=0.6)
    seat = SeatSummary(0, 0, 12, 3.1, MarkCounts(mistake=1), (1, 4), None)
    assert say_seat(seat, NAMES, "es", [marked, unmarked]) == (
        "Ana regaló 3,1 puntos en la ronda: 2,5 en sus jugadas marcadas y 0,6 en jugadas de "
        "poco costo, sin marca."
    )
    assert say_seat(seat, NAMES, "en", [marked, unmarked]) == (
        "Ana gave away 3.1 points in the round: 2.5 in their marked plays and 0.6 in small, "
        "unmarked ones."
    )
    only_marked = replace(seat, given_away=2.5)
    assert say_seat(only_marked, NAMES, "es", [marked]) == "Ana regaló 2,5 puntos en la ronda."


def test_the_expected_points_name_the_mover_s_own_side(seven_left: StepAnalysis) -> None:
    """Whoever moves, the sentence names whose points they are: Beto's
    step says Beto's, never «su lado»; at four, the pair."""
    beto = replace(
        seven_left,
        seat=1,
        side=1,
        played_points=(1.0, 2.0),
        best_points=(0.5, 3.0),
    )
    assert say_step(beto, NAMES, "es")[-1] == (
        "Beto podía esperar 2 puntos en la ronda con esta jugada, y 3 con la de Luna."
    )
    four = ["Ana", "Beto", "Carmen", "Dani"]
    pair = replace(beto, seat=3, side=1)
    assert say_step(pair, four, "es")[-1] == (
        "Dani y Beto podían esperar 2 puntos en la ronda con esta jugada, y 3 con la de Luna."
    )
    assert say_step(pair, four, "en")[-1] == (
        "Dani and Beto could expect 2 points in the round with this play, and 3 with Luna's."
    )


# --------------------------------------------------------------------------
# Whom a reason speaks to: the player who made the play reads «Dejaste…»;
# anyone else (another seat, a spectator, the command line) reads the
# player's name in the third person, never a «you» that is not theirs


@pytest.mark.parametrize(
    ("reason", "lang", "design", "to_ana", "of_ana"),
    [
        (
            SWEEP,
            "es",
            Design.FRENCH,
            "Dejaste la mesa en 9: Beto la barría con un 6, y la probabilidad de que tuviera "
            "uno era del 45 %.",
            "Ana dejó la mesa en 9: Beto la barría con un 6, y la probabilidad de que tuviera "
            "uno era del 45 %.",
        ),
        (
            SWEEP,
            "pt_BR",
            Design.BRAZILIAN,
            "Você deixou a mesa em 9: Beto a varria com um 6, e a probabilidade de ter um era "
            "de 45 %.",
            "Ana deixou a mesa em 9: Beto a varria com um 6, e a probabilidade de ter um era "
            "de 45 %.",
        ),
        (
            SWEEP,
            "en",
            Design.FRENCH,
            "You left the table at 9: Beto would sweep it with a 6, and held one with a 45 % "
            "chance.",
            "Ana left the table at 9: Beto would sweep it with a 6, and held one with a 45 % "
            "chance.",
        ),
        (
            Reason("analysis_reason_left_card", "seven_of_diamonds", (("card", "7D"),)),
            "es",
            Design.FRENCH,
            "Dejaste el 7 de diamantes en la mesa.",
            "Ana dejó el 7 de diamantes en la mesa.",
        ),
        (
            Reason("analysis_reason_left_card", "seven_of_diamonds", (("card", "7D"),)),
            "pt_BR",
            Design.BRAZILIAN,
            "Você deixou o 7 de ouros na mesa.",
            "Ana deixou o 7 de ouros na mesa.",
        ),
        (
            Reason("analysis_reason_left_card", "seven_of_diamonds", (("card", "7D"),)),
            "en",
            Design.FRENCH,
            "You left the 7 of diamonds on the table.",
            "Ana left the 7 of diamonds on the table.",
        ),
        (
            Reason("analysis_reason_cards", "cards", (("could", 3), ("took", 1))),
            "es",
            Design.FRENCH,
            "Te llevaste 1 carta donde podías llevarte 3.",
            "Ana se llevó 1 carta donde podía llevarse 3.",
        ),
        (
            Reason("analysis_reason_cards", "cards", (("could", 3), ("took", 0))),
            "pt_BR",
            Design.BRAZILIAN,
            "Você levou 0 cartas onde podia levar 3.",
            "Ana levou 0 cartas onde podia levar 3.",
        ),
        (
            Reason("analysis_reason_cards", "cards", (("could", 3), ("took", 1))),
            "en",
            Design.FRENCH,
            "You took 1 card where you could have taken 3.",
            "Ana took 1 card where 3 could have been taken.",
        ),
        (
            Reason("analysis_reason_diamonds", "diamonds", (("could", 2), ("took", 0))),
            "es",
            Design.SPANISH,
            "Te llevaste 0 cartas de oros donde podías llevarte 2.",
            "Ana se llevó 0 cartas de oros donde podía llevarse 2.",
        ),
        (
            Reason("analysis_reason_sevens", "sevens", (("could", 2), ("took", 1))),
            "es",
            Design.FRENCH,
            "Te llevaste 1 siete donde podías llevarte 2.",
            "Ana se llevó 1 siete donde podía llevarse 2.",
        ),
        (
            Reason("analysis_reason_sevens", "sevens", (("could", 2), ("took", 1))),
            "pt_BR",
            Design.FRENCH,
            "Você levou 1 sete onde podia levar 2.",
            "Ana levou 1 sete onde podia levar 2.",
        ),
        (
            Reason("analysis_reason_claim_left", "escobas", (("card", "7S"), ("seat", 1))),
            "es",
            Design.FRENCH,
            "Dejaste el 7 de picas, que hacía 15 con la mesa: Beto podía LLEVAR EL 15.",
            "Ana dejó el 7 de picas, que hacía 15 con la mesa: Beto podía LLEVAR EL 15.",
        ),
        (
            Reason("analysis_reason_claim_left", "escobas", (("card", "7S"), ("seat", 1))),
            "en",
            Design.FRENCH,
            "You left the 7 of spades, which made 15 with the table: Beto could LLEVAR EL 15.",
            "Ana left the 7 of spades, which made 15 with the table: Beto could LLEVAR EL 15.",
        ),
        (
            Reason("analysis_reason_missed_escoba", "escobas"),
            "es",
            Design.FRENCH,
            "Podías llevarte toda la mesa: ¡ESCOBA!",
            "Ana podía llevarse toda la mesa: ¡ESCOBA!",
        ),
        (
            Reason("analysis_reason_missed_escoba", "escobas"),
            "pt_BR",
            Design.FRENCH,
            "Você podia levar a mesa toda: ¡ESCOBA!",
            "Ana podia levar a mesa toda: ¡ESCOBA!",
        ),
        (
            Reason("analysis_reason_missed_escoba", "escobas"),
            "en",
            Design.FRENCH,
            "You could have taken the whole table: ¡ESCOBA!",
            "Ana could have taken the whole table: ¡ESCOBA!",
        ),
        (
            Reason("analysis_reason_missed_card", "seven_of_diamonds", (("card", "7D"),)),
            "es",
            Design.SPANISH,
            "Podías llevarte el siete de oros.",
            "Ana podía llevarse el siete de oros.",
        ),
        (
            Reason("analysis_reason_missed_card", "seven_of_diamonds", (("card", "7D"),)),
            "en",
            Design.FRENCH,
            "You could have taken the 7 of diamonds.",
            "Ana could have taken the 7 of diamonds.",
        ),
        (
            Reason("analysis_reason_missed_card", "seven_of_diamonds", (("card", "7D"),)),
            "pt_BR",
            Design.BRAZILIAN,
            "Você podia levar o 7 de ouros.",
            "Ana podia levar o 7 de ouros.",
        ),
        # whose the leftover is, and what weighed most, name nobody as «you»
        (
            Reason("analysis_reason_leftover", "leftover", (("seat", 1),)),
            "es",
            Design.FRENCH,
            "En ÚLTIMAS lo que queda es para Beto.",
            "En ÚLTIMAS lo que queda es para Beto.",
        ),
        (
            Reason("analysis_reason_line", "leftover", (("cost", 1), ("of_line", "leftover"))),
            "en",
            Design.FRENCH,
            "What weighed most: what is left on the table in ÚLTIMAS (1 point).",
            "What weighed most: what is left on the table in ÚLTIMAS (1 point).",
        ),
    ],
)
def test_a_reason_speaks_to_the_one_who_played_and_of_them_to_anyone_else(
    reason: Reason, lang: str, design: Design, to_ana: str, of_ana: str
) -> None:
    assert say_reason(reason, NAMES, lang, design) == to_ana
    assert say_reason(reason, NAMES, lang, design, about=0) == of_ana


def test_every_reason_has_words_about_another_player_in_every_language() -> None:
    """No reason the analysis can give is left saying «you» to a viewer
    who did not make the play."""
    values = {
        "card": "7D",
        "seat": 1,
        "sum": 9,
        "value": 6,
        "percent": 45,
        "took": 1,
        "could": 3,
        "cost": 0.5,
        "of_line": "cards",
    }
    second = re.compile(r"\b(Dejaste|Te llevaste|Podías|podías|You|you|Você|você)\b")
    codes = [c for c in CATALOG if c.startswith("analysis_reason_")]
    assert len(codes) >= 10
    for code in codes:
        reason = Reason(code, "cards", tuple(sorted(values.items())))
        for lang in ("es", "es_AR", "pt_BR", "en"):
            said = say_reason(reason, ["Tito", "Beto"], lang, about=0)
            assert not second.search(said), (code, lang, said)
            if code not in ("analysis_reason_leftover", "analysis_reason_line"):
                assert said.startswith("Tito "), (code, lang, said)


def test_es_ar_says_the_reasons_as_spanish_does() -> None:
    """«Dejaste», «Te llevaste», «Podías»: the voseo's preterite and
    imperfect are the tú forms."""
    for reason in (SWEEP, Reason("analysis_reason_cards", "cards", (("could", 3), ("took", 1)))):
        for about in (None, 0):
            assert say_reason(reason, NAMES, "es_AR", about=about) == say_reason(
                reason, NAMES, "es", about=about
            )


def test_a_step_s_reasons_speak_to_its_player_and_of_them_to_the_others(
    seven_left: StepAnalysis,
) -> None:
    """Ana's play: Ana reads «Dejaste…»; Beto, a spectator (no viewer) and
    the command line read «Ana dejó…»."""
    assert step_words(seven_left, NAMES, "es", viewer=0).reasons[0] == (
        "Dejaste el 7 de diamantes en la mesa."
    )
    for viewer in (1, None):
        words = step_words(seven_left, NAMES, "es", viewer=viewer)
        assert words.reasons[0] == "Ana dejó el 7 de diamantes en la mesa.", viewer
        assert "Ana dejó el 7 de diamantes en la mesa." in say_step(
            seven_left, NAMES, "es", viewer=viewer
        )
    assert step_words(seven_left, NAMES, "en", viewer=1).reasons[0] == (
        "Ana left the 7 of diamonds on the table."
    )
    assert step_words(seven_left, NAMES, "pt_BR", Design.BRAZILIAN, viewer=1).reasons[0] == (
        "Ana deixou o 7 de ouros na mesa."
    )
    # Beto's play, read by Ana
    beto = replace(seven_left, seat=1, side=1)
    assert step_words(beto, NAMES, "es", viewer=0).reasons[0] == (
        "Beto dejó el 7 de diamantes en la mesa."
    )
    assert step_words(beto, NAMES, "es", viewer=1).reasons[0] == (
        "Dejaste el 7 de diamantes en la mesa."
    )
