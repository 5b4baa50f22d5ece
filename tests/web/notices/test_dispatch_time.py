"""The notices time brings (warnings before TERMINAR POR AUSENCIA, the
absence itself, a table about to expire), several processes sweeping at
once, and watching through a real server's live stream."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from escoba.web.app import Core, build_core, create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.settings import Settings
from escoba.web.frame.deps import AppContext
from escoba.web.notices.notice import Notice, NoticeKind

from ..conftest import first_legal
from ..helpers import Player, create, join, move_seat, service_of
from ..recording import Recorder, Told, dispatcher_of, heard, seat_id, told
from ..servers import in_thread, wait_until

TURN, WARNING = NoticeKind.TURN, NoticeKind.WARNING
ABSENCE, EXPIRY, END = NoticeKind.ABSENCE, NoticeKind.EXPIRY, NoticeKind.END


@pytest.fixture
def client(recorded_client: TestClient) -> TestClient:
    return recorded_client


def _swept(client: TestClient, recorder: Recorder) -> list[Told]:
    dispatcher_of(client).sweep()
    return told(service_of(client), heard(client, recorder))


def _started(client: TestClient, recorder: Recorder) -> tuple[Player, Player]:
    """Ana and Beto, Beto on turn; the start's notice already heard."""
    ana = create(client, "Ana")
    beto = join(client, ana.invite, "Beto")
    ana.command("/start")
    heard(client, recorder)
    return ana, beto


def _play(player: Player) -> None:
    legal = player.table()["view"]["legal_actions"]
    player.act(next(a for a in legal if a["type"] == "play"))


def test_the_player_on_turn_is_warned_at_24_and_40_hours_and_the_others_told_at_48(
    client: TestClient, recorder: Recorder, clock: ManualClock
) -> None:
    ana, beto = _started(client, recorder)
    began = clock.now()
    clock.advance(hours=23, minutes=59)
    assert _swept(client, recorder) == []
    clock.advance(minutes=1)
    assert _swept(client, recorder) == [Told(WARNING, "Beto")]
    assert _swept(client, recorder) == []  # once
    clock.advance(hours=15, minutes=59)
    assert _swept(client, recorder) == []
    clock.advance(minutes=1)  # 40 h
    [warning] = _swept_raw(client, recorder)
    assert warning.kind is WARNING and warning.seat_id == seat_id(client, beto)
    assert warning.at == began and warning.deadline == began + timedelta(hours=48)
    clock.advance(hours=8)  # 48 h: not yet over
    assert _swept(client, recorder) == []
    clock.advance(minutes=1)
    [absence] = _swept_raw(client, recorder)
    assert absence.kind is ABSENCE and absence.seat_id == seat_id(client, ana)
    assert absence.who == "Beto" and absence.at == began
    clock.advance(hours=30)
    assert _swept(client, recorder) == []  # ABSENCE once
    assert ana.table()["can"]["absence"]


def _swept_raw(client: TestClient, recorder: Recorder) -> list[Notice]:
    dispatcher_of(client).sweep()
    return heard(client, recorder)


def test_a_new_turn_starts_the_warnings_over(
    client: TestClient, recorder: Recorder, clock: ManualClock
) -> None:
    ana, beto = _started(client, recorder)
    clock.advance(hours=41)
    assert _swept(client, recorder) == [Told(WARNING, "Beto")]  # the last one due, alone
    _play(beto)
    assert told(service_of(client), heard(client, recorder)) == [Told(TURN, "Ana", "Beto")]
    clock.advance(hours=24)
    assert _swept(client, recorder) == [Told(WARNING, "Ana")]
    _play(ana)
    heard(client, recorder)
    clock.advance(hours=50)  # Beto again, absent at once (no warning then)
    assert _swept(client, recorder) == [Told(ABSENCE, "Ana", "Beto")]


def test_absence_and_warnings_go_only_to_who_chose_them(
    client: TestClient, recorder: Recorder, clock: ManualClock
) -> None:
    ana, beto = _started(client, recorder)
    for player in (ana, beto):
        r = client.put(
            f"/api/tables/{ana.invite}/notices", json={"kinds": ["turn"]}, headers=player.headers
        )
        assert r.status_code == 200
    clock.advance(hours=49)
    assert _swept(client, recorder) == []


def test_a_robot_on_turn_is_never_warned(
    client: TestClient, recorder: Recorder, clock: ManualClock
) -> None:
    ana = create(client, "Ana")
    ana.command("/robots", robot="tito")
    ana.command("/start")
    heard(client, recorder)
    clock.advance(hours=30)
    assert _swept(client, recorder) == [Told(WARNING, "Ana")]  # the robot played; Ana's turn


def test_a_table_about_to_expire_tells_its_people_once_per_quiet_spell(
    client: TestClient, recorder: Recorder, clock: ManualClock
) -> None:
    ana, beto = _started(client, recorder)
    lobby = create(client, "Zoe")
    lobby.command("/robots", robot="luna")
    client.put(f"/api/tables/{ana.invite}/notices", json={"kinds": ["expiry"]}, headers=ana.headers)
    client.put(
        f"/api/tables/{ana.invite}/notices", json={"kinds": ["expiry"]}, headers=beto.headers
    )
    clock.advance(days=5, hours=23, minutes=59)
    assert _swept(client, recorder) == []
    clock.advance(minutes=1)  # a day before the 7
    notices = _swept_raw(client, recorder)
    assert told(service_of(client), notices) == [
        Told(EXPIRY, "Ana"),
        Told(EXPIRY, "Beto"),
        Told(EXPIRY, "Zoe"),
    ]
    mine = next(n for n in notices if n.seat_id == seat_id(client, ana))
    assert mine.deadline == mine.at + timedelta(days=7)
    clock.advance(hours=12)
    assert _swept(client, recorder) == []
    # a move starts a new quiet spell (and, for Ana, her turn)
    _play(beto)
    heard(client, recorder)
    clock.advance(days=6)
    assert _swept(client, recorder) == [Told(EXPIRY, "Ana"), Told(EXPIRY, "Beto")]
    clock.advance(days=1, minutes=1)
    assert service_of(client).jobs.expire() == 2
    assert heard(client, recorder) == []  # (END: they chose EXPIRY alone)


def test_several_processes_sweeping_send_each_notice_once(
    quiet_settings: Settings, clock: ManualClock
) -> None:
    """Two processes' services on one database (each its own caches and
    dispatcher), sweeping one after the other and at once."""
    recorders = [Recorder() for _ in range(3)]
    cores = [
        build_core(quiet_settings, clock, random.Random(i), first_legal, channels=[recorders[i]])
        for i in range(3)
    ]
    try:
        app = create_app(quiet_settings, clock=clock, brain=first_legal, channels=[])
        with TestClient(app) as client:
            tables = []
            for i in range(4):
                ana = create(client, f"Ana{i}")
                join(client, ana.invite, f"Beto{i}")
                ana.command("/start")
                tables.append(ana)
        for hours in (24, 16, 9):  # the first warning, the second, the absence
            clock.advance(hours=hours)
            sweeps = [threading.Thread(target=core.dispatcher.sweep) for core in cores]
            for t in sweeps:
                t.start()
            for t in sweeps:
                t.join()
            cores[0].dispatcher.sweep()  # and once more, after the others
        sent = [n for r in recorders for n in r.take()]
        kinds = sorted(n.kind.value for n in sent)
        assert kinds == ["absence"] * 4 + ["warning"] * 8
        assert len({(n.kind, n.seat_id, n.at) for n in sent if n.kind is WARNING}) == 4
        assert len({n.seat_id for n in sent if n.kind is ABSENCE}) == 4
    finally:
        for core in cores:
            core.close()


def test_a_seat_watching_in_one_process_is_told_nothing_by_another(
    quiet_settings: Settings, clock: ManualClock
) -> None:
    one, other = Recorder(), Recorder()
    cores: list[Core] = [
        build_core(quiet_settings, clock, random.Random(1), first_legal, channels=[one]),
        build_core(quiet_settings, clock, random.Random(2), first_legal, channels=[other]),
    ]
    try:
        service = cores[1].service
        ana = service.lobby.create_table("Ana", 21)
        beto = service.lobby.join(ana.invite, "Beto")
        beto_seat = service.reads.watch_target(ana.invite, beto.token)[1]
        assert beto_seat is not None
        cores[0].dispatcher.watching.open(beto_seat)  # Beto's page, served by the first
        service.lobby.start(ana.invite, ana.token, service.reads.version(ana.invite))
        assert cores[1].dispatcher.flush() and other.take() == []
        cores[0].dispatcher.watching.close(beto_seat)
        service.ending.abandon(ana.invite, ana.token, service.reads.version(ana.invite))
        assert cores[1].dispatcher.flush()
        assert [(n.kind, n.seat_id) for n in other.take()] == [(END, beto_seat)]
    finally:
        for core in cores:
            core.close()


def test_a_watching_mark_lasts_while_renewed(
    client: TestClient, recorder: Recorder, clock: ManualClock
) -> None:
    _, beto = _started(client, recorder)
    watching = dispatcher_of(client).watching
    beto_seat = seat_id(client, beto)

    def watched() -> bool:
        with service_of(client).db.snapshot() as conn:
            return beto_seat in watching.watched(conn, [beto_seat])

    watching.open(beto_seat)
    clock.advance(seconds=50)
    watching.renew()
    clock.advance(seconds=50)
    assert watched()
    clock.advance(seconds=11)  # not renewed for a minute: a process that died
    assert not watched()
    watching.prune()
    with service_of(client).db.snapshot() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM watching").scalar() == 0
    watching.renew()  # still open here: marked again
    assert watched()
    watching.close(beto_seat)
    assert not watched()


# ----------------------------------------------------------------------
# A real server: the live stream marks watching; the absence reaches open pages


@dataclass
class Server:
    url: str
    app: FastAPI

    @property
    def ctx(self) -> AppContext:
        ctx: AppContext = self.app.state.ctx
        return ctx

    def heard(self) -> list[Notice]:
        assert self.ctx.dispatcher.flush(10)
        recorder = self.ctx.dispatcher.channels[0]
        assert isinstance(recorder, Recorder)
        return recorder.take()


@pytest.fixture
def server(quiet_settings: Settings, clock: ManualClock, recorder: Recorder) -> Iterator[Server]:
    settings = quiet_settings.model_copy(update={"robot_inline": False, "robot_delay": 0})
    app = create_app(
        settings, clock=clock, rng=random.Random(3), brain=first_legal, channels=[recorder]
    )
    with in_thread(app) as url:
        yield Server(url, app)


def _listen(
    http: httpx.Client, path: str, events: list[str], opened: threading.Event, stop: threading.Event
) -> None:
    try:
        with http.stream("GET", path) as stream:
            opened.set()
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    events.append(line[5:].strip())
                if stop.is_set():
                    return
    except httpx.HTTPError:
        pass


def test_an_open_table_page_watches_until_it_closes(server: Server) -> None:
    api = httpx.Client(base_url=server.url, timeout=10)
    ana = api.post("/api/tables", json={"name": "Ana", "target": 21}).json()
    invite = ana["invite"]
    beto = api.post(f"/api/tables/{invite}/seats", json={"name": "Beto"}).json()
    auth = {"Authorization": f"Bearer {beto['token']}"}
    browser = httpx.Client(base_url=server.url, timeout=httpx.Timeout(10, read=None))
    move_seat(browser, invite, beto["token"])
    assert "device" in browser.cookies
    service = server.ctx.service
    beto_seat = service.reads.watch_target(invite, beto["token"])[1]
    assert beto_seat is not None
    watching = server.ctx.dispatcher.watching

    def marked() -> bool:
        with service.db.snapshot() as conn:
            return beto_seat in watching.watched(conn, [beto_seat])

    events: list[str] = []
    opened, stop = threading.Event(), threading.Event()
    listener = threading.Thread(
        target=_listen, args=(browser, f"/t/{invite}/events", events, opened, stop), daemon=True
    )
    listener.start()
    assert opened.wait(10) and wait_until(marked, 10)
    version = api.get(f"/api/tables/{invite}").json()["version"]
    r = api.post(
        f"/api/tables/{invite}/start",
        json={"version": version},
        headers={"Authorization": f"Bearer {ana['token']}"},
    )
    assert r.status_code == 200
    assert server.heard() == []  # Beto's turn, but his page is open
    stop.set()  # the page closes (its stream, at its next event: a chat line)
    r = api.post(f"/api/tables/{invite}/chat", json={"text": "¿estás?"}, headers=auth)
    assert r.status_code == 201
    listener.join(10)
    assert not listener.is_alive()
    browser.close()
    assert wait_until(lambda: not marked(), 10)
    table = api.get(f"/api/tables/{invite}", headers=auth).json()
    assert table["view"]["turn"] == 1
    # Ana leaves the game: Beto, no longer watching, hears of it
    r = api.post(
        f"/api/tables/{invite}/abandon",
        json={"version": table["version"]},
        headers={"Authorization": f"Bearer {ana['token']}"},
    )
    assert r.status_code == 200
    assert [(n.kind, n.seat_id) for n in server.heard()] == [(END, beto_seat)]
    api.close()


def test_the_absence_reaches_open_pages_without_a_new_version(
    server: Server, clock: ManualClock
) -> None:
    api = httpx.Client(base_url=server.url, timeout=10)
    ana = api.post("/api/tables", json={"name": "Ana", "target": 21}).json()
    invite = ana["invite"]
    api.post(f"/api/tables/{invite}/seats", json={"name": "Beto"})
    version = api.get(f"/api/tables/{invite}").json()["version"]
    auth = {"Authorization": f"Bearer {ana['token']}"}
    api.post(f"/api/tables/{invite}/start", json={"version": version}, headers=auth)
    version = api.get(f"/api/tables/{invite}").json()["version"]
    events: list[str] = []
    opened, stop = threading.Event(), threading.Event()
    page = httpx.Client(base_url=server.url, timeout=httpx.Timeout(10, read=None))
    listener = threading.Thread(
        target=_listen,
        args=(page, f"/t/{invite}/events?since={version}", events, opened, stop),
        daemon=True,
    )
    listener.start()
    assert opened.wait(10)
    time.sleep(0.2)  # (the stream subscribes right after its first bytes)
    assert not api.get(f"/api/tables/{invite}", headers=auth).json()["can"]["absence"]
    clock.advance(hours=48, minutes=1)
    server.ctx.dispatcher.sweep()
    assert wait_until(lambda: events, 10)
    assert events == [str(version)]  # an update, at the same version: no move goes stale
    table = api.get(f"/api/tables/{invite}", headers=auth).json()
    assert table["version"] == version and table["can"]["absence"]
    stop.set()  # (the stream ends at its next event)
    api.post(f"/api/tables/{invite}/chat", json={"text": "¡Beto!"}, headers=auth)
    listener.join(10)
    page.close()
    api.close()


def test_robots_moving_on_their_own_give_a_person_the_turn(server: Server) -> None:
    api = httpx.Client(base_url=server.url, timeout=10)
    ana = api.post("/api/tables", json={"name": "Ana", "target": 21}).json()
    invite = ana["invite"]
    auth = {"Authorization": f"Bearer {ana['token']}"}
    version = api.get(f"/api/tables/{invite}").json()["version"]
    for robot in ("carmen", "tito"):
        r = api.post(
            f"/api/tables/{invite}/robots",
            json={"robot": robot, "version": version},
            headers=auth,
        )
        version = r.json()["version"]
    api.post(f"/api/tables/{invite}/start", json={"version": version}, headers=auth)
    # the runner plays Carmen's and Tito's turns in the background
    assert wait_until(
        lambda: api.get(f"/api/tables/{invite}", headers=auth).json()["view"]["turn"] == 0, 30
    )
    ana_seat = server.ctx.service.reads.watch_target(invite, ana["token"])[1]
    notices = server.heard()
    assert [(n.kind, n.seat_id, n.who) for n in notices] == [(TURN, ana_seat, "Tito")]
    api.close()
