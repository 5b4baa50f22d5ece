"""A seat sees the devices that hold it and takes it back from one; a device
forgets a table (from the table page, or a finished one from Mis mesas)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from itsdangerous import URLSafeSerializer
from sqlalchemy import func, insert, select

from escoba.web.base.clock import ManualClock
from escoba.web.base.errors import Forbidden, NotFound
from escoba.web.base.models import DeviceSeatRow, PushSubscriptionRow, SeatPushRow
from escoba.web.devices.devices import Devices
from escoba.web.devices.seat_devices import SeatDevices
from escoba.web.table.service import TableService

from ..device_helpers import browser, code_of, hold, listed, seated, started
from ..helpers import page_table, service_of

ANDROID_FIREFOX = "Mozilla/5.0 (Android 14; Mobile; rv:130.0) Gecko/130.0 Firefox/130.0"
MAC_SAFARI = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Safari/605.1.15"
)
HTMX = {"HX-Request": "true"}
DEVICE = re.compile(
    r'<li class="device( is-this)?">\s*<span class="device-label"><bdi>([^<]+)</bdi>'
)
REVOKE = re.compile(r'name="device" value="(\d+)"')


def _two_devices(site: TestClient, clock: ManualClock) -> tuple[TestClient, TestClient, str]:
    """A seat held by a phone, then also by a laptop (a transfer)."""
    phone = browser(site, ANDROID_FIREFOX)
    invite = page_table(phone, "Ana")
    clock.advance(hours=3)
    code = code_of(phone.post(f"/t/{invite}/transfer").text)
    laptop = browser(site, MAC_SAFARI)
    assert laptop.post("/seguir", data={"code": code}).status_code == 200
    return phone, laptop, invite


def _devices(client: TestClient, invite: str) -> list[tuple[str, bool]]:
    r = client.get(f"/t/{invite}/devices", headers=HTMX)
    assert r.status_code == 200, r.text
    return [(m.group(2), bool(m.group(1))) for m in DEVICE.finditer(r.text)]


def _ids(client: TestClient, invite: str) -> list[int]:
    return [int(i) for i in REVOKE.findall(client.get(f"/t/{invite}/devices").text)]


def test_a_seat_lists_its_devices(site: TestClient, clock: ManualClock) -> None:
    phone, laptop, invite = _two_devices(site, clock)
    assert _devices(phone, invite) == [("Firefox · Android", True), ("Safari · Mac", False)]
    assert _devices(laptop, invite) == [("Firefox · Android", False), ("Safari · Mac", True)]
    page = phone.get(f"/t/{invite}/devices").text  # a page of its own without script
    assert "hace 3 h" in page and "este dispositivo" in page
    assert 'id="seat-devices"' in phone.get(f"/t/{invite}").text  # on the table page
    spectator = browser(site)
    assert 'id="seat-devices"' not in spectator.get(f"/t/{invite}").text
    r = spectator.get(f"/t/{invite}/devices")
    assert r.status_code == 403 and "No estás sentado" in r.text


def test_a_seat_takes_itself_back_from_another_device(site: TestClient, clock: ManualClock) -> None:
    phone, laptop, invite = _two_devices(site, clock)
    mine, other = _ids(phone, invite)
    r = phone.post(f"/t/{invite}/devices/revoke", data={"device": other}, headers=HTMX)
    assert r.status_code == 200 and _devices(phone, invite) == [("Firefox · Android", True)]
    assert "Safari" not in r.text
    assert not seated(laptop, invite) and listed(laptop) == []
    assert seated(phone, invite)
    # the laptop can no longer act for it, nor see the seat's devices
    assert laptop.get(f"/t/{invite}/devices").status_code == 403
    r = laptop.post(f"/t/{invite}/devices/revoke", data={"device": mine})
    assert r.status_code == 403 and seated(phone, invite)


def test_revoking_a_device_that_does_not_hold_the_seat_changes_nothing(
    site: TestClient, clock: ManualClock
) -> None:
    phone, laptop, invite = _two_devices(site, clock)
    elsewhere = browser(site)
    page_table(elsewhere, "Zoe")
    stranger_id = max(_ids(phone, invite)) + 1  # elsewhere's device: not at this table
    r = phone.post(f"/t/{invite}/devices/revoke", data={"device": stranger_id})
    assert r.status_code == 404 and "ya no tiene este lugar" in r.text
    r = phone.post(f"/t/{invite}/devices/revoke", data={"device": "x"})
    assert r.status_code == 422
    assert seated(laptop, invite) and len(_devices(phone, invite)) == 2
    assert len(listed(elsewhere)) == 1


def test_forgetting_a_table_here_keeps_it_on_the_other_devices(
    site: TestClient, clock: ManualClock
) -> None:
    phone, laptop, invite = _two_devices(site, clock)
    mine = _ids(phone, invite)[0]
    r = phone.post(f"/t/{invite}/devices/revoke", data={"device": mine}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert listed(phone) == [] and not seated(phone, invite)
    assert seated(laptop, invite) and _devices(laptop, invite) == [("Safari · Mac", True)]
    mine = _ids(laptop, invite)[0]
    r = laptop.post(f"/t/{invite}/devices/revoke", data={"device": mine}, headers=HTMX)
    assert r.status_code == 200 and r.headers["hx-redirect"] == "/"
    assert not seated(laptop, invite)


def test_a_finished_table_is_forgotten_from_mis_mesas(site: TestClient) -> None:
    me = browser(site)
    ana, _ = started(site)
    hold(me, ana)
    lobby = page_table(me, "Ana")
    ana.command("/abandon")
    assert [g for g, _ in listed(me)] == ["lobby", "finished"]
    assert me.get("/").text.count('action="/my-tables/forget"') == 1  # finished ones only
    r = me.post("/my-tables/forget", data={"invite": ana.invite}, headers=HTMX)
    assert r.status_code == 200 and ana.invite not in r.text and lobby in r.text
    assert listed(me) == [("lobby", lobby)]
    r = me.post("/my-tables/forget", data={"invite": ana.invite}, follow_redirects=False)
    assert r.status_code == 403  # not this device's any more
    assert ana.table()["status"] == "finished"  # the table itself is untouched


def test_a_revoked_device_hears_no_more_of_the_seat(site: TestClient, clock: ManualClock) -> None:
    """Its push subscriptions stop serving the seat (the other device's stay)."""
    phone, _, invite = _two_devices(site, clock)
    mine, other = _ids(phone, invite)
    service = service_of(site)
    with service.db.write() as conn:
        seat_id = conn.scalar(select(DeviceSeatRow.seat_id).where(DeviceSeatRow.device_id == mine))
        for device_id in (mine, other):
            sub = conn.execute(
                insert(PushSubscriptionRow).values(
                    endpoint=f"https://push.example/{device_id}",
                    p256dh="k",
                    auth="a",
                    device_id=device_id,
                    created_at=clock.now(),
                )
            ).inserted_primary_key
            assert sub is not None
            conn.execute(insert(SeatPushRow).values(seat_id=seat_id, subscription_id=sub[0]))
    phone.post(f"/t/{invite}/devices/revoke", data={"device": other})
    with service.db.snapshot() as conn:
        left = conn.execute(
            select(PushSubscriptionRow.device_id).join(
                SeatPushRow, SeatPushRow.subscription_id == PushSubscriptionRow.id
            )
        ).all()
        subscriptions = conn.scalar(select(func.count()).select_from(PushSubscriptionRow))
    assert [row.device_id for row in left] == [mine]
    assert subscriptions == 2  # the subscription itself may still serve other seats


# ---------------------------------------------------------------------------
# A seat's devices alone, without HTTP


def test_a_seat_s_devices_alone(bare_service: TableService, clock: ManualClock) -> None:
    seat_devices = SeatDevices(bare_service.db)
    devices = Devices(bare_service.db, clock, URLSafeSerializer("x", salt="escoba-seat"))
    ana = bare_service.lobby.create_table("Ana", 21)
    laptop = devices.create("Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0").device
    devices.hold(laptop.id, ana.invite, ana.token)
    clock.advance(minutes=5)
    phone = devices.create("Mozilla/5.0 (Linux; Android 14) Chrome/129.0").device
    devices.hold(phone.id, ana.invite, ana.token)

    listed = seat_devices.of(ana.invite, phone.id)  # the oldest first
    assert [(d.id, d.label, d.is_this) for d in listed] == [
        (laptop.id, "Firefox · Linux", False),
        (phone.id, "Chrome · Android", True),
    ]
    seat_devices.revoke(ana.invite, phone.id, laptop.id)
    assert devices.held(laptop.id, ana.invite) is None
    with pytest.raises(NotFound):
        seat_devices.revoke(ana.invite, phone.id, laptop.id)  # no longer one of them
    with pytest.raises(Forbidden):
        seat_devices.of(ana.invite, laptop.id)

    seat_devices.forget_table(ana.invite, phone.id)
    assert devices.held(phone.id, ana.invite) is None
    with pytest.raises(Forbidden):
        seat_devices.forget_table(ana.invite, phone.id)
    assert bare_service.reads.seat_for(ana.invite, ana.token) is not None  # the seat stays
