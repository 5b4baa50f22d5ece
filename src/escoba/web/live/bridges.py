"""Bridges between processes: the news of a table's new version must reach
the streams of every process (or machine). A `Bridge` carries
`table_id:version` to every other process — PostgreSQL LISTEN/NOTIFY when
the tables live there (no other service to run, and a NOTIFY is only sent
once its transaction commits), or Redis pub/sub (or, on SQLite alone, the
watcher of sqlite_watch.py). Each process delivers its own publications at
once and skips their echo. `Hub` is the live updates' listener of the
commit hook, over both."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Protocol

from sqlalchemy import Connection

from escoba.web.live.listening import CHANNEL, ListenerThread, encode_news
from escoba.web.live.resync import Resync
from escoba.web.live.streams import Broker, acting
from escoba.web.table.command_path import Change

log = logging.getLogger("escoba.live")


class Bridge(Protocol):
    """Carries `table_id:version` to the other processes. A command calls
    `announce` inside its transaction and `publish` after its commit; each
    bridge sends at one of the two (PostgreSQL's NOTIFY rides the
    transaction; Redis is outside it and publishes after the commit)."""

    name: str

    def start(
        self,
        receive: Callable[[int, int], None],
        state: Callable[[bool], None] | None = None,
    ) -> None: ...

    def announce(self, conn: Connection, table_id: int, version: int) -> None: ...

    def publish(self, table_id: int, version: int) -> None: ...

    def stop(self) -> None: ...

    @property
    def healthy(self) -> bool: ...

    @property
    def listening(self) -> bool: ...


class Hub:
    """The live updates' listener of the commit hook: local streams hear at
    once; the bridge, if any, tells the other processes, and `resync` makes
    up from the database what the bridge lost (live/resync.py)."""

    def __init__(
        self, broker: Broker, bridge: Bridge | None = None, resync: Resync | None = None
    ) -> None:
        self.broker = broker
        self.bridge = bridge
        self.resync = resync

    def start(self) -> None:
        """From the event loop, once the broker is bound."""
        loop = self.broker.loop
        if self.resync is not None and loop is not None and self.bridge is not None:
            self.resync.backend = self.bridge.name
            self.resync.start(loop)
        if self.bridge is not None:
            state = None if self.resync is None else self.resync.bus_state
            self.bridge.start(self.broker.publish, state)

    def stop(self) -> None:
        if self.resync is not None:
            self.resync.stop()
        if self.bridge is not None:
            self.bridge.stop()

    @property
    def listening(self) -> bool:
        """Every page of this process hears its table's news now (no bridge:
        one process, whose own news needs none)."""
        return self.bridge is None or self.bridge.listening

    # the commit hook's first listener (escoba.web.table.command_path.CommitHook)

    def during(self, conn: Connection, change: Change) -> None:
        if change.version is not None:
            self.announce(conn, change.table_id, change.version)

    def after(self, change: Change) -> None:
        if change.version is not None:
            self.publish(change.table_id, change.version, change.mover)

    def announce(self, conn: Connection, table_id: int, version: int) -> None:
        """Inside a command's transaction."""
        if self.bridge is not None:
            self.bridge.announce(conn, table_id, version)

    def publish(self, table_id: int, version: int, mover: int | None = None) -> None:
        """After the commit: the local streams hear at once, those of the
        seat `mover` (whose command it was) last (`live.acting`)."""
        with acting(mover):
            self.broker.publish(table_id, version)
        if self.bridge is not None:
            try:
                self.bridge.publish(table_id, version)
            except Exception:  # the move is committed; the other processes catch up
                log.exception("live bridge publish failed", extra={"table_id": table_id})

    @property
    def backend(self) -> str:
        return "local" if self.bridge is None else self.bridge.name

    @property
    def healthy(self) -> bool:
        return self.bridge is None or self.bridge.healthy


class PostgresBridge(ListenerThread):
    """LISTEN/NOTIFY on the app's own PostgreSQL. A command's NOTIFY goes in
    its own transaction (`announce`): it leaves when the move commits,
    never before or without it, and needs no connection or transaction of
    its own."""

    name = "postgres"
    #: Seconds the listener waits for a notification before it looks again
    #: whether it should stop (stopping wakes it at once: `_close_listener`).
    wait = 0.5

    def __init__(self, url: str) -> None:
        super().__init__("escoba-live-pg")
        self._dsn = _libpq_dsn(url)

    def _listen(self) -> None:
        import psycopg

        with psycopg.connect(self._dsn, autocommit=True) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            self._listening()
            while not self._stop.is_set():
                for note in conn.notifies(timeout=self.wait):
                    if self._stop.is_set():
                        break
                    self._handle(note.payload)

    def _close_listener(self) -> None:
        """Wake the listener at once (a word no process takes for news), so
        that stopping does not wait out its half-second wait: an app's
        shutdown, and each test's on PostgreSQL."""
        import psycopg

        with (
            suppress(Exception),
            psycopg.connect(self._dsn, autocommit=True, connect_timeout=2) as conn,
        ):
            conn.execute("SELECT pg_notify(%s, 'stop')", (CHANNEL,))

    def announce(self, conn: Connection, table_id: int, version: int) -> None:
        conn.exec_driver_sql(
            "SELECT pg_notify(%(channel)s, %(payload)s)",
            {"channel": CHANNEL, "payload": encode_news(self.origin, table_id, version)},
        )

    def publish(self, table_id: int, version: int) -> None:
        return None  # the NOTIFY went with the commit (announce)


class RedisBridge(ListenerThread):
    """Redis pub/sub, for SQLite with several processes on one machine, or
    to keep the notifications off the database. The listener does not let
    the client reconnect by itself (it would do it silently, and what was
    published meanwhile would be lost unseen): a lost connection ends
    `_listen`, and the next subscription resynchronises. A publish fails
    fast while Redis is away (it runs after a command's commit, on the
    event loop) and retries once, for a pooled connection that died with a
    restarted server."""

    name = "redis"
    #: seconds to reach Redis, or for it to answer, before a publish fails
    timeout = 1.0

    def __init__(self, url: str) -> None:
        super().__init__("escoba-live-redis")
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        quick = {"socket_connect_timeout": self.timeout, "socket_timeout": self.timeout}
        self._client = redis.Redis.from_url(url, retry=Retry(NoBackoff(), 1), **quick)
        self._listener = redis.Redis.from_url(
            url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=self.timeout
        )
        self._pubsub: Any = None

    def _listen(self) -> None:
        pubsub = self._listener.pubsub()  # type: ignore[no-untyped-call]
        self._pubsub = pubsub
        try:
            pubsub.subscribe(CHANNEL)
            while not self._stop.is_set():
                message = pubsub.get_message(timeout=0.5)
                if message is None:
                    continue
                if message.get("type") == "subscribe":
                    self._listening()  # Redis confirmed: heard from now on
                elif message.get("type") == "message":
                    data = message["data"]
                    self._handle(data.decode() if isinstance(data, bytes) else str(data))
        finally:
            self._pubsub = None
            with suppress(Exception):
                pubsub.close()

    def announce(self, conn: Connection, table_id: int, version: int) -> None:
        return None  # Redis is outside the database's transaction: publish

    def publish(self, table_id: int, version: int) -> None:
        self._client.publish(CHANNEL, encode_news(self.origin, table_id, version))

    def stop(self) -> None:
        super().stop()
        for client in (self._client, self._listener):
            with suppress(Exception):
                client.close()


def _libpq_dsn(url: str) -> str:
    """An SQLAlchemy URL (postgresql+psycopg://…) as libpq takes it."""
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def make_bridge(backend: str, database_url: str, redis_url: str) -> Bridge | None:
    if backend == "local":
        return None
    if backend == "postgres":
        if not database_url.startswith("postgresql"):
            raise ValueError("ESCOBA_LIVE_BACKEND=postgres needs a PostgreSQL DATABASE_URL")
        return PostgresBridge(database_url)
    if backend == "sqlite":
        from escoba.web.live.sqlite_watch import SqliteWatch, sqlite_file

        if not database_url.startswith("sqlite"):
            raise ValueError("ESCOBA_LIVE_BACKEND=sqlite needs an SQLite DATABASE_URL")
        return SqliteWatch(database_url) if sqlite_file(database_url) else None
    if backend == "redis":
        if not redis_url:
            raise ValueError("ESCOBA_LIVE_BACKEND=redis needs ESCOBA_REDIS_URL")
        return RedisBridge(redis_url)
    raise ValueError(
        f"unknown ESCOBA_LIVE_BACKEND {backend!r}: auto, local, sqlite, postgres or redis"
    )


def wait_connected(bridge: Bridge | None, seconds: float) -> bool:
    """For start-up and tests: True once the bridge listens (or there is none)."""
    if bridge is None:
        return True
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if bridge.healthy:
            return True
        time.sleep(0.02)
    return bridge.healthy
