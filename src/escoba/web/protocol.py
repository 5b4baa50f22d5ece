"""uvicorn's HTTP protocol with a deadline for a request's head.

uvicorn closes a kept-alive connection that stays idle, but has no deadline
for the request line and headers themselves: a client that connects and
sends nothing, or sends its headers a byte at a time, holds the connection
(and its file descriptor) for as long as it likes. Behind nginx or Caddy the
proxy enforces such a deadline; served directly by `escoba serve` this class
does. The body's deadline is the app's (`BodyLimitMiddleware`), so that it
holds under any server.

`escoba serve` passes it to uvicorn (`http=`); uvicorn's own command line
takes only its built-in protocols, so under `uvicorn escoba.web.asgi:app`
there is no head deadline (put a proxy in front, as docs/deploy.md says)."""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from escoba.web.settings import Settings

REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"content-length: 16\r\n"
    b"connection: close\r\n"
    b"\r\n"
    b"Request Timeout\n"
)


@cache
def head_timeout() -> float:
    """`ESCOBA_REQUEST_TIMEOUT_SECONDS`, read once per process (every worker
    process reads the same environment)."""
    return Settings().request_timeout_seconds


class HeadDeadlineProtocol(HttpToolsProtocol):
    """A request's head must be complete within `head_timeout()` seconds
    of its first byte (of the connection, for the first request); otherwise
    the connection is closed, with a 408 if a request had begun (a
    connection that never sent a byte is closed quietly, as a browser's
    unused preconnection may be). Nothing changes once the head is in: a
    live stream may stay open for hours."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timeout = head_timeout()
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_begun = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_begun = True
        self._arm_head_timer()

    def on_headers_complete(self) -> None:
        self._head_begun = False
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
