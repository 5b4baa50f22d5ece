"""«Mis mesas», live: one stream per open home page listens to every table
of the device's list through the same broker as the table pages (a change
of any of them wakes it, whichever process made it: the bridges carry it),
and tells the page to fetch its list again. An event carries the list's
`mark` (web/devices/my_tables.py), never a card; a browser that reconnects sends
the last one it heard (`Last-Event-ID`) and the stream starts with an update
if the list changed meanwhile. A table page's own stream hears the rest of
the list too (`ElsewhereNews`), for its «Siguiente mesa (N)».

A table the device joins while its pages are open joins their lists too:
the device has a channel of its own on the broker (`device_channel`, where
no table's id is), which `DeviceNews` announces and publishes through the
hub as a table's change is (so the other processes hear it, by PostgreSQL
or Redis), and each of the device's streams listens to it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection

from escoba.web.devices.my_tables import Elsewhere
from escoba.web.live.bridges import Hub
from escoba.web.live.streams import Broker, EventStream, SideNews, Subscription

log = logging.getLogger("escoba.live")

#: the list's mark and its tables' ids, now (`devices.my_tables.MyTables.mark`)
Mark = Callable[[], tuple[int, tuple[int, ...]]]


def device_channel(device_id: int) -> int:
    """The broker's channel of a device's list: below every table's id."""
    return -device_id


class DeviceNews:
    """The devices' listener (`devices.devices.DeviceListener`): a device that
    holds a new seat wakes its open pages' streams, in every process."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def during(self, conn: Connection, device_id: int) -> None:
        self.hub.announce(conn, device_channel(device_id), 0)

    def after(self, device_id: int) -> None:
        self.hub.publish(device_channel(device_id), 0)


class ListStream(EventStream):
    """`text/event-stream` of a device's list: `event: update` (its `id` the
    list's new mark) when a listed table changed, a comment line as a ping."""

    def __init__(
        self,
        broker: Broker,
        mark: Mark,
        since: int | None = None,
        client: str | None = None,
        device_id: int | None = None,
    ) -> None:
        """`since`: the mark the page shows; `client`: the address whose stream
        place (`Broker.admit`) this stream holds, given back when it ends;
        `device_id`: the device whose list it is (a table it joins later is
        heard of on its channel)."""
        super().__init__(broker, client)
        self.mark = mark
        self.since = since
        self.device_id = device_id

    async def _events(self, receive: Any, send: Any) -> None:
        mark, ids = self.mark()
        watched = set(ids)
        if self.device_id is not None:
            watched.add(device_channel(self.device_id))
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


class ElsewhereNews(SideNews):
    """A table page's stream also listens to the viewer's other tables (the
    device's list, `Elsewhere.table_ids`), on the same connection: when the
    tables waiting for the viewer there change (a turn come to them
    elsewhere, or gone), it sends `event: elsewhere`, and the page fetches
    its board again, whose «Siguiente mesa (N)» leads on. Its data counts
    the tables waiting (no version: the `id` a reconnecting browser sends
    stays the table's). A change elsewhere that moves nothing for the
    viewer (a robot's move at a table waiting for the others) sends nothing;
    each change heard costs one reading of the list (web/devices/my_tables.py: as
    few statements whatever its length)."""

    def __init__(
        self,
        broker: Broker,
        read: Callable[[], Elsewhere],
        shown: int | None = None,
        device_id: int | None = None,
    ) -> None:
        """`read`: the viewer's other tables now (`MyTables.elsewhere`);
        `shown`: the `Elsewhere.digest` of the page's board, if it said (a
        stream opened on an older board starts with an event); `device_id`:
        the viewer's device, whose channel tells of a table it joins later."""
        self.broker = broker
        self.read = read
        self.shown = shown
        self.device_id = device_id
        self.sub = Subscription()
        self.watched: set[int] = set()
        self.sent = 0

    def open(self, wake: asyncio.Event) -> None:
        self.sub = Subscription(wake)
        now = self._read()
        if now is None:  # the database is away: this stream tells nothing of elsewhere
            return
        self.sent = now.digest
        self.watched = set(now.table_ids)
        if self.device_id is not None:
            self.watched.add(device_channel(self.device_id))
        self.broker.attach_many(self.watched, self.sub)
        if self.shown is not None and self.shown != self.sent:
            self.sent = self.shown
            self.sub.pending = True
            wake.set()

    def news(self) -> bytes:
        now = self._read()
        if now is None:
            return b""
        new = set(now.table_ids) - self.watched
        if new:  # a table joined the list: hear it too
            self.broker.attach_many(new, self.sub)
            self.watched.update(new)
        if now.digest == self.sent:
            return b""
        self.sent = now.digest
        return b"event: elsewhere\ndata: waiting=%d\n\n" % len(now.invites)

    def close(self) -> None:
        self.broker.detach_many(self.watched, self.sub)

    def _read(self) -> Elsewhere | None:
        try:
            return self.read()
        except Exception:
            log.warning("a table stream did not read the other tables", exc_info=True)
            return None
