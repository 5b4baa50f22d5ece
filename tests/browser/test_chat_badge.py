"""The unread-chat badge (issue 15, item 8): on a phone the chat is below the
game; a line another player writes there while it is out of sight is counted
on the «Chat» link of the game bar (not one's own lines), the count survives
the board's swaps, and it clears when the chat is seen."""

from __future__ import annotations

import pytest

from .conftest import MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

from .helpers import board_version, check_axe, start_two_player_game, tap_play  # noqa: E402

CHAT_OUT_OF_SIGHT = (
    "() => document.querySelector('#main > .chat').getBoundingClientRect().top > innerHeight"
)


def _write(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.get_by_role("button", name="ENVIAR").click()
    expect(page.locator("#chat-log")).to_contain_text(text)


def _write_from_here_unseen(page: Page, invite: str, text: str) -> None:
    """A line of this page's own seat, sent without scrolling to the chat."""
    page.evaluate(
        """([invite, text]) => {
          const body = new FormData();
          body.append('text', text);
          return fetch('/t/' + invite + '/chat', {method: 'POST', body, credentials: 'same-origin'})
            .then(r => r.status);
        }""",
        [invite, text],
    )


def test_a_line_written_below_the_game_shows_on_the_badge_until_seen(
    server: LiveServer, browser: Browser
) -> None:
    ana_ctx, beto_ctx = new_context(browser), new_context(browser)  # 390×844 phones
    try:
        ana, beto = ana_ctx.new_page(), beto_ctx.new_page()
        invite = start_two_player_game(ana, beto, server.url)
        # how far below the game the chat starts depends on the layout and on
        # whose turn it is (the hand's buttons): the game is made as tall as
        # the screen, so the chat is out of sight whatever the layout does
        ana.evaluate("() => { document.querySelector('#main > .live').style.minHeight = '100vh'; }")
        ana.evaluate("() => window.scrollTo(0, 0)")
        assert ana.evaluate(CHAT_OUT_OF_SIGHT), "the chat is in sight: nothing to test"
        link = ana.locator("#chat-jump")
        badge = ana.locator("#chat-badge")
        expect(link).to_be_visible()
        expect(badge).to_be_hidden()

        _write(beto, "¡Hola, Ana!")
        expect(ana.locator("#chat-log")).to_contain_text("¡Hola, Ana!")
        expect(badge).to_be_visible()
        expect(badge).to_have_text("11 mensaje nuevo")  # the number, and its words for readers
        expect(badge.locator("[aria-hidden=true]")).to_have_text("1")

        # Ana's own line (from this page, unseen) is not counted
        _write_from_here_unseen(ana, invite, "Ya voy")
        expect(ana.locator("#chat-log")).to_contain_text("Ya voy")
        # a move swaps the board: the count stays
        mover = ana if ana.locator("#board .board.is-my-turn").count() else beto
        version = board_version(ana)
        tap_play(mover)
        ana.wait_for_function(
            "v => Number(document.querySelector('#board .board').dataset.version) > v",
            arg=version,
        )
        ana.evaluate("() => window.scrollTo(0, 0)")
        expect(badge.locator("[aria-hidden=true]")).to_have_text("1")

        _write(beto, "¿Jugamos otra después?")
        expect(ana.locator("#chat-log")).to_contain_text("¿Jugamos otra después?")
        expect(badge.locator("[aria-hidden=true]")).to_have_text("2")
        expect(badge.locator(".sr-only")).to_have_text("2 mensajes nuevos")
        check_axe(ana, "the unread-chat badge")

        link.tap()  # scrolls to the chat
        expect(badge).to_be_hidden()
        assert not ana.evaluate(CHAT_OUT_OF_SIGHT)

        # with the chat in sight a new line is not counted
        _write(beto, "Buena jugada")
        expect(ana.locator("#chat-log")).to_contain_text("Buena jugada")
        ana.wait_for_timeout(200)
        expect(badge).to_be_hidden()
    finally:
        for ctx in (ana_ctx, beto_ctx):
            ctx.close()
