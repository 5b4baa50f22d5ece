"""«Mis mesas» on the home page: a device's tables, grouped and ordered (its
turn first, then waiting for others, lobbies, finished ones of the last 30
days), only its own, in two statements whatever their number, and live."""

from __future__ import annotations

import html
import queue
import random
import re
import threading
import time

import httpx
from fastapi.testclient import TestClient
from itsdangerous import URLSafeSerializer
from sqlalchemy import event, null

from escoba.web.base.clock import ManualClock
from escoba.web.base.models import TableRow
from escoba.web.devices.devices import Devices
from escoba.web.devices.my_tables import Group, MyTables, TableList, Why
from escoba.web.frame.deps import AppContext
from escoba.web.table.service import TableService

from ..alone import on_turn, play_once, playing
from ..device_helpers import browser, give_turn, hold, listed, round_over, started
from ..helpers import Player, create, ctx_of, join, move_seat, service_of


def _device_id(client: TestClient) -> int:
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    device = ctx.devices.identify(client.cookies.get("device"))
    assert device is not None
    return int(device.id)


def _cold_list(ctx: AppContext, device_id: int) -> tuple[TableList, list[str]]:
    """A device's Mis mesas read with the state cache emptied, and the SELECT
    statements that took."""
    service = ctx.service
    service.store._states = type(service.store._states)(16)  # a cold cache
    statements: list[str] = []

    def count(*args: object) -> None:
        if str(args[2]).lstrip().upper().startswith("SELECT"):
            statements.append(str(args[2]))

    event.listen(service.db.read_engine, "before_cursor_execute", count)
    try:
        return ctx.my_tables.of(device_id), statements
    finally:
        event.remove(service.db.read_engine, "before_cursor_execute", count)


def test_the_list_orders_a_device_s_tables_by_group_and_time(
    site: TestClient, clock: ManualClock
) -> None:
    rng = random.Random(11)
    me = browser(site)
    service = service_of(site)

    # long finished, and a lobby nobody played in: both out of the list
    old_ana, _ = started(site)
    hold(me, old_ana)
    old_ana.command("/abandon")
    stale = create(site, "Ana")
    hold(me, stale)
    clock.advance(days=31)
    assert service.jobs.expire() == 1  # the idle lobby expired

    # its turn began 49 h ago, another's: TERMINAR POR AUSENCIA is open to me
    absent_me, absent_other = started(site)
    hold(me, absent_me)
    give_turn(absent_other, absent_me)
    clock.advance(hours=49)
    finished_me, _ = started(site)
    hold(me, finished_me)
    finished_me.command("/abandon")
    clock.advance(minutes=1)
    waiting_me, waiting_other = started(site)
    hold(me, waiting_me)
    give_turn(waiting_other, waiting_me)
    clock.advance(minutes=1)
    turn_me, turn_other = started(site)
    hold(me, turn_me)
    give_turn(turn_me, turn_other)
    clock.advance(minutes=1)
    later_me, later_other = started(site)
    hold(me, later_me)
    give_turn(later_me, later_other)
    clock.advance(minutes=1)
    round_me, round_other = started(site)
    hold(me, round_me)
    round_over([round_me, round_other], rng)
    clock.advance(minutes=1)
    lobby_old = create(site, "Ana")
    hold(me, lobby_old)
    clock.advance(minutes=1)
    lobby_new = create(site, "Ana")
    hold(me, lobby_new)
    clock.advance(minutes=1)

    assert listed(me) == [
        ("your_turn", absent_me.invite),  # the oldest turn first
        ("your_turn", turn_me.invite),
        ("your_turn", later_me.invite),
        ("your_turn", round_me.invite),
        ("waiting", waiting_me.invite),
        ("lobby", lobby_new.invite),  # the newest first
        ("lobby", lobby_old.invite),
        ("finished", finished_me.invite),
    ]
    # a table page's «Siguiente mesa» reads «waiting for me» as the list does,
    # in its order (its own leaner reading: web/devices/my_tables.py, `elsewhere`)
    device_id = _device_id(me)
    waiting = tuple(invite for group, invite in listed(me) if group == "your_turn")
    my_tables = ctx_of(site).my_tables
    assert my_tables.elsewhere(device_id, "").invites == waiting
    assert my_tables.elsewhere(device_id, turn_me.invite).invites == tuple(
        i for i in waiting if i != turn_me.invite
    )
    listening = my_tables.elsewhere(device_id, turn_me.invite, listening=True)
    assert len(listening.table_ids) == len(listed(me)) - 1  # all the others, to hear them
    page = me.get("/").text
    assert "puedes TERMINAR POR AUSENCIA" in page
    assert "SIGUIENTE RONDA" in page
    # whose turn, and since when
    assert re.search(r'Turno de <bdi class="who">Beto</bdi> · <time [^>]*>hace 6 min<', page)
    assert page.index('id="my-tables"') < page.index('action="/tables"')  # the form stays


def test_each_line_says_who_plays_the_score_and_whose_turn(
    site: TestClient, clock: ManualClock
) -> None:
    me = browser(site)
    ana = create(site, "Ana")
    join(site, ana.invite, "Beto")
    ana.command("/robots", robot="tito")
    ana.command("/start")
    hold(me, ana)
    clock.advance(hours=5)
    table = ana.table()
    line = me.get("/my-tables").text
    assert "Ana" in line and "Beto" in line
    assert re.search(r'Tito</bdi> <span class="tag tag-robot">', line)  # robots marked
    # with their level, as the lobby and the board say it
    level = re.search(r'Tito</bdi> <span class="tag tag-robot">robot</span> ([^\n]*?</span>)', line)
    assert level is not None
    assert re.fullmatch(
        r'<span class="tag tag-level" title="Aprende a jugar[^"]+">aprende</span>', level[1]
    )
    assert line.count("tag-level") == 1  # people have none
    assert line.count('<span class="my-side">') == 3 and "A 21" in line
    # the chip's words apart from the news after it (it read «A 21¡Tu turno!»)
    news = re.search(r'<span class="my-news">(.*?)</span>\s*</a>', line, re.S)
    assert news is not None
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", "", news.group(1))).split())
    assert re.match(r"A 21 (¡Tu turno!|Turno de) ", words), words
    on_turn = table["names"][table["view"]["turn"]]
    assert on_turn in line and "hace 5 h" in line
    if on_turn == "Ana":
        assert "¡Tu turno!" in line
    else:
        assert f'Turno de <bdi class="who">{on_turn}</bdi>' in line


def _row(page: str, invite: str) -> str:
    found = re.search(rf'<li class="my-table[^"]*" data-invite="{invite}">.*?</li>', page, re.S)
    assert found is not None, invite
    return found[0]


def test_a_line_says_which_rules_its_table_plays(site: TestClient) -> None:
    """A table of house rules says so as the game bar does («A 21 · casa»),
    the rules in words describing the line's link; the site's say «A 21».
    The rules come with the list's one statement of tables and seats."""
    me = browser(site)
    site_rules, _ = started(site)
    hold(me, site_rules)

    def made(rules: dict[str, object]) -> Player:
        r = site.post("/api/tables", json={"name": "Ana", "rules": rules})
        assert r.status_code == 201, r.text
        data = r.json()
        player = Player(site, data["invite"], data["token"], data["position"])
        hold(me, player)
        return player

    house = made({"setenta": True, "ties": "each"})
    house.command("/robots", robot="luna")  # a lobby with a robot: its level shown too
    same = made({"ties": "each", "setenta": True})  # the same rules as `house`
    target_only = made({"target": 15})
    join(site, target_only.invite, "Beto")
    target_only.command("/start")

    line = me.get("/my-tables").text  # what the live list fetches
    assert len(re.findall(r'<li class="my-table', line)) == 4
    assert line.count('class="my-rules"') == 2  # one for each distinct house rules
    assert _row(line, same.invite).count('aria-describedby="my-rules-21-setenta-ties_each"') == 1
    site_row = _row(line, site_rules.invite)
    assert '<span class="chip">A 21</span>' in site_row
    assert "casa" not in site_row and "aria-describedby" not in site_row
    words = {
        house.invite: (
            "A 21 · casa",
            "Reglas de la casa, a 21 puntos: la setenta, empates: punto para cada uno.",
        ),
        target_only.invite: ("A 15 · casa", "Reglas de la casa: a 15 puntos."),
    }
    for invite, (chip, rules) in words.items():
        row = _row(line, invite)
        assert f'<span class="chip chip-house" title="{rules}">{chip}</span>' in html.unescape(row)
        described = re.search(r'<a class="my-table-link"[^>]* aria-describedby="([^"]+)"', row)
        assert described is not None
        hidden = re.findall(
            rf'<span class="my-rules" id="{described[1]}" hidden>([^<]*)</span>', line
        )
        assert [html.unescape(h) for h in hidden] == [rules]  # once in the list
    luna = re.search(
        r'Luna</bdi> <span class="tag tag-robot">robot</span> '
        r'<span class="tag tag-level"[^>]*>fuerte</span>',
        _row(line, house.invite),
    )
    assert luna is not None
    # the home page's list is the same, in the viewer's language
    assert _row(me.get("/").text, house.invite) == _row(line, house.invite)
    me.cookies.set("lang", "en")
    english = me.get("/my-tables").text
    assert "To 21 · house" in english and "House rules, to 21 points: the setenta" in english
    assert "To 15 · house" in english and ">To 21</span>" in english
    me.cookies.set("lang", "pt_BR")
    assert "A 21 · casa" in me.get("/my-tables").text

    # still two statements (the rules ride on the tables' rows), cold or warm
    ctx = ctx_of(site)
    device_id = _device_id(me)
    warm = ctx.my_tables.of(device_id)
    cold, statements = _cold_list(ctx, device_id)
    assert len(statements) == 2 and cold == warm
    by_invite = {t.invite: t.rules for t in cold.tables}
    assert by_invite[site_rules.invite].is_site
    assert by_invite[house.invite].setenta and by_invite[house.invite].ties == "each"
    assert by_invite[target_only.invite].target == 15 and not by_invite[target_only.invite].is_site


def test_a_table_made_before_the_house_rules_is_listed_with_the_site_rules(
    site: TestClient,
) -> None:
    me = browser(site)
    ana, _ = started(site)
    hold(me, ana)
    table = TableRow.__table__
    # a JSON null, or no value at all (as migration 0009 leaves an older table)
    for stored in (None, null()):
        with service_of(site).db.write() as conn:
            conn.execute(table.update().values(rules=stored))  # type: ignore[attr-defined]
        row = _row(me.get("/my-tables").text, ana.invite)
        assert '<span class="chip">A 21</span>' in row and "casa" not in row


def test_finished_tables_stay_30_days(site: TestClient, clock: ManualClock) -> None:
    me = browser(site)
    ana, _ = started(site)
    hold(me, ana)
    ana.command("/abandon")
    clock.advance(days=29)
    assert listed(me) == [("finished", ana.invite)]
    clock.advance(days=2)
    assert listed(me) == []
    assert 'action="/tables"' in me.get("/").text  # the newcomer's form, always


def test_the_list_shows_only_this_device_s_seats(site: TestClient) -> None:
    ana_phone, beto_phone = browser(site), browser(site)
    ana, beto = started(site)
    hold(ana_phone, ana)
    hold(beto_phone, beto)
    own = create(site, "Zoe")
    hold(beto_phone, own)
    give_turn(ana, beto)
    assert listed(ana_phone) == [("your_turn", ana.invite)]
    assert listed(beto_phone) == [("waiting", ana.invite), ("lobby", own.invite)]
    stranger = browser(site)
    assert listed(stranger) == []
    assert 'id="my-tables"' not in stranger.get("/").text
    assert stranger.get("/my-tables").status_code == 200


def test_the_whole_list_takes_two_statements_whatever_its_length(
    site: TestClient, clock: ManualClock
) -> None:
    """Two statements for 3 tables or 12: the device's tables with their
    seats, and the few values of the states the cache does not hold read
    inside their JSON; the same list as from the parsed states."""
    me = browser(site)
    ctx = ctx_of(site)
    counts = []
    for more in (3, 9):
        for _ in range(more):
            ana, _ = started(site)
            hold(me, ana)
        lobby = create(site, "Ana")
        hold(me, lobby)
        clock.advance(minutes=1)
        device_id = _device_id(me)
        cached = ctx.my_tables.of(device_id)
        cold, statements = _cold_list(ctx, device_id)
        counts.append(len(statements))
        assert cold == cached
        # the live stream's mark is the page's (else every page would refresh at once)
        mark, ids = ctx.my_tables.mark(device_id)
        assert mark == cold.mark and len(ids) == len(cold.tables)
    assert counts == [2, 2]
    assert len(cold.tables) == 14


def test_a_change_reaches_an_open_home_page(live_server: str) -> None:
    """The home page's stream hears a move at one of its tables, and the
    list it then fetches shows it."""
    with httpx.Client(base_url=live_server, timeout=10) as api:
        ana = api.post("/api/tables", json={"name": "Ana", "target": 21}).json()
        invite = ana["invite"]
        beto = api.post(f"/api/tables/{invite}/seats", json={"name": "Beto"}).json()
        auth = {"Authorization": f"Bearer {ana['token']}"}
        version = api.get(f"/api/tables/{invite}").json()["version"]
        api.post(f"/api/tables/{invite}/start", json={"version": version}, headers=auth)
    with httpx.Client(base_url=live_server, timeout=10) as home:
        move_seat(home, invite, beto["token"])
        page = home.get("/").text
        mark = re.search(r"/my-tables/events\?since=(\d+)", page)
        assert mark is not None
        heard: queue.Queue[str] = queue.Queue()
        stop = threading.Event()

        def listen() -> None:
            try:
                with (
                    httpx.Client(
                        base_url=live_server,
                        cookies=home.cookies,
                        timeout=httpx.Timeout(10, read=None),
                    ) as client,
                    client.stream("GET", f"/my-tables/events?since={mark.group(1)}") as stream,
                ):
                    heard.put("open")
                    for line in stream.iter_lines():
                        if stop.is_set():
                            return
                        if line.startswith("data:"):
                            heard.put(line[5:].strip())
            except httpx.HTTPError as err:
                if not stop.is_set():  # the server ends the stream as the test ends
                    heard.put(f"error: {err}")

        threading.Thread(target=listen, daemon=True).start()
        assert heard.get(timeout=10) == "open"
        # a page that was away (an older mark) is told at once
        with (
            httpx.Client(base_url=live_server, cookies=home.cookies, timeout=10) as client,
            client.stream("GET", "/my-tables/events?since=0") as stream,
        ):
            data = next(line for line in stream.iter_lines() if line.startswith("data:"))
            assert data[5:].strip() == mark.group(1)
        time.sleep(0.2)  # subscribed before the change
        table = httpx.get(f"{live_server}/api/tables/{invite}", headers=auth).json()
        turn, version = table["view"]["turn"], table["version"]
        mover = ana if table["seats"][0]["game_seat"] == turn else beto
        headers = {"Authorization": f"Bearer {mover['token']}"}
        mine = httpx.get(f"{live_server}/api/tables/{invite}", headers=headers).json()
        action = mine["view"]["legal_actions"][0]
        before = home.get("/my-tables").text
        r = httpx.post(
            f"{live_server}/api/tables/{invite}/actions",
            json={"version": version, "action": action},
            headers=headers,
        )
        assert r.status_code == 200, r.text
        news = heard.get(timeout=10)
        assert news.isdigit() and news != mark.group(1)  # the list's mark, never a card
        after = home.get("/my-tables").text
        assert ("¡Tu turno!" in after) != ("¡Tu turno!" in before)  # the turn moved
        stop.set()


def test_a_browser_without_a_list_gets_no_stream(site: TestClient) -> None:
    """204: a page with no list has no stream to keep open."""
    assert browser(site).get("/my-tables/events").status_code == 204


# ---------------------------------------------------------------------------
# «Mis mesas» alone, without HTTP


def test_a_device_s_list_read_alone(bare_service: TableService, clock: ManualClock) -> None:
    devices = Devices(bare_service.db, clock, URLSafeSerializer("x", salt="escoba-seat"))
    my_tables = MyTables(bare_service.db, bare_service.store, clock, bare_service.settings)
    device_id = devices.create(None).device.id
    assert my_tables.of(device_id) == TableList((), 0) and my_tables.mark(device_id) == (0, ())

    lobby = bare_service.lobby.create_table("Ana", 21)
    devices.hold(device_id, lobby.invite, lobby.token)
    clock.advance(minutes=1)
    ana, beto = playing(bare_service)
    devices.hold(device_id, ana.invite, ana.token)
    if on_turn(bare_service, ana, beto) is beto:
        play_once(bare_service, beto)
    mine = my_tables.of(device_id)
    assert [(t.group, t.invite) for t in mine.tables] == [
        (Group.YOUR_TURN, ana.invite),
        (Group.LOBBY, lobby.invite),
    ]
    assert mine.tables[0].why is Why.PLAY
    mark, ids = my_tables.mark(device_id)
    assert mark == mine.mark and sorted(ids) == sorted(t.table_id for t in mine.tables)
    # a table page's way on: the others that wait for this device
    assert my_tables.elsewhere(device_id, lobby.invite).invites == (ana.invite,)
    assert my_tables.elsewhere(device_id, ana.invite).next is None

    play_once(bare_service, ana)  # now Beto's turn: the list changes, and its mark
    after = my_tables.of(device_id)
    assert after.tables[0].group is Group.WAITING and after.mark != mine.mark
    assert my_tables.mark(device_id)[0] == after.mark
