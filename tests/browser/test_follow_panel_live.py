"""«Seguir en otro dispositivo» stays on the table page through live updates
(issue 15, item 1): it used to sit inside #board while /board rendered
without it, so the first live update — the other player's chat line — took
it away. The seat's devices panel (table/devices.html) now carries it: on
load, after a chat line and after a move of the other player, each arriving
by the live stream, it is there and still makes a code."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

from .helpers import board_version, start_two_player_game, tap_play, wait_for_my_turn_or_end  # noqa: E402


def _mark_board(page: Page) -> None:
    """Tag the board now shown, to see later that a fresh one replaced it."""
    page.evaluate("() => { document.querySelector('#board .board').dataset.old = '1'; }")


def _wait_for_fresh_board(page: Page) -> None:
    page.wait_for_function(
        "() => { const b = document.querySelector('#board .board');"
        " return !!b && b.dataset.old !== '1'; }"
    )


def _panel_is_there(page: Page) -> None:
    panel = page.locator("#board #seat-devices")
    expect(panel).to_have_count(1)
    expect(panel.locator("summary")).to_be_visible()
    expect(panel.locator("summary")).to_have_text("Dispositivos")


def test_seguir_en_otro_dispositivo_survives_live_updates(
    server: LiveServer, browser: Browser
) -> None:
    ana_ctx, beto_ctx = new_context(browser, DESKTOP), new_context(browser)
    try:
        ana, beto = ana_ctx.new_page(), beto_ctx.new_page()
        start_two_player_game(ana, beto, server.url)

        # on load, as a seated player
        ana.reload()
        expect(ana.locator(".game")).to_be_visible()
        _panel_is_there(ana)

        # the other player writes a chat line: Ana's board comes back by the stream
        _mark_board(ana)
        beto.fill("#chat-text", "Hola, Ana")
        beto.keyboard.press("Enter")
        expect(ana.locator("#chat-log")).to_contain_text("Hola, Ana")
        _wait_for_fresh_board(ana)
        _panel_is_there(ana)

        # the other player plays: a new version of the board arrives by the stream
        if ana.locator("#board .board.is-my-turn").count():
            tap_play(ana)  # Ana's own play comes back in her form's answer
        assert wait_for_my_turn_or_end(beto) == "turn"
        version = board_version(ana)
        _mark_board(ana)
        tap_play(beto)
        ana.wait_for_function(
            "v => Number(document.querySelector('#board .board').dataset.version) > v",
            arg=version,
        )
        _wait_for_fresh_board(ana)
        _panel_is_there(ana)

        # and it still works: the panel opens and SEGUIR EN OTRO DISPOSITIVO gives a code
        ana.locator("#seat-devices summary").click()
        expect(ana.locator("#seat-devices-body .device")).to_have_count(1)
        with ana.expect_navigation():
            ana.get_by_role("button", name="SEGUIR EN OTRO DISPOSITIVO").click()
        expect(ana.locator("#transfer-title")).to_have_text("Seguir en otro dispositivo")
        code = ana.locator("#transfer-code").inner_text().strip()
        assert len(code) >= 6, code
    finally:
        for ctx in (ana_ctx, beto_ctx):
            ctx.close()
