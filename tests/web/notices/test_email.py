"""E-mail notices against a real SMTP server (aiosmtpd on 127.0.0.1): a
seat's address waits for its confirmation link; a notice arrives in the
seat's language with the table's link and the unsubscribe headers; a quick
game makes one e-mail; the daily digest lists what waits, once; the
unsubscribe link works without signing in; bad addresses and floods are
refused with nothing stored; a server that is down never reaches the caller;
and without SMTP settings nothing about e-mail shows."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.smtp import AuthResult
from fastapi.testclient import TestClient
from sqlalchemy import text

from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.settings import Settings
from escoba.web.notices.email.channel import EmailChannel
from escoba.web.notices.email.mail import MAX_ATTEMPTS
from escoba.web.notices.notice import Notice, NoticeKind, notice_text

from ..conftest import first_legal
from ..helpers import Player, create, join, page_table, service_of, table_version
from ..mailbox import Mailbox, Received, SmtpServer, server_tls, tls_files
from ..servers import free_port

FROM = "Escoba <avisos@escoba.test>"
LINK = re.compile(r"http://testserver(/correo/(?:confirmar|baja)/[A-Za-z0-9_.\-]+)")


def mail_settings(db_url: str, port: int, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": db_url,
        "robot_inline": True,
        "robot_delay": 0,
        "secret_key": "test-secret",
        "rate_limits": False,
        "smtp_host": "127.0.0.1",
        "smtp_port": port,
        "smtp_security": "none",
        "smtp_from": FROM,
        "smtp_poll_seconds": 0,  # the tests send the outbox themselves
    }
    return Settings(**(values | extra))


@pytest.fixture
def smtp() -> Iterator[Mailbox]:
    with SmtpServer(free_port()) as box:
        yield box


@pytest.fixture
def mail_site(db_url: str, clock: ManualClock, smtp: Mailbox) -> Iterator[TestClient]:
    app = create_app(
        mail_settings(db_url, smtp.port), clock=clock, rng=random.Random(5), brain=first_legal
    )
    with TestClient(app) as client:
        yield client


def channel_of(client: TestClient) -> EmailChannel:
    channel = client.app.state.ctx.email  # type: ignore[attr-defined]
    assert isinstance(channel, EmailChannel)
    return channel


def sent(client: TestClient, box: Mailbox) -> list[Received]:
    """Send what the outbox holds (the mail loop's work) and take what arrived."""
    channel_of(client).outbox.send_due()
    return box.take()


def seat_row(client: TestClient, invite: str, position: int) -> dict[str, Any]:
    """The seat's id and table, and its row of seat_notices (if any)."""
    with service_of(client).db.snapshot() as conn:
        row = conn.execute(
            text(
                "SELECT s.id AS seat_id, t.id AS table_id, n.email, n.email_mode, "
                "n.email_confirmed_at, n.email_lang "
                "FROM seats s JOIN tables t ON t.id = s.table_id "
                "LEFT JOIN seat_notices n ON n.seat_id = s.id "
                "WHERE t.invite = :invite AND s.position = :position"
            ),
            {"invite": invite, "position": position},
        ).one()
    return dict(row._mapping)


def outbox_rows(client: TestClient) -> int:
    with service_of(client).db.snapshot() as conn:
        return int(conn.execute(text("SELECT count(*) FROM email_outbox")).scalar_one())


def notice(
    client: TestClient,
    invite: str,
    position: int,
    kind: NoticeKind = NoticeKind.TURN,
    who: str | None = "Beto",
    players: tuple[str, ...] = ("Ana", "Beto"),
) -> Notice:
    row = seat_row(client, invite, position)
    return Notice(
        kind=kind,
        seat_id=row["seat_id"],
        table_id=row["table_id"],
        invite=invite,
        players=players,
        who=who,
        at=service_of(client).clock.now(),
    )


def save(client: TestClient, player: Player, address: str, expect: int = 200, **body: Any) -> Any:
    r = client.put(
        f"/api/tables/{player.invite}/email",
        json={"email": address, **body},
        headers=player.headers,
    )
    assert r.status_code == expect, r.text
    return r.json()


def confirm(client: TestClient, message: Received) -> str:
    """Open the confirmation link of `message` and press its button, as a
    person would, from a browser with no cookie; the link's path."""
    path = LINK.search(message.text)
    assert path is not None, message.text
    stranger = TestClient(client.app)
    page = stranger.get(path.group(1))
    assert page.status_code == 200 and "CONFIRMAR" in page.text
    assert stranger.post(path.group(1)).status_code == 200
    return path.group(1)


def started(client: TestClient) -> tuple[Player, Player]:
    """Ana and Beto at a started table: (the one on turn, the other)."""
    ana = create(client, "Ana")
    beto = join(client, ana.invite, "Beto")
    ana.command("/start")
    on_turn = ana if ana.table()["view"]["turn"] == ana.game_seat() else beto
    return on_turn, beto if on_turn is ana else ana


def confirmed(client: TestClient, box: Mailbox, player: Player, address: str, **body: Any) -> None:
    save(client, player, address, **body)
    (message,) = sent(client, box)
    confirm(client, message)


# ---------------------------------------------------------------------------


def test_a_new_address_hears_nothing_until_its_confirmation_link_is_opened(
    mail_site: TestClient, smtp: Mailbox
) -> None:
    invite = page_table(mail_site, "Ana")
    page = mail_site.get(f"/t/{invite}").text
    assert 'id="correo"' in page and 'name="email"' in page and 'value="daily"' in page
    r = mail_site.post(
        f"/t/{invite}/email",
        data={"email": " ana@example.com ", "mode": "now"},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == f"/t/{invite}?correo=confirmar#correo"
    page = mail_site.get(r.headers["location"]).text
    assert "Te mandamos un correo para confirmar" in page
    assert "Falta confirmar ana@example.com" in page
    (message,) = sent(mail_site, smtp)
    assert message.recipients == ["ana@example.com"]
    assert message["Subject"] == "Escoba del 15: confirma tu correo"
    assert "la mesa de Ana" in message.text
    # a notice meanwhile goes nowhere
    channel = channel_of(mail_site)
    channel.deliver([notice(mail_site, invite, 0)])
    assert sent(mail_site, smtp) == []
    assert seat_row(mail_site, invite, 0)["email_confirmed_at"] is None
    # opening the link shows a button and changes nothing until it is pressed
    path = LINK.search(message.text)
    assert path is not None
    assert "CONFIRMAR" in TestClient(mail_site.app).get(path.group(1)).text
    assert seat_row(mail_site, invite, 0)["email_confirmed_at"] is None
    confirm(mail_site, message)
    assert seat_row(mail_site, invite, 0)["email_confirmed_at"] is not None
    assert "Los avisos de esta mesa van a ana@example.com" in mail_site.get(f"/t/{invite}").text
    channel.deliver([notice(mail_site, invite, 0)])
    (turn,) = sent(mail_site, smtp)
    assert turn.recipients == ["ana@example.com"] and "Te toca jugar" in turn.text
    # saving the same confirmed address again (another mode) sends nothing
    r = mail_site.post(
        f"/t/{invite}/email",
        data={"email": "ana@example.com", "mode": "daily"},
        follow_redirects=False,
    )
    assert r.headers["location"] == f"/t/{invite}?correo=guardado#correo"
    assert sent(mail_site, smtp) == []


def test_a_notice_arrives_in_the_seats_language_with_its_table_and_unsubscribe_links(
    mail_site: TestClient, smtp: Mailbox, clock: ManualClock
) -> None:
    ana = create(mail_site, "Ana")
    join(mail_site, ana.invite, "Beto")
    confirmed(mail_site, smtp, ana, "ana@example.com", lang="en")
    the_notice = notice(mail_site, ana.invite, 0, who="Beto")
    clock.advance(minutes=1)
    channel_of(mail_site).deliver([the_notice])
    (message,) = sent(mail_site, smtp)
    title, body = notice_text(the_notice, "en", clock.now())
    assert message["Subject"] == title
    assert (
        body in message.text
        and "Beto" in body
        and body != notice_text(the_notice, "es", clock.now())[1]
    )
    assert f"http://testserver/t/{ana.invite}" in message.text
    unsubscribe = message["List-Unsubscribe"]
    assert re.fullmatch(r"<http://testserver/correo/baja/[A-Za-z0-9_.\-]+>", unsubscribe)
    assert unsubscribe[1:-1] in message.text
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message["Message-ID"].endswith("@escoba.test>")
    assert message["Date"] and message["Auto-Submitted"] == "auto-generated"
    assert message["Content-Language"] == "en" and message["From"] == FROM
    html = message.html
    assert html is not None and f'href="http://testserver/t/{ana.invite}"' in html
    assert message.sender == "avisos@escoba.test"


def test_a_quick_game_makes_one_email_and_a_held_notice_goes_only_if_it_still_stands(
    mail_site: TestClient, smtp: Mailbox, clock: ManualClock
) -> None:
    on_turn, other = started(mail_site)
    confirmed(mail_site, smtp, on_turn, "turno@example.com")
    channel = channel_of(mail_site)
    position = on_turn.position
    assert position is not None
    channel.deliver([notice(mail_site, on_turn.invite, position)])
    assert len(sent(mail_site, smtp)) == 1
    clock.advance(minutes=5)
    channel.deliver([notice(mail_site, on_turn.invite, position, NoticeKind.TURN)])
    clock.advance(minutes=5)
    channel.deliver([notice(mail_site, on_turn.invite, position, NoticeKind.CHAT)])
    assert sent(mail_site, smtp) == []
    assert channel.release_held() == 0  # the quiet period is not over
    clock.advance(minutes=21)
    assert channel.release_held() == 1  # still its turn: the held TURN, not the chat
    (late,) = sent(mail_site, smtp)
    assert "Te toca jugar" in late.text
    assert channel.release_held() == 0  # once
    # held again, and then the seat plays: nothing stands, nothing goes
    clock.advance(minutes=1)
    channel.deliver([notice(mail_site, on_turn.invite, position, NoticeKind.TURN)])
    action = on_turn.table()["view"]["legal_actions"][0]
    on_turn.act(action)
    clock.advance(minutes=31)
    assert channel.release_held() == 0
    assert sent(mail_site, smtp) == []
    assert other.table()["status"] == "playing"


def test_the_daily_digest_lists_every_table_waiting_on_an_address_once_a_day(
    mail_site: TestClient, smtp: Mailbox, clock: ManualClock
) -> None:
    on_turn, _ = started(mail_site)  # waits on its player
    waiting_on_other, idle = started(mail_site)  # waits on someone else
    lobby = create(mail_site, "Zoe")  # nothing to do
    confirmed(mail_site, smtp, on_turn, "dia@example.com", mode="daily")
    confirmed(mail_site, smtp, idle, "dia@example.com", mode="daily")
    confirmed(mail_site, smtp, lobby, "nada@example.com", mode="daily")
    channel = channel_of(mail_site)
    channel.deliver([notice(mail_site, on_turn.invite, on_turn.position or 0)])  # daily: no
    assert channel.send_digests() == 0  # 12:00; the hour (08:00) comes tomorrow
    assert sent(mail_site, smtp) == []
    clock.advance(hours=19, minutes=59)  # 07:59
    assert channel.send_digests() == 0
    clock.advance(minutes=1)  # 08:00
    assert channel.send_digests() == 1
    (digest,) = sent(mail_site, smtp)
    assert digest.recipients == ["dia@example.com"]
    assert digest["Subject"] == "Escoba del 15: 1 mesa te espera"
    assert f"/t/{on_turn.invite}" in digest.text and "Te toca jugar desde hace 20" in digest.text
    assert f"/t/{idle.invite}" not in digest.text and f"/t/{lobby.invite}" not in digest.text
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert channel.send_digests() == 0  # not twice
    clock.advance(hours=3)
    assert channel.send_digests() == 0
    assert sent(mail_site, smtp) == []
    # the next day, the other table waits too
    action = waiting_on_other.table()["view"]["legal_actions"][0]
    waiting_on_other.act(action)
    clock.advance(hours=21)
    assert channel.send_digests() == 1
    (digest,) = sent(mail_site, smtp)
    assert digest["Subject"] == "Escoba del 15: 2 mesas te esperan"
    assert f"/t/{on_turn.invite}" in digest.text and f"/t/{idle.invite}" in digest.text


def test_a_browser_that_confirmed_an_address_gives_it_to_its_next_seats_at_once(
    mail_site: TestClient, smtp: Mailbox
) -> None:
    first = page_table(mail_site, "Ana")
    mail_site.post(f"/t/{first}/email", data={"email": "ana@example.com", "mode": "now"})
    (message,) = sent(mail_site, smtp)
    confirm(mail_site, message)
    second = page_table(mail_site, "Ana")
    r = mail_site.post(
        f"/t/{second}/email",
        data={"email": "ana@example.com", "mode": "now"},
        follow_redirects=False,
    )
    assert r.headers["location"] == f"/t/{second}?correo=guardado#correo"
    assert sent(mail_site, smtp) == []
    assert seat_row(mail_site, second, 0)["email_confirmed_at"] is not None
    # another browser typing the same address still has to confirm it
    other = TestClient(mail_site.app)
    third = page_table(other, "Eva")
    other.post(f"/t/{third}/email", data={"email": "ana@example.com", "mode": "now"})
    assert seat_row(mail_site, third, 0)["email_confirmed_at"] is None
    assert len(sent(mail_site, smtp)) == 1


def test_the_unsubscribe_link_works_without_signing_in_and_by_one_click(
    mail_site: TestClient, smtp: Mailbox
) -> None:
    ana = create(mail_site, "Ana")
    join(mail_site, ana.invite, "Beto")
    confirmed(mail_site, smtp, ana, "ana@example.com")
    channel = channel_of(mail_site)
    channel.deliver([notice(mail_site, ana.invite, 0)])
    (message,) = sent(mail_site, smtp)
    url = message["List-Unsubscribe"][1:-1]
    stranger = TestClient(mail_site.app)
    page = stranger.get(url)
    assert page.status_code == 200 and "DEJAR DE RECIBIR" in page.text
    assert "Ana y Beto" in page.text
    assert seat_row(mail_site, ana.invite, 0)["email"] == "ana@example.com"
    # a tampered link changes nothing
    tampered = url[:-3] + ("AAA" if not url.endswith("AAA") else "BBB")
    for method in (stranger.get, stranger.post):
        bad = method(tampered)
        assert bad.status_code == 404 and "no es válido" in bad.text
    assert stranger.post("/correo/baja/nada").status_code == 404
    assert seat_row(mail_site, ana.invite, 0)["email"] == "ana@example.com"
    # the mail program's one-click POST (RFC 8058): no cookie, a form body
    r = stranger.post(
        url,
        content=b"List-Unsubscribe=One-Click",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 200 and "no mandaremos más avisos" in r.text
    assert seat_row(mail_site, ana.invite, 0)["email"] is None
    channel.deliver([notice(mail_site, ana.invite, 0)])
    assert sent(mail_site, smtp) == []
    assert save(mail_site, ana, "ana@example.com")["confirmed"] is False  # again: confirm again


def test_the_digests_link_stops_every_table_of_the_address(
    mail_site: TestClient, smtp: Mailbox, clock: ManualClock
) -> None:
    one, _ = started(mail_site)
    two, _ = started(mail_site)
    confirmed(mail_site, smtp, one, "dia@example.com", mode="daily")
    confirmed(mail_site, smtp, two, "dia@example.com", mode="daily")
    clock.advance(hours=20)
    assert channel_of(mail_site).send_digests() == 1
    (digest,) = sent(mail_site, smtp)
    url = digest["List-Unsubscribe"][1:-1]
    stranger = TestClient(mail_site.app)
    assert "los correos de Escoba del 15" in stranger.get(url).text
    assert stranger.post(url).status_code == 200
    assert seat_row(mail_site, one.invite, one.position or 0)["email"] is None
    assert seat_row(mail_site, two.invite, two.position or 0)["email"] is None


def test_the_api_saves_reads_and_removes_a_seats_address(
    mail_site: TestClient, smtp: Mailbox
) -> None:
    ana = create(mail_site, "Ana")
    assert ana.get("/email") == {"email": None, "mode": "now", "confirmed": False}
    saved = save(mail_site, ana, "Ana@Ejemplo.COM", mode="daily", lang="pt_BR")
    assert saved == {"email": "Ana@ejemplo.com", "mode": "daily", "confirmed": False}
    (message,) = sent(mail_site, smtp)
    assert message["Content-Language"] == "pt-BR"
    confirm(mail_site, message)
    assert ana.get("/email")["confirmed"] is True
    r = mail_site.delete(f"/api/tables/{ana.invite}/email", headers=ana.headers)
    assert r.status_code == 200 and r.json() == {"email": None, "mode": "now", "confirmed": False}
    # not seated, no table
    r = mail_site.put(f"/api/tables/{ana.invite}/email", json={"email": "x@example.com"})
    assert r.status_code == 403 and r.json()["error"] == "not_seated"
    r = mail_site.put(
        "/api/tables/AAAAAAAAAAAAAAAA/email", json={"email": "x@example.com"}, headers=ana.headers
    )
    assert r.status_code == 404 and r.json()["error"] == "no_table"


@pytest.mark.parametrize(
    ("address", "code"),
    [
        ("", "empty_email"),
        ("   ", "empty_email"),
        ("a" * 250 + "@example.com", "email_too_long"),
        ("ana.example.com", "bad_email"),
        ("ana@@example.com", "bad_email"),
        ("ana@bob@example.com", "bad_email"),
        ("ana@localhost", "bad_email"),
        ("ana maria@example.com", "bad_email"),
        ('"ana"@example.com', "bad_email"),
        ("ana,beto@example.com", "bad_email"),
        ("ana@example.com, beto@example.com", "bad_email"),
        ("ana\r\nBcc: x@example.com@example.com", "bad_email"),
        ("ana\x00@example.com", "bad_email"),
        ("ana@exa mple.com", "bad_email"),
        ("ana@-example.com", "bad_email"),
        ("ana@example..com", "bad_email"),
        ("ana@1.2.3.4", "bad_email"),
        ("<ana@example.com>", "bad_email"),
    ],
)
def test_an_invalid_address_is_refused_and_nothing_is_stored(
    mail_site: TestClient, address: str, code: str
) -> None:
    ana = create(mail_site, "Ana")
    r = mail_site.put(
        f"/api/tables/{ana.invite}/email", json={"email": address}, headers=ana.headers
    )
    assert r.status_code == 422 and r.json()["error"] == code, r.text
    assert ana.get("/email")["email"] is None
    assert outbox_rows(mail_site) == 0


def test_the_page_says_why_an_address_is_refused_in_the_viewers_language(
    mail_site: TestClient,
) -> None:
    invite = page_table(mail_site, "Ana")
    mail_site.cookies.set("lang", "en", domain="testserver.local")
    r = mail_site.post(f"/t/{invite}/email", data={"email": "ana at example", "mode": "now"})
    assert r.status_code == 422
    assert "That e-mail address is not valid" in r.text, r.text
    assert 'value="ana at example"' in r.text  # kept in the field
    assert seat_row(mail_site, invite, 0)["email"] is None
    assert (
        mail_site.post(f"/t/{invite}/email", data={"email": "a@b.co", "mode": "x"}).status_code
        == 422
    )
    assert outbox_rows(mail_site) == 0


def test_an_address_gets_few_confirmations_whoever_asks(
    mail_site: TestClient, smtp: Mailbox
) -> None:
    players = [create(mail_site, f"Ana{i}") for i in range(4)]
    for player in players[:3]:
        save(mail_site, player, "victima@example.com")
    r = mail_site.put(
        f"/api/tables/{players[3].invite}/email",
        json={"email": "victima@example.com"},
        headers=players[3].headers,
    )
    assert r.status_code == 429 and r.json()["error"] == "email_rate"
    assert players[3].get("/email")["email"] is None
    assert len(sent(mail_site, smtp)) == 3
    # another address is not held back
    assert save(mail_site, players[3], "otra@example.com")["email"] == "otra@example.com"


def test_an_smtp_server_that_is_down_never_reaches_the_caller_and_is_tried_again(
    db_url: str, clock: ManualClock
) -> None:
    port = free_port()  # nothing listens there yet
    app = create_app(mail_settings(db_url, port), clock=clock, brain=first_legal)
    with TestClient(app) as client:
        ana = create(client, "Ana")
        assert save(client, ana, "ana@example.com")["confirmed"] is False
        channel = channel_of(client)
        channel.deliver([notice(client, ana.invite, 0)])  # does not raise
        assert channel.outbox.send_due() == 0  # logged, put off
        channel.tick()
        with SmtpServer(port) as box:
            assert channel.outbox.send_due() == 0  # not yet due again
            clock.advance(minutes=1)
            assert channel.outbox.send_due() == 1
            (message,) = box.take()
            assert message["Subject"] == "Escoba del 15: confirma tu correo"


def test_the_apps_mail_thread_sends_on_its_own(
    db_url: str, clock: ManualClock, smtp: Mailbox
) -> None:
    app = create_app(
        mail_settings(db_url, smtp.port, smtp_poll_seconds=30), clock=clock, brain=first_legal
    )
    with TestClient(app) as client:
        ana = create(client, "Ana")
        save(client, ana, "ana@example.com")
        (message,) = smtp.wait(1)
        assert message.recipients == ["ana@example.com"]


def test_without_smtp_settings_nothing_about_email_shows(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    page = site.get(f"/t/{invite}").text
    assert 'id="correo"' not in page and 'name="email"' not in page
    assert site.app.state.ctx.email is None  # type: ignore[attr-defined]
    r = site.post(f"/t/{invite}/email", data={"email": "ana@example.com", "mode": "now"})
    assert r.status_code == 404
    assert site.get("/correo/baja/whatever").status_code == 404
    ana = create(site, "Ana")
    for method in ("GET", "PUT", "DELETE"):
        r = site.request(
            method,
            f"/api/tables/{ana.invite}/email",
            json={"email": "ana@example.com"} if method == "PUT" else None,
            headers=ana.headers,
        )
        assert r.status_code == 404 and r.json()["error"] == "email_unavailable", r.text


def test_settings_want_a_from_address_with_a_host() -> None:
    with pytest.raises(ValueError, match="ESCOBA_SMTP_FROM"):
        Settings(smtp_host="mail.example.com")
    with pytest.raises(ValueError, match="ESCOBA_SMTP_FROM"):
        Settings(smtp_host="mail.example.com", smtp_from="Escoba")
    with pytest.raises(ValueError, match="ESCOBA_SMTP_SECURITY"):
        Settings(smtp_host="mail.example.com", smtp_from=FROM, smtp_security="ssl")
    assert Settings(smtp_host="m.example", smtp_from=FROM).smtp_port_in_force == 587
    assert Settings(smtp_host="m", smtp_from=FROM, smtp_security="tls").smtp_port_in_force == 465
    assert not Settings().email


def test_confirmation_links_expire_and_follow_the_address(
    mail_site: TestClient, smtp: Mailbox, clock: ManualClock
) -> None:
    ana = create(mail_site, "Ana")
    save(mail_site, ana, "vieja@example.com")
    (old,) = sent(mail_site, smtp)
    save(mail_site, ana, "nueva@example.com")
    (new,) = sent(mail_site, smtp)
    old_path = LINK.search(old.text)
    assert old_path is not None
    stranger = TestClient(mail_site.app)
    assert stranger.post(old_path.group(1)).status_code == 404  # the seat's address changed
    assert ana.get("/email")["confirmed"] is False
    clock.advance(days=8)
    new_path = LINK.search(new.text)
    assert new_path is not None
    assert stranger.post(new_path.group(1)).status_code == 404  # expired
    assert ana.get("/email")["confirmed"] is False


def test_the_form_is_on_a_seated_players_page_in_the_lobby_and_the_game_only(
    mail_site: TestClient,
) -> None:
    invite = page_table(mail_site, "Ana")
    version = table_version(mail_site, invite)
    mail_site.post(f"/t/{invite}/robots", data={"version": str(version), "robot": "tito"})
    mail_site.post(f"/t/{invite}/start", data={"version": str(version + 1)})
    page = mail_site.get(f"/t/{invite}").text
    assert 'class="game"' in page and 'id="correo"' in page
    board = mail_site.get(f"/t/{invite}/board").text  # a live refresh leaves the form be
    assert 'id="correo"' not in board
    stranger = TestClient(mail_site.app)
    assert 'id="correo"' not in stranger.get(f"/t/{invite}").text
    r = stranger.post(f"/t/{invite}/email", data={"email": "x@example.com", "mode": "now"})
    assert r.status_code == 403 and 'id="correo"' not in r.text
    assert outbox_rows(mail_site) == 0


def test_names_are_escaped_in_the_html_part_and_plain_in_the_text(
    mail_site: TestClient, smtp: Mailbox
) -> None:
    ana = create(mail_site, "Ana")
    join(mail_site, ana.invite, "<b>Beto</b>")
    confirmed(mail_site, smtp, ana, "ana@example.com")
    players = ("Ana", "<b>Beto</b>")
    channel_of(mail_site).deliver(
        [notice(mail_site, ana.invite, 0, who=players[1], players=players)]
    )
    (message,) = sent(mail_site, smtp)
    assert "<b>Beto</b> jugó" in message.text
    html = message.html
    assert html is not None and "&lt;b&gt;Beto&lt;/b&gt; jugó" in html and "<b>Beto" not in html


def test_an_internationalised_domain_is_kept_as_typed_and_sent_in_ascii(
    mail_site: TestClient, smtp: Mailbox
) -> None:
    ana = create(mail_site, "Ana")
    assert save(mail_site, ana, "ana@MÜNCHEN.de")["email"] == "ana@münchen.de"
    (message,) = sent(mail_site, smtp)
    assert message.recipients == ["ana@xn--mnchen-3ya.de"]
    assert message["To"] == "ana@xn--mnchen-3ya.de"


@pytest.mark.parametrize("security", ["starttls", "tls"])
def test_mail_goes_over_tls_with_a_checked_certificate_and_a_login(
    db_url: str,
    clock: ManualClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    security: str,
) -> None:
    """The server's certificate is checked (one it cannot trust: nothing is
    sent, the row waits), and the login goes over TLS."""
    cert, key = tls_files(tmp_path)
    logins: list[tuple[str, str]] = []

    def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, auth: Any) -> Any:
        logins.append((auth.login.decode(), auth.password.decode()))
        return AuthResult(success=auth.password == b"s3cret")

    context = server_tls(cert, key)
    options: dict[str, Any] = {"authenticator": authenticator}
    if security == "tls":  # (aiosmtpd does not see its own implicit TLS: AUTH offered anyway)
        options |= {"ssl_context": context, "auth_require_tls": False}
    else:
        options |= {"tls_context": context, "require_starttls": True}
    port = free_port()
    settings = mail_settings(
        db_url,
        port,
        smtp_security=security,
        smtp_username="escoba",
        smtp_password="s3cret",
    )
    app = create_app(settings, clock=clock, brain=first_legal)
    with SmtpServer(port, **options) as box, TestClient(app) as client:
        ana = create(client, "Ana")
        save(client, ana, "ana@example.com")
        outbox = channel_of(client).outbox
        assert outbox.send_due() == 0  # a certificate nobody vouches for
        assert box.take() == [] and logins == []
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        clock.advance(minutes=1)
        assert outbox.send_due() == 1
        (message,) = box.take()
        assert message.recipients == ["ana@example.com"]
        assert logins == [("escoba", "s3cret")]


def test_several_processes_send_each_email_and_each_digest_once(
    db_url: str, clock: ManualClock, smtp: Mailbox
) -> None:
    """Two apps on one database (two processes, as far as the outbox and the
    digest can tell), their passes at the same moments: each e-mail and
    each address's digest goes out once."""
    settings = mail_settings(db_url, smtp.port)
    first = create_app(settings, clock=clock, brain=first_legal)
    second = create_app(settings, clock=clock, brain=first_legal)
    with TestClient(first) as one, TestClient(second) as two:
        players = [started(one)[0] for _ in range(3)]
        for i, player in enumerate(players):
            save(one, player, f"p{i}@example.com", mode="daily")

        def both(job: str) -> list[int]:
            results: list[int] = []
            threads = [
                threading.Thread(target=lambda c=c: results.append(getattr(c, job)()))
                for c in (channel_of(one).outbox, channel_of(two).outbox)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            return results

        assert sum(both("send_due")) == 3
        confirmations = smtp.take()
        assert sorted(m.recipients[0] for m in confirmations) == [
            f"p{i}@example.com" for i in range(3)
        ]
        for message in confirmations:
            confirm(one, message)
        clock.advance(hours=20)  # 08:00 the next day
        channels = (channel_of(one), channel_of(two))
        queued: list[int] = []
        threads = [
            threading.Thread(target=lambda c=c: queued.append(c.send_digests())) for c in channels
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sum(queued) == 3
        assert sum(both("send_due")) == 3
        digests = smtp.take()
        assert sorted(m.recipients[0] for m in digests) == [f"p{i}@example.com" for i in range(3)]
        assert all("1 mesa te espera" in m["Subject"] for m in digests)


def test_a_mailbox_the_server_refuses_for_good_is_given_up_and_the_rest_goes(
    mail_site: TestClient, smtp: Mailbox, clock: ManualClock
) -> None:
    nobody, somebody = create(mail_site, "Ana"), create(mail_site, "Eva")
    save(mail_site, nobody, "nadie@example.com")
    save(mail_site, somebody, "eva@example.com")
    assert channel_of(mail_site).outbox.send_due() == 1
    assert [m.recipients for m in smtp.take()] == [["eva@example.com"]]
    clock.advance(days=1)
    assert channel_of(mail_site).outbox.send_due() == 0  # not tried again
    with service_of(mail_site).db.snapshot() as conn:
        attempts = conn.execute(
            text("SELECT attempts FROM email_outbox WHERE address = 'nadie@example.com'")
        ).scalar_one()
    assert attempts == MAX_ATTEMPTS


def test_an_argentine_browser_gets_its_emails_in_voseo(
    mail_site: TestClient, smtp: Mailbox, clock: ManualClock
) -> None:
    """The address saved from a page that asked for es-AR: the e-mails
    speak the voseo («confirmá», «abrí este enlace»), `Content-Language: es-AR`."""
    invite = page_table(mail_site, "Ana")
    argentine = {"Accept-Language": "es-AR,es;q=0.9"}
    r = mail_site.post(
        f"/t/{invite}/email",
        data={"email": "ana@example.com", "mode": "now"},
        headers=argentine,
        follow_redirects=False,
    )
    assert r.status_code == 303
    (message,) = sent(mail_site, smtp)
    assert message["Subject"] == "Escoba del 15: confirmá tu correo"
    assert "seguramente vos" in message.text and "abrí este enlace y confirmá" in message.text
    assert message["Content-Language"] == "es-AR"
    confirm(mail_site, message)
    assert seat_row(mail_site, invite, 0)["email_lang"] == "es_AR"
    warning = notice(mail_site, invite, 0, kind=NoticeKind.WARNING, who=None)
    warning = replace(warning, deadline=clock.now() + timedelta(hours=8))
    clock.advance(minutes=1)
    channel_of(mail_site).deliver([warning])
    (sent_warning,) = sent(mail_site, smtp)
    assert "si no jugás, van a poder TERMINAR POR AUSENCIA" in sent_warning.text
