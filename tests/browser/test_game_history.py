"""Nothing finished becomes unreadable (issue 34, point 5), in a real
browser on a phone (390×844): the end screen links to the table's games;
after JUGAR LA REVANCHA the link under the new game leads there, and the
first game's link to its story and its rounds' replays."""

from __future__ import annotations

import random

import pytest

from .conftest import MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.browser

from .api_seat import ApiSeat, play_until  # noqa: E402
from .helpers import check_axe, shot  # noqa: E402


def test_after_a_rematch_the_first_game_s_story_is_two_taps_away(
    server: LiveServer, browser: Browser
) -> None:
    seat = ApiSeat.create(server.url, rules={"target": 15})
    seat.command("/robots", robot="tito")
    seat.command("/start")
    play_until([seat], random.Random(5), until="game")
    context = new_context(browser)  # 390×844
    try:
        page = context.new_page()
        seat.open_here(page)
        games = page.locator(".winner #games-link")
        expect(games).to_have_attribute("href", f"/t/{seat.invite}/partidas")
        page.get_by_role("button", name="JUGAR LA REVANCHA").click()
        games_link = page.locator("#board .games-note #games-link")
        expect(games_link).to_be_visible()
        expect(page.locator(".winner")).to_have_count(0)  # the new game is on
        games_link.click()
        expect(page).to_have_url(f"{server.url}/t/{seat.invite}/partidas")
        expect(page.locator("#games-title")).to_have_text("Partidas de la mesa")
        first = page.locator("#partida-1")
        expect(first).to_contain_text("Partida 1")
        expect(page.locator("#partida-2")).to_contain_text("en juego")
        check_axe(page, "the table's games")
        shot(page, "games-phone", full_page=True)
        first.get_by_role("link", name="Leer la partida entera").click()
        expect(page).to_have_url(f"{server.url}/t/{seat.invite}/partidas/1")
        expect(page.locator("#record-title")).to_have_text("Partida 1, jugada a jugada")
        expect(page.locator(".record-round").first).to_contain_text("Ronda 1")
        page.locator(".record-replay a").first.click()
        expect(page).to_have_url(f"{server.url}/t/{seat.invite}/partidas/1/ronda/1")
        expect(page.locator("#replay-title")).to_have_text("Repetición de la ronda 1")
        expect(page.locator(".replay-game")).to_have_text("Partida 1")
    finally:
        context.close()
