"""One signed device cookie per browser, whatever the number of tables; the
server knows which seats each device holds; old per-table cookies move over."""

from __future__ import annotations

import html as html_lib
import re

from fastapi.testclient import TestClient
from itsdangerous import URLSafeSerializer
from sqlalchemy import Connection

from escoba.web.base.clock import ManualClock
from escoba.web.devices.devices import Devices
from escoba.web.table.service import TableService

from ..device_helpers import browser, code_of
from ..helpers import create, page_table, table_version


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


def _your_name(html: str, field: str = "name") -> str | None:
    """What a form's «Tu nombre» starts with (None: blank)."""
    found = re.search(rf'<input id="{field}" name="name"[^>]*?value="([^"]*)"', html, re.S)
    assert found is not None, html[:400]
    return html_lib.unescape(found.group(1)) or None


def test_the_device_remembers_the_name_it_last_sat_down_with(site: TestClient) -> None:
    """«Tu nombre» starts with the name this browser last used, on the new
    table's form and on an invitation, and can still be changed; a browser
    that never sat down starts blank."""
    phone = browser(site)
    assert _your_name(phone.get("/").text) is None  # a newcomer
    page_table(phone, "Ana María")
    assert _your_name(phone.get("/").text) == "Ana María"
    assert _your_name(phone.get("/").text) == "Ana María"  # on every new table
    friend = create(site, "Beto")
    invitation = phone.get(f"/t/{friend.invite}").text
    assert _your_name(invitation, "join-name") == "Ana María"
    # sitting down under another name: that one is remembered
    assert phone.post(f"/t/{friend.invite}/join", data={"name": " Anita "}).status_code == 200
    assert _your_name(phone.get("/").text) == "Anita"  # as the table has it
    third = create(site, "Carla")
    assert _your_name(phone.get(f"/t/{third.invite}").text, "join-name") == "Anita"
    # a refused name is shown back as typed, not replaced by the remembered one
    r = phone.post(f"/t/{third.invite}/join", data={"name": "Carla"})
    assert r.status_code == 409
    assert _your_name(r.text, "join-name") == "Carla"
    assert _your_name(browser(site).get("/").text) is None  # another browser's own


def test_a_device_given_seats_by_a_code_takes_their_name(site: TestClient) -> None:
    """A new phone that follows with a code starts its next table with the
    seats' name; a browser that has a name of its own keeps it."""
    phone = browser(site)
    page_table(phone, "Ana")
    code = code_of(phone.post("/my-tables/transfer").text)
    laptop = browser(site)
    assert laptop.post("/seguir", data={"code": code}).status_code == 200
    assert _your_name(laptop.get("/").text) == "Ana"
    zoe = browser(site)
    page_table(zoe, "Zoe")
    code = code_of(phone.post("/my-tables/transfer").text)
    assert zoe.post("/seguir", data={"code": code}).status_code == 200
    assert _your_name(zoe.get("/").text) == "Zoe"


# ---------------------------------------------------------------------------
# The device store alone, without HTTP


class DeviceNewsHeard:
    """The devices' listener (the live hub's part in the app): the devices
    told they hold a new seat, during the transaction and after it."""

    def __init__(self) -> None:
        self.told: list[tuple[str, int]] = []

    def during(self, conn: Connection, device_id: int) -> None:
        self.told.append(("during", device_id))

    def after(self, device_id: int) -> None:
        self.told.append(("after", device_id))


def test_a_device_is_its_cookie_and_holds_the_seats_it_is_given(
    bare_service: TableService, clock: ManualClock
) -> None:
    signer = URLSafeSerializer("test-secret", salt="escoba-seat")
    news = DeviceNewsHeard()
    devices = Devices(bare_service.db, clock, signer, news)
    made = devices.create("Mozilla/5.0 (Android 14; Mobile; rv:130.0) Firefox/130.0")
    assert made.device.label == "Firefox · Android"
    assert devices.identify(made.cookie) == made.device
    assert devices.identify(made.cookie[:-2]) is None and devices.identify(None) is None

    ana = bare_service.lobby.create_table("Ana", 21)
    device_id = made.device.id
    assert devices.held(device_id, ana.invite) is None
    assert devices.hold(device_id, ana.invite, ana.token, sat=True)
    held = devices.held(device_id, ana.invite)
    seat = bare_service.reads.seat_for(ana.invite, held)
    assert seat is not None and seat.name == "Ana"
    identified = devices.identify(made.cookie)
    assert identified is not None and identified.name == "Ana"  # for the next «Tu nombre»
    assert devices.hold(device_id, ana.invite, ana.token)  # again: no news
    assert news.told == [("during", device_id), ("after", device_id)]
    assert not devices.hold(device_id, ana.invite, "x" * 43)  # no such seat

    # an old per-table cookie becomes a seat of the device, and goes
    beto = bare_service.lobby.join(ana.invite, "Beto")
    other = devices.create(None).device
    old = signer.dumps({"i": ana.invite, "t": beto.token})
    gone = devices.adopt_legacy(other.id, {f"seat_{ana.invite}": old, "seat_x": "?", "lang": "es"})
    assert sorted(gone) == sorted([f"seat_{ana.invite}", "seat_x"])
    seat = bare_service.reads.seat_for(ana.invite, devices.held(other.id, ana.invite))
    assert seat is not None and seat.name == "Beto"
