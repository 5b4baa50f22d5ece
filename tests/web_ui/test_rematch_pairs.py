"""A rematch with four: whoever reads the end of the game learns whether the
pairs stay (MANTENER) or change (CAMBIAR), and who will play with whom."""

from __future__ import annotations

from dataclasses import replace

import pytest

from escoba.engine import Phase
from escoba.names import Design
from escoba.web.rendering.templating import render_table
from escoba.web.table.pages import TablePage

from .conftest import make_page, play_until, start, text_of, with_can


def _over(viewer: int | None, asked: tuple[int, ...], partner: int | None) -> TablePage:
    """Ana (0) played with Carmen (2, a robot) against Beto (1) and Dani (3);
    `asked`: who pressed for the rematch; `partner`: Ana's partner in the
    next game (the table's, after her MANTENER or CAMBIAR)."""
    over = play_until(start(players=4, seed=9), lambda s: s.phase is Phase.GAME_OVER)
    page = make_page(over, seat=viewer, players=4)
    seats = tuple(replace(s, rematch_accepted=s.position in asked) for s in page.seats)
    you = None if viewer is None else seats[viewer]
    asked_here = you is not None and you.rematch_accepted
    return with_can(
        replace(page, seats=seats, you=you, partner_position=partner),
        pairs_choice=viewer == 0,
        rematch_asked=asked_here,
        rematch=you is not None and not asked_here,
    )


@pytest.mark.parametrize("viewer", [1, 3, None])
def test_cambiar_says_the_new_pairs_to_the_others(viewer: int | None) -> None:
    text = text_of(render_table(_over(viewer, asked=(0,), partner=3), Design.FRENCH))
    assert "Ana propone la revancha." in text
    assert "CAMBIAR: parejas nuevas, Ana y Dani contra Beto y Carmen robot" in text


def test_mantener_says_the_pairs_stay() -> None:
    text = text_of(render_table(_over(1, asked=(0,), partner=2), Design.FRENCH))
    assert "MANTENER: las mismas parejas, Ana y Carmen robot contra Beto y Dani" in text


def test_the_one_who_chose_reads_it_too_and_others_wait_for_her_choice() -> None:
    mine = text_of(render_table(_over(0, asked=(0,), partner=1), Design.FRENCH))
    assert "Pediste la revancha" in mine
    assert "CAMBIAR: parejas nuevas, Ana y Beto contra Carmen robot y Dani" in mine
    # Beto proposed first: Ana chooses when she accepts, and the page says so
    waiting = text_of(render_table(_over(3, asked=(1,), partner=None), Design.FRENCH))
    assert "Beto propone la revancha." in waiting
    assert "Ana elige al aceptar si las parejas siguen (MANTENER) o cambian (CAMBIAR)." in waiting
    assert "parejas nuevas" not in waiting and "las mismas parejas," not in waiting


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("pt_BR", "CAMBIAR: duplas novas, Ana e Dani contra Beto e Carmen robô"),
        ("en", "CAMBIAR: new pairs, Ana and Dani against Beto and Carmen robot"),
    ],
)
def test_in_each_language(lang: str, words: str) -> None:
    page = _over(1, asked=(0,), partner=3)
    assert words in text_of(render_table(page, Design.FRENCH, lang))
