"""No page stays behind (issue 37, point 1): the way news crosses processes
is cut in the middle of play, and a lone move made around its return still
reaches the open stream of the other process, with no later move to carry
it: the listener's reconnection resynchronises from the database
(escoba.web.live.resync). The periodic check is turned off here
(ESCOBA_LIVE_CHECK_SECONDS=0) so that the reconnection alone must do it.

Each test runs on servers of its own (tests/web/own_servers.py), never the
machine's. The time a page took to catch up after the bus came back is
logged (`caught up … after the bus returned`), never asserted."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..own_servers import own_postgres, own_redis
from ..servers import Listener, Server, servers, wait_until

pytestmark = pytest.mark.slow

log = logging.getLogger("escoba.tests.bus")

#: generous: a page catches up within a few seconds of the bus's return
ARRIVAL = 30.0
ONLY_RECONNECTION = {"ESCOBA_LIVE_CHECK_SECONDS": "0"}


def _post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(base + path, json=body, headers=headers, timeout=10)


def _ok(r: httpx.Response) -> Any:
    assert r.status_code in (200, 201), (r.request.url, r.status_code, r.text)
    return r.json()


class Game:
    """Ana's table made through `a`, Luis seated through `b`, started."""

    def __init__(self, a: Server, b: Server) -> None:
        self.a, self.b = a, b
        ana = _ok(_post(a.base, "/api/tables", {"name": "Ana", "target": 21}))
        self.invite = ana["invite"]
        luis = _ok(_post(b.base, f"/api/tables/{self.invite}/seats", {"name": "Luis"}))
        self.tokens = [ana["token"], luis["token"]]
        version = self.view(a)["version"]
        path = f"/api/tables/{self.invite}/start"
        started = _ok(_post(a.base, path, {"version": version}, ana["token"]))
        self.version: int = started["version"]

    def view(self, server: Server, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = httpx.get(f"{server.base}/api/tables/{self.invite}", headers=headers, timeout=10)
        return _ok(r)

    def move(self, through: Server) -> httpx.Response:
        """The player on turn's first legal action, through `through`."""
        turn = self.view(through, self.tokens[0])["view"]["turn"]
        token = self.tokens[turn]
        action = self.view(through, token)["view"]["legal_actions"][0]
        r = _post(
            through.base,
            f"/api/tables/{self.invite}/actions",
            {"version": self.version, "action": action},
            token,
        )
        if r.status_code == 200:
            self.version = r.json()["version"]
        return r


def lost_bus(server: Server) -> int:
    """How many times the server logged that its live listener lost its
    connection (its log, not /health: readiness says what it says)."""
    assert server.log_path is not None
    return server.log_path.read_text().count("live listener lost its connection")


def _a_move_crosses(game: Game, listener: Listener) -> None:
    done = _ok(game.move(game.a))
    assert listener.wait_for(done["version"], time.monotonic() + ARRIVAL) is not None


def test_a_lone_move_reaches_the_other_process_after_its_postgresql_listener_was_killed(
    tmp_path: Path,
) -> None:
    """The listener's backend is terminated, and kept from reconnecting
    (the database allows no new connection for a while): a move committed
    meanwhile (through the other process's pooled connections) sends its
    NOTIFY to nobody. When connections are allowed again the listener
    comes back, and the open stream hears the move, which no later move
    carries."""
    with own_postgres() as pg:
        url = pg.create_database("escoba_bus")
        env = ONLY_RECONNECTION
        with servers(Server(url, env), Server(url, env), log_dir=tmp_path) as (a, b):
            game = Game(a, b)
            listener = Listener(b.base, game.invite)
            assert wait_until(lambda: b.live_connections() >= 1, 10)
            _a_move_crosses(game, listener)
            for _ in range(3):  # the pools hold connections for what follows
                game.view(a, game.tokens[0])
            lost = lost_bus(b)
            pg.sql('ALTER DATABASE "escoba_bus" ALLOW_CONNECTIONS false')
            killed = pg.sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = 'escoba_bus' AND query LIKE 'LISTEN%'"
            )
            assert len(killed) == 2, killed  # both processes' listeners
            assert wait_until(lambda: lost_bus(b) > lost, 10), "B never lost its listener"
            moved = None
            for _ in range(10):  # a pooled connection busy elsewhere: once more
                moved = game.move(a)
                if moved.status_code == 200:
                    break
                time.sleep(0.3)
            assert moved is not None
            assert moved.status_code == 200, moved.text
            version = game.version
            assert listener.wait_for(version, time.monotonic() + 1.0) is None  # bus away
            pg.sql('ALTER DATABASE "escoba_bus" ALLOW_CONNECTIONS true')
            back = time.monotonic()
            arrived = listener.wait_for(version, back + ARRIVAL)
            listener.close()
            assert arrived is not None, "the lone move never reached the other process"
            log.warning("postgres: caught up %.2f s after the bus returned", arrived - back)


def test_a_lone_move_reaches_the_other_process_after_redis_came_back(tmp_path: Path) -> None:
    """Two processes on one SQLite file, their news through a Redis of the
    test's own: Redis is killed mid-game. A move made while it is away is
    accepted (the database is up) and its news is lost; when Redis is
    started again the other process's open stream hears it, with no later
    move. Then a lone move made after the return reaches it too."""
    with own_redis() as redis:
        db = f"sqlite:///{tmp_path / 'shared.db'}"
        from escoba.web.base.db import migrate

        migrate(db)
        env = {**ONLY_RECONNECTION, "ESCOBA_REDIS_URL": redis.url}
        with servers(Server(db, env), Server(db, env), log_dir=tmp_path) as (a, b):
            game = Game(a, b)
            listener = Listener(b.base, game.invite)
            assert wait_until(lambda: b.live_connections() >= 1, 10)
            _a_move_crosses(game, listener)
            lost = lost_bus(b)
            redis.stop()
            assert wait_until(lambda: lost_bus(b) > lost, 10), "B never lost Redis"
            _ok(game.move(a))  # accepted; its news reaches nobody
            assert listener.wait_for(game.version, time.monotonic() + 1.0) is None
            redis.start()
            back = time.monotonic()
            arrived = listener.wait_for(game.version, back + ARRIVAL)
            assert arrived is not None, "the move made while Redis was away never arrived"
            log.warning("redis: caught up %.2f s after the bus returned", arrived - back)
            _a_move_crosses(game, listener)  # a lone move after the return
            listener.close()
