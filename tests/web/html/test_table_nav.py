"""The way between tables (issue 25, item 2): every table page leads back to
«Mis mesas» and, while another of the browser's tables waits for it, to the
one waiting longest («Siguiente mesa (N)»), as «Mis mesas» orders them; the
board says it after each move at a cost that does not grow with the number
of tables, and the page's one stream tells it when a turn comes elsewhere."""

from __future__ import annotations

import html
import queue
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import event

from escoba.web.base.clock import ManualClock

from ..device_helpers import browser, give_turn, hold, started
from ..helpers import create, move_seat, service_of

NEXT = re.compile(
    r'<a class="btn btn-small next-table ([\w-]+)" id="next-table"\s+href="/t/([^"]+)"'
)


def _next(page: str) -> tuple[str, str, int] | None:
    """The page's «Siguiente mesa (N)»: (its style, the invite it opens, N)."""
    found = NEXT.search(page)
    if found is None:
        return None
    count = re.search(r"Siguiente mesa \((\d+)\)", page[found.end() :])
    assert count is not None
    return found.group(1), found.group(2), int(count.group(1))


def _my_tables_link(page: str) -> bool:
    return '<a class="nav-my-tables" href="/">Mis mesas</a>' in page


def test_a_table_page_leads_to_mis_mesas_and_the_table_waiting_longest(
    site: TestClient, clock: ManualClock
) -> None:
    me = browser(site)
    first, first_other = started(site)  # its turn comes to me first
    hold(me, first)
    give_turn(first, first_other)
    clock.advance(minutes=5)
    second, second_other = started(site)
    hold(me, second)
    give_turn(second, second_other)
    clock.advance(minutes=5)
    waiting, waiting_other = started(site)  # the other is to play
    hold(me, waiting)
    give_turn(waiting_other, waiting)
    lobby = create(site, "Ana")
    hold(me, lobby)

    # every table page: «Mis mesas»; the next table waiting, the oldest turn first
    here = me.get(f"/t/{waiting.invite}").text
    assert _my_tables_link(here)
    assert _next(here) == ("btn-primary", first.invite, 2)  # nothing to do here: bright
    assert _next(me.get(f"/t/{lobby.invite}").text) == ("btn-primary", first.invite, 2)
    # at a table where it is my turn: the others, and quieter
    assert _next(me.get(f"/t/{first.invite}").text) == ("btn-ghost", second.invite, 1)
    assert _next(me.get(f"/t/{second.invite}").text) == ("btn-ghost", first.invite, 1)

    # after my move the board that comes back says where to go next
    first.act(first.table()["view"]["legal_actions"][0])
    board = me.get(f"/t/{first.invite}/board").text
    assert _next(board) == ("btn-primary", second.invite, 1)
    assert _next(me.get(f"/t/{waiting.invite}/board").text) == ("btn-primary", second.invite, 1)
    # nothing waits elsewhere: no link, «Mis mesas» still there
    second.act(second.table()["view"]["legal_actions"][0])
    page = me.get(f"/t/{waiting.invite}").text
    assert _next(page) is None and _my_tables_link(page)

    # a browser with no tables here: neither (the «15» leads home)
    stranger = browser(site).get(f"/t/{waiting.invite}").text
    assert _next(stranger) is None and not _my_tables_link(stranger)
    # another device's tables are not this one's way on
    beto = browser(site)
    hold(beto, first_other)
    assert _next(beto.get(f"/t/{first_other.invite}").text) is None


def test_the_next_table_counts_next_round_and_absence_as_mis_mesas_does(
    site: TestClient, clock: ManualClock
) -> None:
    """«Waiting for me» as Mis mesas has it: TERMINAR POR AUSENCIA open to me
    (the other's turn for 48 h) leads there too."""
    me = browser(site)
    absent_me, absent_other = started(site)
    hold(me, absent_me)
    give_turn(absent_other, absent_me)
    here = create(site, "Ana")
    hold(me, here)
    assert _next(me.get(f"/t/{here.invite}").text) is None
    clock.advance(hours=49)
    assert _next(me.get(f"/t/{here.invite}").text) == ("btn-primary", absent_me.invite, 1)


def test_the_board_costs_the_same_statements_whatever_the_number_of_tables(
    site: TestClient,
) -> None:
    """A device with fifty tables pays for «Siguiente mesa» what one with
    three does: the board of a live update reads the list as Mis mesas does
    (its tables with their seats, and the states the cache misses)."""
    me = browser(site)
    service = service_of(site)
    here, here_other = started(site)
    hold(me, here)
    give_turn(here, here_other)
    counts = []
    others = 0
    for wanted in (3, 50):
        while others < wanted:  # each waiting for me
            ana, other = started(site)
            hold(me, ana)
            give_turn(ana, other)
            others += 1
        service.store._states = type(service.store._states)(16)  # a cold cache
        counts.append(_statements(site, me, f"/t/{here.invite}/board"))
        assert _next(me.get(f"/t/{here.invite}/board").text) == ("btn-ghost", ANY, wanted)
    assert counts[0] == counts[1], counts


class _Any(str):
    def __eq__(self, other: object) -> bool:
        return isinstance(other, str)

    __hash__ = str.__hash__


ANY = _Any()


def _statements(site: TestClient, client: TestClient, path: str) -> int:
    """The statements a GET of `path` takes, on every engine: its own, not
    those of the server's threads at work meanwhile (the notices'
    dispatcher, told of the commits before, is let finish first: on
    PostgreSQL one of its reads was counted once, [10, 11])."""
    service = service_of(site)
    assert site.app.state.ctx.dispatcher.flush()  # type: ignore[attr-defined]
    count = 0

    def seen(*args: object) -> None:
        nonlocal count
        if not threading.current_thread().name.startswith("escoba-"):
            count += 1

    engines = {service.db.read_engine, service.db.write_engine}
    for engine in engines:
        event.listen(engine, "before_cursor_execute", seen)
    try:
        r = client.get(path)
        assert r.status_code == 200, r.text
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", seen)
    return count


@contextmanager
def _stream(base: str, cookies: httpx.Cookies, path: str) -> Iterator[queue.Queue[tuple[str, str]]]:
    """The events of a live stream as they come: (event, data)."""
    heard: queue.Queue[tuple[str, str]] = queue.Queue()
    stop = threading.Event()

    def listen() -> None:
        try:
            with (
                httpx.Client(
                    base_url=base, cookies=cookies, timeout=httpx.Timeout(10, read=None)
                ) as client,
                client.stream("GET", path) as stream,
            ):
                heard.put(("open", str(stream.status_code)))
                name, data = "message", []
                for line in stream.iter_lines():
                    if stop.is_set():
                        return
                    if line.startswith("event:"):
                        name = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].strip())
                    elif not line and data:  # an event's end: its lines as one
                        heard.put((name, "\n".join(data)))
                        name, data = "message", []
        except httpx.HTTPError as err:
            if not stop.is_set():  # the server ends the stream as the test ends
                heard.put(("error", str(err)))

    threading.Thread(target=listen, daemon=True).start()
    try:
        assert heard.get(timeout=10) == ("open", "200")
        time.sleep(0.2)  # subscribed
        yield heard
    finally:
        stop.set()


def _api(base: str, name: str, invite: str | None = None) -> dict[str, str]:
    """A seat through the API: the table's creator, or one who joins it."""
    path = "/api/tables" if invite is None else f"/api/tables/{invite}/seats"
    body = {"name": name, "target": 21} if invite is None else {"name": name}
    r = httpx.post(base + path, json=body)
    assert r.status_code == 201, r.text
    seat: dict[str, str] = r.json()
    return {"invite": seat["invite"] if invite is None else invite, "token": seat["token"]}


def _send(base: str, seat: dict[str, str], path: str, **body: object) -> None:
    auth = {"Authorization": f"Bearer {seat['token']}"}
    table = httpx.get(f"{base}/api/tables/{seat['invite']}", headers=auth).json()
    if path == "/actions":  # a card played (a claim would keep the turn)
        plays = [a for a in table["view"]["legal_actions"] if a["type"] == "play"]
        body = {"action": plays[0], **body}
    if path != "/chat":
        body = {"version": table["version"], **body}
    r = httpx.post(f"{base}/api/tables/{seat['invite']}{path}", json=body, headers=auth)
    assert r.status_code in (200, 201), r.text


def _my_turn(base: str, seat: dict[str, str]) -> bool:
    auth = {"Authorization": f"Bearer {seat['token']}"}
    table = httpx.get(f"{base}/api/tables/{seat['invite']}", headers=auth).json()
    return bool(table["view"]["turn"] == table["you"] and table["view"]["legal_actions"])


def _elsewhere(heard: queue.Queue[tuple[str, str]]) -> str:
    """The next `elsewhere` event's data (the table's own updates between
    are let by: a process may tell a change twice)."""
    while True:
        kind, data = heard.get(timeout=10)
        if kind not in ("update", "board"):
            assert kind == "elsewhere", (kind, data)
            return data


def _drain(heard: queue.Queue[tuple[str, str]]) -> list[tuple[str, str]]:
    found = []
    while not heard.empty():
        found.append(heard.get())
    return found


def test_an_open_table_page_hears_a_turn_come_to_it_elsewhere(live_server: str) -> None:
    """The table page's one stream says when the tables waiting elsewhere
    change (no version in it: the page's board keeps its own), and nothing
    for a change elsewhere that waits on nobody here; a stream opened on
    an older board starts with it."""
    base = live_server
    here = _api(base, "Ana")
    here_beto = _api(base, "Beto", here["invite"])
    _send(base, here, "/start")
    there = _api(base, "Ana")
    carla = _api(base, "Carla", there["invite"])
    _send(base, there, "/start")
    for seat in (here, there):
        if _my_turn(base, seat):  # the others to play, everywhere
            _send(base, seat, "/actions")
    with httpx.Client(base_url=base, timeout=10) as me:
        for seat in (here, there):
            move_seat(me, seat["invite"], seat["token"])
        page = me.get(f"/t/{here['invite']}").text
        assert _next(page) is None
        found = re.search(r'sse-connect="([^"]+)"', page)
        assert found is not None
        url = html.unescape(found.group(1))
        events = rf"/t/{here['invite']}/events\?since=\d+&board=1&elsewhere=\d+"
        assert re.fullmatch(events, url), url
        with _stream(base, me.cookies, url) as heard:
            _send(base, carla, "/chat", text="¿juegas?")  # news there, nothing for Ana
            _send(base, carla, "/actions")  # Ana's turn there
            assert heard.get(timeout=10) == ("elsewhere", "waiting=1")
            board = me.get(f"/t/{here['invite']}/board").text  # what the page then fetches
            assert _next(board) == ("btn-primary", there["invite"], 1)
            _send(base, here_beto, "/chat", text="hola")  # this table's own news still come
            kind, data = heard.get(timeout=10)  # the page's own board, with the line
            assert kind == "board" and "hola" in data
            _send(base, there, "/actions")  # Ana played there: nothing waits
            assert _elsewhere(heard) == "waiting=0"
            time.sleep(0.3)
            assert [e for e in _drain(heard) if e[0] not in ("update", "board")] == []
        _send(base, carla, "/actions")
        # a page whose board said nothing waited (a stream back after a restart)
        with _stream(base, me.cookies, url) as heard:
            assert heard.get(timeout=10) == ("elsewhere", "waiting=1")


def test_a_page_open_before_another_table_was_joined_hears_of_that_table(
    live_server: str,
) -> None:
    """The stream learned the device's tables when it opened: a table the
    same browser joins afterwards (in another tab) is heard of too, so its
    turn brings «Siguiente mesa» to the page opened before."""
    base = live_server
    here = _api(base, "Ana")
    _api(base, "Beto", here["invite"])
    _send(base, here, "/start")
    if _my_turn(base, here):  # the other to play here
        _send(base, here, "/actions")
    there = _api(base, "Carla")  # a table Ana has not joined yet
    with httpx.Client(base_url=base, timeout=10) as me:
        move_seat(me, here["invite"], here["token"])
        page = me.get(f"/t/{here['invite']}").text
        assert _next(page) is None
        found = re.search(r'sse-connect="([^"]+)"', page)
        assert found is not None
        with _stream(base, me.cookies, html.unescape(found.group(1))) as heard:
            # another tab of the same browser sits down at Carla's table
            r = me.post(f"/t/{there['invite']}/join", data={"name": "Ana"})
            assert r.status_code in (200, 303), r.text
            _send(base, there, "/start")
            if _my_turn(base, there):  # Carla plays: Ana's turn there
                _send(base, there, "/actions")
            assert _elsewhere(heard) == "waiting=1"
            board = me.get(f"/t/{here['invite']}/board").text
            assert _next(board) == ("btn-primary", there["invite"], 1)


def test_an_open_home_page_hears_of_a_table_joined_in_another_tab(live_server: str) -> None:
    """«Mis mesas»' stream too: the same browser sits down at another table,
    and the open list is told to fetch itself again."""
    base = live_server
    here = _api(base, "Ana")
    there = _api(base, "Carla")
    with httpx.Client(base_url=base, timeout=10) as me:
        move_seat(me, here["invite"], here["token"])
        mark = re.search(r"/my-tables/events\?since=(\d+)", me.get("/").text)
        assert mark is not None
        with _stream(base, me.cookies, f"/my-tables/events?since={mark.group(1)}") as heard:
            r = me.post(f"/t/{there['invite']}/join", data={"name": "Ana"})
            assert r.status_code in (200, 303), r.text
            kind, _data = heard.get(timeout=10)
            assert kind == "update"
        assert there["invite"] in me.get("/").text
