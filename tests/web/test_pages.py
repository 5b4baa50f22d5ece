"""The private «continue on another device» link of each seat."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from .helpers import create


def test_a_seat_can_be_continued_on_another_device(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    phone = TestClient(app_client.app)
    r = phone.get(f"/t/{ana.invite}/continue/{ana.token}", follow_redirects=False)
    assert r.status_code == 303
    page = phone.get(f"/t/{ana.invite}").text
    found = re.search(r'id="continue-link"[^>]*value="([^"]+)"', page)
    assert found is not None and found.group(1).endswith(f"/t/{ana.invite}/continue/{ana.token}")
    # the link, opened on a second device, holds the same seat
    laptop = TestClient(app_client.app)
    path = found.group(1).split("testserver", 1)[1]
    assert laptop.get(path, follow_redirects=False).status_code == 303
    assert 'id="continue-link"' in laptop.get(f"/t/{ana.invite}").text
    # a spectator has no such link, and a wrong one opens nothing
    stranger = TestClient(app_client.app)
    assert 'id="continue-link"' not in stranger.get(f"/t/{ana.invite}").text
    r = stranger.get(f"/t/{ana.invite}/continue/not-the-token", follow_redirects=False)
    assert r.status_code == 404
