"""Notices delivered by Web Push to a local push service that checks each
request as a real one does (VAPID signature, headers) and decrypts it with
the subscription's keys, as the browser would: what arrives, and what the
channel does when a push service refuses, fails or hangs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from escoba.web.base.clock import ManualClock
from escoba.web.notices.notice import NoticeKind, notice_text
from escoba.web.notices.push import PushChannel
from escoba.web.notices.push.channel import topic
from escoba.web.notices.push.endpoints import EndpointGuard
from escoba.web.notices.push.sender import PushSender, Reply

from ..helpers import CARD_RE, create, join, page_table
from ..push_endpoint import HANG, BrowserKeys, PushEndpoint, tls_context
from ..push_helpers import channel_of, notice, push_app, push_settings, rows, seats_of, stored


@pytest.fixture
def site(db_url: str, clock: ManualClock) -> Iterator[TestClient]:
    with push_app(push_settings(db_url), clock) as client:
        yield client


@pytest.fixture
def service(site: TestClient) -> Iterator[PushEndpoint]:
    """The local push service, expecting the server's published key."""
    endpoint = PushEndpoint(server_key=site.get("/push/key").json()["key"])
    with endpoint.running():
        yield endpoint
    assert not endpoint.errors, endpoint.errors


def _subscribe_api(site: TestClient, invite: str, headers: dict[str, str], sub: Any) -> None:
    r = site.post(f"/api/tables/{invite}/push", json=sub, headers=headers)
    assert r.status_code == 204, r.text


def _delivered(channel: PushChannel) -> None:
    assert channel.wait_idle(20), "pushes still under way"


# ---------------------------------------------------------------------------
# What arrives


def test_every_kind_of_notice_arrives_signed_encrypted_and_readable(
    site: TestClient, service: PushEndpoint, clock: ManualClock
) -> None:
    """A seat subscribed through its page (in English), another through the
    API (in Portuguese): each gets every kind of notice, in its language,
    naming the table, never a card."""
    invite = page_table(site, "Ana")
    site.cookies.set("lang", "en", domain="testserver.local")
    r = site.post(f"/t/{invite}/push", json=service.subscribe("ana"))
    assert r.status_code == 204, r.text
    beto = join(site, invite, "Beto")
    _subscribe_api(site, invite, beto.headers, {**service.subscribe("beto"), "lang": "pt_BR"})
    table_id, (ana_seat, beto_seat) = seats_of(site, invite)
    channel = channel_of(site)
    notices = [
        notice(clock, kind, seat, table_id, invite)
        for seat in (ana_seat, beto_seat)
        for kind in NoticeKind
    ]
    channel.deliver(notices)
    _delivered(channel)
    for name, seat, lang in (("ana", ana_seat, "en"), ("beto", beto_seat, "pt_BR")):
        pushes = service.pushes_to(name)
        assert sorted(p.message["kind"] for p in pushes) == sorted(k.value for k in NoticeKind)
        for push in pushes:
            kind = NoticeKind(push.message["kind"])
            title, body = notice_text(
                notice(clock, kind, seat, table_id, invite), lang, clock.now()
            )
            assert push.message == {
                "title": title,
                "body": body,
                "url": f"/t/{invite}",
                "tag": f"escoba-{invite}",
                "kind": kind.value,
                "lang": {"en": "en", "pt_BR": "pt-BR"}[lang],
            }
            assert "Ana" in title and "Beto" in title
            assert not CARD_RE.search(title + body)
            urgent = kind in (NoticeKind.TURN, NoticeKind.WARNING)
            assert push.headers["urgency"] == ("high" if urgent else "normal")
            assert push.headers["ttl"] == "86400"
            assert push.headers["topic"] == topic(invite)
            assert push.claims["sub"] == "mailto:escoba@localhost"
    assert channel.outcomes["sent"] == 2 * len(NoticeKind)


def test_a_resubscribed_browser_gets_pushes_for_its_new_keys(
    site: TestClient, service: PushEndpoint, clock: ManualClock
) -> None:
    invite = page_table(site, "Ana")
    site.post(f"/t/{invite}/push", json=service.subscribe("ana"))
    # the browser renews its subscription: same endpoint, new keys
    renewed = service.subscribe("ana", BrowserKeys.new())
    assert site.post(f"/t/{invite}/push", json=renewed).status_code == 204
    assert stored(site) == (1, 1)
    table_id, (seat,) = seats_of(site, invite)
    channel = channel_of(site)
    channel.deliver([notice(clock, NoticeKind.TURN, seat, table_id, invite)])
    _delivered(channel)
    assert len(service.pushes_to("ana")) == 1  # decrypted with the new keys


def test_a_device_hears_once_of_an_event_at_a_table(
    site: TestClient, service: PushEndpoint, clock: ManualClock
) -> None:
    """One browser holding two seats of a table (both subscribed with its one
    endpoint) gets one push when an event concerns both; another kind, or
    another table, is another event."""
    ana = create(site, "Ana")
    beto = join(site, ana.invite, "Beto")
    sub = service.subscribe("device")
    for player in (ana, beto):
        _subscribe_api(site, ana.invite, player.headers, sub)
    zoe = create(site, "Zoe")
    _subscribe_api(site, zoe.invite, zoe.headers, sub)
    assert stored(site) == (1, 3)
    table_id, (ana_seat, beto_seat) = seats_of(site, ana.invite)
    other_id, (zoe_seat,) = seats_of(site, zoe.invite)
    channel = channel_of(site)
    channel.deliver(
        [
            notice(clock, NoticeKind.ROUND, ana_seat, table_id, ana.invite),
            notice(clock, NoticeKind.ROUND, beto_seat, table_id, ana.invite),
            notice(clock, NoticeKind.CHAT, beto_seat, table_id, ana.invite),
            notice(clock, NoticeKind.ROUND, zoe_seat, other_id, zoe.invite, ("Zoe",)),
        ]
    )
    _delivered(channel)
    got = sorted((p.message["url"], p.message["kind"]) for p in service.pushes_to("device"))
    assert got == sorted(
        [(f"/t/{ana.invite}", "round"), (f"/t/{ana.invite}", "chat"), (f"/t/{zoe.invite}", "round")]
    )


def test_a_seat_without_subscriptions_gets_nothing(
    site: TestClient, service: PushEndpoint, clock: ManualClock
) -> None:
    invite = page_table(site, "Ana")
    table_id, (seat,) = seats_of(site, invite)
    channel = channel_of(site)
    channel.deliver([notice(clock, NoticeKind.TURN, seat, table_id, invite)])
    _delivered(channel)
    assert service.requests.total() == 0 and channel.outcomes.total() == 0


# ---------------------------------------------------------------------------
# What the push service answers


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_no_longer_knows_is_dropped(
    site: TestClient, service: PushEndpoint, clock: ManualClock, status: int
) -> None:
    ana = create(site, "Ana")
    beto = join(site, ana.invite, "Beto")
    sub = service.subscribe("gone")
    for player in (ana, beto):
        _subscribe_api(site, ana.invite, player.headers, sub)
    _subscribe_api(site, ana.invite, ana.headers, service.subscribe("kept"))
    service.answer("gone", status)
    table_id, (ana_seat, _) = seats_of(site, ana.invite)
    channel = channel_of(site)
    channel.deliver([notice(clock, NoticeKind.TURN, ana_seat, table_id, ana.invite)])
    _delivered(channel)
    assert service.requests["gone"] == 1  # not retried
    endpoints = [row.endpoint for row in rows(site, "SELECT endpoint FROM push_subscriptions")]
    assert endpoints == [service.url("kept")]
    assert stored(site) == (1, 1)  # its links to both seats went with it
    assert channel.outcomes["gone"] == 1 and channel.outcomes["sent"] == 1


def test_a_busy_push_service_is_tried_again_until_it_takes_the_push(
    site: TestClient, service: PushEndpoint, clock: ManualClock
) -> None:
    """503, then 429 asking for an hour (capped by the settings), then 201."""
    invite = page_table(site, "Ana")
    site.post(f"/t/{invite}/push", json=service.subscribe("busy"))
    service.answer("busy", 503, (429, "3600"), 201)
    table_id, (seat,) = seats_of(site, invite)
    channel = channel_of(site)
    channel.deliver([notice(clock, NoticeKind.TURN, seat, table_id, invite)])
    _delivered(channel)
    assert service.requests["busy"] == 3
    assert len(service.pushes_to("busy")) == 1
    assert channel.outcomes == {"retried": 2, "sent": 1}
    assert [row.failures for row in rows(site, "SELECT failures FROM push_subscriptions")] == [0]


def test_a_push_service_that_keeps_failing_loses_the_subscription(
    site: TestClient, service: PushEndpoint, clock: ManualClock
) -> None:
    """Every try fails (500, 3 tries), or the service refuses (400): one
    failure in a row each time; at the second (the settings' maximum) the
    subscription is dropped. A push that goes through starts the count again."""
    invite = page_table(site, "Ana")
    site.post(f"/t/{invite}/push", json=service.subscribe("flaky"))
    table_id, (seat,) = seats_of(site, invite)
    channel = channel_of(site)

    def push_once() -> None:
        channel.deliver([notice(clock, NoticeKind.TURN, seat, table_id, invite)])
        _delivered(channel)

    def failures() -> list[int]:
        return [row.failures for row in rows(site, "SELECT failures FROM push_subscriptions")]

    service.answer("flaky", 500)
    push_once()
    assert service.requests["flaky"] == 3 and failures() == [1]
    service.answer("flaky", 201)
    push_once()
    assert failures() == [0]
    service.answer("flaky", 400)
    push_once()
    assert service.requests["flaky"] == 5 and failures() == [1]  # a 400 is not retried
    push_once()
    assert failures() == [] and stored(site) == (0, 0)
    assert channel.outcomes["failed"] == 2 and channel.outcomes["dropped"] == 1


def test_a_timed_out_push_is_tried_again(
    db_url: str, clock: ManualClock, service: PushEndpoint, site: TestClient
) -> None:
    invite = page_table(site, "Ana")
    site.post(f"/t/{invite}/push", json=service.subscribe("slow"))
    service.answer("slow", HANG, 201)
    table_id, (seat,) = seats_of(site, invite)
    ctx = site.app.state.ctx  # type: ignore[attr-defined]
    quick = push_settings(db_url, push_read_timeout=0.3)
    channel = PushChannel(ctx.service.db, quick, clock, ctx.push.vapid)
    try:
        channel.deliver([notice(clock, NoticeKind.TURN, seat, table_id, invite)])
        _delivered(channel)
    finally:
        channel.close()
    assert service.requests["slow"] == 2
    assert channel.outcomes == {"retried": 1, "sent": 1}
    assert len(service.pushes_to("slow")) == 1


def test_a_hanging_push_service_does_not_delay_the_others(
    site: TestClient, service: PushEndpoint, clock: ManualClock
) -> None:
    """The first subscription's service holds its request; the others' pushes
    are sent and answered meanwhile (the order of events says so), and it
    still gets its push once it answers."""
    ana = create(site, "Ana")
    _subscribe_api(site, ana.invite, ana.headers, service.subscribe("stuck"))
    for name in ("b", "c", "d"):
        _subscribe_api(site, ana.invite, ana.headers, service.subscribe(name))
    service.answer("stuck", HANG)
    table_id, (seat,) = seats_of(site, ana.invite)
    channel = channel_of(site)
    channel.deliver([notice(clock, NoticeKind.TURN, seat, table_id, ana.invite)])
    assert service.hanging["stuck"].wait(20)
    assert service.wait(lambda: len(service.answered()) == 3)
    assert sorted(service.answered()) == ["b", "c", "d"]
    assert {p.name for p in service.pushes} == {"b", "c", "d"}
    assert not channel.wait_idle(0)  # the stuck one is still under way
    service.release()
    _delivered(channel)
    assert service.answered()[3:] == ["stuck"]
    assert len(service.pushes_to("stuck")) == 1


# ---------------------------------------------------------------------------
# Where a push goes


class _Recorder:
    """A sender that records what would be sent, and sends nothing."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def post(self, endpoint: Any, address: str, headers: Any, body: bytes) -> Reply:
        self.sent.append(address)
        return Reply(201, None)

    def close(self) -> None:
        pass


def test_a_name_that_resolves_elsewhere_at_send_time_gets_nothing(
    site: TestClient, clock: ManualClock
) -> None:
    """DNS rebinding: a name that resolved to a public address when it
    subscribed, and to a private one when a notice goes out, is dropped
    without a request; while it stays public, the request goes to the very
    address that was checked."""
    answers = {"push.example.com": ["93.184.215.14"]}
    guard = EndpointGuard(allow_private=False, resolve=lambda host, port: answers[host])
    ctx = site.app.state.ctx  # type: ignore[attr-defined]
    recorder = _Recorder()
    channel = PushChannel(
        ctx.service.db,
        ctx.settings,
        clock,
        ctx.push.vapid,
        guard=guard,
        sender=recorder,  # type: ignore[arg-type]
    )
    try:
        invite = page_table(site, "Ana")
        table_id, (seat,) = seats_of(site, invite)
        keys = BrowserKeys.new()
        sub = {
            "endpoint": "https://push.example.com/send/abc",
            "keys": {"p256dh": keys.p256dh, "auth": keys.auth},
        }
        ctx.push.subscribing.guard = guard
        assert site.post(f"/t/{invite}/push", json=sub).status_code == 204
        channel.deliver([notice(clock, NoticeKind.TURN, seat, table_id, invite)])
        _delivered(channel)
        assert recorder.sent == ["93.184.215.14"]
        answers["push.example.com"] = ["93.184.215.14", "10.0.0.7"]
        channel.deliver([notice(clock, NoticeKind.END, seat, table_id, invite)])
        _delivered(channel)
        assert recorder.sent == ["93.184.215.14"]
        assert stored(site) == (0, 0) and channel.outcomes["refused"] == 1
    finally:
        channel.close()


def test_https_goes_to_the_checked_address_and_verifies_the_name(
    site: TestClient, clock: ManualClock, tmp_path: Path
) -> None:
    """An https endpoint whose name resolves (here) to 127.0.0.1: the
    connection goes to that address, while TLS checks the certificate
    against the endpoint's name and the request names it in `Host`. A
    certificate for another name is refused (no push, a failure counted)."""
    ctx = site.app.state.ctx  # type: ignore[attr-defined]
    tls, ca_file = tls_context(tmp_path, "push.example.com")
    sender = PushSender(5, 30, 2, ca_certs=ca_file)
    guard = ctx.push.guard
    guard.resolve = lambda host, port: ["127.0.0.1"]
    channel = PushChannel(
        ctx.service.db, ctx.settings, clock, ctx.push.vapid, guard=guard, sender=sender
    )
    key = site.get("/push/key").json()["key"]
    good = PushEndpoint(server_key=key, host="push.example.com", tls=tls)
    impostor = PushEndpoint(server_key=key, host="other.example.com", tls=tls)
    try:
        with good.running(), impostor.running():
            invite = page_table(site, "Ana")
            table_id, (seat,) = seats_of(site, invite)
            for endpoint in (good, impostor):
                r = site.post(f"/t/{invite}/push", json=endpoint.subscribe("s"))
                assert r.status_code == 204, r.text
            channel.deliver([notice(clock, NoticeKind.TURN, seat, table_id, invite)])
            _delivered(channel)
            (push,) = good.pushes
            assert push.headers["host"] == f"push.example.com:{good.port}"
            assert push.claims["aud"] == f"https://push.example.com:{good.port}"
            assert impostor.requests.total() == 0  # the handshake failed
            assert channel.outcomes["sent"] == 1 and channel.outcomes["failed"] == 1
            assert not good.errors
    finally:
        channel.close()


def test_each_outcome_is_logged_without_the_endpoint_payload_or_keys(
    site: TestClient, service: PushEndpoint, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    invite = page_table(site, "Ana")
    sub = service.subscribe("secret-path-a")
    site.post(f"/t/{invite}/push", json=sub)
    gone = service.subscribe("secret-path-b")
    site.post(f"/t/{invite}/push", json=gone)
    service.answer("secret-path-b", 503, 410)
    table_id, (seat,) = seats_of(site, invite)
    channel = channel_of(site)
    caplog.set_level("INFO", logger="escoba.push")
    channel.deliver([notice(clock, NoticeKind.TURN, seat, table_id, invite)])
    _delivered(channel)
    records = [r for r in caplog.records if r.name == "escoba.push"]
    assert sorted(r.getMessage() for r in records) == ["push gone", "push retry", "push sent"]
    for record in records:
        assert record.origin == service.origin  # type: ignore[attr-defined]
        assert record.table_id == table_id  # type: ignore[attr-defined]
        shown = str(record.__dict__)
        for secret in ("secret-path", sub["keys"]["p256dh"], sub["keys"]["auth"], "Beto"):
            assert secret not in shown


def test_a_closed_channel_sends_nothing(
    db_url: str, clock: ManualClock, service: PushEndpoint, site: TestClient
) -> None:
    invite = page_table(site, "Ana")
    site.post(f"/t/{invite}/push", json=service.subscribe("late"))
    table_id, (seat,) = seats_of(site, invite)
    ctx = site.app.state.ctx  # type: ignore[attr-defined]
    channel = PushChannel(ctx.service.db, ctx.settings, clock, ctx.push.vapid)
    channel.close()
    channel.deliver([notice(clock, NoticeKind.TURN, seat, table_id, invite)])
    assert channel.wait_idle(0)
    assert service.requests.total() == 0 and channel.outcomes.total() == 0
