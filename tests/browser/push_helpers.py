"""What the push tests share: a subscription made by the test (headless
Chromium has no push service to subscribe to), the DevTools protocol's way
to hand a push message to a service worker, Chromium profiles whose
notifications can be clicked (notifications.py), and a push service on
127.0.0.1 that checks and decrypts what the server sends."""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
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


@dataclass(frozen=True)
class ReceivedPush:
    """A push that passed the checks: which subscription, the VAPID
    claims, and the message decrypted."""

    name: str
    claims: dict[str, Any]
    message: bytes


class PushReceiver:
    """A push service on 127.0.0.1 for one test: it takes a push as a real
    one does (RFC 8030 `POST` to the subscription's endpoint, 201), checks
    its VAPID signature (RFC 8292: `Authorization: vapid t=<JWT>, k=<key>`,
    ES256 verified with `k`, which is the server's published key; `aud` this
    origin, `exp` within 24 h, a `sub`) and its headers (`TTL`,
    `Content-Encoding: aes128gcm`), and decrypts it (RFC 8291) with the keys
    of the subscription the test made (`subscription(name)`). A push that
    fails a check is answered 400 and its reason kept in `errors`."""

    def __init__(self, server_key: str) -> None:
        self.server_key = server_key
        self.received: queue.Queue[ReceivedPush] = queue.Queue()
        self.errors: list[str] = []
        self.subscriptions: dict[str, TestSubscription] = {}
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                name = self.path.rsplit("/", 1)[-1]
                try:
                    push = receiver._check(name, dict(self.headers.items()), body)
                except AssertionError as exc:
                    receiver.errors.append(f"{name}: {exc}")
                    self.send_response(400)
                    self.end_headers()
                    return
                self.send_response(201)
                self.send_header("Location", f"/message/{name}")
                self.end_headers()
                receiver.received.put(push)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def subscription(self, name: str) -> TestSubscription:
        made = TestSubscription.make(f"{self.origin}/push/{name}")
        self.subscriptions[name] = made
        return made

    def _check(self, name: str, headers: dict[str, str], body: bytes) -> ReceivedPush:
        headers = {k.lower(): v for k, v in headers.items()}
        made = self.subscriptions.get(name)
        assert made is not None, "no such subscription"
        assert headers.get("content-encoding") == "aes128gcm", headers.get("content-encoding")
        assert headers.get("ttl", "").isdigit(), "no TTL"
        scheme, _, params = headers.get("authorization", "").partition(" ")
        assert scheme.lower() == "vapid", f"authorization scheme {scheme!r}"
        fields = dict(p.strip().split("=", 1) for p in params.split(","))
        assert fields.get("k") == self.server_key, "not the server's published key"
        claims = _verified_jwt(fields["t"], fields["k"])
        assert claims.get("aud") == self.origin, claims
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600 + 60, claims
        assert str(claims.get("sub", "")).startswith(("mailto:", "https:")), claims
        message = http_ece.decrypt(
            body, private_key=made.private_key, auth_secret=made.auth, version="aes128gcm"
        )
        return ReceivedPush(name, claims, message)

    def next(self, timeout: float = 30) -> ReceivedPush:
        try:
            return self.received.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no push in {timeout} s; refused: {self.errors}") from None

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _verified_jwt(token: str, key: str) -> dict[str, Any]:
    """The claims of an ES256 JWT whose signature `key` (an uncompressed
    P-256 point, base64url) verifies."""
    head, claims, signature = token.split(".")
    assert json.loads(b64url_bytes(head)).get("alg") == "ES256", head
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_bytes(key))
    raw = b64url_bytes(signature)
    assert len(raw) == 64, "not a raw ES256 signature"
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID signature does not verify") from None
    result: dict[str, Any] = json.loads(b64url_bytes(claims))
    return result
