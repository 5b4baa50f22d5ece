"""uvicorn's HTTP protocol with a deadline and a size cap for a request's head.

uvicorn closes a kept-alive connection that stays idle, but has no deadline
for the request line and headers themselves: a client that connects and
sends nothing, or sends its headers a byte at a time, holds the connection
(and its file descriptor) for as long as it likes. Nor has its httptools
protocol a cap on their size: a 1 MB header is read, kept and handed to the
app. Behind nginx or Caddy the proxy enforces both; served directly by
`escoba serve` this class does: a head over `ESCOBA_MAX_HEADER_BYTES` is
answered 431 (the app's own refusal: JSON under /api/, a page elsewhere)
as soon as that many bytes came without its end, and closed. The body's
deadline is the app's (`BodyLimitMiddleware`), so that it holds under any
server, and so is a second head cap (`HeaderLimitMiddleware`), for servers
that take heads of any size.

`escoba serve` passes it to uvicorn (`http=`); uvicorn's own command line
takes only its built-in protocols, so under `uvicorn escoba.web.asgi:app`
there is no head deadline (put a proxy in front, as docs/deploy.md says),
and an oversized head is read whole before the app refuses it."""

from __future__ import annotations

import asyncio
import logging
from functools import cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from escoba.web.base.settings import Settings
from escoba.web.frame.security import refusal_parts

log = logging.getLogger("escoba.security")

REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"content-length: 16\r\n"
    b"connection: close\r\n"
    b"\r\n"
    b"Request Timeout\n"
)


#: How long a refused head's connection stays open to read (and drop) what
#: the client was still sending, once the answer is out.
LINGER_SECONDS = 2.0


@cache
def head_limits() -> tuple[float, int]:
    """`ESCOBA_REQUEST_TIMEOUT_SECONDS` and `ESCOBA_MAX_HEADER_BYTES`, read
    once per process (every worker process reads the same environment)."""
    settings = Settings()
    return settings.request_timeout_seconds, settings.max_header_bytes


class HeadLimitsProtocol(HttpToolsProtocol):
    """A request's head must be complete within the deadline
    (`ESCOBA_REQUEST_TIMEOUT_SECONDS`) of its first byte (of the connection,
    for the first request); otherwise the connection is closed, with a 408
    if a request had begun (a connection that never sent a byte is closed
    quietly, as a browser's unused preconnection may be). Nothing changes
    once the head is in: a live stream may stay open for hours.

    And it must end within `ESCOBA_MAX_HEADER_BYTES`: the bytes of a head
    are counted as they come, the parser is never fed past the cap without
    the head's end, and a head that has not ended by then gets 431 and the
    connection is closed. (A request pipelined behind another in one read is
    counted from the next read on: the cap is then off by less than a read.)"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timeout, self.max_head_bytes = head_limits()
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_begun = False
        self._head_open = True  # the next bytes are a head's
        self._head_bytes = 0
        self._discarding = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        if self._discarding:  # refused: the rest goes unread
            return
        if not self._head_open or self.max_head_bytes <= 0:
            super().data_received(data)
            return
        room = self.max_head_bytes - self._head_bytes
        if len(data) <= room:
            self._head_bytes += len(data)
            super().data_received(data)
            return
        if room > 0:  # as much as the cap allows: does the head end in it?
            super().data_received(data[:room])
            if self.transport.is_closing():
                return
        if self._head_open:
            self._head_too_large()
            return
        super().data_received(data[room:])  # the head ended within the cap

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._head_open, self._head_bytes = True, 0  # the next request's head

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_begun = True
        self._arm_head_timer()

    def on_headers_complete(self) -> None:
        self._head_begun = False
        self._head_open = False
        self._cancel_head_timer()
        super().on_headers_complete()

    def _arm_head_timer(self) -> None:
        if self._head_timer is None and self.head_timeout > 0:
            self._head_timer = self.loop.call_later(self.head_timeout, self._head_too_slow)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self._head_begun and (self.cycle is None or self.cycle.response_complete):
            # a request began, and no earlier response is being written: say why
            self.transport.write(REQUEST_TIMEOUT)
        self.transport.close()

    def _head_too_large(self) -> None:
        """431, said as the app says it (the path and the headers read so far
        tell JSON from a page, and the page's language), and close."""
        self._cancel_head_timer()
        url: bytes = getattr(self, "url", b"")  # set when a request begins
        path = url.split(b"?", 1)[0].decode("latin-1") or "/"
        log.warning("request head too large", extra={"path": path[:200]})
        if self.cycle is None or self.cycle.response_complete:
            scope = {"path": path, "headers": self.headers or [], "scheme": self.scheme}
            kb = max(1, self.max_head_bytes // 1024)
            headers, body = refusal_parts(scope, "headers_too_large", values={"kb": kb})
            head = b"".join(k + b": " + v + b"\r\n" for k, v in headers)
            self.transport.write(STATUS_LINE[431] + head + b"connection: close\r\n\r\n" + body)
        # A lingering close: the answer, then the end of our side, while what
        # the client still sends is read and dropped for a moment; closing at
        # once, with its bytes unread, would reset the connection, and the
        # client could lose the answer.
        self._discarding = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECONDS, self.transport.close)
