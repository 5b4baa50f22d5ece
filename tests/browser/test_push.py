"""Notices by Web Push in a real Chromium: the service worker at the site's
root shows a pushed notice (delivered through the DevTools protocol, as the
push service would) unless that table is in front of the player; a real
click on it (notifications.py) opens the table, or focuses the tab already
open on it; and this device's notices switch («Avisos») subscribes this
browser for the table and tells the server, says when it cannot, and lets go
of it.

Headless Chromium has no push service: the switch's tests stand in for
`PushManager.subscribe` with a subscription the test made (push_helpers.py),
and answer the server's push routes themselves (`page.route`): the server's
side has its own tests, and test_push_e2e.py plays it all together."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from .helpers import add_robot, check_axe, create_table, notices_switch, shot, start_game
from .notifications import NotificationCenter
from .push_helpers import (
    ServiceWorkers,
    TestSubscription,
    b64url,
    b64url_bytes,
    launch_profile,
    push_stub,
    shown_notifications,
    worker_of,
)

pytestmark = pytest.mark.browser

ON = "Avisos en este dispositivo: activados"
OFF = "Avisos en este dispositivo: desactivados"
PUSH_ROUTE = re.compile(r"/t/([^/]+)/push(/remove)?$")


def game_against_tito(page: Page, base: str, name: str = "Ana") -> str:
    invite = create_table(page, base, name)
    add_robot(page, "Tito")
    start_game(page)
    return invite


def notice(invite: str, title: str = "Escoba · mesa de Ana y Tito") -> dict[str, Any]:
    """A payload as the server pushes it."""
    return {
        "title": title,
        "body": "Te toca jugar: Tito jugó.",
        "url": f"/t/{invite}",
        "tag": f"escoba-{invite}",
        "kind": "turn",
    }


def test_a_pushed_notice_shows_and_a_click_opens_the_table_or_focuses_its_tab(
    server: LiveServer, browser: Browser, notification_center: NotificationCenter, tmp_path: Any
) -> None:
    base = server.url
    ana = launch_profile(browser, notification_center, tmp_path / "ana")
    try:
        ana.grant_permissions(["notifications"], origin=base)
        workers = ServiceWorkers(ana, ana.pages[0])  # a blank tab, open throughout
        table = ana.new_page()
        invite = game_against_tito(table, base)
        # a seated page registers the service worker at the site's root
        scope = table.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == base + "/"
        worker = worker_of(ana, base)

        # while the player looks at that very table, its notice is not shown
        workers.push(base, notice(invite))
        elsewhere = notice("other-table", title="Escoba · mesa de Ana y Luna")
        workers.push(base, elsewhere)
        shown = notification_center.wait_shown(elsewhere["title"])
        assert [n["tag"] for n in shown_notifications(worker)] == ["escoba-other-table"]
        worker.evaluate(
            "() => self.registration.getNotifications().then(l => l.forEach(n => n.close()))"
        )
        notification_center.wait_closed(shown)

        # the table's tab closed: the push shows, as the payload says
        table.close()
        payload = notice(invite)
        workers.push(base, payload)
        shown = notification_center.wait_shown(payload["title"])
        assert shown.body.endswith(payload["body"])  # under the site's name
        assert shown_notifications(worker) == [
            {
                "title": payload["title"],
                "body": payload["body"],
                "tag": f"escoba-{invite}",
                "data": {"url": f"/t/{invite}", "kind": "turn"},
                "icon": f"{base}/static/icons/icon-192.png",
                "badge": f"{base}/static/icons/badge-96.png",
                "renotify": True,
            }
        ]

        # a click opens the table, where her seat is
        with ana.expect_page() as opened:
            notification_center.click(shown)
        page = opened.value
        page.wait_for_url(f"{base}/t/{invite}")
        expect(page.locator("#hand")).to_be_visible()
        notification_center.wait_closed(shown)  # the click put it away

        # with the table open in a tab, a click on its notice focuses that tab
        # (which puts the keyboard focus on the turn), and opens none
        pages = len(ana.pages)
        worker.evaluate(
            "p => self.registration.showNotification(p.title, "
            "{body: p.body, tag: p.tag, data: {url: p.url, kind: p.kind}})",
            payload,
        )
        shown = notification_center.wait_shown(payload["title"])
        notification_center.click(shown)
        page.wait_for_function("() => document.activeElement?.id === 'turn-banner'")
        assert len(ana.pages) == pages
    finally:
        ana.close()


class PushRoutes:
    """Answers the server's push routes for the page, as the server would,
    and keeps what was sent: (path, JSON body)."""

    def __init__(self, context: BrowserContext, key: str) -> None:
        self.sent: list[tuple[str, Any]] = []
        self.refusal: dict[str, Any] | None = None
        context.route("**/push/key", lambda route: route.fulfill(json={"key": key}))
        context.route(PUSH_ROUTE, self._answer)

    def _answer(self, route: Route) -> None:
        request = route.request
        assert request.method == "POST"
        path = "/" + request.url.split("/", 3)[3]
        self.sent.append((path, request.post_data_json))
        if self.refusal is not None:
            route.fulfill(status=422, json=self.refusal)
        else:
            route.fulfill(status=204)


def server_key() -> str:
    """A VAPID public key, as `GET /push/key` gives it."""
    public = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = public.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


def test_avisarme_subscribes_this_browser_for_the_table_and_lets_go(
    server: LiveServer, browser: Browser
) -> None:
    base = server.url
    subscription = TestSubscription.make("http://127.0.0.1:9/push/this-browser")
    key = server_key()
    context = new_context(browser)
    try:
        context.grant_permissions(["notifications"], origin=base)
        context.add_init_script(push_stub(subscription))
        routes = PushRoutes(context, key)
        page = context.new_page()
        invite = game_against_tito(page, base)
        button = page.locator("#notify-toggle")
        note = page.locator("#notify-note")
        expect(button).to_have_text(OFF)
        expect(button).to_have_attribute("aria-pressed", "false")
        expect(note).to_be_hidden()

        notices_switch(page).click()
        expect(button).to_have_text(ON)
        expect(button).to_have_attribute("aria-pressed", "true")
        expect(note).to_have_text("Te avisaremos en este dispositivo aunque cierres la página.")
        check_axe(page, "AVISARME on")
        shot(page, "avisarme-on-phone")
        assert routes.sent == [(f"/t/{invite}/push", subscription.json())]
        asked = page.evaluate("window.__subscribedWith")
        assert asked == {"userVisibleOnly": True, "key": list(b64url_bytes(key))}
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == base + "/"

        # the next load knows it, and sends nothing while nothing changed
        page.reload()
        expect(button).to_have_text(ON)
        assert len(routes.sent) == 1
        # a second table of this browser: the same subscription, sent for it
        second = context.new_page()
        other = game_against_tito(second, base, "Ana")
        notices_switch(second).click()
        expect(second.locator("#notify-toggle")).to_have_text(ON)
        assert routes.sent[1:] == [(f"/t/{other}/push", subscription.json())]

        # the push service gave this browser a new endpoint: the next seated
        # page sends it for every table this browser asked notices of
        page.evaluate("localStorage.setItem('escoba-test-endpoint', 'http://127.0.0.1:9/push/new')")
        page.reload()
        expect(button).to_have_text(ON)
        renewed = {**subscription.json(), "endpoint": "http://127.0.0.1:9/push/new"}
        assert sorted(routes.sent[2:]) == sorted(
            [(f"/t/{invite}/push", renewed), (f"/t/{other}/push", renewed)]
        )

        # off for this table: the server is told, the subscription stays for the other
        notices_switch(page).click()
        expect(button).to_have_text(OFF)
        assert routes.sent[-1] == (f"/t/{invite}/push/remove", {"endpoint": renewed["endpoint"]})
        assert page.evaluate("window.__unsubscribed || 0") == 0
        # off for the last one: the browser lets go of its subscription too
        second.reload()
        notices_switch(second).click()
        expect(second.locator("#notify-toggle")).to_have_text(OFF)
        assert routes.sent[-1] == (f"/t/{other}/push/remove", {"endpoint": renewed["endpoint"]})
        assert second.evaluate("window.__unsubscribed || 0") == 1
    finally:
        context.close()


# the refusal asked for, a 422, as Chromium logs it
@pytest.mark.console_errors_expected("the server responded with a status of 422")
def test_a_refused_subscription_says_why_and_stays_off(
    server: LiveServer, browser: Browser
) -> None:
    context = new_context(browser)
    try:
        context.grant_permissions(["notifications"], origin=server.url)
        context.add_init_script(push_stub(TestSubscription.make("http://127.0.0.1:9/push/x")))
        routes = PushRoutes(context, server_key())
        routes.refusal = {"error": "bad_subscription", "message": "Esa suscripción no sirve."}
        page = context.new_page()
        invite = game_against_tito(page, server.url)
        button = page.locator("#notify-toggle")
        notices_switch(page).click()
        expect(page.locator("#notify-note")).to_have_text("Esa suscripción no sirve.")
        expect(button).to_have_text(OFF)
        expect(button).to_have_attribute("aria-pressed", "false")
        assert [path for path, _ in routes.sent] == [f"/t/{invite}/push"]
        page.reload()
        expect(page.locator("#notify-toggle")).to_have_text(OFF)  # nothing kept as on
    finally:
        context.close()


IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15"
    " (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1"
)
#: Safari on iPhone outside a home-screen app: no notifications at all.
NO_NOTIFICATIONS = "delete window.Notification; delete window.PushManager;"


def test_on_iphone_outside_the_home_screen_avisarme_says_how(
    server: LiveServer, browser: Browser
) -> None:
    context = new_context(browser, user_agent=IPHONE_SAFARI)
    try:
        context.add_init_script(NO_NOTIFICATIONS)
        page = context.new_page()
        game_against_tito(page, server.url)
        button = page.locator("#notify-toggle")
        expect(button).to_have_attribute("data-state", "unsupported")
        expect(button).to_have_text(OFF)
        expect(page.locator("#notify-note")).to_be_hidden()
        notices_switch(page).click()
        expect(page.locator("#notify-note")).to_have_text(
            "Para recibir avisos en iPhone, agrega Escoba a tu pantalla de inicio"
            " (Compartir → Agregar a inicio) y ábrela desde allí."
        )
        check_axe(page, "AVISARME on iPhone")
    finally:
        context.close()


def test_without_web_push_the_tab_notifies_while_open_and_says_so(
    server: LiveServer, browser: Browser
) -> None:
    context = new_context(browser)
    try:
        context.grant_permissions(["notifications"], origin=server.url)
        context.add_init_script("delete window.PushManager;")
        page = context.new_page()
        game_against_tito(page, server.url)
        button = page.locator("#notify-toggle")
        notices_switch(page).click()
        expect(button).to_have_text(ON)
        expect(page.locator("#notify-note")).to_have_text(
            "Este navegador solo avisa mientras la mesa está abierta en una pestaña."
        )
        notices_switch(page).click()
        expect(button).to_have_text(OFF)
        expect(page.locator("#notify-note")).to_be_hidden()
    finally:
        context.close()


def test_notices_blocked_in_the_browser_say_where_to_allow_them(
    server: LiveServer, browser: Browser
) -> None:
    context = new_context(browser)
    try:
        context.add_init_script(
            "Object.defineProperty(Notification, 'permission', {get: () => 'denied'});"
        )
        page = context.new_page()
        game_against_tito(page, server.url)
        button = page.locator("#notify-toggle")
        expect(button).to_have_text("Avisos bloqueados por el navegador")
        expect(button).to_have_attribute("aria-disabled", "true")
        expect(page.locator("#notify-note")).to_have_text(
            "El navegador no permite avisos para este sitio: permítelos en los ajustes del sitio."
        )
    finally:
        context.close()


def test_a_subscription_the_push_service_replaced_is_sent_again_for_every_table(
    server: LiveServer, browser: Browser
) -> None:
    """`pushsubscriptionchange` (Firefox fires it; Chromium renews on the next
    seated page instead): the service worker subscribes anew and sends the
    new subscription for each table this browser asked notices of, and
    forgets a table whose seat is gone."""
    base = server.url
    subscription = TestSubscription.make("http://127.0.0.1:9/push/old")
    context = new_context(browser)
    try:
        context.grant_permissions(["notifications"], origin=base)
        context.add_init_script(push_stub(subscription))
        routes = PushRoutes(context, server_key())
        page = context.new_page()
        first = game_against_tito(page, base)
        notices_switch(page).click()
        expect(page.locator("#notify-toggle")).to_have_text(ON)
        second = game_against_tito(page, base)
        notices_switch(page).click()
        expect(page.locator("#notify-toggle")).to_have_text(ON)
        gone = "a-table-since-deleted"
        page.evaluate(
            """gone => caches.open("escoba-push-v1").then(c => c.match("/push/state.json")
                 .then(r => r.json()).then(s => { s.tables.unshift(gone);
                   return c.put("/push/state.json", new Response(JSON.stringify(s))); }))""",
            gone,
        )
        routes.sent.clear()
        context.route(
            f"**/t/{gone}/push", lambda route: route.fulfill(status=404, json={"error": "x"})
        )

        worker = worker_of(context, base)
        renewed = {**subscription.json(), "endpoint": "http://127.0.0.1:9/push/renewed"}
        worker.evaluate(
            """made => {
                 self.registration.pushManager.subscribe = () => Promise.resolve(
                   {endpoint: made.endpoint, toJSON: () => made});
                 self.dispatchEvent(new ExtendableEvent("pushsubscriptionchange"));
               }""",
            renewed,
        )
        # Polled inside one evaluate: wait_for_function takes a Promise for a
        # truthy answer and would not wait (microsoft/playwright#29132).
        state = page.evaluate(
            """async () => {
                 for (let tries = 0; tries < 300; tries++) {
                   const cache = await caches.open("escoba-push-v1");
                   const state = await (await cache.match("/push/state.json")).json();
                   if (state.endpoint.endsWith("/renewed")) return state;
                   await new Promise(done => setTimeout(done, 50));
                 }
                 return null;
               }"""
        )
        assert state == {"endpoint": renewed["endpoint"], "tables": [first, second]}
        assert sorted(routes.sent) == sorted(
            [(f"/t/{first}/push", renewed), (f"/t/{second}/push", renewed)]
        )
    finally:
        context.close()
