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
