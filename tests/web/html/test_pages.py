"""The old links with a seat's permanent token in them
(`/t/{invite}/continue/{token}`, which the API once handed out) are retired:
a URL ends in browser histories and proxy logs. Such a link opens nothing;
its page says, in the viewer's language, how a seat moves now (a code of
«Seguir en otro dispositivo», typed right there) and leads to the table."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from escoba.web.base.models import DeviceSeatRow

from ..helpers import create, service_of


def _held_seats(client: TestClient) -> int:
    with service_of(client).db.snapshot() as conn:
        return int(conn.scalar(select(func.count()).select_from(DeviceSeatRow)) or 0)


def test_an_old_link_no_longer_opens_its_seat(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    assert ana.token is not None
    phone = TestClient(app_client.app)
    r = phone.get(f"/t/{ana.invite}/continue/{ana.token}", follow_redirects=False)
    assert r.status_code == 410
    assert "device" not in phone.cookies and "set-cookie" not in r.headers
    assert _held_seats(app_client) == 0  # no device holds the seat
    assert 'name="robot"' not in phone.get(f"/t/{ana.invite}").text  # a spectator's page
    assert ana.token not in r.text
    # what to do instead, and the way to the table
    assert "Ese enlace ya no sirve" in r.text
    assert "«Seguir en otro dispositivo» en el que lo tiene" in r.text
    assert 'action="/seguir"' in r.text and 'name="code"' in r.text
    assert f'href="/t/{ana.invite}"' in r.text
    # the seat itself is untouched: its token still works for the API
    assert ana.table()["you"] == 0


def test_a_made_up_token_gets_the_same_page(app_client: TestClient) -> None:
    """The token is never looked at: a real one and a wrong one read alike."""
    ana = create(app_client, "Ana")
    stranger = TestClient(app_client.app)
    r = stranger.get(f"/t/{ana.invite}/continue/not-the-token", follow_redirects=False)
    assert r.status_code == 410 and "Ese enlace ya no sirve" in r.text
    r = stranger.get("/t/NOSUCHTABLE12345/continue/x", follow_redirects=False)
    assert r.status_code == 410 and "Ese enlace ya no sirve" in r.text
    assert 'href="/t/NOSUCHTABLE12345"' not in r.text  # no table to watch


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "That link no longer works"),
        ("pt_BR", "Esse link não funciona mais"),
    ],
)
def test_the_page_speaks_the_viewer_s_language(
    app_client: TestClient, lang: str, words: str
) -> None:
    ana = create(app_client, "Ana")
    viewer = TestClient(app_client.app, cookies={"lang": lang})
    r = viewer.get(f"/t/{ana.invite}/continue/{ana.token}", follow_redirects=False)
    assert r.status_code == 410 and words in r.text
    assert _held_seats(app_client) == 0
