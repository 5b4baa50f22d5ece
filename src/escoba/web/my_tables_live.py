"""«Mis mesas», live: one stream per open home page listens to every table
of the device's list through the same broker as the table pages (a change
of any of them wakes it, whichever process made it: the bridges carry it),
and tells the page to fetch its list again. An event carries the list's
`mark` (web/my_tables.py), never a card; a browser that reconnects sends
the last one it heard (`Last-Event-ID`) and the stream starts with an update
if the list changed meanwhile."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from escoba.web.live import Broker, EventStream

log = logging.getLogger("escoba.live")

#: the list's mark and its tables' ids, now (`TableService.my_tables_mark`)
Mark = Callable[[], tuple[int, tuple[int, ...]]]


class ListStream(EventStream):
    """`text/event-stream` of a device's list: `event: update` (its `id` the
    list's new mark) when a listed table changed, a comment line as a ping."""

    def __init__(
        self, broker: Broker, mark: Mark, since: int | None = None, client: str | None = None
    ) -> None:
        """`since`: the mark the page shows; `client`: the address whose stream
        place (`Broker.admit`) this stream holds, given back when it ends."""
        super().__init__(broker, client)
        self.mark = mark
        self.since = since

    async def _events(self, receive: Any, send: Any) -> None:
        mark, ids = self.mark()
        watched = set(ids)
        sub = self.broker.attach_many(watched)
        sent = self.since if self.since is not None else mark
        if mark != sent:  # it changed since the page was made
            sub.pending = True
            sub.wake.set()

        def news() -> bytes | None:
            nonlocal sent
            try:
                mark, ids = self.mark()
            except Exception:  # the database is away: the browser reconnects
                log.warning("my tables stream ended: no mark", exc_info=True)
                return None
            new = set(ids) - watched
            if new:  # a table joined the list: hear it too
                self.broker.attach_many(new, sub)
                watched.update(new)
            if mark == sent:
                return b""
            sent = mark
            return b"event: update\nid: %d\ndata: %d\n\n" % (mark, mark)

        try:
            await self._pump(receive, send, sub, news)
        finally:
            self.broker.detach_many(watched, sub)
