"""A failed board fetch is tried again: the page never stays a move behind.
The other player moves while the page's first fetch of the new board fails
(a 503, as from a restarting server): the page fetches it again and shows
the move and «¡Tu turno!» without a reload or another move. (A table page's
stream brings each new board itself; the page fetches it when the stream
brings only the version, as it does when it cannot make the board, and
when it brings one made for a deck design the page no longer shows.)"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import MISSING, LiveServer

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Page, Route, expect

from .helpers import board_version, create_table, start_game, tap_play

pytestmark = pytest.mark.browser


def _beto_moves(server: LiveServer, invite: str, token: str) -> int:
    """Beto plays his first legal action through the API; the new version."""
    auth = {"Authorization": f"Bearer {token}"}
    view: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{invite}", headers=auth).json()
    action = view["view"]["legal_actions"][0]
    r = httpx.post(
        f"{server.url}/api/tables/{invite}/actions",
        json={"version": view["version"], "action": action},
        headers=auth,
    )
    assert r.status_code == 200, r.text
    version: int = r.json()["version"]
    return version


def _versions_only(route: Route) -> None:
    """The page's stream as an API client has it: each change's version, no board."""
    route.continue_(url=route.request.url.replace("&board=1", ""))


# the 503 served on purpose, as Chromium and htmx log it
@pytest.mark.console_errors_expected(
    "the server responded with a status of 503", "Response Status Error Code 503"
)
def test_a_failed_board_fetch_is_tried_again(server: LiveServer, desktop: Page) -> None:
    desktop.route("**/events?*", _versions_only)
    invite = create_table(desktop, server.url, "Ana")
    joined = httpx.post(f"{server.url}/api/tables/{invite}/seats", json={"name": "Beto"})
    assert joined.status_code == 201
    token = joined.json()["token"]
    start_game(desktop)
    mine = desktop.locator("#board .board").get_attribute("class") or ""
    if "is-my-turn" in mine:  # Ana first: her move, then it is Beto's turn
        tap_play(desktop)
    failed: list[str] = []

    def fail_once(route: Route) -> None:
        if not failed:
            failed.append(route.request.url)
            route.fulfill(status=503, body="busy")
        else:
            route.continue_()

    desktop.route("**/board*", fail_once)
    version = _beto_moves(server, invite, token)
    desktop.wait_for_function(
        "v => Number(document.querySelector('#board .board').dataset.version) >= v",
        arg=version,
        timeout=15_000,
    )
    assert failed, "the first fetch of the new board was not refused"
    assert board_version(desktop) >= version
    expect(desktop.locator("#turn-banner")).to_be_visible()


def _seat_beto(server: LiveServer, desktop: Page) -> tuple[str, str]:
    """Ana's table (on this page) and Beto's seat (the API); Beto on turn."""
    invite = create_table(desktop, server.url, "Ana")
    joined = httpx.post(f"{server.url}/api/tables/{invite}/seats", json={"name": "Beto"})
    assert joined.status_code == 201
    start_game(desktop)
    mine = desktop.locator("#board .board").get_attribute("class") or ""
    if "is-my-turn" in mine:
        tap_play(desktop)
    return invite, joined.json()["token"]


def test_the_other_players_move_comes_with_its_board(server: LiveServer, desktop: Page) -> None:
    """The stream brings the new board: shown without fetching it."""
    invite, token = _seat_beto(server, desktop)
    fetched: list[str] = []
    desktop.on("request", lambda r: fetched.append(r.url) if "/board" in r.url else None)
    version = _beto_moves(server, invite, token)
    desktop.wait_for_function(
        "v => Number(document.querySelector('#board .board').dataset.version) >= v",
        arg=version,
    )
    expect(desktop.locator("#turn-banner")).to_be_visible()
    assert fetched == []


def test_a_board_made_for_another_deck_is_fetched(server: LiveServer, desktop: Page) -> None:
    """A deck design chosen after the stream opened: the board the stream
    brings (in the design it was opened with) is dropped, and the board
    fetched, in the design chosen."""
    invite, token = _seat_beto(server, desktop)
    before = desktop.locator("#board .board").get_attribute("data-view") or ""
    desktop.locator("#design-choice summary").click()
    desktop.locator("#board .design-btn:not(.is-chosen)").first.click()
    desktop.wait_for_function(
        "v => document.querySelector('#board .board').dataset.view !== v", arg=before
    )
    chosen = desktop.locator("#board .board").get_attribute("data-view")
    fetched: list[str] = []
    desktop.on("request", lambda r: fetched.append(r.url) if "/board" in r.url else None)
    version = _beto_moves(server, invite, token)
    desktop.wait_for_function(
        "v => Number(document.querySelector('#board .board').dataset.version) >= v",
        arg=version,
    )
    assert desktop.locator("#board .board").get_attribute("data-view") == chosen
    assert fetched


def test_a_move_leaves_the_chat_log_as_it_is(server: LiveServer, desktop: Page) -> None:
    """Each board a live update brings carries the chat log: after a move
    (no new line) the log shown stays (where it was scrolled, its clocks),
    a new line replaces it."""
    invite, token = _seat_beto(server, desktop)
    desktop.evaluate("() => { document.getElementById('chat-log').dataset.kept = 'yes'; }")
    version = _beto_moves(server, invite, token)
    desktop.wait_for_function(
        "v => Number(document.querySelector('#board .board').dataset.version) >= v",
        arg=version,
    )
    expect(desktop.locator("#chat-log")).to_have_attribute("data-kept", "yes")
    r = httpx.post(
        f"{server.url}/api/tables/{invite}/chat",
        json={"text": "¡buena!"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code in (200, 201), r.text
    expect(desktop.locator("#chat-log .chat-text", has_text="¡buena!")).to_be_visible()
    assert desktop.locator("#chat-log").get_attribute("data-kept") is None


def test_a_players_own_move_is_swapped_in_once(server: LiveServer, desktop: Page) -> None:
    """The page's own play is answered with the new board; the stream then
    brings the same board (its version, its chat), which is not swapped
    again: Ana's play and Beto's answer are two swaps at most, not three."""
    invite, token = _seat_beto(server, desktop)
    before = _beto_moves(server, invite, token)  # Ana on turn
    expect(desktop.locator("#turn-banner")).to_be_visible()
    desktop.evaluate(
        """() => { window.swaps = []; document.addEventListener('htmx:afterSettle', e => {
             if (e.target.id !== 'board') return;
             const cfg = e.detail && e.detail.requestConfig;
             const via = cfg && cfg.elt ? (cfg.elt.id || cfg.elt.tagName) + ' ' + cfg.verb : 'sse';
             const v = document.querySelector('#board .board').dataset.version;
             window.swaps.push(via + ' v' + v); });
           document.addEventListener('htmx:sseOpen', () => window.swaps.push('open'));
           document.addEventListener('htmx:sseBeforeMessage', e =>
             window.swaps.push('msg v' + (e.detail.lastEventId || '?'))); }"""
    )
    tap_play(desktop)
    version = _beto_moves(server, invite, token)
    desktop.wait_for_function(
        "v => Number(document.querySelector('#board .board').dataset.version) >= v",
        arg=version,
    )
    # two swaps (Ana's board, Beto's), or one when Beto's came first and
    # Ana's late answer was older than it; never Ana's board twice. (The
    # board of Beto's first move, `before`, brought once more by a stream
    # opened anew at the game's start, is another matter: it was seen on a
    # busy machine, and is not what this test is about.)
    log = desktop.evaluate("() => window.swaps")
    swaps = [e for e in log if not e.startswith(("msg", "open"))]
    after = [v for e in swaps if (v := int(e.rsplit(" v", 1)[1])) > before]
    assert len(after) in (1, 2) and len(after) == len(set(after)), log
