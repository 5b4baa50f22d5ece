"""A failed board fetch is tried again: the page never stays a move behind.
The other player moves while the page's first fetch of the new board fails
(a 503, as from a restarting server): the page fetches it again and shows
the move and «¡Tu turno!» without a reload or another move."""

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


def test_a_failed_board_fetch_is_tried_again(server: LiveServer, desktop: Page) -> None:
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
