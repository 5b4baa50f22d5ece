"""Names as the pages show them: each in its own <bdi> (so right-to-left
letters in a name, or a chat line, cannot reorder what is around them) and
robots marked wherever seats are shown — the lobby, the board's seat list,
the turn banner, the recent plays, the totals, the round summary, the
winner, the rematch."""

from __future__ import annotations

import re
from dataclasses import replace

from escoba.engine import EndReason, Phase, end_game
from escoba.names import Design
from escoba.web.rendering.templating import render_table

from .conftest import make_page, play_until, seat_rows, start, text_of

ROBOT_MARK = '<bdi class="who">Carmen</bdi> <span class="tag tag-robot">robot</span>'
RTL_NAME = "\u05d3\u05e0\u05d4 2"  # «דנה 2»: Hebrew letters, then a digit


def _part(html: str, pattern: str) -> str:
    found = re.search(pattern, html, re.S)
    assert found, pattern
    return found.group(0)


def test_the_board_marks_the_robot_in_every_place_a_seat_is_named() -> None:
    state = play_until(start(players=4, seed=3), lambda s: s.phase is Phase.ROUND_OVER)
    html = render_table(make_page(state, seat=0, players=4), Design.FRENCH)
    seats = _part(html, r'<ul class="seats".*?</ul>')
    carmen = _part(seats, r'data-seat="2".*?</li>')
    assert ROBOT_MARK in carmen
    for person in ("Ana", "Beto", "Dani"):
        assert f'<bdi class="who">{person}</bdi>' in seats
    assert seats.count("tag-robot") == 1
    summary = _part(html, r'<table class="summary-table">.*?</table>')
    assert ROBOT_MARK in summary  # Ana y Carmen, the pair
    totals = _part(html, r'<span class="totals".*?</span>\s*<span class="bar-tools">')
    assert ROBOT_MARK in totals


def test_turn_banner_and_recent_plays_mark_the_robot() -> None:
    state = play_until(start(players=4, seed=3), lambda s: s.round.turn == 2 and s.round.history)
    html = render_table(make_page(state, seat=0, players=4), Design.FRENCH)
    banner = _part(html, r'<p class="turn-banner.*?</p>')
    assert ROBOT_MARK in banner and "Turno de Carmen robot" in text_of(banner)
    recent = _part(html, r'<ol class="recent-list">.*?</ol>')
    assert '<bdi class="who">' in recent


def test_the_winner_and_the_rematch_mark_the_robot() -> None:
    state, _ = end_game(start(players=4, seed=3), EndReason.ABANDON, loser_seat=1)
    seats = tuple(replace(s, rematch_accepted=s.name in ("Beto", "Dani")) for s in seat_rows(4, 0))
    page = make_page(state, seat=0, players=4, seats=seats, can={"rematch_offered": True})
    html = render_table(page, Design.FRENCH)
    winner = _part(html, r'<h2 id="winner-title".*?</h2>')
    assert ROBOT_MARK in winner and '<bdi class="who">Beto</bdi>' in winner
    asked = _part(html, r'<p class="rematch-asked">.*?</p>')
    assert '<bdi class="who">Beto</bdi>' in asked and '<bdi class="who">Dani</bdi>' in asked
    assert text_of(asked) == "Beto y Dani proponen la revancha."


def test_the_lobby_isolates_names_and_marks_the_robot() -> None:
    page = make_page(None, seat=0, players=4, partner_position=2)
    html = render_table(page, Design.FRENCH)
    slots = _part(html, r'<ol class="seats-lobby">.*?</ol>')
    for name in ("Ana", "Beto", "Carmen", "Dani"):
        assert f'<span class="seat-name"><bdi class="who">{name}</bdi></span>' in slots
    pairs = _part(html, r'<p class="pairs-line">.*?</p>')
    assert ROBOT_MARK in pairs and text_of(pairs) == "Ana y Carmen robot contra Beto y Dani"


def test_a_right_to_left_name_and_chat_line_stay_in_their_own_box() -> None:
    state = start(players=2, seed=5)
    page = make_page(state, seat=0, players=2, names=("Ana", RTL_NAME))
    page = replace(
        page,
        seats=tuple(replace(s, name=RTL_NAME) if s.position == 1 else s for s in page.seats),
        chat=tuple(replace(line, name=RTL_NAME, text="שלום 12:30") for line in page.chat),
    )
    html = render_table(page, Design.FRENCH)
    assert f'<bdi class="who">{RTL_NAME}</bdi>' in _part(html, r'<ul class="seats".*?</ul>')
    chat = _part(html, r'<ol id="chat-log".*?</ol>')
    assert f'<b class="chat-name"><bdi>{RTL_NAME}</bdi></b>' in chat
    assert '<bdi class="chat-text">שלום 12:30</bdi>' in chat
    assert re.search(r"</bdi>\s*<time ", chat)  # the time stays outside the line's box


def test_the_robot_mark_speaks_the_viewers_language() -> None:
    state = start(players=4, seed=3)
    html = render_table(make_page(state, seat=0, players=4), Design.FRENCH, lang="pt_BR")
    seats = _part(html, r'<ul class="seats".*?</ul>')
    assert '<bdi class="who">Carmen</bdi> <span class="tag tag-robot">robô</span>' in seats
