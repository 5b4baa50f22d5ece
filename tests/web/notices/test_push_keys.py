"""The server's VAPID keys (given in the settings, or made once and kept in
the database, whichever process makes them first), the contact it signs
with, and the endpoint checks on their own."""

from __future__ import annotations

import ipaddress
import logging
import threading

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from escoba.web.base.db import Database
from escoba.web.base.settings import Settings
from escoba.web.notices.push.channel import retry_after_seconds, topic
from escoba.web.notices.push.endpoints import (
    BadSubscription,
    EndpointGuard,
    EndpointRefused,
    EndpointUnresolved,
    is_public,
    parse_endpoint,
)
from escoba.web.notices.push.vapid import (
    SECRET_NAME,
    Vapid,
    load_private_key,
    new_private_key,
    raw_private_key,
    subject_of,
)

from ..push_endpoint import PushEndpoint


@pytest.fixture
def db(db_url: str) -> Database:
    database = Database(db_url)
    database.migrate()
    with database.write() as conn:
        conn.exec_driver_sql(f"DELETE FROM site_secrets WHERE name = '{SECRET_NAME}'")
    return database


def test_a_key_is_made_once_and_kept_in_the_database(db: Database) -> None:
    settings = Settings(database_url=db.url)
    first = Vapid.from_settings(settings, db)
    again = Vapid.from_settings(settings, db)
    assert first.public_key == again.public_key
    assert load_private_key(db.secret(SECRET_NAME)).private_numbers() == (
        first.private_key.private_numbers()
    )


def test_two_processes_making_the_key_at_once_agree(db: Database) -> None:
    """The other process inserts its key between this one's look and its
    insert: this one keeps the other's."""
    other = Database(db.url)
    theirs = new_private_key()

    def make_while_another_does() -> str:
        assert other.secret(SECRET_NAME, make=lambda: theirs) == theirs
        return new_private_key()

    assert db.secret(SECRET_NAME, make=make_while_another_does) == theirs
    other.dispose()


def test_many_threads_agree_on_one_key(db: Database) -> None:
    found: list[str] = []
    barrier = threading.Barrier(6)

    def make() -> None:
        barrier.wait()
        found.append(db.secret(SECRET_NAME, make=new_private_key))

    threads = [threading.Thread(target=make) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(found) == 6 and len(set(found)) == 1


def test_a_key_given_in_the_settings_wins(db: Database) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    for text in (raw_private_key(key), pem, pem.replace("\n", "\\n")):
        vapid = Vapid.from_settings(Settings(database_url=db.url, vapid_private_key=text), db)
        assert vapid.private_key.private_numbers() == key.private_numbers()
    with db.snapshot() as conn:
        kept = conn.exec_driver_sql(
            f"SELECT count(*) FROM site_secrets WHERE name = '{SECRET_NAME}'"
        ).scalar()
    assert kept == 0  # nothing made


@pytest.mark.parametrize("text", ["====", "not a key", "AAAA", "A" * 43, "_" * 43])
def test_a_wrong_key_in_the_settings_stops_the_start(db: Database, text: str) -> None:
    with pytest.raises(ValueError, match="VAPID"):
        Vapid.from_settings(
            Settings(database_url=db.url, vapid_private_key=text or "===="),
            db,
        )


def test_the_contact_defaults_to_the_site(db_url: str) -> None:
    assert subject_of(Settings(database_url=db_url)) == "mailto:escoba@localhost"
    site = Settings(database_url=db_url, base_url="https://escoba.example/")
    assert subject_of(site) == "https://escoba.example"
    plain = Settings(database_url=db_url, base_url="http://10.0.0.2:8000")
    assert subject_of(plain) == "mailto:escoba@localhost"
    given = Settings(database_url=db_url, vapid_subject="mailto:ops@escoba.example")
    assert subject_of(given) == "mailto:ops@escoba.example"
    for wrong in ("ops@escoba.example", "http://escoba.example", "mailto:nobody"):
        with pytest.raises(ValueError, match="VAPID_SUBJECT"):
            subject_of(Settings(database_url=db_url, vapid_subject=wrong))


def test_a_missing_contact_is_warned_of(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """The fallback contact reaches nobody (Apple refuses it): say to set one."""
    with caplog.at_level(logging.WARNING, logger="escoba.push"):
        subject_of(Settings(database_url=db_url))
    assert any("ESCOBA_VAPID_SUBJECT" in r.getMessage() for r in caplog.records)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="escoba.push"):
        subject_of(Settings(database_url=db_url, vapid_subject="mailto:ops@escoba.example"))
        subject_of(Settings(database_url=db_url, base_url="https://escoba.example"))
    assert not caplog.records


def test_a_token_is_signed_for_each_push_service_and_reused(db: Database) -> None:
    vapid = Vapid.from_settings(Settings(database_url=db.url), db)
    endpoint = PushEndpoint(server_key=vapid.public_key)
    with endpoint.running():
        header = vapid.authorization(endpoint.origin)
        claims = endpoint.verify_vapid(header)
        assert claims["aud"] == endpoint.origin and claims["sub"] == "mailto:escoba@localhost"
        assert vapid.authorization(endpoint.origin) == header
        assert vapid.authorization("https://fcm.googleapis.com") != header


# ---------------------------------------------------------------------------
# Endpoints


@pytest.mark.parametrize(
    "url",
    [
        "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABl",
        "https://web.push.apple.com/QGx8ZdOaB1",
        "https://wns2-by3p.notify.windows.com/w/?token=BQYAAAB%2b",
        "https://push.example.com:8443/x",
        "https://[2606:4700::6810:84e5]/x",
        "https://8.8.8.8/x",
    ],
)
def test_push_services_endpoints_are_taken(url: str) -> None:
    endpoint = parse_endpoint(url)
    assert endpoint.url == url and endpoint.scheme == "https"
    assert endpoint.target.startswith("/")
    assert url.startswith(endpoint.origin)


def test_an_endpoints_parts() -> None:
    e = parse_endpoint("https://Push.Example.com/w/?token=a%2b")
    assert (e.host, e.port, e.target, e.authority) == (
        "push.example.com",
        443,
        "/w/?token=a%2b",
        "push.example.com",
    )
    e = parse_endpoint("http://127.0.0.1:8080/p/x", allow_private=True)
    assert (e.origin, e.authority, str(e.literal)) == (
        "http://127.0.0.1:8080",
        "127.0.0.1:8080",
        "127.0.0.1",
    )
    e = parse_endpoint("https://[2606:4700::1]:444/x")
    assert e.authority == "[2606:4700::1]:444" and e.host == "2606:4700::1"


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("8.8.8.8", True),
        ("2606:4700::6810:84e5", True),
        ("127.0.0.1", False),
        ("10.255.0.1", False),
        ("172.31.255.255", False),
        ("192.168.0.1", False),
        ("169.254.0.1", False),
        ("100.64.1.1", False),
        ("0.0.0.0", False),
        ("224.0.0.251", False),
        ("239.255.255.250", False),
        ("255.255.255.255", False),
        ("198.18.0.1", False),
        ("192.0.2.1", False),
        ("::", False),
        ("::1", False),
        ("fe80::1", False),
        ("fec0::1", False),
        ("fd12:3456::1", False),
        ("ff05::2", False),
        ("::ffff:10.0.0.1", False),
        ("::ffff:8.8.8.8", True),
        ("64:ff9b::7f00:1", False),
        ("64:ff9b::808:808", True),
        ("2002:c0a8:101::", False),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", False),  # Teredo
    ],
)
def test_what_counts_as_a_public_address(address: str, public: bool) -> None:
    assert is_public(ipaddress.ip_address(address)) is public


def test_the_guard_checks_every_address_a_name_resolves_to() -> None:
    answers: dict[str, list[str]] = {
        "one.example.com": ["8.8.4.4"],
        "v6.example.com": ["2606:4700::1111", "8.8.8.8"],
        "bad.example.com": ["8.8.4.4", "192.168.7.7"],
        "scoped.example.com": ["fe80::1%eth0"],
        "empty.example.com": [],
    }

    def resolve(host: str, port: int) -> list[str]:
        if host == "down.example.com":
            raise OSError("temporary failure in name resolution")
        return answers[host]

    guard = EndpointGuard(allow_private=False, resolve=resolve)
    assert guard.address(guard.endpoint("https://one.example.com/x")) == "8.8.4.4"
    assert guard.address(guard.endpoint("https://v6.example.com/x")) == "2606:4700::1111"
    assert guard.address(guard.endpoint("https://8.8.8.8/x")) == "8.8.8.8"
    with pytest.raises(EndpointRefused):
        guard.address(guard.endpoint("https://bad.example.com/x"))
    with pytest.raises(EndpointRefused):
        guard.address(guard.endpoint("https://scoped.example.com/x"))
    for host in ("empty", "down"):
        with pytest.raises(EndpointUnresolved):
            guard.address(guard.endpoint(f"https://{host}.example.com/x"))
    with pytest.raises(BadSubscription):
        guard.endpoint("http://one.example.com/x")
    test_mode = EndpointGuard(allow_private=True, resolve=resolve)
    assert test_mode.address(test_mode.endpoint("http://bad.example.com/x")) == "8.8.4.4"


def test_a_retry_after_is_read_as_seconds_or_a_date() -> None:
    assert retry_after_seconds("120", 1000.0) == 120.0
    assert retry_after_seconds(None, 0) is None
    assert retry_after_seconds("soon", 0) is None
    # Wed, 21 Oct 2015 07:28:00 GMT is 1445412480
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", 1445412470.0) == 10.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", 1445412490.0) == 0.0


def test_a_tables_topic_is_short_and_safe() -> None:
    t = topic("x" * 64)
    assert len(t) == 32 and t.replace("-", "").replace("_", "").isalnum()
    assert topic("a" * 32) != topic("b" * 32)
