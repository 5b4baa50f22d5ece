"""No page stays behind: the news a bridge between processes (bridges.py)
lost while it was down is made up from the database.

A bridge carries `table_id:version` as it happens; what is published while
its connection is away (a PostgreSQL listener between two tries, a Redis
restarted, the SQLite watcher's connection lost) reaches nobody, and nothing
sends it again. So each process reads, in one query, the versions of the
tables its streams follow (`Broker.followed`) and wakes the streams of those
that moved past what they were told (`Broker.catch_up`):

- when its bridge's listener (re)connects, once it listens again (what is
  committed from then on comes by the bridge; what came before, from the
  database): the pages catch up within a few seconds of the bus's return;
- every `every` seconds (ESCOBA_LIVE_CHECK_SECONDS), the safety net for
  news lost any other way (a publish that failed, a silent connection).

It also tells the bridge's state to those who care (`on_state`): the
«watching» marks (web/notices/watching.py) hold only while the bus is heard."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import suppress

from escoba.web.base import metrics
from escoba.web.live.streams import Broker

log = logging.getLogger("escoba.live")

#: the pauses between the tries of a resynchronisation the database failed
RESYNC_RETRIES = (0.5, 1.0, 2.0, 4.0)

#: the versions of these tables now (escoba.web.table.reads.table_versions)
Versions = Callable[[list[int]], dict[int, int]]


class Resync:
    """One per process, over its broker; started on the event loop."""

    def __init__(self, broker: Broker, versions: Versions, every: float = 10.0) -> None:
        self.broker = broker
        self.versions = versions
        self.every = every
        self.on_state: list[Callable[[bool], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[int]] = set()
        self._failing = False
        #: for the operator (metrics): resynchronisations after a (re)connection,
        #: periodic checks, and the tables whose streams were sent missed news
        self.resyncs = 0
        self.checks = 0
        self.caught_up = 0
        #: the bridge's name, for the metrics (`escoba_bus_resyncs_total{backend}`)
        self.backend = "local"

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """From the event loop, after the broker is bound."""
        self._loop = loop
        if self.every > 0:
            self._ticker = loop.create_task(self._tick())

    def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        for task in list(self._running):
            task.cancel()

    def bus_state(self, listening: bool) -> None:
        """The bridge's listener, from its own thread: it listens again
        (True: resynchronise now) or it lost its connection (False). The
        hooks run off that thread (they write to the database, which may
        be away with the bus)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with suppress(RuntimeError):  # the loop closed meanwhile (the app stopping)
            if listening:
                loop.call_soon_threadsafe(self._resync)
            for hook in self.on_state:
                loop.call_soon_threadsafe(loop.run_in_executor, None, _guarded, hook, listening)

    def _resync(self) -> None:
        self.resyncs += 1
        metrics.bus_resynced(self.backend)
        task = asyncio.get_running_loop().create_task(self._resync_tries())
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _resync_tries(self) -> int:
        """A resynchronisation, tried again a few times while the database
        does not answer (it may come back just after the bus)."""
        for pause in RESYNC_RETRIES:
            caught = await self.catch_up()
            if not self._failing:
                return caught
            await asyncio.sleep(pause)
        return await self.catch_up()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.checks += 1
            await self.catch_up()

    async def catch_up(self) -> int:
        """On the event loop: read the followed tables' versions (one query,
        in a worker thread) and send each stream what it missed; how many
        tables had news missed. A database away: nothing now (logged once
        per spell), the next check tries again."""
        followed = self.broker.followed()
        if not followed:
            return 0
        try:
            now = await asyncio.to_thread(self.versions, followed)
        except Exception:
            if not self._failing:
                log.warning("live check: no versions read", exc_info=True)
            self._failing = True
            return 0
        self._failing = False
        caught = self.broker.catch_up(now)
        if caught:
            self.caught_up += caught
            log.info("live streams caught up", extra={"tables": caught})
        return caught


def _guarded(hook: Callable[[bool], None], listening: bool) -> None:
    try:
        hook(listening)
    except Exception:  # the database away with the bus: the next renewal tries again
        log.warning("live bus state hook failed", exc_info=True)
