"""Bridges between processes: the news of a table's new version must reach
the streams of every process (or machine). A `Bridge` carries
`table_id:version` to every other process — PostgreSQL LISTEN/NOTIFY when
the tables live there (no other service to run, and a NOTIFY is only sent
once its transaction commits), or Redis pub/sub (or, on SQLite alone, the
watcher of sqlite_watch.py). Each process delivers its own publications at
once and skips their echo. `Hub` is the service's notifier over both."""

from __future__ import annotations

import logging
import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Protocol

from sqlalchemy import Connection

from escoba.web.live import Broker

log = logging.getLogger("escoba.live")

CHANNEL = "escoba_live"


class Bridge(Protocol):
    """Carries `table_id:version` to the other processes. A command calls
    `announce` inside its transaction and `publish` after its commit; each
    bridge sends at one of the two (PostgreSQL's NOTIFY rides the
    transaction; Redis is outside it and publishes after the commit)."""

    name: str

    def start(self, receive: Callable[[int, int], None]) -> None: ...

    def announce(self, conn: Connection, table_id: int, version: int) -> None: ...

    def publish(self, table_id: int, version: int) -> None: ...

    def stop(self) -> None: ...

    @property
    def healthy(self) -> bool: ...


class Hub:
    """The service's notifier: local streams hear at once; the bridge, if
    any, tells the other processes."""

    def __init__(self, broker: Broker, bridge: Bridge | None = None) -> None:
        self.broker = broker
        self.bridge = bridge

    def start(self) -> None:
        if self.bridge is not None:
            self.bridge.start(self.broker.publish)

    def stop(self) -> None:
        if self.bridge is not None:
            self.bridge.stop()

    def announce(self, conn: Connection, table_id: int, version: int) -> None:
        """Inside a command's transaction."""
        if self.bridge is not None:
            self.bridge.announce(conn, table_id, version)

    def publish(self, table_id: int, version: int) -> None:
        """After the commit: the local streams hear at once."""
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


def _encode(origin: str, table_id: int, version: int) -> str:
    return f"{table_id}:{version}:{origin}"


def _decode(payload: str) -> tuple[int, int, str] | None:
    parts = payload.split(":", 2)
    if len(parts) != 3:
        return None
    try:
        return int(parts[0]), int(parts[1]), parts[2]
    except ValueError:
        return None


class ListenerThread(ABC):
    """A daemon thread that keeps a subscription open, reconnecting with a
    growing pause after a failure."""

    def __init__(self, name: str) -> None:
        self.origin = secrets.token_hex(8)
        self._name = name
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._receive: Callable[[int, int], None] = lambda table_id, version: None
        self.connected = threading.Event()

    def start(self, receive: Callable[[int, int], None]) -> None:
        self._receive = receive
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._close_listener()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def healthy(self) -> bool:
        return self.connected.is_set()

    def _handle(self, payload: str) -> None:
        decoded = _decode(payload)
        if decoded is None:
            return
        table_id, version, origin = decoded
        if origin != self.origin:
            self._receive(table_id, version)

    def _run(self) -> None:
        pause = 0.1
        while not self._stop.is_set():
            try:
                self._listen()
                pause = 0.1
            except Exception:
                if self._stop.is_set():
                    return
                log.warning("live listener lost its connection; reconnecting", exc_info=True)
            finally:
                self.connected.clear()
            self._stop.wait(pause)
            pause = min(pause * 2, 5.0)

    @abstractmethod
    def _listen(self) -> None:
        """Hold one subscription open until stopped, calling `_handle` for
        each message (PostgreSQL LISTEN or Redis SUBSCRIBE)."""

    def _close_listener(self) -> None:
        return None


class PostgresBridge(ListenerThread):
    """LISTEN/NOTIFY on the app's own PostgreSQL. A command's NOTIFY goes in
    its own transaction (`announce`): it leaves when the move commits,
    never before or without it, and needs no connection or transaction of
    its own."""

    name = "postgres"

    def __init__(self, url: str) -> None:
        super().__init__("escoba-live-pg")
        self._dsn = _libpq_dsn(url)

    def _listen(self) -> None:
        import psycopg

        with psycopg.connect(self._dsn, autocommit=True) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            self.connected.set()
            while not self._stop.is_set():
                for note in conn.notifies(timeout=0.5):
                    self._handle(note.payload)

    def announce(self, conn: Connection, table_id: int, version: int) -> None:
        conn.exec_driver_sql(
            "SELECT pg_notify(%(channel)s, %(payload)s)",
            {"channel": CHANNEL, "payload": _encode(self.origin, table_id, version)},
        )

    def publish(self, table_id: int, version: int) -> None:
        return None  # the NOTIFY went with the commit (announce)


class RedisBridge(ListenerThread):
    """Redis pub/sub, for SQLite with several processes on one machine, or
    to keep the notifications off the database."""

    name = "redis"

    def __init__(self, url: str) -> None:
        super().__init__("escoba-live-redis")
        import redis

        self._client = redis.Redis.from_url(url)
        self._pubsub: Any = None

    def _listen(self) -> None:
        pubsub = self._client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
        self._pubsub = pubsub
        try:
            pubsub.subscribe(CHANNEL)
            self.connected.set()
            while not self._stop.is_set():
                message = pubsub.get_message(timeout=0.5)
                if message is not None and message.get("type") == "message":
                    data = message["data"]
                    self._handle(data.decode() if isinstance(data, bytes) else str(data))
        finally:
            self._pubsub = None
            with suppress(Exception):
                pubsub.close()

    def announce(self, conn: Connection, table_id: int, version: int) -> None:
        return None  # Redis is outside the database's transaction: publish

    def publish(self, table_id: int, version: int) -> None:
        self._client.publish(CHANNEL, _encode(self.origin, table_id, version))

    def stop(self) -> None:
        super().stop()
        with suppress(Exception):
            self._client.close()


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
        from escoba.web.sqlite_watch import SqliteWatch, sqlite_file

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
