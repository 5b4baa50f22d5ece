"""Each line of a round summary says why its points went where they went,
and links to its paragraph of /reglas (issue 34, point 1): a majority, a
tie for nobody, a tie that gives each (the house rule), the 2 points of all
the cards of a kind, a «coja» setenta."""

from __future__ import annotations

import re

from markupsafe import Markup

from escoba.engine import GameState, Phase, RuleSet, view
from escoba.engine.cards import CARDS, IS_DIAMOND, NOTATION, VALUE, parse_card
from escoba.engine.scoring import score_round
from escoba.names import Design
from escoba.web.rendering.score_lines import ANCHORS, why_lines
from escoba.web.rendering.templating import render_table

from .conftest import make_page, play_until, start, text_of
from .test_summary_lines import round_over, twenty_two_against_eighteen, with_scores

NAMES = (Markup("Ana"), Markup("Luna"), Markup("Beto"))


def _piles(*texts: str) -> list[list[int]]:
    return [[parse_card(c) for c in t.split()] for t in texts]


def _rest(*taken: list[int]) -> list[int]:
    used = {c for pile in taken for c in pile}
    return [c for c in CARDS if c not in used]


def why(
    piles: list[list[int]],
    escobas: tuple[int, ...] | None = None,
    rules: RuleSet = RuleSet(),
    lang: str = "es",
) -> dict[str, str]:
    n = len(piles)
    scores = score_round(piles, list(escobas or (0,) * n), n, rules)
    return {w.line: text_of(w.text) for w in why_lines(scores, NAMES[:n], rules, lang)}


def plain() -> list[int]:
    """The cards that are neither diamonds nor sevens."""
    return [c for c in CARDS if not IS_DIAMOND[c] and VALUE[c] != 7]


def test_a_majority_says_the_counts_and_who_gets_the_point() -> None:
    mine = _piles(twenty_two_against_eighteen()[0])[0]
    lines = why([mine, _rest(mine)], (1, 2))
    assert lines["cards"] == "Ana: 22, Luna: 18. 1 punto para Ana, por tener más."
    assert lines["diamonds"] == "Ana: 9, Luna: 1. 1 punto para Ana, por tener más."
    assert lines["sevens"] == "Ana: 3, Luna: 1. 1 punto para Ana, por tener más."
    assert lines["seven_of_diamonds"] == "Es de Ana: 1 punto."
    assert lines["escobas"] == "Ana: 1, Luna: 2. Cada escoba es 1 punto para quien la hizo."
    assert list(lines) == ["escobas", "cards", "diamonds", "sevens", "seven_of_diamonds"]


def test_a_tie_at_the_top_gives_the_point_to_nobody() -> None:
    ana = plain()[:20]
    lines = why([ana, _rest(ana)])
    assert lines["cards"] == "Ana: 20, Luna: 20. Empate arriba: el punto no es para nadie."
    # three players: two tied at the top, the third below
    a, b = plain()[:14], plain()[14:27]
    lines = why([a, b, _rest(a, b)])
    assert lines["cards"] == ("Ana: 14, Luna: 13, Beto: 13. 1 punto para Ana, por tener más.")
    a, b = plain()[:14], [*plain()[14:27], parse_card("7D")]
    lines = why([a, b, _rest(a, b)])
    assert (
        lines["cards"] == "Ana: 14, Luna: 14, Beto: 12. Empate arriba: el punto no es para nadie."
    )


def test_ties_that_give_each_name_every_tied_side() -> None:
    ana = plain()[:20]
    lines = why([ana, _rest(ana)], rules=RuleSet(ties="each"))
    assert lines["cards"] == (
        "Ana: 20, Luna: 20. Empate arriba y en esta mesa los empates dan punto a cada uno: "
        "1 punto para Ana y Luna."
    )


def test_the_two_points_of_all_the_cards_of_a_kind() -> None:
    # 31 cards against 9
    many = [c for c in CARDS if NOTATION[c] not in {"7D", "7H", "7S", "7C", "1D", "2D"}][:31]
    lines = why([many, _rest(many)])
    assert lines["cards"].endswith(
        "2 puntos para Ana, por tener más y los demás menos de 10 cartas."
    )
    assert lines["cards"].startswith("Ana: 31, Luna: 9.")
    # all ten diamonds, all four sevens
    kinds = [c for c in CARDS if IS_DIAMOND[c] or VALUE[c] == 7]
    lines = why([kinds, _rest(kinds)])
    assert lines["diamonds"] == "Ana: 10, Luna: 0. 2 puntos para Ana, por tener los 10 del palo."
    assert lines["sevens"] == "Ana: 4, Luna: 0. 2 puntos para Ana, por tener los cuatro sietes."


def test_a_coja_setenta_cannot_win() -> None:
    # Luna took no heart: her setenta is «coja»
    ana = _piles("1H 2H 3H 4H 5H 6H 7H 8H 9H 10H 1D 2D 3D 4D 5D 1S 2S 3S 4S 1C")[0]
    lines = why([ana, _rest(ana)], rules=RuleSet(setenta=True))
    assert "sevens" not in lines
    assert lines["setenta"] == (
        "Ana: 69, Luna: coja. 1 punto para Ana, por tener la setenta más alta. "
        "Sin cartas de algún palo la setenta está coja y no gana."
    )
    # both coja: nobody
    reds = [c for c in CARDS if c % 4 in (0, 1)]
    lines = why([reds, _rest(reds)], rules=RuleSet(setenta=True))
    assert lines["setenta"] == (
        "Ana: coja, Luna: coja. Todos están cojos (les falta algún palo): "
        "el punto no es para nadie."
    )


def test_nobody_took_it() -> None:
    lines = why([[parse_card("1H")], [parse_card("2H")]])
    assert lines["seven_of_diamonds"] == "No se lo llevó nadie: el punto no es para nadie."
    assert lines["escobas"] == "Nadie hizo escoba en esta ronda."
    assert lines["diamonds"] == "Ana: 0, Luna: 0. Nadie tiene ninguno: el punto no es para nadie."


def test_the_reasons_are_translated() -> None:
    mine = _piles(twenty_two_against_eighteen()[0])[0]
    en = why([mine, _rest(mine)], (1, 2), lang="en")
    assert en["cards"] == "Ana: 22, Luna: 18. 1 point for Ana, for having the most."
    pt = why([mine, _rest(mine)], (1, 2), lang="pt_BR")
    assert pt["cards"] == "Ana: 22, Luna: 18. 1 ponto para Ana, por ter mais."


def test_the_summary_shows_each_reason_linked_to_its_rule() -> None:
    state = with_scores(round_over(), twenty_two_against_eighteen(), (3, 1))
    html = render_table(make_page(state, seat=0), Design.SPANISH)
    reasons = re.search(r'<ul class="summary-why">(.*?)</ul>', html, re.S)
    assert reasons is not None
    items = re.findall(
        r'<li data-line="(\w+)"><a href="/reglas#([\w-]+)">(.*?)</a>: (.*?)</li>', reasons[1], re.S
    )
    assert [(line, anchor) for line, anchor, _, _ in items] == [
        (line, ANCHORS[line])
        for line in ("escobas", "cards", "diamonds", "sevens", "seven_of_diamonds")
    ]
    named = {line: text_of(name) for line, _, name, _ in items}
    assert named == {
        "escobas": "Escobas",
        "cards": "Más cartas",
        "diamonds": "Oros",
        "sevens": "Sietes",
        "seven_of_diamonds": "Siete de oros",
    }
    # names come in their own <bdi>: read without the spaces of their tags
    said = {line: re.sub(r" ([:,])", r"\1", text_of(text)) for line, _, _, text in items}
    assert said["cards"] == "Ana: 22, Beto: 18. 1 punto para Ana, por tener más."


def test_the_game_s_words_lead_to_their_rules() -> None:
    """At the table: ÚLTIMAS in the game bar, the chance of LLEVAR EL 15 and
    the pause menu lead to the rules page."""

    def claim_for_seat_0(state: GameState) -> bool:
        return state.phase is Phase.PLAYING and state.round.turn == 0 and view(state, 0).can_claim

    state = play_until(start(2, seed=4), claim_for_seat_0, seed=6)
    html = render_table(make_page(state, seat=0), Design.FRENCH)
    assert '<a class="rules-link" href="/reglas#llevar-el-15">¿Qué es LLEVAR EL 15?</a>' in html
    assert '<a class="rules-link" href="/reglas">Las reglas del juego</a>' in html

    def last_deal(state: GameState) -> bool:
        return state.phase is Phase.PLAYING and view(state, 0).last_deal

    state = play_until(start(2, seed=4), last_deal, seed=6)
    html = render_table(make_page(state, seat=0), Design.FRENCH)
    assert re.search(r'<a class="chip chip-ultimas" href="/reglas#ultimas"[^>]*>ÚLTIMAS</a>', html)
