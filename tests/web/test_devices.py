"""One signed device cookie per browser, whatever the number of tables; the
server knows which seats each device holds; old per-table cookies move over."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .helpers import create, page_table, table_version


def _cookie_names(client: TestClient) -> list[str]:
    return sorted(cookie.name for cookie in client.cookies.jar)


def test_a_browser_holds_one_cookie_whatever_the_number_of_tables(site: TestClient) -> None:
    invites = [page_table(site, f"Ana{i}") for i in range(60)]
    assert _cookie_names(site) == ["device"]
    assert len(site.cookies.get("device") or "") < 100
    # and it still holds each of those seats
    for invite in (invites[0], invites[29], invites[-1]):
        page = site.get(f"/t/{invite}").text
        assert 'name="robot"' in page  # the creator's lobby: add a robot


def test_a_joined_seat_belongs_to_the_browser_that_joined(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    friend = TestClient(site.app)
    assert friend.post(f"/t/{invite}/join", data={"name": "Beto"}).status_code == 200
    page = friend.get(f"/t/{invite}").text
    assert "Beto" in page and 'class="chat-form' in page
    stranger = TestClient(site.app)
    assert 'class="chat-form' not in stranger.get(f"/t/{invite}").text


def test_a_forgotten_device_holds_nothing(site: TestClient) -> None:
    """A cookie whose device the server no longer knows (revoked) opens no seat."""
    from sqlalchemy import text

    invite = page_table(site, "Ana")
    version = table_version(site, invite)
    ctx = site.app.state.ctx  # type: ignore[attr-defined]
    with ctx.service.db.write() as conn:
        conn.execute(text("DELETE FROM devices"))
    r = site.post(
        f"/t/{invite}/robots",
        data={"version": str(version), "robot": "tito"},
        follow_redirects=False,
    )
    assert r.status_code == 403
    assert table_version(site, invite) == version


def test_old_seat_cookies_become_the_devices_seats_and_are_deleted(site: TestClient) -> None:
    """A browser from before devices carries `seat_<invite>` cookies: its next
    visit keeps its seats, on one device cookie, and deletes the old ones."""
    ctx = site.app.state.ctx  # type: ignore[attr-defined]
    ana = create(site, "Ana")
    zoe = create(site, "Zoe")
    site.cookies.clear()
    old = TestClient(site.app)
    for player in (ana, zoe):
        old.cookies.set(
            f"seat_{player.invite}",
            ctx.signer.dumps({"i": player.invite, "t": player.token}),
            domain="testserver.local",
        )
    old.cookies.set("seat_AAAAAAAAAAAAAAAA", "forged", domain="testserver.local")
    r = old.get(f"/t/{ana.invite}")
    assert r.status_code == 200 and 'name="robot"' in r.text  # seated at once
    deleted = [h for h in r.headers.get_list("set-cookie") if h.startswith("seat_")]
    assert len(deleted) == 3 and all("Max-Age=0" in h for h in deleted)
    assert _cookie_names(old) == ["device"]
    assert 'name="robot"' in old.get(f"/t/{zoe.invite}").text
