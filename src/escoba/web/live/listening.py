"""The listening half of a bridge between processes (bridges.py): a daemon
thread that holds one subscription open (PostgreSQL LISTEN, Redis SUBSCRIBE,
SQLite's data_version watch) and hands each other process's `table_id:version`
to the local streams, skipping its own echo. The bridges and the SQLite
watcher build on it; it imports neither."""

from __future__ import annotations

import logging
import secrets
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable

from escoba.web.base import metrics

log = logging.getLogger("escoba.live")

CHANNEL = "escoba_live"


def encode_news(origin: str, table_id: int, version: int) -> str:
    return f"{table_id}:{version}:{origin}"


def decode_news(payload: str) -> tuple[int, int, str] | None:
    parts = payload.split(":", 2)
    if len(parts) != 3:
        return None
    try:
        return int(parts[0]), int(parts[1]), parts[2]
    except ValueError:
        return None


class _Connected(threading.Event):
    """A listener's «connected» flag that tells the metrics of each change
    (`escoba_bus_up`: web/base/metrics.py)."""

    def __init__(self, backend: Callable[[], str]) -> None:
        super().__init__()
        self._backend = backend

    def set(self) -> None:
        super().set()
        metrics.bus_state(self._backend(), True)

    def clear(self) -> None:
        was = self.is_set()
        super().clear()
        if was:
            metrics.bus_state(self._backend(), False)


class ListenerThread(ABC):
    """A daemon thread that keeps a subscription open, reconnecting with a
    growing pause after a failure."""

    def __init__(self, name: str) -> None:
        self.origin = secrets.token_hex(8)
        self._name = name
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._receive: Callable[[int, int], None] = lambda table_id, version: None
        # set by each bridge's `_listen` once it listens, cleared when it stops
        self.connected: threading.Event = _Connected(lambda: getattr(self, "name", name))

    def start(self, receive: Callable[[int, int], None]) -> None:
        self._receive = receive
        metrics.bus_state(getattr(self, "name", self._name), False)  # until it listens
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
        decoded = decode_news(payload)
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
