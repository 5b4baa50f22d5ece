"""The push channel in a process of its own (ESCOBA_PUSH_PROCESSES=1, the
default): the dispatcher hands it the notices, and the words, the encryption,
the requests, the retries and the bookkeeping of the subscriptions run there,
with the channel's threads. The app's process keeps none of that CPU, so its
threads never hold the GIL the event loop needs: under the load bench, with
every seat subscribed, a move's p99 went from 2–3× the bench's without push
(the pushes' threads in the app) to within its noise (bench/RESULTS-load.md).

The worker is a fresh interpreter (spawn: the app has threads, which a fork
does not copy), started with the first notices and started again if it dies;
it reads the subscriptions from the database like the app does.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import queue
import threading
from collections.abc import Sequence
from multiprocessing.process import BaseProcess
from typing import Any

from escoba.web.base.settings import Settings
from escoba.web.notices.notice import Notice

log = logging.getLogger("escoba.push")

#: how long closing waits for the worker to send what it was given
STOP_SECONDS = 10.0


class PushWorker:
    """`escoba.web.notices.notice.Channel` for Web Push, sending from a worker process."""

    name = "push"

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._context = multiprocessing.get_context("spawn")
        self._queue: Any = None
        self._process: BaseProcess | None = None
        self._lock = threading.Lock()
        self._closed = False

    def deliver(self, notices: Sequence[Notice]) -> None:
        """Hand the notices to the worker (started if it is not running);
        never raises, never waits for a push."""
        if not notices:
            return
        try:
            with self._lock:
                if self._closed:
                    return
                if self._process is None or not self._process.is_alive():
                    self._start()
                self._queue.put(list(notices))
        except Exception:
            log.exception("push worker: could not hand over the notices")

    def _start(self) -> None:
        if self._process is not None:
            code = self._process.exitcode
            log.error("push worker stopped (exit code %s); starting a new one", code)
        channel = self._context.Queue()
        process = self._context.Process(
            target=serve,
            args=(self.settings.model_dump(), channel),
            name="escoba-push",
            daemon=True,
        )
        try:
            process.start()
        except BaseException:
            channel.close()
            raise
        # kept once started: closing joins only a process that began
        self._queue, self._process = channel, process

    def close(self) -> None:
        """Let the worker send what it has (up to STOP_SECONDS), then stop it."""
        with self._lock:
            self._closed = True
            process, channel = self._process, self._queue
        if process is None or channel is None:
            return
        with contextlib.suppress(OSError, ValueError):  # a queue already broken
            channel.put(None)
        process.join(STOP_SECONDS)
        if process.is_alive():
            process.terminate()
            process.join(1.0)
        channel.close()


def serve(settings_data: dict[str, Any], notices: Any) -> None:
    """The worker process: a push channel of its own over the app's database,
    delivering each batch of notices it is handed, until it is handed None."""
    from escoba.web.base.clock import SystemClock
    from escoba.web.base.db import Database
    from escoba.web.base.logs import configure
    from escoba.web.notices.push.channel import PushChannel
    from escoba.web.notices.push.vapid import Vapid

    settings = Settings.model_validate(settings_data)
    configure(settings.log_format, settings.log_level)
    db = Database(
        settings.sqlalchemy_url, settings.sqlite_synchronous, settings.sqlite_busy_seconds
    )
    channel = PushChannel(db, settings, SystemClock(), Vapid.from_settings(settings, db))
    try:
        while True:
            try:
                batch = notices.get()
            except (EOFError, OSError, queue.Empty):
                break
            if batch is None:
                break
            channel.deliver(batch)
        channel.wait_idle(STOP_SECONDS)
    finally:
        channel.close()
        db.dispose()
