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


#: the longest pause between two tries to reconnect: a bus back is heard
#: again within about this long (and its missed news read: live/resync.py)
MAX_PAUSE = 2.0


class ListenerThread(ABC):
    """A daemon thread that keeps a subscription open, reconnecting with a
    growing pause after a failure. `state` hears each change: True once
    it listens (again), False when it lost its connection."""

    def __init__(self, name: str) -> None:
        self.origin = secrets.token_hex(8)
        self._name = name
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._receive: Callable[[int, int], None] = lambda table_id, version: None
        self._state: Callable[[bool], None] = lambda listening: None
        self.connected = threading.Event()
        #: set when a try failed, until the subscription is in place again
        self._deaf = threading.Event()

    def start(
        self,
        receive: Callable[[int, int], None],
        state: Callable[[bool], None] | None = None,
    ) -> None:
        self._receive = receive
        if state is not None:
            self._state = state
        metrics.bus_state(self._backend, False)  # until it listens
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._close_listener()
        if self._thread is not None:
            self._thread.join(timeout=5)
        metrics.bus_state(self._backend, False)  # a stopped listener hears nothing

    @property
    def healthy(self) -> bool:
        return self.connected.is_set()

    @property
    def listening(self) -> bool:
        """News from the other processes is heard (False from a failed try,
        the connection lost or never made, until it listens again; not
        before its first try, a few milliseconds at start-up)."""
        return not self._deaf.is_set()

    def _listening(self) -> None:
        """From `_listen`, once the subscription is in place: what is
        published from now on is heard; what came before, a resync reads."""
        self.connected.set()
        self._deaf.clear()
        self._tell(True)

    @property
    def _backend(self) -> str:
        """The bus's name in the metrics (`escoba_bus_up{backend}`)."""
        return str(getattr(self, "name", self._name))

    def _tell(self, listening: bool) -> None:
        metrics.bus_state(self._backend, listening)
        try:
            self._state(listening)
        except Exception:
            log.exception("live listener state hook failed")

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
                was = self.connected.is_set()
                self.connected.clear()
            if self._stop.is_set():
                return
            if was:
                pause = 0.1  # it had listened: the first try again at once
            if not self._deaf.is_set():
                self._deaf.set()
                self._tell(False)
            self._stop.wait(pause)
            pause = min(pause * 2, MAX_PAUSE)

    @abstractmethod
    def _listen(self) -> None:
        """Hold one subscription open until stopped, calling `_handle` for
        each message (PostgreSQL LISTEN or Redis SUBSCRIBE)."""

    def _close_listener(self) -> None:
        return None
