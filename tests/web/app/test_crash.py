"""Crash safety: the server is killed with SIGKILL at random moments while
players act, and restarted. Every action it acknowledged (2xx) is in the
log, every table replays from its log to exactly its saved state, and play
goes on. On SQLite (WAL, synchronous=FULL) and on PostgreSQL."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from escoba.web.base.clock import SystemClock
from escoba.web.base.db import Database, migrate
from escoba.web.base.settings import Settings
from escoba.web.live.bridges import Hub
from escoba.web.live.streams import Broker
from escoba.web.table.service import TableService

from ..helpers import replay_log
from ..servers import PG_URL, Server, fresh_pg_database

pytestmark = pytest.mark.slow

TABLES = 6
KILLS = 4


def _database(backend: str, tmp_path: Path) -> str:
    if backend == "postgresql":
        url = fresh_pg_database("escoba_test_crash")
        assert url is not None
        return url
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    migrate(url)
    return url


class Player:
    """Two seats of one table, played from one thread; what the server
    acknowledged is kept to be checked after the crashes."""

    def __init__(self, server: Server, rng: random.Random) -> None:
        self.server = server
        self.rng = rng
        self.invite = ""
        self.tokens: list[str] = []
        self.acked: list[tuple[int, str, dict[str, Any] | None]] = []  # version, kind, action
        self.client = httpx.Client(timeout=5)

    def _call(self, method: str, path: str, token: str | None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.request(method, self.server.base + path, json=body, headers=headers, timeout=5)

    def setup(self) -> None:
        r = self._call("POST", "/api/tables", None, {"name": "Ana", "target": 31})
        self.invite = r.json()["invite"]
        self.tokens = [r.json()["token"]]
        r = self._call("POST", f"/api/tables/{self.invite}/seats", None, {"name": "Luis"})
        self.tokens.append(r.json()["token"])
        v = self._call("GET", f"/api/tables/{self.invite}", None).json()["version"]
        r = self._call("POST", f"/api/tables/{self.invite}/start", self.tokens[0], {"version": v})
        assert r.status_code == 200, r.text

    def step(self) -> bool:
        """One command; False once the game is over."""
        base = f"/api/tables/{self.invite}"
        table = self._call("GET", base, self.tokens[0]).json()
        if table["status"] != "playing":
            return False
        view = table["view"]
        if view["phase"] == "round_over":
            r = self._call(
                "POST", base + "/next-round", self.tokens[0], {"version": table["version"]}
            )
            if r.status_code == 200:
                self.acked.append((r.json()["version"], "next_round", None))
            return True
        token = self.tokens[0] if view["turn"] == 0 else self.tokens[1]
        mine = self._call("GET", base, token).json()
        action = self.rng.choice(mine["view"]["legal_actions"])
        r = self._call(
            "POST", base + "/actions", token, {"version": mine["version"], "action": action}
        )
        if r.status_code == 200:
            self.acked.append((r.json()["version"], "action", action))
        return True

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                if not self.step():
                    return
            except (httpx.HTTPError, ValueError, KeyError):
                time.sleep(0.02)  # the server is down or restarting


def _as_logged(action: dict[str, Any]) -> dict[str, Any]:
    """An action of the API as the action log keeps it: the engine's claim
    names only the cards besides the left one (the first of the API's)."""
    if action["type"] == "claim":
        return {"type": "claim", "group": action["cards"][1:]}
    return action


@pytest.mark.parametrize(
    "backend",
    [
        "sqlite",
        pytest.param(
            "postgresql", marks=pytest.mark.skipif(PG_URL is None, reason="no PostgreSQL")
        ),
    ],
)
def test_no_acknowledged_action_is_lost_when_the_server_is_killed(
    backend: str, tmp_path: Path
) -> None:
    url = _database(backend, tmp_path)
    rng = random.Random(20261202)
    server = Server(url).start(tmp_path)
    players = [Player(server, random.Random(i)) for i in range(TABLES)]
    for p in players:
        p.setup()
    stop = threading.Event()
    threads = [threading.Thread(target=p.run, args=(stop,), daemon=True) for p in players]
    for t in threads:
        t.start()

    def acked_total() -> int:
        return sum(len(p.acked) for p in players)

    def progress(moves: int) -> None:
        """Wait for `moves` more acknowledged actions: kills come after some
        play however slow the machine is (no wall-clock quota)."""
        target = acked_total() + moves
        deadline = time.monotonic() + 180
        while acked_total() < target:
            assert time.monotonic() < deadline, "the players stopped getting answers"
            time.sleep(0.005)

    try:
        for _ in range(KILLS):
            progress(rng.randint(4, 16))
            server.kill()
            time.sleep(rng.uniform(0.0, 0.3))
            server.start(tmp_path)
        progress(TABLES)  # play goes on after the last restart
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=10)
    try:
        assert acked_total() >= KILLS * 4 + TABLES
        db = Database(Settings(database_url=url).sqlalchemy_url)
        service = TableService(db, Settings(database_url=url), SystemClock(), Hub(Broker()))
        for p in players:
            log = {row.version: row for row in service.reads.log(p.invite)}
            for version, kind, action in p.acked:
                row = log.get(version)
                assert row is not None, f"acknowledged version {version} lost"
                assert row.kind == kind
                if action is not None:
                    assert row.payload["action"] == _as_logged(action)
            assert replay_log(service, p.invite) == service.reads.game_state(p.invite)
        db.dispose()
        # and play goes on
        for p in players:
            p.rng = random.Random(1)
            before = len(p.acked)
            for _ in range(3):
                if not p.step():
                    break
            state = p._call("GET", f"/api/tables/{p.invite}", None).json()["status"]
            assert len(p.acked) > before or state != "playing"
    finally:
        server.stop()
