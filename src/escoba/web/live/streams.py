"""Live updates in a process: after a command commits, the service publishes
the table's new version; every open stream of that table hears it and each
client fetches its own view. Events carry only the version, never a card,
unless the stream was opened by a table page for its own board (`board`):
then each event is that board, rendered for the stream's own viewer (the
cookies it was opened with) as a fetch of it would be, which saves the page
the second round trip. Other processes' changes arrive through a bridge
(bridges.py)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from contextvars import ContextVar
from typing import Any

from starlette.responses import Response

from escoba.web.base import metrics

log = logging.getLogger("escoba.live")

PING_TICKS = 5  # the pinger looks for quiet streams this often per ping period

#: A compressed stream's deflate state, kept for as long as the stream is
#: open: a 16 KB window (a board is ~11 KB: the next board is told mostly as
#: «as before») in ~100 KB of memory a stream, not zlib's default ~270 KB.
STREAM_GZIP_LEVEL = 6
STREAM_WINDOW_BITS = 14
STREAM_MEM_LEVEL = 6

#: The seat whose command is being published (`acting`), if any.
ACTING: ContextVar[int | None] = ContextVar("escoba_acting_seat", default=None)


@contextmanager
def acting(seat_id: int | None) -> Iterator[None]:
    """What is published in here is the command of seat `seat_id`: its own
    streams are woken after everybody else's (`Broker.deliver`). Its page
    has the new board in the command's answer already; the others' pages
    have nothing yet, and each stream's board is rendered in turn on the
    one event loop, so theirs go first."""
    reset = ACTING.set(seat_id)
    try:
        yield
    finally:
        ACTING.reset(reset)


class Subscription:
    """One open stream: the newest version it has not sent yet (a slow client
    skips to the latest table instead of queueing stale ones). With `wake`,
    the stream's own wake-up, it is more news for a stream that has a
    subscription already (`SideNews`), not a stream of its own."""

    __slots__ = ("closed", "last_sent", "pending", "ping", "seat", "side", "version", "wake")

    def __init__(self, wake: asyncio.Event | None = None, seat: int | None = None) -> None:
        self.seat = seat  # the seat whose viewer holds the stream (None: a spectator)
        self.version = 0
        self.pending = False  # news not sent yet (a chat line keeps the version)
        self.ping = False
        self.closed = False
        self.last_sent = time.monotonic()
        self.side = wake is not None
        self.wake = wake if wake is not None else asyncio.Event()


class Broker:
    """In-process fan-out from publishers (any thread) to the open streams
    (the event loop). One timer pings the streams that have been quiet for
    `ping_seconds` (proxies close idle connections), a few at each tick, never
    all at once; nothing else runs per connection but its own response.

    It also counts the open streams of each client address: a stream is held
    for as long as the page is open, so without a cap one client could hold
    thousands of connections (`streams_per_client`, 0 for no cap)."""

    def __init__(self, ping_seconds: float = 15.0, streams_per_client: int = 0) -> None:
        self._subscribers: dict[int, set[Subscription]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0
        self._ping_seconds = ping_seconds
        self._pinger: asyncio.Task[None] | None = None
        self._per_client: dict[str, int] = {}
        self._streams_per_client = streams_per_client
        self._closed = False
        #: the newest version each followed table's streams were told of (or
        #: shown when they opened): what a resynchronisation compares with
        self._told: dict[int, int] = {}

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        return self._loop

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """From the event loop, at start-up."""
        self._loop = loop
        self._loop_thread = threading.get_ident()
        if self._ping_seconds > 0:
            self._pinger = loop.create_task(self._ping())

    def publish(self, table_id: int, version: int) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            self.deliver(table_id, version)  # a route on the loop: no wake-up needed
        else:
            loop.call_soon_threadsafe(self.deliver, table_id, version)

    def deliver(self, table_id: int, version: int) -> None:
        """Wake the table's streams, those of the seat `acting` last (a
        stream runs in the order it was woken): on the loop's next turn, so
        that its command's own answer (`Visit.answer`, which lets the loop
        run the others' first) is made before them."""
        if table_id in self._subscribers:
            self._told[table_id] = max(version, self._told.get(table_id, 0))
        actor = ACTING.get()
        later = []
        for sub in self._subscribers.get(table_id, ()):
            sub.version = max(sub.version, version)
            sub.pending = True
            if actor is not None and sub.seat == actor:
                later.append(sub)
            else:
                sub.wake.set()
        loop = self._loop
        for sub in later:
            if loop is not None and not loop.is_closed():
                loop.call_soon(sub.wake.set)
            else:
                sub.wake.set()

    def shown(self, table_id: int, version: int) -> None:
        """A stream of `table_id` opened on a page of `version` (on the loop)."""
        if table_id in self._subscribers:
            self._told[table_id] = max(version, self._told.get(table_id, 0))

    def followed(self) -> list[int]:
        """The tables this process's streams follow (a device's channel,
        below zero, is no table)."""
        return sorted(t for t in self._subscribers if t > 0)

    def catch_up(self, versions: dict[int, int]) -> int:
        """On the loop: each followed table whose version in `versions` (the
        database's, now) is newer than its streams were told is delivered;
        how many. A table whose streams were told nothing yet (a list's, «Mis
        mesas») is delivered once: such streams compare for themselves."""
        caught = 0
        for table_id, version in versions.items():
            if table_id not in self._subscribers:
                continue
            told = self._told.get(table_id)
            if told is None or version > told:
                self.deliver(table_id, version)
                self._told[table_id] = max(version, told or 0)
                caught += 1 if told is not None else 0
        return caught

    @property
    def connections(self) -> int:
        """Open streams (one that listens to many tables counts once)."""
        subs: set[Subscription] = set().union(*self._subscribers.values())
        return sum(1 for sub in subs if not sub.side)

    def attach(self, table_id: int, seat: int | None = None) -> Subscription:
        sub = Subscription(seat=seat)
        if self._closed:  # shutting down: the stream ends at once
            sub.closed = True
            sub.wake.set()
        self._subscribers.setdefault(table_id, set()).add(sub)
        return sub

    def admit(self, client: str) -> bool:
        """Take one of `client`'s stream places, or False when it holds them
        all (checked and taken in one step on the loop, so concurrent
        requests cannot overshoot). Every True is paired with `release`."""
        held = self._per_client.get(client, 0)
        if self._streams_per_client and held >= self._streams_per_client:
            return False
        self._per_client[client] = held + 1
        return True

    def release(self, client: str) -> None:
        held = self._per_client.get(client, 0) - 1
        if held > 0:
            self._per_client[client] = held
        else:
            self._per_client.pop(client, None)

    def detach(self, table_id: int, sub: Subscription) -> None:
        subs = self._subscribers.get(table_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subscribers[table_id]
                self._told.pop(table_id, None)

    def attach_many(
        self, table_ids: Iterable[int], sub: Subscription | None = None
    ) -> Subscription:
        """One subscription that any of these tables' changes wake (a list
        of tables: «Mis mesas»); `sub` to add tables to one already made."""
        if sub is None:
            sub = Subscription()
            if self._closed:
                sub.closed = True
                sub.wake.set()
        for table_id in table_ids:
            self._subscribers.setdefault(table_id, set()).add(sub)
        return sub

    def detach_many(self, table_ids: Iterable[int], sub: Subscription) -> None:
        for table_id in table_ids:
            self.detach(table_id, sub)

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(self._ping_seconds / PING_TICKS)
            self.ping_quiet(time.monotonic())

    def ping_quiet(self, now: float) -> int:
        """Ping the streams that sent nothing for `ping_seconds`; how many."""
        quiet = now - self._ping_seconds
        pinged = 0
        for subs in self._subscribers.values():
            for sub in subs:
                if sub.last_sent <= quiet and not sub.ping and not sub.side:
                    sub.ping = True
                    sub.wake.set()
                    pinged += 1
        return pinged

    def close(self) -> None:
        """At shutdown: every stream ends, and any opened from now on ends at
        once (browsers reconnect, to another process or to this one
        restarted, and catch up with their Last-Event-ID). Idempotent."""
        self._closed = True
        if self._pinger is not None:
            self._pinger.cancel()
        for subs in self._subscribers.values():
            for sub in subs:
                sub.closed = True
                sub.wake.set()


EXIT_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def close_on_exit_signals(broker: Broker, loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
    """On SIGTERM (or SIGINT) uvicorn stops accepting, then waits for every
    open connection to finish, and only then runs the app's lifespan shutdown.
    A live stream never finishes by itself, so a restart would wait until the
    last browser left. This chains a hook onto the server's own handlers (as
    uvicorn, its `--workers` children and gunicorn's uvicorn worker install
    them before the app starts): the streams end as soon as the signal comes,
    and the server's wait ends with them. Does nothing outside the main
    thread (an app served by a test's thread) or when the server left a
    signal at its default. Returns the undo, for the lifespan shutdown."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    hooks: dict[int, tuple[Any, Any]] = {}
    pid = os.getpid()

    def end_streams() -> None:
        # a process forked later (the robots' pool) inherits the handler: not its streams
        if os.getpid() == pid and not loop.is_closed():
            loop.call_soon_threadsafe(broker.close)

    for sig in EXIT_SIGNALS:
        previous = signal.getsignal(sig)
        if not callable(previous):
            continue

        def hook(signum: int, frame: Any, previous: Any = previous) -> None:
            end_streams()
            previous(signum, frame)

        signal.signal(sig, hook)
        hooks[sig] = (hook, previous)

    def undo() -> None:
        for sig, (hook, previous) in hooks.items():
            if signal.getsignal(sig) is hook:
                signal.signal(sig, previous)

    return undo


class EventStream(Response, ABC):
    """A `text/event-stream` written straight to the ASGI server (per event,
    one wake-up and one send): its head, then `_events` until the client
    leaves; the stream place of `client` (`Broker.admit`) is given back when
    it ends, however it ends."""

    media_type = "text/event-stream"

    def __init__(self, broker: Broker, client: str | None = None, gzip: bool = False) -> None:
        """`gzip`: the stream is compressed (one gzip stream, flushed at
        each event, so no event waits for the next one)."""
        super().__init__(content=None, media_type=self.media_type)
        self.broker = broker
        self.client = client
        self.gzip = gzip

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        metrics.stream_opened()
        try:
            await self._stream(scope, receive, send)
        finally:
            metrics.stream_closed()
            if self.client is not None:
                self.broker.release(self.client)

    async def _stream(self, scope: Any, receive: Any, send: Any) -> None:
        headers = [
            (b"content-type", b"text/event-stream; charset=utf-8"),
            (b"cache-control", b"no-store"),
            (b"x-accel-buffering", b"no"),  # nginx: do not buffer the stream
        ]
        if self.gzip:
            headers += [(b"content-encoding", b"gzip"), (b"vary", b"accept-encoding")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        if scope.get("method") == "HEAD":
            await send({"type": "http.response.body", "body": b""})
            return
        await self._events(receive, gzip_flushed(send) if self.gzip else send)

    @abstractmethod
    async def _events(self, receive: Any, send: Any) -> None:
        """The stream's body, until the client leaves (`_pump` does the rest)."""

    async def _pump(
        self,
        receive: Any,
        send: Any,
        sub: Subscription,
        news: Callable[[], bytes | None],
        side: SideNews | None = None,
    ) -> None:
        """Send `sub`'s events until the client leaves: when it has news,
        `news()` gives the event to send (b"": none; None: end the stream,
        the browser reconnects), and a ping when the broker asks for one.
        `side`: more news that wakes the same pump (its own subscription)."""

        async def watch_disconnect() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            sub.closed = True
            sub.wake.set()

        watcher = asyncio.get_running_loop().create_task(watch_disconnect())
        try:
            await send(
                {"type": "http.response.body", "body": b"retry: 2000\n\n", "more_body": True}
            )
            while True:
                await sub.wake.wait()
                sub.wake.clear()
                if sub.closed:
                    break
                body = b""
                if sub.pending:
                    sub.pending = False
                    update = news()
                    if update is None:
                        break
                    body = update
                if side is not None and side.sub.pending:
                    side.sub.pending = False
                    body += side.news()
                if sub.ping:
                    sub.ping = False
                    body += b": ping\n\n"
                if body:
                    sub.last_sent = time.monotonic()
                    await send({"type": "http.response.body", "body": body, "more_body": True})
            with suppress(Exception):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            watcher.cancel()


def gzip_flushed(send: Any) -> Any:
    """`send`, its bodies compressed as one gzip stream, each flushed whole
    (Z_SYNC_FLUSH: the browser can decode every event as it comes)."""
    z = zlib.compressobj(
        STREAM_GZIP_LEVEL, zlib.DEFLATED, 16 + STREAM_WINDOW_BITS, STREAM_MEM_LEVEL
    )

    async def compressed(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            more = message.get("more_body", False)
            body = z.compress(message.get("body", b""))
            body += z.flush(zlib.Z_SYNC_FLUSH if more else zlib.Z_FINISH)
            message = {**message, "body": body}
        await send(message)

    return compressed


class SideNews(ABC):
    """More news a table's stream carries, from other tables (the viewer's
    other tables: web/live/my_tables_live.py). `open` subscribes to them with the
    stream's own wake-up, so one pump, one connection, serves both; `news`
    is what their change means for the page (b"": nothing to send);
    `close` ends the subscription."""

    sub: Subscription

    @abstractmethod
    def open(self, wake: asyncio.Event) -> None: ...

    @abstractmethod
    def news(self) -> bytes: ...

    @abstractmethod
    def close(self) -> None: ...


def board_event(version: int, html: str) -> bytes:
    """`event: board`: a board's HTML as the event's data (a `data:` field a
    line), its version as the `id`."""
    lines = html.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    data = b"".join(b"data: %s\n" % line.encode() for line in lines)
    return b"event: board\nid: %d\n%s\n" % (version, data)


class LiveStream(EventStream):
    """`text/event-stream` of one table: `event: update` with the version
    (also its `id`, which a browser sends back as `Last-Event-ID` when it
    reconnects) after each change, a comment line as a ping. With `board`,
    `event: board` instead: the stream's viewer's board (`board_event`);
    when it cannot be made, the plain update (the page fetches it, and
    shows why)."""

    def __init__(
        self,
        broker: Broker,
        table_id: int,
        since: int | None = None,
        current: Callable[[], int] | None = None,
        client: str | None = None,
        watching: AbstractContextManager[None] | None = None,
        side: SideNews | None = None,
        board: Callable[[], tuple[int, str]] | None = None,
        seat: int | None = None,
        gzip: bool = False,
    ) -> None:
        """`since`: the version the client already shows (its page's, or the
        `id` of the last event it heard); if the table has moved on, the
        stream starts with an update, so a client that was away catches up.
        `client`: the address whose stream place (`Broker.admit`) this
        stream holds, given back when it ends, however it ends.
        `watching`: held while the stream is open (its seat is looking at
        the table: escoba.web.notices.watching). `side`: more news the stream
        carries (the viewer's other tables). `board`: the viewer's board
        now and its version (`routes.Visit.board_now`), sent on each change.
        `seat`: the seat the viewer holds (its own commands wake it last).
        `gzip`: compressed (`EventStream`), for the boards."""
        super().__init__(broker, client, gzip)
        self.board = board
        self.seat = seat
        self.table_id = table_id
        self.since = since
        self.current = current
        self.watching = watching
        self.side = side

    async def _events(self, receive: Any, send: Any) -> None:
        with self.watching or nullcontext():
            await self._table_events(receive, send)

    async def _table_events(self, receive: Any, send: Any) -> None:
        sub = self.broker.attach(self.table_id, self.seat)
        if self.current is not None:
            # after attaching: a change from now on is heard anyway
            try:
                now = self.current()
            except Exception:
                if self.since is not None:
                    raise
                now = -1  # the database away: the first resync tells the stream
            else:
                self.broker.shown(self.table_id, now)  # what a resync compares with
            if self.since is not None and now > self.since:
                sub.version = max(sub.version, now)
                sub.pending = True
                sub.wake.set()

        last: list[bytes] = []  # the board sent last

        def news() -> bytes:
            if self.board is not None:
                try:
                    version, html = self.board()
                except Exception:  # the page's fetch says why (a 404, the database away)
                    log.info("no board for the live stream", exc_info=True)
                else:
                    event = board_event(version, html)
                    if last and last[0] == event:
                        # woken late, it sent the board as it was by then:
                        # the next version's news finds the same board
                        return b""
                    last[:] = [event]
                    return event
            last.clear()
            return b"event: update\nid: %d\ndata: %d\n\n" % (sub.version, sub.version)

        if self.side is not None:
            self.side.open(sub.wake)
        try:
            await self._pump(receive, send, sub, news, self.side)
        finally:
            self.broker.detach(self.table_id, sub)
            if self.side is not None:
                self.side.close()
