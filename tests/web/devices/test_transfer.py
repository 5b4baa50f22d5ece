"""«Seguir en otro dispositivo»: a short-lived, single-use code moves one
seat or the whole list to another browser; a code reused, expired, wrong,
redeemed twice at once or guessed is refused clearly and changes nothing."""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from itsdangerous import URLSafeSerializer
from sqlalchemy import func, select

from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.errors import Conflict, Invalid
from escoba.web.base.models import DeviceRow, DeviceSeatRow, TransferCodeRow
from escoba.web.base.settings import Settings
from escoba.web.devices.devices import Devices
from escoba.web.devices.my_tables import arrivals_query
from escoba.web.devices.transfers import ALPHABET, Redeemed, Transfers, parse_code
from escoba.web.table.service import TableService

from ..alone import Heard
from ..conftest import first_legal
from ..device_helpers import (
    browser,
    code_of,
    cookie_names,
    listed,
    seated,
    started,
)
from ..helpers import create, page_table, service_of


def _count(client: TestClient, model: type) -> int:
    service = service_of(client)
    with service.db.snapshot() as conn:
        return int(conn.scalar(select(func.count()).select_from(model)) or 0)


def _seat_code(client: TestClient, invite: str) -> str:
    r = client.post(f"/t/{invite}/transfer")
    assert r.status_code == 200, r.text
    return code_of(r.text)


def test_a_seat_moves_to_another_browser_with_a_code(site: TestClient) -> None:
    phone = browser(site)
    invite = page_table(phone, "Ana")
    code = _seat_code(phone, invite)
    assert parse_code(code) is not None and len(code) == 11 and code[5] == "-"
    assert all(c in ALPHABET for c in code.replace("-", ""))
    page = phone.post(f"/t/{invite}/transfer").text
    assert f"/seguir/{code_of(page)}" in page  # the link, with the code shown
    laptop = browser(site)
    assert not seated(laptop, invite)
    r = laptop.get(f"/seguir/{code}")  # the link asks first: a GET changes nothing
    assert r.status_code == 200 and f'value="{code}"' in r.text
    assert cookie_names(laptop) == [] and not seated(laptop, invite)
    r = laptop.post(
        "/seguir", data={"code": code.lower().replace("-", " ")}, follow_redirects=False
    )
    assert r.status_code == 303 and r.headers["location"] == f"/t/{invite}?llegada=1"
    assert cookie_names(laptop) == ["device"]
    assert seated(laptop, invite) and seated(phone, invite)  # both hold it now
    assert listed(laptop) == [("lobby", invite)]
    # the table it lands on says what happened (and only to who holds its seat)
    came = "Ya tienes esta mesa en este dispositivo"
    assert came in laptop.get(r.headers["location"]).text
    assert came not in laptop.get(f"/t/{invite}").text
    assert came not in browser(site).get(r.headers["location"]).text


def test_the_whole_list_moves_with_one_code(site: TestClient) -> None:
    phone = browser(site)
    invites = [page_table(phone, f"Ana{i}") for i in range(3)]
    r = phone.post("/my-tables/transfer")
    assert r.status_code == 200 and "tus 3 mesas" in r.text
    code = code_of(r.text)
    laptop = browser(site)
    own = page_table(laptop, "Zoe")  # a browser that already has tables keeps them
    r = laptop.post("/seguir", data={"code": code}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/?llegadas=")
    assert sorted(invite for _, invite in listed(laptop)) == sorted([*invites, own])
    # Mis mesas says what came, and marks those lines (not the browser's own)
    home = laptop.get(r.headers["location"]).text
    assert "Ya tienes tus 3 mesas en este dispositivo." in home
    marked = re.findall(r'<li class="my-table is-\w+ is-arrived" data-invite="([^"]+)"', home)
    assert sorted(marked) == sorted(invites)
    assert home.count("recién llegada") == 3
    live = re.search(r'hx-get="(/my-tables\?llegadas=[^"]+)"', home)
    assert live is not None  # the live list keeps the marks
    assert laptop.get(html.unescape(live.group(1))).text.count("recién llegada") == 3
    assert "Ya tienes" not in laptop.get("/").text  # said once, on arriving
    assert sorted(invite for _, invite in listed(phone)) == sorted(invites)
    assert cookie_names(laptop) == ["device"]
    assert browser(site).post("/my-tables/transfer").status_code == 409  # nothing to move


def test_a_list_of_one_table_says_which_and_a_made_up_address_nothing(
    site: TestClient,
) -> None:
    """One table moved with the list's code: its players name it. An address
    that names tables this browser does not hold says nothing of them; a
    list too long to name is counted."""
    phone = browser(site)
    invite = page_table(phone, "Ana")
    code = code_of(phone.post("/my-tables/transfer").text)
    laptop = browser(site)
    r = laptop.post("/seguir", data={"code": code})  # followed: the page it lands on
    assert r.status_code == 200
    assert re.search(
        r'Ya tienes en este dispositivo la mesa de <bdi class="who">Ana</bdi>\.', r.text
    ), r.text
    other = page_table(browser(site), "Zoe")
    for made_up in (other, "x" * 5000, ",,,", "0"):
        page = laptop.get(f"/?llegadas={made_up}").text
        assert "Ya tienes" not in page and "recién llegada" not in page
    counted = laptop.get(f"/?llegadas={invite}").text
    assert "Ya tienes en este dispositivo la mesa de" in counted
    # past the names an address holds, their number (never more than are here)
    assert "Ya tienes tu mesa en este dispositivo." in laptop.get("/?llegadas=70").text
    assert arrivals_query([f"t{i}" for i in range(61)]) == "61"


def test_a_code_works_once(site: TestClient) -> None:
    phone = browser(site)
    invite = page_table(phone, "Ana")
    code = _seat_code(phone, invite)
    assert browser(site).post("/seguir", data={"code": code}).status_code == 200
    devices = _count(site, DeviceRow)
    late = browser(site)
    r = late.post("/seguir", data={"code": code}, follow_redirects=False)
    assert r.status_code == 409 and "ya se usó" in r.text
    assert cookie_names(late) == [] and _count(site, DeviceRow) == devices  # nothing made
    assert not seated(late, invite)


def test_an_expired_code_is_refused(site: TestClient, clock: ManualClock) -> None:
    phone = browser(site)
    invite = page_table(phone, "Ana")
    code = _seat_code(phone, invite)
    clock.advance(minutes=10, seconds=1)
    late = browser(site)
    r = late.post("/seguir", data={"code": code}, follow_redirects=False)
    assert r.status_code == 409 and "venció" in r.text
    assert not seated(late, invite) and cookie_names(late) == []


@pytest.mark.parametrize(
    ("typed", "status", "words"),
    [
        ("23456-789AB", 404, "no existe"),  # well formed, never made
        ("O0I1L-23456", 422, "no es válido"),  # look-alikes are not in the alphabet
        ("ABC", 422, "no es válido"),
        ("", 422, "no es válido"),
    ],
)
def test_a_wrong_code_is_refused_in_words(
    site: TestClient, typed: str, status: int, words: str
) -> None:
    phone = browser(site)
    invite = page_table(phone, "Ana")
    _seat_code(phone, invite)
    stranger = browser(site)
    r = stranger.post("/seguir", data={"code": typed}, follow_redirects=False)
    assert r.status_code == status and words in r.text
    assert 'role="alert"' in r.text and 'name="code"' in r.text  # the form, to try again
    assert cookie_names(stranger) == []
    stranger.cookies.set("lang", "en")
    assert "no such code" in stranger.post("/seguir", data={"code": "23456-789AB"}).text


def test_two_redemptions_at_once_only_one_wins(site: TestClient) -> None:
    phone = browser(site)
    invite = page_table(phone, "Ana")
    for _ in range(3):
        code = _seat_code(phone, invite)
        thieves = [browser(site) for _ in range(2)]
        statuses: list[int] = []
        barrier = threading.Barrier(len(thieves))

        def redeem(
            client: TestClient,
            code: str = code,
            barrier: threading.Barrier = barrier,
            statuses: list[int] = statuses,
        ) -> None:
            barrier.wait()
            r = client.post("/seguir", data={"code": code}, follow_redirects=False)
            statuses.append(r.status_code)

        threads = [threading.Thread(target=redeem, args=(t,)) for t in thieves]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(statuses) == [303, 409]
        assert sum(seated(t, invite) for t in thieves) == 1


@pytest.fixture
def guarded(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    """The app with its rate limits on: 3 codes tried per IP per window (a
    window longer than the test)."""
    limited = settings.model_copy(
        update={"rate_limits": True, "rate_transfer_per_ip": 3, "rate_window_seconds": 10**9}
    )
    app = create_app(limited, clock=clock, brain=first_legal)
    with TestClient(app) as client:
        yield client


def test_guessing_codes_is_rate_limited_per_ip(guarded: TestClient) -> None:
    phone = browser(guarded)
    invite = page_table(phone, "Ana")
    code = _seat_code(phone, invite)
    guesser = browser(guarded)
    for guess in ("23456-789AB", "23456-789AC", "23456-789AD"):
        assert guesser.post("/seguir", data={"code": guess}).status_code == 404
    r = guesser.post("/seguir", data={"code": code}, follow_redirects=False)
    assert r.status_code == 429 and "Demasiados códigos" in r.text
    assert int(r.headers["retry-after"]) > 0
    assert cookie_names(guesser) == [] and not seated(guesser, invite)
    with service_of(guarded).db.snapshot() as conn:  # the code is still good
        used = conn.scalar(select(TransferCodeRow.used_at))
    assert used is None
    assert guesser.get(f"/seguir/{code}").status_code == 200  # reading the form is free


def test_a_browser_holds_one_cookie_through_transfers(site: TestClient) -> None:
    phone = browser(site)
    laptop = browser(site)
    for i in range(4):
        invite = page_table(phone, f"Ana{i}")
        assert laptop.post("/seguir", data={"code": _seat_code(phone, invite)}).status_code == 200
        assert cookie_names(laptop) == ["device"] and cookie_names(phone) == ["device"]
    code = code_of(phone.post("/my-tables/transfer").text)
    assert laptop.post("/seguir", data={"code": code}).status_code == 200
    assert cookie_names(laptop) == ["device"]
    assert len(listed(laptop)) == 4
    with service_of(site).db.snapshot() as conn:
        holders = conn.scalar(select(func.count(func.distinct(DeviceSeatRow.device_id))))
    assert holders == 2


def test_the_api_hands_out_transfer_links_not_tokens(site: TestClient) -> None:
    r = site.post("/api/tables", json={"name": "Ana", "target": 21})
    seat = r.json()
    invite, token = seat["invite"], seat["token"]
    assert "/seguir/" in seat["continue_url"] and token not in seat["continue_url"]
    laptop = browser(site)
    path = seat["continue_url"].removeprefix("http://testserver")
    assert laptop.get(path).status_code == 200 and not seated(laptop, invite)
    code = path.rsplit("/", 1)[1]
    assert laptop.post("/seguir", data={"code": code}).status_code == 200
    assert seated(laptop, invite)
    auth = {"Authorization": f"Bearer {token}"}
    r = site.post(f"/api/tables/{invite}/transfer", headers=auth)
    assert r.status_code == 201
    fresh = r.json()
    assert fresh["url"].endswith(f"/seguir/{fresh['code']}") and fresh["expires_at"].endswith("Z")
    desk = browser(site)
    assert desk.post("/seguir", data={"code": fresh["code"]}).status_code == 200
    assert seated(desk, invite)
    assert site.post(f"/api/tables/{invite}/transfer").status_code == 403  # no seat named
    r = site.post(f"/api/tables/{invite}/transfer", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 403 and r.json()["error"] == "not_seated"
    assert site.post("/api/tables/AAAAAAAAAAAAAAAA/transfer", headers=auth).status_code == 404
    # the old permanent links are retired (tests/web/html/test_pages.py): they open nothing
    old = browser(site)
    assert old.get(f"/t/{invite}/continue/{token}", follow_redirects=False).status_code == 410
    assert not seated(old, invite)
    assert token not in site.get(f"/t/{invite}").text


def test_only_a_seated_browser_makes_a_seat_code(site: TestClient) -> None:
    ana, _ = started(site)
    stranger = browser(site)
    r = stranger.post(f"/t/{ana.invite}/transfer")
    assert r.status_code == 403 and "No estás sentado" in r.text
    assert _count(site, TransferCodeRow) == 2  # only the API's two continue links
    creator = create(site, "Zoe")
    assert stranger.post(f"/t/{creator.invite}/transfer").status_code == 403


# ---------------------------------------------------------------------------
# The codes alone, without HTTP


def test_a_code_made_and_redeemed_alone(bare_service: TableService, clock: ManualClock) -> None:
    transfers = Transfers(bare_service.path)
    devices = Devices(bare_service.db, clock, URLSafeSerializer("x", salt="escoba-seat"))
    ana = bare_service.lobby.create_table("Ana", 21)
    phone = devices.create(None).device
    code = transfers.seat_code(ana.invite, ana.token)
    minutes = bare_service.settings.transfer_code_minutes
    assert code.seats == 1 and code.expires_at == clock.now() + timedelta(minutes=minutes)

    done = transfers.redeem(code.code.lower().replace("-", " "), phone.id, None)
    assert done == Redeemed(phone.id, None, (ana.invite,), whole_list=False)
    assert devices.held(phone.id, ana.invite) is not None
    with pytest.raises(Conflict) as used:
        transfers.redeem(code.code, phone.id, None)
    assert used.value.code == "transfer_used"
    with pytest.raises(Invalid):
        transfers.redeem("not a code", phone.id, None)

    # the whole list, to a browser with no device yet: one is made for it
    whole = transfers.list_code(phone.id)
    given = transfers.redeem(whole.code, None, "Mozilla/5.0 (iPhone) Safari/605.1")
    assert given.whole_list and given.invites == (ana.invite,) and given.new_secret is not None
    laptop = devices.identify(devices.cookie(given.new_secret))
    assert laptop is not None and laptop.id == given.device_id and laptop.name == "Ana"

    late = transfers.seat_code(ana.invite, ana.token)
    clock.advance(minutes=minutes, seconds=1)
    with pytest.raises(Conflict) as expired:
        transfers.redeem(late.code, phone.id, None)
    assert expired.value.code == "transfer_expired"


def test_a_code_trades_for_a_new_token_on_the_command_path(bare_service: TableService) -> None:
    transfers = Transfers(bare_service.path)
    ana = bare_service.lobby.create_table("Ana", 21)
    version = bare_service.reads.version(ana.invite)
    heard = Heard()
    bare_service.after_commit.add(heard)

    joined = transfers.token_for_code(transfers.seat_code(ana.invite, ana.token).code)
    assert (joined.invite, joined.position) == (ana.invite, ana.position)
    assert transfers.token_retired(ana.token) and not transfers.token_retired(joined.token)
    assert bare_service.reads.seat_for(ana.invite, ana.token) is None
    seat = bare_service.reads.seat_for(ana.invite, joined.token)
    assert seat is not None and seat.name == "Ana"
    # one command of the table: a new version, heard by the hook's listeners
    assert bare_service.reads.version(ana.invite) == version + 1
    assert [c.version for c in heard.changes] == [version + 1]
