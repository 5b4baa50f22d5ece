"""Keyboard play keeps its place (issue 15, item 2): after a move the focus
stays on the board, and when the turn comes back it lands on the hand, with
«¡Tu turno!» said through a live region outside the swapped board; while the
player types in the chat, nothing takes the focus away."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .conftest import DESKTOP, MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

from .helpers import (  # noqa: E402
    add_robot,
    board_version,
    check_axe,
    choose_play,
    create_table,
    start_game,
    start_two_player_game,
    tap_play,
    wait_for_my_turn_or_end,
)

ON_HAND = "() => !!document.activeElement && document.activeElement.matches('#hand .hand-card')"


def _focused(page: Page, selector: str) -> bool:
    return bool(
        page.evaluate(
            "s => !!document.activeElement && document.activeElement.matches(s)", selector
        )
    )


BEFORE_FOCUS = """s => {
  const target = document.querySelector(s), at = document.activeElement;
  return !!target && !!at && at !== document.body
    && !!(at.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING);
}"""


def _tab_to(page: Page, selector: str, limit: int = 80) -> int:
    """Tab (Shift+Tab to go back) until `selector` has the focus, as a person
    would; how many presses it took."""
    key = "Shift+Tab" if page.evaluate(BEFORE_FOCUS, selector) else "Tab"
    for presses in range(limit):
        if _focused(page, selector):
            return presses
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {selector}")


def _keyboard_move(page: Page) -> int:
    """One move with the keys only, from wherever the focus is; the Tabs it
    took to reach the card played."""
    before = board_version(page)
    card, group = choose_play(page)
    hand_sel = f'#hand .hand-card[data-card="{card}"]'
    to_card = _tab_to(page, hand_sel)
    page.keyboard.press("Enter")
    expect(page.locator(hand_sel)).to_have_attribute("aria-pressed", "true")
    if group:
        for t in group:
            _tab_to(page, f'#table-cards .table-card[data-card="{t}"]')
            page.keyboard.press("Space")
        _tab_to(page, "#btn-take")
    else:
        _tab_to(page, "#btn-leave")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "v => Number(document.querySelector('#board .board').dataset.version) > v", arg=before
    )
    return to_card


def test_the_turn_coming_back_puts_the_focus_on_the_hand(server: LiveServer, desktop: Page) -> None:
    create_table(desktop, server.url, "Ana")
    add_robot(desktop, "Tito")
    start_game(desktop)
    assert wait_for_my_turn_or_end(desktop) == "turn"
    announce = desktop.locator("#turn-announce")
    for move in range(3):
        _keyboard_move(desktop)
        if wait_for_my_turn_or_end(desktop) != "turn":
            break
        # Tito played: the focus is back on the hand, and it was said
        desktop.wait_for_function(ON_HAND)
        expect(announce).to_have_text("¡Tu turno!")
        if move == 0:
            check_axe(desktop, "the turn back, focus on the hand")
    # the card to play is a Tab or two away (three in the hand), not ten from the page's top
    if wait_for_my_turn_or_end(desktop) == "turn":
        assert _keyboard_move(desktop) <= 2


def test_typing_in_the_chat_keeps_the_focus_while_the_other_player_plays(
    server: LiveServer, browser: Browser
) -> None:
    ana_ctx, beto_ctx = new_context(browser, DESKTOP), new_context(browser, DESKTOP)
    try:
        ana, beto = ana_ctx.new_page(), beto_ctx.new_page()
        start_two_player_game(ana, beto, server.url)
        # Ana's turn to wait: let Beto be on turn first
        if ana.locator("#board .board.is-my-turn").count():
            tap_play(ana)
        expect(beto.locator("#board .board.is-my-turn")).to_have_count(1)
        expect(ana.locator("#turn-banner")).to_contain_text("Turno de Beto")

        ana.locator("#chat-text").click()
        ana.keyboard.type("espera, que ")
        version = board_version(ana)
        tap_play(beto)
        ana.wait_for_function(
            "v => Number(document.querySelector('#board .board').dataset.version) > v",
            arg=version,
        )
        expect(ana.locator("#turn-banner")).to_have_text("¡Tu turno!")
        expect(ana.locator("#turn-announce")).to_have_text("¡Tu turno!")
        assert _focused(ana, "#chat-text"), "the turn took the focus from the chat"
        ana.keyboard.type("pienso")
        expect(ana.locator("#chat-text")).to_have_value("espera, que pienso")
    finally:
        for ctx in (ana_ctx, beto_ctx):
            ctx.close()


def test_a_form_of_the_game_bar_keeps_the_focus_when_the_turn_comes(
    server: LiveServer, browser: Browser
) -> None:
    """«Avisos» is on the board but no part of the play: a box of it keeps
    the focus (its twin in the fresh board) when the turn comes back."""
    ana_ctx, beto_ctx = new_context(browser, DESKTOP), new_context(browser, DESKTOP)
    try:
        ana, beto = ana_ctx.new_page(), beto_ctx.new_page()
        start_two_player_game(ana, beto, server.url)
        if ana.locator("#board .board.is-my-turn").count():
            tap_play(ana)
        expect(beto.locator("#board .board.is-my-turn")).to_have_count(1)
        ana.locator("#notice-choices summary").click()
        box = '#notice-choices input[name="kinds"][value="chat"]'
        ana.locator(box).focus()
        version = board_version(ana)
        tap_play(beto)
        ana.wait_for_function(
            "v => Number(document.querySelector('#board .board').dataset.version) > v",
            arg=version,
        )
        expect(ana.locator("#turn-announce")).to_have_text("¡Tu turno!")
        assert _focused(ana, box), "the turn took the focus from «Avisos»"
    finally:
        for ctx in (ana_ctx, beto_ctx):
            ctx.close()


@pytest.fixture(scope="module")
def thinking_robots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The app with robots that take a moment to play, as in production."""
    live = LiveServer(tmp_path_factory.mktemp("thinking") / "escoba.db", robot_delay=1.5)
    live.start()
    yield live
    live.stop()


def test_typing_in_the_chat_keeps_the_focus_while_a_robot_plays(
    thinking_robots: LiveServer, desktop: Page
) -> None:
    create_table(desktop, thinking_robots.url, "Ana")
    add_robot(desktop, "Tito")
    start_game(desktop)
    assert wait_for_my_turn_or_end(desktop) == "turn"
    _keyboard_move(desktop)
    expect(desktop.locator("#turn-announce")).to_contain_text("Turno de Tito")
    # Tito thinks: Ana writes meanwhile, and his move comes while she types
    desktop.locator("#chat-text").click()
    desktop.keyboard.type("bien jugado, ")
    assert wait_for_my_turn_or_end(desktop) == "turn"
    expect(desktop.locator("#turn-announce")).to_have_text("¡Tu turno!")
    assert _focused(desktop, "#chat-text"), "the turn took the focus from the chat"
    desktop.keyboard.type("Tito")
    expect(desktop.locator("#chat-text")).to_have_value("bien jugado, Tito")
