"""Live updates: after a command commits, the service publishes the table's new
version; every open stream of that table hears it and each client fetches its
own view. Events carry only the version, never a card."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import suppress


class Broker:
    """In-process fan-out from publishers (any thread) to SSE streams (the
    event loop). Each stream keeps only the newest version: a slow client
    skips to the latest table instead of queueing stale ones."""

    def __init__(self) -> None:
        self._subscribers: dict[int, set[asyncio.Queue[int]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def publish(self, table_id: int, version: int) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self.deliver, table_id, version)

    def deliver(self, table_id: int, version: int) -> None:
        for queue in list(self._subscribers.get(table_id, ())):
            if queue.full():
                with suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(version)

    @property
    def connections(self) -> int:
        return sum(len(s) for s in self._subscribers.values())

    async def subscribe(self, table_id: int) -> AsyncIterator[int]:
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
        self._subscribers.setdefault(table_id, set()).add(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            subs = self._subscribers.get(table_id)
            if subs is not None:
                subs.discard(queue)
                if not subs:
                    del self._subscribers[table_id]
