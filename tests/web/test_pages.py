"""The link the API hands out with a seat opens that seat in a browser."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .helpers import create


def test_the_apis_continue_link_opens_the_seat_in_a_browser(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    phone = TestClient(app_client.app)
    r = phone.get(f"/t/{ana.invite}/continue/{ana.token}", follow_redirects=False)
    assert r.status_code == 303
    assert 'name="robot"' in phone.get(f"/t/{ana.invite}").text
    # a wrong one opens nothing
    stranger = TestClient(app_client.app)
    r = stranger.get(f"/t/{ana.invite}/continue/not-the-token", follow_redirects=False)
    assert r.status_code == 404
    assert 'name="robot"' not in stranger.get(f"/t/{ana.invite}").text


def test_a_bad_continue_link_says_the_link_is_wrong_not_the_table(
    app_client: TestClient,
) -> None:
    """The table exists: the page must not say it was not found, but that the
    link is not valid, what to do, and lead to the table."""
    ana = create(app_client, "Ana")
    stranger = TestClient(app_client.app)
    r = stranger.get(f"/t/{ana.invite}/continue/not-the-token", follow_redirects=False)
    assert r.status_code == 404
    assert "No encontramos esa mesa" not in r.text
    assert "Ese enlace no sirve" in r.text
    assert "Seguir en otro dispositivo" in r.text  # what to do
    assert f'href="/t/{ana.invite}"' in r.text  # and the way to the table
    english = TestClient(app_client.app, cookies={"lang": "en"})
    r = english.get(f"/t/{ana.invite}/continue/not-the-token", follow_redirects=False)
    assert "That link does not work" in r.text
