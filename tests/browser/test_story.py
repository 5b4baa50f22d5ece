"""The game's story in a real browser (issue 15, item 13): a finished round
replayed step by step with the keyboard alone (ANTERIOR / SIGUIENTE keep the
focus from page to page), axe-core clean; and at the game's end the points of
every round and the record, downloaded as a valid escoba-record/1 file."""

from __future__ import annotations

import json
import random

import pytest

from .conftest import DESKTOP, MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

from escoba import engine as eng

pytestmark = pytest.mark.browser

from .api_seat import ApiSeat, play_until  # noqa: E402
from .helpers import check_axe, shot  # noqa: E402


def step_label(page: Page) -> str:
    return page.locator("#replay-count").inner_text()


# the step that is not there, asked for on purpose: its page answers 404
@pytest.mark.console_errors_expected("the server responded with a status of 404")
def test_a_round_replayed_step_by_step_with_the_keyboard(
    server: LiveServer, browser: Browser
) -> None:
    seat = ApiSeat.create(server.url, target=21)
    seat.command("/robots", robot="tito")
    seat.command("/start")
    play_until([seat], random.Random(3), until="round")
    context = new_context(browser, DESKTOP)
    try:
        page = context.new_page()
        seat.open_here(page)  # by a code's link
        link = page.locator(".summary .replay-link a")
        expect(link).to_have_attribute("href", f"/t/{seat.invite}/ronda/1")
        link.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#replay-title")).to_have_text("Repetición de la ronda 1")
        expect(page.locator("#replay-count")).to_have_text("El reparto")
        expect(page.locator("#replay-next")).to_be_focused()
        check_axe(page, "replay: the deal")

        # SIGUIENTE by Enter, again and again: the focus stays on it
        for k in range(1, 4):
            page.keyboard.press("Enter")
            expect(page).to_have_url(f"{server.url}/t/{seat.invite}/ronda/1?paso={k}")
            expect(page.locator("#replay-count")).to_contain_text(f"Jugada {k} de")
            expect(page.locator("#replay-next")).to_be_focused()
        played = page.locator(".replay-played [data-card]").get_attribute("data-card")
        assert played
        check_axe(page, "replay: a play")
        shot(page, "replay-desktop", full_page=True)

        # ANTERIOR: one Shift+Tab back from SIGUIENTE, then Enter; it keeps the focus
        page.keyboard.press("Shift+Tab")
        expect(page.locator("#replay-prev")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#replay-count")).to_contain_text("Jugada 2 de")
        expect(page.locator("#replay-prev")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#replay-count")).to_contain_text("Jugada 1 de")

        # to the round's end: its points, and SIGUIENTE no longer a link
        total = int(step_label(page).rsplit(" ", 1)[1])
        page.goto(f"{server.url}/t/{seat.invite}/ronda/1?paso={total}")
        page.locator("#replay-next").focus()
        page.keyboard.press("Enter")
        expect(page.locator("#replay-count")).to_have_text("Fin de la ronda")
        expect(page.locator("#replay-next")).to_have_count(0)
        expect(page.locator(".replay .summary-table")).to_be_visible()
        check_axe(page, "replay: the end")

        # a watcher (no seat) sees the same replay; a bad step is a page, not an error
        watcher = new_context(browser, DESKTOP)
        try:
            other = watcher.new_page()
            other.goto(f"{server.url}/t/{seat.invite}/ronda/1?paso=2")
            expect(other.locator("#replay-count")).to_contain_text("Jugada 2 de")
            response = other.goto(f"{server.url}/t/{seat.invite}/ronda/1?paso=999")
            assert response is not None and response.status == 404
            expect(other.locator("h1")).to_have_text("No hay repetición")
            check_axe(other, "replay: a bad step")
        finally:
            watcher.close()
        # on a phone, the controls and the table after the play fit the screen
        phone = new_context(browser)
        try:
            small = phone.new_page()
            small.goto(f"{server.url}/t/{seat.invite}/ronda/1?paso=3")
            expect(small.locator("#replay-next")).to_be_in_viewport()
            expect(small.locator(".replay-felt")).to_be_in_viewport()
            check_axe(small, "replay on a phone")
            shot(small, "replay-phone")
        finally:
            phone.close()
    finally:
        context.close()


def test_the_game_end_tells_its_rounds_and_downloads_its_record(
    server: LiveServer, browser: Browser
) -> None:
    seat = ApiSeat.create(server.url, target=21)
    seat.command("/robots", robot="tito")
    seat.command("/start")
    play_until([seat], random.Random(5), until="game")
    context = new_context(browser, DESKTOP, accept_downloads=True)
    try:
        page = context.new_page()
        seat.open_here(page)  # by a code's link
        rounds = page.locator(".winner .rounds-table")
        expect(rounds).to_be_visible()
        expect(rounds.locator("tbody tr").first).to_contain_text("Ronda 1")
        expect(rounds.locator(".tag-winner")).to_have_count(1)
        check_axe(page, "the game's end with its rounds")
        shot(page, "game-story-desktop", full_page=True)
        with page.expect_download() as info:
            page.get_by_role("link", name="Descargar el registro de la partida").click()
        download = info.value
        assert download.suggested_filename == "escoba-partida-1.json"
        path = download.path()
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record["format"] == "escoba-record/1"
        assert eng.replay(record).result is not None
        assert [p["name"] for p in record["players"]] == ["Ana", "Tito"]
    finally:
        context.close()
