"""What the push tests share: a subscription made by the test (headless
Chromium has no push service to subscribe to), the DevTools protocol's way
to hand a push message to a service worker, and Chromium profiles whose
notifications can be clicked (notifications.py)."""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import Browser, BrowserContext, Page, Worker

from .conftest import CHROMIUM, LAUNCH_ARGS, PHONE
from .notifications import NotificationCenter


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_bytes(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class TestSubscription:
    """A push subscription as a browser would make one (RFC 8291 keys: the
    P-256 key pair and the 16-byte auth secret), its private half kept
    here so that the test can decrypt what the server sends to it."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    __test__ = False  # not a test class

    @classmethod
    def make(cls, endpoint: str) -> TestSubscription:
        return cls(endpoint, ec.generate_private_key(ec.SECP256R1()), os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def json(self) -> dict[str, Any]:
        """What `PushSubscription.toJSON()` gives."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }


#: Stands in for the browser's push service in the page: `subscribe` gives
#: the test's subscription (remembering the options it was asked with) and
#: the browser keeps it, as a real one, across loads (localStorage here). A
#: test gives it a new endpoint, as a push service may, by setting
#: localStorage's "escoba-test-endpoint".
PUSH_STUB = """
(() => {
  const made = %s;
  const KEY = "escoba-test-subscription";
  function subscription(serverKey) {
    const endpoint = localStorage.getItem("escoba-test-endpoint") || made.endpoint;
    return {
      endpoint: endpoint,
      expirationTime: null,
      options: {userVisibleOnly: true, applicationServerKey: serverKey},
      toJSON() { return Object.assign(JSON.parse(JSON.stringify(made)), {endpoint: endpoint}); },
      getKey() { return null; },
      unsubscribe() {
        localStorage.removeItem(KEY);
        window.__unsubscribed = (window.__unsubscribed || 0) + 1;
        return Promise.resolve(true);
      },
    };
  }
  function kept() {
    const key = localStorage.getItem(KEY);
    if (key === null) return null;
    return subscription(Uint8Array.from(JSON.parse(key)).buffer);
  }
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.__subscribedWith = {userVisibleOnly: options.userVisibleOnly, key: Array.from(key)};
    localStorage.setItem(KEY, JSON.stringify(Array.from(key)));
    return Promise.resolve(kept());
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(kept()); };
})();
"""


def push_stub(subscription: TestSubscription) -> str:
    return PUSH_STUB % json.dumps(subscription.json())


class ServiceWorkers:
    """A browser context's service workers through the DevTools protocol."""

    def __init__(self, context: BrowserContext, page: Page) -> None:
        self.page = page
        self.registrations: dict[str, str] = {}  # scope URL → registration id
        self.cdp = context.new_cdp_session(page)
        self.cdp.on("ServiceWorker.workerRegistrationUpdated", self._updated)
        self.cdp.send("ServiceWorker.enable")

    def _updated(self, event: Mapping[str, Any]) -> None:
        for registration in event["registrations"]:
            if registration["isDeleted"]:
                self.registrations.pop(registration["scopeURL"], None)
            else:
                self.registrations[registration["scopeURL"]] = registration["registrationId"]

    def registration_id(self, scope: str, timeout: float = 10) -> str:
        deadline = time.monotonic() + timeout
        while scope not in self.registrations:
            assert time.monotonic() < deadline, f"no registration at {scope}: {self.registrations}"
            self.page.wait_for_timeout(50)  # lets the protocol's events in
        return self.registrations[scope]

    def push(self, origin: str, payload: Mapping[str, Any] | bytes) -> None:
        """Delivers a push message, as the browser's push service would."""
        data = payload.decode() if isinstance(payload, bytes) else json.dumps(payload)
        self.cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": origin,
                "registrationId": self.registration_id(origin + "/"),
                "data": data,
            },
        )


def worker_of(context: BrowserContext, origin: str) -> Worker:
    """The context's service worker of `origin`'s root scope."""
    for worker in context.service_workers:
        if worker.url == origin + "/sw.js":
            return worker
    worker = context.wait_for_event("serviceworker")
    assert worker.url == origin + "/sw.js", worker.url
    return worker


def shown_notifications(worker: Worker) -> list[dict[str, Any]]:
    """What the service worker's registration shows now."""
    result: list[dict[str, Any]] = worker.evaluate(
        """() => self.registration.getNotifications().then(list => list.map(n => (
             {title: n.title, body: n.body, tag: n.tag, data: n.data, icon: n.icon,
              badge: n.badge, renotify: n.renotify})))"""
    )
    return result


def launch_profile(browser: Browser, center: NotificationCenter, path: Path) -> BrowserContext:
    """A Chromium profile of its own, whose notifications go to `center`
    (where they can be clicked), with notifications allowed."""
    context = browser.browser_type.launch_persistent_context(
        str(path),
        executable_path=CHROMIUM,
        args=LAUNCH_ARGS,
        env=center.env,
        viewport=PHONE,
        locale="es-ES",
    )
    context.set_default_timeout(15_000)
    return context
