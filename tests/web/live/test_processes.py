"""Several app processes on one database: a move made through one process
reaches the live streams of another (PostgreSQL LISTEN/NOTIFY; Redis pub/sub
for SQLite), and a robot left on turn by a process that died is played by
another one's sweep."""

from __future__ import annotations

import queue
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..servers import (
    PG_URL,
    Listener,
    Server,
    fresh_pg_database,
    redis_url,
    servers,
    wait_until,
)

pytestmark = pytest.mark.slow

DEADLINE = 3.0  # seconds; a crossing takes a few milliseconds on this machine


def _backends() -> list[Any]:
    return [
        pytest.param("postgres", marks=pytest.mark.skipif(PG_URL is None, reason="no PostgreSQL")),
        # Redis's pub/sub channel is one for the whole server: the tests on it
        # run on one pytest-xdist worker (--dist loadgroup), one at a time
        pytest.param("redis", id="sqlite-redis", marks=pytest.mark.xdist_group("redis")),
    ]


def _database(backend: str, tmp_path: Path) -> tuple[str, dict[str, str]]:
    if backend == "postgres":
        url = fresh_pg_database("escoba_test_processes")
        assert url is not None
        return url, {}
    redis = redis_url()
    if redis is None:
        pytest.skip("no Redis on 127.0.0.1:6379")
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    from escoba.web.base.db import migrate

    migrate(url)
    return url, {"ESCOBA_REDIS_URL": redis}


def _post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.post(base + path, json=body, headers=headers, timeout=10)
    assert r.status_code in (200, 201), (path, r.status_code, r.text)
    return r.json()


def _table(base: str, invite: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.get(f"{base}/api/tables/{invite}", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("backend", _backends())
def test_a_move_through_one_process_reaches_the_streams_of_another(
    backend: str, tmp_path: Path
) -> None:
    url, env = _database(backend, tmp_path)
    with servers(Server(url, env), Server(url, env), log_dir=tmp_path) as (a, b):
        ana = _post(a.base, "/api/tables", {"name": "Ana", "target": 21})
        invite = ana["invite"]
        luis = _post(b.base, f"/api/tables/{invite}/seats", {"name": "Luis"})
        listeners = [Listener(b.base, invite), Listener(a.base, invite)]
        assert wait_until(lambda: b.live_connections() >= 1 and a.live_connections() >= 1, 10)
        version = _table(a.base, invite)["version"]
        started = _post(a.base, f"/api/tables/{invite}/start", {"version": version}, ana["token"])
        tokens = {0: ana["token"], 1: luis["token"]}
        delays = []
        version = started["version"]
        for step in range(6):
            for listener in listeners:
                arrived = listener.wait_for(version, time.monotonic() + DEADLINE)
                assert arrived is not None, f"step {step}: version {version} never arrived"
            view = _table(a.base, invite, tokens[0])["view"]
            actor = tokens[0] if view["turn"] == 0 else tokens[1]
            mine = _table(b.base, invite, actor)["view"]
            # alternate: through A, then through B
            through = a if step % 2 == 0 else b
            watcher = listeners[0] if through is a else listeners[1]
            sent = time.monotonic()
            done = _post(
                through.base,
                f"/api/tables/{invite}/actions",
                {"version": version, "action": mine["legal_actions"][0]},
                actor,
            )
            version = done["version"]
            arrived = watcher.wait_for(version, sent + DEADLINE)
            assert arrived is not None, f"the other process never heard version {version}"
            delays.append(arrived - sent)
        for listener in listeners:
            listener.close()
        assert max(delays) < DEADLINE, delays


@pytest.mark.skipif(PG_URL is None, reason="no PostgreSQL")
def test_a_commands_notify_leaves_only_when_it_commits() -> None:
    """PostgreSQL's NOTIFY rides the command's own transaction: a command
    that fails after announcing sends nothing; NOTIFYs arrive in commit
    order, so a stray one would be heard before the committed one's."""
    from escoba.web.base.db import Database
    from escoba.web.live.bridges import PostgresBridge, wait_connected

    url = fresh_pg_database("escoba_test_notify")
    assert url is not None
    heard: queue.Queue[tuple[int, int]] = queue.Queue()
    listener = PostgresBridge(url)  # another process's bridge: its own origin
    listener.start(lambda table_id, version: heard.put((table_id, version)))
    sender = PostgresBridge(url)
    db = Database(url)
    try:
        assert wait_connected(listener, 10)
        with pytest.raises(RuntimeError, match="failed"), db.write() as conn:
            sender.announce(conn, 7, 2)
            raise RuntimeError("the command failed after announcing")
        with db.write() as conn:
            sender.announce(conn, 7, 3)
        assert heard.get(timeout=10) == (7, 3)
        assert heard.empty()
    finally:
        listener.stop()
        sender.stop()
        db.dispose()


@pytest.mark.skipif(PG_URL is None, reason="no PostgreSQL")
def test_stopping_the_postgresql_bridge_wakes_its_listener() -> None:
    """Stopping the bridge does not wait out the listener's wait for a
    notification (half a second: each app's shutdown, each test's on
    PostgreSQL paid it): made a minute long here, the stop still ends."""
    from escoba.web.live.bridges import PostgresBridge, wait_connected

    url = fresh_pg_database("escoba_test_bridge_stop")
    assert url is not None
    bridge = PostgresBridge(url)
    bridge.wait = 60.0
    bridge.start(lambda table_id, version: None)
    assert wait_connected(bridge, 10)
    started = time.monotonic()
    bridge.stop()
    assert not bridge._thread or not bridge._thread.is_alive(), "the listener still waits"
    assert time.monotonic() - started < 30


@pytest.mark.skipif(PG_URL is None, reason="no PostgreSQL")
def test_a_robot_left_on_turn_by_a_dead_process_is_played_by_another(tmp_path: Path) -> None:
    url = fresh_pg_database("escoba_test_processes")
    assert url is not None
    # A waits long before its robots move (it dies first); B sweeps each second
    slow = {"ESCOBA_ROBOT_DELAY": "30", "ESCOBA_ROBOT_SWEEP_SECONDS": "600"}
    quick = {"ESCOBA_ROBOT_DELAY": "0.2", "ESCOBA_ROBOT_SWEEP_SECONDS": "1"}
    with servers(Server(url, slow), log_dir=tmp_path) as (a,):
        ana = _post(a.base, "/api/tables", {"name": "Ana", "target": 21})
        invite, token = ana["invite"], ana["token"]
        v = _table(a.base, invite)["version"]
        v = _post(a.base, f"/api/tables/{invite}/robots", {"version": v, "robot": "tito"}, token)
        v = _post(a.base, f"/api/tables/{invite}/start", {"version": v["version"]}, token)
        view = _table(a.base, invite, token)["view"]
        assert view["turn"] == 1  # Ana deals; Tito plays first
        a.kill()
        stuck = _table_version(url, invite)
    with servers(Server(url, quick), log_dir=tmp_path) as (b,):
        # B's start-up picks the table up; the sweep would too
        assert wait_until(lambda: _table(b.base, invite)["version"] > stuck, 15)
        assert _table(b.base, invite, token)["view"]["turn"] == 0


def _table_version(url: str, invite: str) -> int:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.connect() as conn:
        v = conn.execute(text("SELECT version FROM tables WHERE invite = :i"), {"i": invite})
        out = int(v.scalar_one())
    engine.dispose()
    return out


@pytest.mark.skipif(PG_URL is None, reason="no PostgreSQL")
def test_the_sweep_plays_a_robot_whose_process_died_while_another_kept_running(
    tmp_path: Path,
) -> None:
    url = fresh_pg_database("escoba_test_processes")
    assert url is not None
    slow = {"ESCOBA_ROBOT_DELAY": "30", "ESCOBA_ROBOT_SWEEP_SECONDS": "600"}
    quick = {"ESCOBA_ROBOT_DELAY": "0.2", "ESCOBA_ROBOT_SWEEP_SECONDS": "0.5"}
    with servers(Server(url, slow), Server(url, quick), log_dir=tmp_path) as (a, b):
        ana = _post(a.base, "/api/tables", {"name": "Ana", "target": 21})
        invite, token = ana["invite"], ana["token"]
        v = _table(a.base, invite)["version"]
        v = _post(a.base, f"/api/tables/{invite}/robots", {"version": v, "robot": "tito"}, token)
        v = _post(a.base, f"/api/tables/{invite}/start", {"version": v["version"]}, token)
        a.kill()  # its robot move was 30 s away
        assert wait_until(lambda: _table(b.base, invite)["version"] > v["version"], 15)
