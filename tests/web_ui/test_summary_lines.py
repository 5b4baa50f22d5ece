"""The round summary shows what each line took and the points it gave
(«Cartas 22 → 1»), so that the lines add up to «Puntos de la ronda»
(issue 15, item 5); a screen reader hears «22, 1 punto»."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from escoba.engine import CARDS, GameState, Phase
from escoba.engine.cards import NOTATION, parse_card
from escoba.engine.scoring import score_round
from escoba.names import Design
from escoba.web.rendering.templating import render_table

from .conftest import make_page, play_until, start, text_of

ROW_RE = re.compile(r'<tr(?: class="[^"]*")?><th scope="row">(.*?)</th>(.*?)</tr>', re.S)
SHOWN_RE = re.compile(r'<span (?:class="line-shown" )?aria-hidden="true">(.*?)</span><span', re.S)


def summary_rows(html: str) -> dict[str, list[str]]:
    """Each row of the summary table: its heading → the cells as shown."""
    table = re.search(r'<table class="summary-table">.*?</table>', html, re.S)
    assert table is not None
    rows = {}
    for head, cells in ROW_RE.findall(table.group(0)):
        tds = re.findall(r"<td>(.*?)</td>", cells, re.S)
        rows[text_of(head)] = [
            text_of(m.group(1)) if (m := SHOWN_RE.search(td)) else text_of(td) for td in tds
        ]
    return rows


def round_over(players: int = 2, seed: int = 8) -> GameState:
    return play_until(start(players, seed=seed), lambda s: s.phase is Phase.ROUND_OVER, seed=5)


def with_scores(state: GameState, piles: list[str], escobas: tuple[int, ...]) -> GameState:
    """The round over, as if the sides had taken these piles."""
    cards = [tuple(parse_card(c) for c in p.split()) for p in piles]
    scores = score_round(cards, escobas, len(piles))
    summary = replace(
        state.finished_rounds[-1], scores=scores, totals=tuple(s.points for s in scores)
    )
    return replace(state, finished_rounds=(*state.finished_rounds[:-1], summary))


def twenty_two_against_eighteen() -> list[str]:
    mine = ["7D", "7H", "7S", "1D", "2D", "3D", "4D", "5D", "6D", "8D", "9D"]
    others = [NOTATION[c] for c in CARDS if NOTATION[c] not in mine]
    mine += others[:11]  # 22 cards: 3 sevens, 9 diamonds and the 7 of diamonds
    return [" ".join(mine), " ".join(others[11:])]


def test_each_line_shows_what_it_took_and_the_points_it_gave() -> None:
    state = with_scores(round_over(), twenty_two_against_eighteen(), (3, 1))
    html = render_table(make_page(state, seat=0), Design.SPANISH)
    rows = summary_rows(html)
    a, b = state.finished_rounds[-1].scores
    assert (a.cards, a.points_cards) == (22, 1)
    assert rows["Cartas"] == ["22 → 1", "18 → 0"]
    assert rows["Escobas"] == ["3 → 3", "1 → 1"]
    assert rows["Oros"] == [f"{a.diamonds} → 1", f"{b.diamonds} → 0"]
    assert rows["Sietes"] == [f"{a.sevens} → 1", f"{b.sevens} → 0"]
    assert rows["Siete de oros"] == ["sí → 1", "—"]
    # a 7-point round adds up to 7 line by line
    assert rows["Puntos de la ronda"] == ["7", "1"]
    assert a.points == 3 + 1 + 1 + 1 + 1
    # read aloud: «22, 1 punto»; «18, 0 puntos»
    assert "22, 1 punto<" in html and "18, 0 puntos<" in html and "3, 3 puntos<" in html
    assert "sí, 1 punto<" in html
    assert "Lo que se llevó → los puntos que da" in html


@pytest.mark.parametrize(
    ("lang", "cards", "spoken"),
    [
        ("en", "Cards", ("22, 1 point<", "18, 0 points<")),
        ("pt_BR", "Cartas", ("22, 1 ponto<", "18, 0 pontos<")),
    ],
)
def test_the_lines_in_every_language(lang: str, cards: str, spoken: tuple[str, str]) -> None:
    state = with_scores(round_over(), twenty_two_against_eighteen(), (2, 1))
    html = render_table(make_page(state, seat=0), Design.FRENCH, lang=lang)
    assert summary_rows(html)[cards] == ["22 → 1", "18 → 0"]
    for words in spoken:
        assert words in html


@pytest.mark.parametrize(("players", "seed"), [(2, 8), (3, 4), (4, 2), (2, 21), (4, 9)])
def test_the_lines_add_up_to_the_rounds_points(players: int, seed: int) -> None:
    state = round_over(players, seed)
    html = render_table(make_page(state, seat=0, players=players), Design.SPANISH)
    rows = summary_rows(html)
    lines = ("Escobas", "Cartas", "Oros", "Sietes", "Siete de oros")
    for side, score in enumerate(state.finished_rounds[-1].scores):
        given = [
            0 if rows[line][side] == "—" else int(rows[line][side].split("→")[1]) for line in lines
        ]
        assert given == [
            score.points_escobas,
            score.points_cards,
            score.points_diamonds,
            score.points_sevens,
            score.points_seven_of_diamonds,
        ]
        assert sum(given) == int(rows["Puntos de la ronda"][side]) == score.points
