"""A database that comes back is used at once (issue 37, point 2), and a
readiness check that tells «cannot serve» from «serves, degraded» (point 3).

On a PostgreSQL the test owns (tests/web/own_servers.py): while it is stopped a
command answers 503 at once with the documented body and `/health` 503; once
it is started again every command is accepted (none fails on a pooled
connection that died with the old server, even when nothing noticed the
restart), and a robot whose turn came during the outage plays by itself. On
SQLite a file locked by another connection: a command answers 503 `busy`, and
once the lock is released everything resumes. The time from the database's
return to the first accepted command is printed (bench/bench_db_return.py
measures it), never asserted."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from escoba.web.app import create_app
from escoba.web.base import db as db_module
from escoba.web.base.clock import ManualClock
from escoba.web.base.settings import Settings

from ..conftest import first_legal
from ..helpers import create
from ..mailbox import SmtpServer
from ..notices.test_email import channel_of, mail_settings, save
from ..own_servers import own_postgres, own_redis
from ..servers import free_port, in_thread, wait_until

#: the documented refusals (README's API errors: 503 `busy`): the command
#: path's own, or the app's when a read met the database away
BUSY_MESSAGES = (
    "La mesa está ocupada: prueba otra vez.",
    "El servidor no llegó a la base de datos: prueba otra vez.",
)


class Seat:
    """A person at a table, through the JSON API of a live server."""

    def __init__(self, http: httpx.Client, invite: str, token: str) -> None:
        self.http, self.invite, self.token = http, invite, token

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def post(self, path: str, **body: Any) -> httpx.Response:
        return self.http.post(f"/api/tables/{self.invite}{path}", json=body, headers=self.headers)

    def table(self) -> dict[str, Any]:
        r = self.http.get(f"/api/tables/{self.invite}", headers=self.headers)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def my_turn(self) -> bool:
        table = self.table()
        view = table["view"]
        return bool(view["legal_actions"]) or view["phase"] == "round_over"

    def move(self) -> httpx.Response:
        """A legal move, or SIGUIENTE RONDA between rounds."""
        table = self.table()
        view = table["view"]
        if view["phase"] == "round_over":
            return self.post("/next-round", version=table["version"])
        legal = view["legal_actions"]
        # a card played (a claim keeps the turn)
        action = next((a for a in legal if a["type"] != "claim"), legal[0])
        return self.post("/actions", version=table["version"], action=action)

    def robot_moved_after(self, version: int) -> bool:
        """The robot played since `version`, and it is this seat's turn."""
        return self.table()["version"] > version and self.my_turn()


def robot_table(http: httpx.Client) -> Seat:
    r = http.post("/api/tables", json={"name": "Ana", "target": 31})
    assert r.status_code == 201, r.text
    ana = Seat(http, r.json()["invite"], r.json()["token"])
    version = ana.table()["version"]
    assert ana.post("/robots", version=version, robot="tito").status_code == 200
    assert ana.post("/start", version=version + 1).status_code == 200
    return ana


def assert_busy(r: httpx.Response) -> None:
    """The documented refusal of a command the database cannot take."""
    assert r.status_code == 503, r.text
    assert r.json()["error"] == "busy" and r.json()["message"] in BUSY_MESSAGES
    assert set(r.json()) == {"error", "message"}


def settings_for(url: str, **more: Any) -> Settings:
    return Settings(
        database_url=url,
        secret_key="test-secret",
        robot_inline=False,
        robot_processes=0,
        robot_sweep_seconds=1.0,
        push_processes=0,
        **more,
    )


def test_a_restarted_postgresql_is_used_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    with own_postgres() as pg:
        url = pg.create_database("escoba")
        # the robot plays 2 s after its turn begins: its turn comes during the outage
        app = create_app(
            settings_for(url, robot_delay=2.0), rng=random.Random(3), brain=first_legal
        )
        with in_thread(app) as base, httpx.Client(base_url=base, timeout=30) as http:
            ana = robot_table(http)
            if not ana.my_turn():
                assert wait_until(ana.my_turn, 20)
            moved = ana.move()
            assert moved.status_code == 200  # the robot is on turn
            before = moved.json()["version"]
            pg.stop()
            assert_busy(ana.post("/chat", text="¿hay alguien?"))
            health = http.get("/health")
            assert health.status_code == 503
            assert health.json()["status"] == "unavailable"
            assert health.json()["database"].startswith("unreachable")
            assert http.get("/health/live").json() == {"status": "alive"}
            time.sleep(2.5)  # the robot's turn falls in the outage (it waits for the database)

            pg.start()
            back = time.monotonic()
            first = ana.post("/chat", text="ya volvió")
            print(f"\nfirst command accepted {time.monotonic() - back:.3f} s after the return")
            assert first.status_code == 201, first.text
            for n in range(4):  # several in a row, on connections of both pools
                assert ana.post("/chat", text=f"línea {n}").status_code == 201
            assert http.get("/health").status_code == 200
            # the robot moves on by itself, and play goes on
            assert wait_until(lambda: ana.robot_moved_after(before), 30)
            before = ana.move().json()["version"]

            # a restart between two requests, with pooled connections never
            # idle long enough to be pinged: the command's first statement
            # meets a dead connection, and it runs again on a fresh one
            assert wait_until(lambda: ana.robot_moved_after(before), 30)
            table = ana.table()
            action = next(a for a in table["view"]["legal_actions"] if a["type"] != "claim")
            monkeypatch.setattr(db_module, "IDLE_PING_SECONDS", 1e9)
            pg.stop()
            pg.start()
            r = ana.post("/actions", version=table["version"], action=action)
            assert r.status_code == 200, r.text
            for _ in range(3):
                assert ana.table()["status"] == "playing"
            assert http.get("/health").status_code == 200


def test_a_locked_sqlite_file_refuses_then_resumes(tmp_path: Path) -> None:
    from escoba.web.base.db import migrate

    path = tmp_path / "escoba.db"
    url = f"sqlite:///{path}"
    migrate(url)
    app = create_app(
        settings_for(url, robot_delay=0, sqlite_busy_seconds=0.5),
        rng=random.Random(3),
        brain=first_legal,
    )
    with in_thread(app) as base, httpx.Client(base_url=base, timeout=30) as http:
        ana = robot_table(http)
        assert wait_until(ana.my_turn, 20)
        locker = sqlite3.connect(path, timeout=5, isolation_level=None)
        try:
            locker.execute("BEGIN EXCLUSIVE")
            assert_busy(ana.move())
            assert_busy(ana.post("/chat", text="¿hay alguien?"))
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        moved = ana.move()
        assert moved.status_code == 200
        version = moved.json()["version"]
        for n in range(3):
            assert ana.post("/chat", text=f"línea {n}").status_code == 201
        # the robot answers by itself
        assert wait_until(lambda: ana.robot_moved_after(version), 20)
        assert http.get("/health").json()["status"] == "ok"


def test_health_is_ready_but_degraded_while_the_bus_is_down(tmp_path: Path) -> None:
    """The live bus away: the process still serves (200), and says what is
    degraded; a load balancer keeps it."""
    from escoba.web.base.db import migrate

    url = f"sqlite:///{tmp_path / 'escoba.db'}"
    migrate(url)
    with own_redis() as redis:
        app = create_app(settings_for(url, robot_delay=0, redis_url=redis.url))
        with in_thread(app) as base, httpx.Client(base_url=base, timeout=30) as http:
            assert wait_until(lambda: http.get("/health").json()["status"] == "ok", 20)
            body = http.get("/health").json()
            assert body["live"] == "redis" and body["degraded"] == []
            redis.stop()
            assert wait_until(lambda: http.get("/health").json()["live_ok"] is False, 20)
            r = http.get("/health")
            assert r.status_code == 200
            assert r.json()["status"] == "degraded" and r.json()["degraded"] == ["live"]
            assert r.json()["database"] == "ok"
            # and it serves: a table is made and played on
            ana = robot_table(http)
            assert wait_until(ana.my_turn, 20)
            assert ana.move().status_code == 200
            redis.start()
            assert wait_until(lambda: http.get("/health").json()["status"] == "ok", 20)


def test_health_names_the_mail_degraded_while_the_smtp_server_is_away(
    db_url: str, clock: ManualClock
) -> None:
    """The SMTP server away: e-mails wait in the outbox, the process serves
    (200) and names the mail degraded; once it answers, all is well again."""
    from escoba.web.live.bridges import wait_connected

    port = free_port()  # nothing listens there yet
    app = create_app(mail_settings(db_url, port), clock=clock, brain=first_legal)
    with TestClient(app) as client:
        assert wait_connected(app.state.ctx.hub.bridge, 10)
        assert client.get("/health").json()["degraded"] == []
        ana = create(client, "Ana")
        save(client, ana, "ana@example.com")  # a confirmation to send
        channel = channel_of(client)
        channel.outbox.send_due()
        r = client.get("/health")
        assert r.status_code == 200
        body = r.json()
        assert body["status"] == "degraded" and body["degraded"] == ["mail"]
        assert body["mail"].startswith("unreachable") and body["database"] == "ok"
        with SmtpServer(port) as box:
            clock.advance(minutes=1)
            channel.outbox.send_due()
            assert box.wait(1)
            body = client.get("/health").json()
            assert body["status"] == "ok" and body["degraded"] == [] and body["mail"] == "ok"
