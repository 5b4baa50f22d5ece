"""The whole loop, as two people live it: Ana and Beto play at one table from
two browsers; Ana turns this device's notices on («Avisos») and closes the table's page;
when Beto's move gives her the turn, the server pushes to her browser's push
service, her service worker shows the notice, and her click on it opens the
table on her turn.

Real: the app's server (its push routes, the notices' dispatcher and the
push channel: VAPID-signed, RFC 8291-encrypted requests), Chromium with the
service worker, and a click on the notification as a desktop gives it
(notifications.py). Stood in for: the browser's push service, which headless
Chromium has not. The page's `PushManager.subscribe` gives a subscription
the test made, whose endpoint is a push service on 127.0.0.1 (`PushReceiver`)
that checks the VAPID signature against `GET /push/key` and decrypts the
message with that subscription's keys; the test then hands the decrypted
message to Ana's service worker as her push service would, through the
DevTools protocol (`ServiceWorker.deliverPushMessage`).

The server takes an endpoint on 127.0.0.1 only with `push_allow_private`
(tests only), and a server without Web Push (no `GET /push/key`) skips this.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest

from .conftest import MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

from .helpers import (
    create_table,
    notices_switch,
    start_game,
    tap_play,
    wait_for_my_turn_or_end,
)
from .notifications import NotificationCenter
from .push_helpers import PushReceiver, ServiceWorkers, launch_profile, push_stub

pytestmark = pytest.mark.browser


def wait_for_streams(server: LiveServer, count: int, timeout: float = 15) -> None:
    """Until the server holds `count` live streams: a page closed is a page
    no longer watching its table."""
    deadline = time.monotonic() + timeout
    while httpx.get(server.url + "/health").json()["live_connections"] != count:
        assert time.monotonic() < deadline, "the live streams did not settle"
        time.sleep(0.05)


def my_turn(page: Page) -> bool:
    """Waits for this player's turn (or the game's end)."""
    return wait_for_my_turn_or_end(page) == "turn"


def on_turn_now(page: Page) -> bool:
    return page.locator("#board .board").get_attribute("data-my-turn") == "true"


def test_a_closed_page_hears_of_its_turn_by_push_and_the_click_opens_the_table(
    browser: Browser, notification_center: NotificationCenter, tmp_path: Path
) -> None:
    server = LiveServer(tmp_path / "escoba.db", robot_delay=0.0, push_allow_private=True)
    server.start()
    ana = beto = None
    receiver = None
    try:
        key = httpx.get(server.url + "/push/key")
        if key.status_code == 404:
            pytest.skip("this server has no Web Push yet (GET /push/key is 404)")
        receiver = PushReceiver(key.json()["key"])
        subscription = receiver.subscription("ana")

        ana = launch_profile(browser, notification_center, tmp_path / "ana")
        ana.grant_permissions(["notifications"], origin=server.url)
        ana.add_init_script(push_stub(subscription))
        workers = ServiceWorkers(ana, ana.pages[0])
        beto = new_context(browser)
        ana_page, beto_page = ana.new_page(), beto.new_page()

        invite = create_table(ana_page, server.url, "Ana")
        beto_page.goto(f"{server.url}/t/{invite}")
        beto_page.fill("#join-name", "Beto")
        beto_page.get_by_role("button", name="SENTARME").click()
        expect(ana_page.locator(".seat-slot .seat-name", has_text="Beto")).to_be_visible()
        start_game(ana_page)
        expect(beto_page.locator(".game")).to_be_visible()

        # this device's notices on: the subscription goes to the server, which takes it
        button = notices_switch(ana_page)
        button.click()
        expect(button).to_have_text("Avisos en este dispositivo: activados")

        # Ana's turn comes while she looks at the table: no push for it
        if on_turn_now(ana_page):
            tap_play(ana_page)
        assert my_turn(beto_page)
        tap_play(beto_page)
        assert my_turn(ana_page)
        tap_play(ana_page)

        # she closes the table; Beto plays, and it is her turn
        assert my_turn(beto_page)
        ana_page.close()
        wait_for_streams(server, 1)  # Beto's page alone
        tap_play(beto_page)

        push = receiver.next()
        assert push.name == "ana"
        assert push.claims["aud"] == receiver.origin
        message = json.loads(push.message)
        assert message["title"] == "Escoba · mesa de Ana y Beto"
        assert message["body"] == "Te toca jugar: Beto jugó."
        assert message["url"] == f"/t/{invite}"
        assert message["tag"] == f"escoba-{invite}"
        assert message["kind"] == "turn"
        assert receiver.received.empty() and receiver.errors == []  # that one push only

        # her push service hands it to her browser: the notice shows
        workers.push(server.url, push.message)
        shown = notification_center.wait_shown(message["title"])
        assert shown.body.endswith(message["body"])

        # her click opens the table, on her turn
        with ana.expect_page() as opened:
            notification_center.click(shown)
        table = opened.value
        table.wait_for_url(f"{server.url}/t/{invite}")
        # (in the browser's own language: Playwright's emulated one does not
        # reach a tab the browser opens by itself)
        expect(table.locator("#board .board")).to_have_attribute("data-my-turn", "true")
        expect(table.locator("#hand .hand-card:not([disabled])").first).to_be_visible()
    finally:
        for context in (ana, beto):
            if context is not None:
                context.close()
        if receiver is not None:
            receiver.stop()
        server.stop()
