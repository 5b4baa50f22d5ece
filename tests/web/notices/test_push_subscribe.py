"""Subscribing a seat to Web Push, through the page script's routes and the
JSON API: what is stored, and every subscription refused (malformed,
foreign, oversized, or one that would make the server call into its own
network) with a clear message and nothing changed."""

from __future__ import annotations

import base64
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from escoba.web.base.clock import ManualClock
from escoba.words import say

from ..helpers import create, join, page_table
from ..push_endpoint import BrowserKeys, b64url
from ..push_helpers import channel_of, push_app, push_settings, rows, seats_of, stored

KEYS = BrowserKeys.new()
PUSH_URL = "https://push.example.com/wpush/v2/gAAAAABk"
PUBLIC_IP = "93.184.215.14"  # resolved to by the fake resolver; never connected to


def subscription(endpoint: str = PUSH_URL, browser: BrowserKeys = KEYS, **over: Any) -> Any:
    data: dict[str, Any] = {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": browser.p256dh, "auth": browser.auth},
    }
    data.update(over)
    return data


@pytest.fixture
def site(db_url: str, clock: ManualClock) -> Iterator[TestClient]:
    """The app as served in production: no private endpoints; a resolver
    that answers for the tests' names without DNS."""
    with push_app(push_settings(db_url, push_allow_private=False), clock) as client:
        channel_of(client).guard.resolve = fake_resolve
        yield client


@pytest.fixture
def test_mode(db_url: str, clock: ManualClock) -> Iterator[TestClient]:
    with push_app(push_settings(db_url), clock) as client:
        yield client


def fake_resolve(host: str, port: int) -> list[str]:
    names = {
        "push.example.com": [PUBLIC_IP, "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
        "rebound.example.com": ["10.1.2.3"],
        "mixed.example.com": [PUBLIC_IP, "127.0.0.1"],
        "mapped.example.com": ["::ffff:192.168.1.1"],
    }
    if host not in names:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    return names[host]


# ---------------------------------------------------------------------------
# What is stored


def test_a_seated_browser_subscribes_its_seat(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    site.cookies.set("lang", "en", domain="testserver.local")
    r = site.post(f"/t/{invite}/push", json=subscription())
    assert r.status_code == 204, r.text
    assert r.headers["cache-control"] == "no-store"
    _, (seat_id,) = seats_of(site, invite)
    (row,) = rows(site, "SELECT * FROM push_subscriptions")
    assert row.endpoint == PUSH_URL and row.p256dh == KEYS.p256dh and row.auth == KEYS.auth
    assert row.lang == "en" and row.failures == 0
    device_ids = rows(site, "SELECT id FROM devices")
    assert row.device_id == device_ids[0].id
    links = rows(site, "SELECT seat_id, subscription_id FROM seat_pushes")
    assert [(link.seat_id, link.subscription_id) for link in links] == [(seat_id, row.id)]


def test_the_language_is_the_browsers_at_subscribe_time(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    r = site.post(
        f"/t/{invite}/push", json=subscription(), headers={"Accept-Language": "pt-BR,pt;q=0.9"}
    )
    assert r.status_code == 204
    assert [row.lang for row in rows(site, "SELECT lang FROM push_subscriptions")] == ["pt_BR"]


def test_subscribing_again_updates_the_keys_one_row_per_endpoint(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    assert site.post(f"/t/{invite}/push", json=subscription()).status_code == 204
    fresh = BrowserKeys.new()
    assert site.post(f"/t/{invite}/push", json=subscription(browser=fresh)).status_code == 204
    (row,) = rows(site, "SELECT p256dh, auth FROM push_subscriptions")
    assert (row.p256dh, row.auth) == (fresh.p256dh, fresh.auth)
    assert stored(site) == (1, 1)


def test_the_api_subscribes_a_seat_with_its_language(site: TestClient) -> None:
    ana = create(site, "Ana")
    beto = join(site, ana.invite, "Beto")
    for player in (ana, beto):  # one endpoint, two seats: one row, two links
        r = site.post(
            f"/api/tables/{ana.invite}/push",
            json=subscription(lang="pt_BR", expirationTime=1_700_000_000_000),
            headers=player.headers,
        )
        assert r.status_code == 204, r.text
    (row,) = rows(site, "SELECT lang, device_id FROM push_subscriptions")
    assert row.lang == "pt_BR" and row.device_id is None
    assert stored(site) == (1, 2)
    # unlinked from one seat, it still serves the other; from both, it is gone
    r = site.request(
        "DELETE", f"/api/tables/{ana.invite}/push", json={"endpoint": PUSH_URL}, headers=ana.headers
    )
    assert r.status_code == 204, r.text
    assert stored(site) == (1, 1)
    r = site.request(
        "DELETE",
        f"/api/tables/{ana.invite}/push",
        json={"endpoint": PUSH_URL},
        headers=beto.headers,
    )
    assert r.status_code == 204
    assert stored(site) == (0, 0)


def test_the_page_script_unsubscribes_its_seat(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    site.post(f"/t/{invite}/push", json=subscription())
    r = site.post(f"/t/{invite}/push/remove", json={"endpoint": PUSH_URL})
    assert r.status_code == 204
    assert stored(site) == (0, 0)
    # again, or an endpoint never subscribed: nothing to do, no error
    assert site.post(f"/t/{invite}/push/remove", json={"endpoint": PUSH_URL}).status_code == 204


def test_unsubscribing_an_endpoint_no_subscription_can_have_is_no_error(site: TestClient) -> None:
    """An endpoint with a NUL byte was never stored (PostgreSQL takes none,
    and no push service's URL has one): nothing to unlink, not a 500."""
    ana = create(site, "Ana")
    for endpoint in ("\x00", f"{PUSH_URL}\x00x"):
        r = site.request(
            "DELETE",
            f"/api/tables/{ana.invite}/push",
            json={"endpoint": endpoint},
            headers=ana.headers,
        )
        assert r.status_code == 204, r.text
    invite = page_table(site, "Beto")
    assert site.post(f"/t/{invite}/push/remove", json={"endpoint": "\x00"}).status_code == 204


def test_the_server_key_is_published_and_kept(site: TestClient, db_url: str) -> None:
    r = site.get("/push/key")
    assert r.status_code == 200
    assert "public" in r.headers["cache-control"] and "max-age" in r.headers["cache-control"]
    key = r.json()["key"]
    raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(raw) == 65 and raw[0] == 4
    assert key == channel_of(site).vapid.public_key
    # another process on the same database publishes the same key
    with push_app(push_settings(db_url), ManualClock()) as other:
        assert other.get("/push/key").json()["key"] == key


# ---------------------------------------------------------------------------
# Who may subscribe


def test_only_a_seated_browser_subscribes(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    stranger = TestClient(site.app)
    stranger.cookies.set("lang", "en", domain="testserver.local")
    r = stranger.post(f"/t/{invite}/push", json=subscription())
    assert r.status_code == 403
    assert r.json() == {"error": "not_seated", "message": say("not_seated", "en")}
    r = stranger.post(f"/t/{invite}/push/remove", json={"endpoint": PUSH_URL})
    assert r.status_code == 403
    r = site.post("/t/AAAAAAAAAAAAAAAA/push", json=subscription())
    assert r.status_code == 404 and r.json()["error"] == "no_table"
    assert stored(site) == (0, 0)


def test_the_api_needs_a_seat_of_that_table(site: TestClient) -> None:
    ana = create(site, "Ana")
    zoe = create(site, "Zoe")
    url = f"/api/tables/{ana.invite}/push"
    assert site.post(url, json=subscription()).status_code == 403
    r = site.post(url, json=subscription(), headers=zoe.headers)
    assert r.status_code == 403 and r.json()["error"] == "not_seated"
    r = site.post("/api/tables/AAAAAAAAAAAAAAAA/push", json=subscription(), headers=ana.headers)
    assert r.status_code == 404
    assert stored(site) == (0, 0)


# ---------------------------------------------------------------------------
# Refused subscriptions


def _point_off_the_curve() -> str:
    raw = bytearray(base64.urlsafe_b64decode(KEYS.p256dh + "="))
    raw[-1] ^= 1
    return b64url(bytes(raw))


def _compressed_point() -> str:
    numbers = KEYS.private.public_key().public_numbers()
    return b64url(bytes([2 + numbers.y % 2]) + numbers.x.to_bytes(32, "big"))


def _keys(p256dh: str = KEYS.p256dh, auth: str = KEYS.auth) -> dict[str, str]:
    return {"p256dh": p256dh, "auth": auth}


#: (body, the words of the refusal)
REFUSED: list[tuple[Any, str]] = [
    ([], "push_not_subscription"),
    ("https://push.example.com/x", "push_not_subscription"),
    ({"foo": "bar"}, "push_not_subscription"),
    ({"endpoint": PUSH_URL}, "push_not_subscription"),
    ({"endpoint": PUSH_URL, "keys": {"p256dh": KEYS.p256dh}}, "push_not_subscription"),
    ({"endpoint": PUSH_URL, "keys": {"auth": KEYS.auth}}, "push_not_subscription"),
    ({"endpoint": 7, "keys": _keys()}, "push_not_subscription"),
    (subscription(expirationTime="soon"), "push_not_subscription"),
    (subscription(keys=_keys(p256dh=_point_off_the_curve())), "push_bad_key"),
    (subscription(keys=_keys(p256dh=KEYS.p256dh[:-4])), "push_bad_key"),
    (subscription(keys=_keys(p256dh=_compressed_point())), "push_bad_key"),
    (subscription(keys=_keys(p256dh="not base64 at all!")), "push_bad_key"),
    (subscription(keys=_keys(auth=b64url(b"x" * 15))), "push_bad_auth"),
    (subscription(keys=_keys(auth=b64url(b"x" * 17))), "push_bad_auth"),
    (subscription(endpoint=PUSH_URL + "a" * 2000), "push_endpoint_long"),
    (subscription(endpoint="http://push.example.com/x"), "push_endpoint_url"),
    (subscription(endpoint="ftp://push.example.com/x"), "push_endpoint_url"),
    (subscription(endpoint="https://user:pw@push.example.com/x"), "push_endpoint_url"),
    (subscription(endpoint="https://push.example.com/x#frag"), "push_endpoint_url"),
    (subscription(endpoint="https://push.example.com:0/x"), "push_endpoint_url"),
    (subscription(endpoint="https://push.example.com:99999/x"), "push_endpoint_url"),
    (subscription(endpoint="https:///x"), "push_endpoint_url"),
    (subscription(endpoint="https://push.exa mple.com/x"), "push_endpoint_url"),
    (subscription(endpoint="https://0x7f000001/x"), "push_endpoint_url"),
    (subscription(endpoint="https://2130706433/x"), "push_endpoint_url"),
    (subscription(endpoint="https://0177.0.0.1/x"), "push_endpoint_url"),
    (subscription(endpoint="https://127.1/x"), "push_endpoint_url"),
    (subscription(endpoint="https://127.0.0.1/x"), "push_endpoint_private"),
    (subscription(endpoint="https://10.0.0.8/x"), "push_endpoint_private"),
    (subscription(endpoint="https://172.16.0.1/x"), "push_endpoint_private"),
    (subscription(endpoint="https://192.168.1.1/x"), "push_endpoint_private"),
    (subscription(endpoint="https://169.254.169.254/latest"), "push_endpoint_private"),
    (subscription(endpoint="https://100.64.0.1/x"), "push_endpoint_private"),
    (subscription(endpoint="https://224.0.0.1/x"), "push_endpoint_private"),
    (subscription(endpoint="https://0.0.0.0/x"), "push_endpoint_private"),
    (subscription(endpoint="https://240.0.0.1/x"), "push_endpoint_private"),
    (subscription(endpoint="https://[::1]/x"), "push_endpoint_private"),
    (subscription(endpoint="https://[::]/x"), "push_endpoint_private"),
    (subscription(endpoint="https://[::ffff:127.0.0.1]/x"), "push_endpoint_private"),
    (subscription(endpoint="https://[::ffff:7f00:1]/x"), "push_endpoint_private"),
    (subscription(endpoint="https://[64:ff9b::a00:1]/x"), "push_endpoint_private"),
    (subscription(endpoint="https://[2002:7f00:1::]/x"), "push_endpoint_private"),
    (subscription(endpoint="https://[fe80::1]/x"), "push_endpoint_private"),
    (subscription(endpoint="https://[fc00::1]/x"), "push_endpoint_private"),
    (subscription(endpoint="https://[ff02::1]/x"), "push_endpoint_private"),
    (subscription(endpoint="https://localhost/x"), "push_endpoint_private"),
    (subscription(endpoint="https://LOCALHOST./x"), "push_endpoint_private"),
    (subscription(endpoint="https://push.localhost/x"), "push_endpoint_private"),
    (subscription(endpoint="https://printer.local/x"), "push_endpoint_private"),
    (subscription(endpoint="https://intranet/x"), "push_endpoint_private"),
    (subscription(endpoint="https://rebound.example.com/x"), "push_endpoint_private"),
    (subscription(endpoint="https://mixed.example.com/x"), "push_endpoint_private"),
    (subscription(endpoint="https://mapped.example.com/x"), "push_endpoint_private"),
    (subscription(endpoint="https://nowhere.example.com/x"), "push_endpoint_unknown"),
]
CODES = {
    "push_endpoint_private": "push_endpoint_refused",
    "push_endpoint_unknown": "push_endpoint_refused",
}


@pytest.mark.parametrize(("body", "words"), REFUSED)
def test_a_bad_subscription_is_refused_in_the_viewers_language(
    site: TestClient, body: Any, words: str
) -> None:
    invite = page_table(site, "Ana")
    site.cookies.set("lang", "en", domain="testserver.local")
    r = site.post(f"/t/{invite}/push", json=body)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"] == "application/json"
    message = say(words, "en", limit=1024)
    assert r.json() == {"error": CODES.get(words, "bad_subscription"), "message": message}
    assert stored(site) == (0, 0)


@pytest.mark.parametrize(("body", "words"), REFUSED)
def test_the_api_refuses_a_bad_subscription(site: TestClient, body: Any, words: str) -> None:
    ana = create(site, "Ana")
    if isinstance(body, dict) and isinstance(body.get("keys"), dict):
        body = {**body, "lang": "en"}
    r = site.post(f"/api/tables/{ana.invite}/push", json=body, headers=ana.headers)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    # the API's schema refuses some first (a mistyped or missing field, a
    # too long endpoint): `invalid`, naming the field
    assert error in (CODES.get(words, "bad_subscription"), "invalid")
    if error != "invalid":
        assert r.json()["message"] == say(words, "es", limit=1024)
    assert stored(site) == (0, 0)


def test_what_is_no_json_is_refused(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    site.cookies.set("lang", "pt_BR", domain="testserver.local")
    json_header = {"Content-Type": "application/json"}
    r = site.post(f"/t/{invite}/push", content=b'{"endpoint": ', headers=json_header)
    assert r.status_code == 400
    assert r.json() == {"error": "bad_json", "message": say("bad_json", "pt_BR")}
    r = site.post(f"/t/{invite}/push", data={"endpoint": PUSH_URL})  # a form
    assert r.status_code == 415 and r.json()["error"] == "unsupported_media_type"
    r = site.post(f"/t/{invite}/push/remove", content=b"\xff\xfe", headers=json_header)
    assert r.status_code == 400
    r = site.post(f"/t/{invite}/push/remove", json={"endpoint": 3})
    assert r.status_code == 422 and r.json()["error"] == "bad_subscription"
    ana = create(site, "Ana")
    r = site.post(
        f"/api/tables/{ana.invite}/push",
        content=b"{nope",
        headers={**ana.headers, **json_header},
    )
    assert r.status_code == 400 and r.json()["error"] == "bad_json"
    r = site.post(
        f"/api/tables/{ana.invite}/push", json=subscription(lang="fr"), headers=ana.headers
    )
    assert r.status_code == 422 and r.json()["error"] == "invalid"
    assert stored(site) == (0, 0)


def test_a_foreign_site_cannot_subscribe_a_seat(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    r = site.post(
        f"/t/{invite}/push", json=subscription(), headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert r.status_code == 403
    assert stored(site) == (0, 0)


def test_test_mode_takes_local_http_endpoints(test_mode: TestClient) -> None:
    invite = page_table(test_mode, "Ana")
    for endpoint in ("http://127.0.0.1:8443/push/a", "https://localhost/push/b"):
        r = test_mode.post(f"/t/{invite}/push", json=subscription(endpoint=endpoint))
        assert r.status_code == 204, r.text
    # and still refuses what is no URL or no address
    for endpoint in ("http://0x7f000001/x", "file:///etc/passwd", "http://user@127.0.0.1/x"):
        r = test_mode.post(f"/t/{invite}/push", json=subscription(endpoint=endpoint))
        assert r.status_code == 422, endpoint
    assert stored(test_mode) == (2, 2)
