"""No page stays behind, piece by piece (escoba.web.live.resync): the broker
sends a stream only the versions it missed, the periodic check and a
listener's reconnection read them from the database, the listeners tell
when they lose and regain their bus (the SQLite watcher too), and a page
counts as watching only while its process hears the bus."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from escoba.web.base.db import Database, migrate
from escoba.web.live import sqlite_watch
from escoba.web.live.listening import ListenerThread
from escoba.web.live.resync import Resync
from escoba.web.live.sqlite_watch import SqliteWatch
from escoba.web.live.streams import Broker
from escoba.web.table.reads import table_versions

from ..helpers import Player, create, join, run_async, service_of
from ..notices.test_dispatch import TURN, _play
from ..recording import Recorder, Told, dispatcher_of, heard, seat_id, told
from ..servers import wait_until


def test_a_catch_up_sends_each_stream_only_what_it_missed() -> None:
    async def scenario() -> None:
        broker = Broker(ping_seconds=0)
        broker.bind(asyncio.get_running_loop())
        page = broker.attach(7)
        broker.shown(7, 3)  # the page showed version 3 when its stream opened
        assert broker.catch_up({7: 3}) == 0
        assert not page.pending and not page.wake.is_set()
        assert broker.catch_up({7: 5}) == 1  # version 5 was lost on the way
        assert page.pending and page.version == 5
        page.pending = False
        page.wake.clear()
        broker.deliver(7, 6)  # heard by the bus
        page.pending = False
        assert broker.catch_up({7: 6}) == 0  # nothing missed: nothing sent again
        assert not page.pending
        listing = broker.attach_many([8])  # «Mis mesas»: told no version yet
        assert broker.catch_up({8: 2}) == 0 and listing.pending  # woken once, compares itself
        listing.pending = False
        assert broker.catch_up({8: 2}) == 0 and not listing.pending
        assert broker.followed() == [7, 8]
        broker.detach(7, page)
        assert broker.catch_up({7: 9}) == 0  # nobody follows it any more
        assert broker.followed() == [8]

    run_async(scenario())


def test_the_periodic_check_sends_a_missed_version_and_outlives_a_failed_read() -> None:
    asked: list[list[int]] = []

    def versions(ids: list[int]) -> dict[int, int]:
        asked.append(ids)
        if len(asked) == 1:
            raise OSError("the database is away")
        return {7: 4}

    async def scenario() -> None:
        broker = Broker(ping_seconds=0)
        broker.bind(asyncio.get_running_loop())
        page = broker.attach(7)
        broker.shown(7, 3)
        broker.attach(-5)  # a device's channel: no table to read
        resync = Resync(broker, versions, every=0.01)
        resync.start(asyncio.get_running_loop())
        try:
            await asyncio.wait_for(page.wake.wait(), 20)
        finally:
            resync.stop()
        assert page.pending and page.version == 4
        assert resync.caught_up == 1 and resync.checks >= 2

    run_async(scenario())
    assert asked[0] == [7]


def test_a_listener_that_listens_again_resynchronises_and_tells_the_hooks() -> None:
    states: list[bool] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        broker = Broker(ping_seconds=0)
        broker.bind(loop)
        page = broker.attach(7)
        broker.shown(7, 3)
        resync = Resync(broker, lambda ids: {7: 8}, every=0)
        resync.on_state.append(states.append)
        resync.start(loop)  # no periodic check (every=0): only the reconnection
        resync.bus_state(False)  # (from the listener's thread)
        resync.bus_state(True)
        await asyncio.wait_for(page.wake.wait(), 20)
        assert page.version == 8 and resync.resyncs == 1
        for _ in range(200):
            if len(states) == 2:
                break
            await asyncio.sleep(0.01)

    run_async(scenario())
    assert sorted(states) == [False, True]


class _Flaky(ListenerThread):
    """Listens, loses its connection once, listens again."""

    def __init__(self) -> None:
        super().__init__("test-flaky")
        self.tries = 0

    def _listen(self) -> None:
        self.tries += 1
        self._listening()
        if self.tries == 1:
            raise ConnectionError("the bus went away")
        self._stop.wait()


def test_a_listener_tells_when_it_loses_its_bus_and_listens_again() -> None:
    states: list[bool] = []
    flaky = _Flaky()
    flaky.start(lambda table_id, version: None, states.append)
    try:
        assert wait_until(lambda: len(states) >= 3, 10)
        assert states[:3] == [True, False, True]
        assert flaky.listening
    finally:
        flaky.stop()


def test_the_sqlite_watcher_tells_when_its_connection_failed_and_came_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "watched.db"
    migrate(f"sqlite:///{path}")
    calls = {"n": 0}
    real = sqlite_watch._data_version

    def failing_once(conn: sqlite3.Connection) -> int:
        calls["n"] += 1
        if calls["n"] == 3:
            raise sqlite3.OperationalError("disk I/O error")
        return real(conn)

    monkeypatch.setattr(sqlite_watch, "_data_version", failing_once)
    states: list[bool] = []
    lock = threading.Lock()

    def tell(listening: bool) -> None:
        with lock:
            states.append(listening)

    watch = SqliteWatch(f"sqlite:///{path}", poll_seconds=0.01)
    watch.start(lambda table_id, version: None, tell)
    try:
        assert wait_until(lambda: len(states) >= 3, 10)
        assert states[:3] == [True, False, True]
    finally:
        watch.stop()


def test_the_versions_of_the_followed_tables_are_read_in_one_statement(
    app_client: TestClient,
) -> None:
    service = service_of(app_client)
    ana = create(app_client, "Ana")
    other = create(app_client, "Eva")
    join(app_client, ana.invite, "Beto")
    ids = [service.reads.table_id(ana.invite), service.reads.table_id(other.invite)]
    db: Database = service.db
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    event.listen(db.read_engine, "before_cursor_execute", count)
    try:
        found = table_versions(db, [*ids, 999_999])
    finally:
        event.remove(db.read_engine, "before_cursor_execute", count)
    assert found == {
        ids[0]: service.reads.version(ana.invite),
        ids[1]: service.reads.version(other.invite),
    }
    assert len(statements) == 1


def test_a_page_does_not_count_as_watching_while_its_process_does_not_hear_the_bus(
    recorded_client: TestClient, recorder: Recorder
) -> None:
    client = recorded_client
    ana = create(client, "Ana")
    beto = join(client, ana.invite, "Beto")
    watching = dispatcher_of(client).watching
    bus = {"up": True}
    watching.hearing = lambda: bus["up"]

    def news() -> list[Told]:
        return told(service_of(client), heard(client, recorder))

    beto_seat = seat_id(client, beto)
    with watching.watch(beto_seat):
        ana.command("/start")
        assert news() == []  # Beto's page is open and hears the table
        bus["up"] = False
        watching.renew()  # what the bridge's lost connection does at once
        _play(beto)
        assert news() == [Told(TURN, "Ana", "Beto")]
        _play(ana)
        assert news() == [Told(TURN, "Beto", "Ana")]  # his page would not have heard it
        bus["up"] = True
        watching.renew()  # the bus is back: watching again
        _play(beto)
        _play(ana)
        assert news() == [Told(TURN, "Ana", "Beto")]
    bus["up"] = False
    other: Player = create(client, "Eva")
    eva_seat = seat_id(client, other)
    with watching.watch(eva_seat), service_of(client).db.snapshot() as conn:
        assert watching.watched(conn, [eva_seat]) == set()  # opened while deaf


def test_the_apps_pages_count_as_watching_only_while_its_bridge_listens(
    tmp_path: Path,
) -> None:
    """build_core wires the watching marks to the hub's bridge: a listener
    whose try failed makes its process's pages not watching."""
    from escoba.web.app import build_core
    from escoba.web.base.settings import Settings

    url = f"sqlite:///{tmp_path / 'wired.db'}"
    core = build_core(Settings(database_url=url, secret_key="test-secret", push_processes=0))
    try:
        bridge = core.hub.bridge
        assert isinstance(bridge, SqliteWatch)  # SQLite's own bus
        assert core.dispatcher.watching.hearing()
        bridge._deaf.set()  # what a failed try leaves until it listens again
        assert not core.hub.listening
        assert not core.dispatcher.watching.hearing()
        assert core.hub.resync is not None and core.hub.resync.every == 10.0
    finally:
        core.close()
