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

from playwright.sync_api import Browser, Page, Route, expect

pytestmark = pytest.mark.browser

from .helpers import (  # noqa: E402
    add_robot,
    board_version,
    check_axe,
    choose_play,
    create_table,
    keys_to,
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


def _keyboard_move(page: Page) -> int:
    """One move with the keys only, from wherever the focus is; the keys it
    took to reach the card played."""
    before = board_version(page)
    card, group = choose_play(page)
    hand_sel = f'#hand .hand-card[data-card="{card}"]'
    to_card = keys_to(page, hand_sel)
    page.keyboard.press("Enter")
    expect(page.locator(hand_sel)).to_have_attribute("aria-pressed", "true")
    if group:
        for t in group:
            keys_to(page, f'#table-cards .table-card[data-card="{t}"]')
            page.keyboard.press("Space")
        keys_to(page, "#btn-take")
    else:
        keys_to(page, "#btn-leave")
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
    # the card to play is an arrow key or two away (three in the hand), not
    # ten Tabs from the page's top
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


def _on_my_turn(server: LiveServer, page: Page) -> None:
    create_table(page, server.url, "Ana")
    add_robot(page, "Tito")
    start_game(page)
    assert wait_for_my_turn_or_end(page) == "turn"


OPEN_HAND = "#hand .hand-card:not([disabled])"


def _open_cards(page: Page, row: str) -> list[str]:
    return page.eval_on_selector_all(
        f"{row} .card:not([disabled])", "els => els.map(e => e.dataset.card)"
    )


def test_a_page_loaded_on_my_turn_starts_with_the_focus_on_the_hand(
    server: LiveServer, phone: Page
) -> None:
    """Issue 25: the page opened (or reloaded) on my turn has the focus on my
    hand's first card, and a phone still shows the page from its top."""
    _on_my_turn(server, phone)
    phone.reload()
    expect(phone.locator("#board .board.is-my-turn")).to_have_count(1)
    first = _open_cards(phone, "#hand")[0]
    phone.wait_for_function(ON_HAND)
    assert _focused(phone, f'#hand .hand-card[data-card="{first}"]')
    assert phone.evaluate("() => window.scrollY") == 0, "the focus scrolled the page"


def test_the_arrow_keys_move_along_the_hand_and_the_table(
    server: LiveServer, desktop: Page
) -> None:
    """Issue 25: the hand and the table are one Tab stop each (a roving
    tabindex), the hand first; the arrow keys, Home and End move along each,
    and the card of the Tab stop stays the last one focused across a fresh
    board."""
    # a deal whose table still has two cards when the turn comes (Tito, who
    # plays first, may have swept it): the deals follow the server's one
    # seeded shuffle, so they depend on which tests ran before
    for _ in range(12):
        _on_my_turn(server, desktop)
        hand = _open_cards(desktop, "#hand")
        table = _open_cards(desktop, "#table-cards")
        if len(table) >= 2:
            break
    assert len(hand) == 3 and len(table) >= 2
    # from the page's top, Tab comes to the hand before any card of the table
    desktop.locator(".brand").focus()
    for _ in range(40):
        desktop.keyboard.press("Tab")
        if _focused(desktop, ".card"):
            break
    assert _focused(desktop, f'#hand .hand-card[data-card="{hand[0]}"]')

    def at(row: str, card: str) -> bool:
        return _focused(desktop, f'{row} .card[data-card="{card}"]')

    desktop.keyboard.press("ArrowRight")
    assert at("#hand", hand[1])
    desktop.keyboard.press("End")
    assert at("#hand", hand[2])
    desktop.keyboard.press("ArrowRight")  # round again
    assert at("#hand", hand[0])
    desktop.keyboard.press("ArrowLeft")
    assert at("#hand", hand[2])
    desktop.keyboard.press("Home")
    assert at("#hand", hand[0])
    desktop.keyboard.press("ArrowDown")
    assert at("#hand", hand[1])
    stops = desktop.eval_on_selector_all(
        "#hand .hand-card[tabindex='0']", "els => els.map(e => e.dataset.card)"
    )
    assert stops == [hand[1]]
    # Tab leaves the hand at once: the next card reached is the table's first
    for _ in range(20):
        desktop.keyboard.press("Tab")
        if _focused(desktop, ".card"):
            break
    assert at("#table-cards", table[0])
    desktop.keyboard.press("ArrowRight")
    assert at("#table-cards", table[1])
    desktop.keyboard.press("ArrowLeft")
    assert at("#table-cards", table[0])
    # back to the hand with Shift+Tab: the card it left
    for _ in range(20):
        desktop.keyboard.press("Shift+Tab")
        if _focused(desktop, ".card"):
            break
    assert at("#hand", hand[1])
    # a fresh board (the same version) keeps the Tab stop and the focus
    desktop.keyboard.press("Enter")
    expect(desktop.locator(f'#hand .hand-card[data-card="{hand[1]}"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    _fresh_boards(desktop, 1)
    assert at("#hand", hand[1])
    stops = desktop.eval_on_selector_all(
        "#hand .hand-card[tabindex='0']", "els => els.map(e => e.dataset.card)"
    )
    assert stops == [hand[1]]


COUNT_BOARD_REQUESTS = """() => {
  window.boardRequests = 0;
  document.addEventListener("htmx:afterRequest", (e) => {
    if (e.detail.elt && e.detail.elt.id === "board") window.boardRequests += 1;
  });
}"""

BOARD_SETTLED = """n => window.boardRequests >= n
  && !document.querySelector("#board.htmx-swapping, #board.htmx-settling")"""


def _fresh_boards(page: Page, n: int) -> None:
    """Fetch the board `n` times (as the live stream's updates do) and wait
    until the last one is swapped in and settled."""
    page.evaluate(COUNT_BOARD_REQUESTS)
    for done in range(1, n + 1):
        page.evaluate("() => htmx.trigger('#board', 'board:retry')")
        page.wait_for_function("n => window.boardRequests >= n", arg=done)
    page.wait_for_function(BOARD_SETTLED, arg=n)


def test_an_older_board_that_comes_late_moves_nothing(
    thinking_robots: LiveServer, desktop: Page
) -> None:
    """Issue 25: a fetched board older than the one shown (a play's own
    answer overtaken by the board of the robot's move) is not swapped in: the
    card picked by keyboard stays picked and keeps the focus, also through
    fresh fetches of the same version, from the moment each is swapped in
    (test_keyboard_only_round's flake: Enter picked another card)."""
    _on_my_turn(thinking_robots, desktop)
    _keyboard_move(desktop)
    # Tito thinks: the board of his turn, as a late answer would bring it back
    expect(desktop.locator("#board .board")).to_have_attribute("data-my-turn", "false")
    older = desktop.evaluate("() => document.querySelector('#board').innerHTML")
    assert wait_for_my_turn_or_end(desktop) == "turn"
    shown = board_version(desktop)
    desktop.wait_for_function(ON_HAND)
    hand = _open_cards(desktop, "#hand")
    desktop.keyboard.press("ArrowRight")
    second = f'#hand .hand-card[data-card="{hand[1]}"]'
    assert _focused(desktop, second)
    desktop.keyboard.press("Enter")
    expect(desktop.locator(second)).to_have_attribute("aria-pressed", "true")

    late = {"served": False}

    def once(route: Route) -> None:
        if late["served"]:
            route.continue_()
            return
        late["served"] = True
        route.fulfill(status=200, content_type="text/html", body=older)

    desktop.route("**/board*", once)
    desktop.evaluate(COUNT_BOARD_REQUESTS)
    # where the focus is the moment each board is swapped in (before its
    # settle): a key pressed then goes there
    desktop.evaluate(
        """() => {
          window.focusAtSwap = [];
          document.addEventListener("htmx:afterSwap", (e) => {
            const at = document.activeElement;
            if (e.target.id !== "board") return;
            window.focusAtSwap.push((at && at.dataset.card) || at.tagName);
          });
        }"""
    )
    # the late one, then two fetches of the board as it is
    for n in range(1, 4):
        desktop.evaluate("() => htmx.trigger('#board', 'board:retry')")
        desktop.wait_for_function("n => window.boardRequests >= n", arg=n)
    desktop.wait_for_function(BOARD_SETTLED, arg=3)
    assert late["served"]
    assert board_version(desktop) == shown
    expect(desktop.locator(second)).to_have_attribute("aria-pressed", "true")
    assert _focused(desktop, second), "a fetched board moved the focus"
    assert desktop.evaluate("() => window.focusAtSwap") == [hand[1], hand[1]]
