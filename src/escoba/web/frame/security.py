"""The app's guard at the door, one ASGI middleware in front of every route:

* **Cross-site requests.** A state-changing request (any method but GET, HEAD
  and OPTIONS) that a browser marks as coming from another site is refused
  with 403: `Sec-Fetch-Site` must be `same-origin` or `none`, or, from a
  browser that does not send it, `Origin` must name this host (or a trusted
  origin). Requests with neither header do not come from a browser page and
  carry no ambient credential a forged page could borrow. This is the check
  of Go's `http.CrossOriginProtection` and OWASP's «verifying origin with
  standard headers»; with SameSite=Lax seat cookies it needs no token in the
  forms, so templates and HTMX stay as they are.
* **Rate limits** on joining, on table commands (per client IP and per
  seat) and on trying «Seguir en otro dispositivo» codes (per IP), counted
  where every process sees them (escoba.web.base.limits); 429 with `Retry-After`
  and a message a player understands, in their language
  (the `lang` cookie, else Accept-Language; the API's stays Spanish).
* **Headers**: a strict Content-Security-Policy (no inline script, style or
  eval; the service worker and the manifest from this origin only), no
  framing, no MIME sniffing, no Referer (an invite link is a key), HSTS on
  HTTPS; and seat cookies marked `Secure` on HTTPS requests (the
  scheme comes from `X-Forwarded-Proto` when uvicorn trusts the proxy).

And `BodyLimitMiddleware` in front of it: request bodies are small (a move,
a name, a chat line), so a body over `ESCOBA_MAX_BODY_BYTES` is refused with
413 before it is read, and a body that does not arrive within
`ESCOBA_REQUEST_TIMEOUT_SECONDS` with 408; served directly, without a proxy's
limits, nothing else stops a client from making the app read and parse
hundreds of megabytes on its event loop, or hold a request open forever.
`HeaderLimitMiddleware` in front of that: a head (request line and headers)
over `ESCOBA_MAX_HEADER_BYTES` gets 431.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from itsdangerous import URLSafeSerializer
from starlette.requests import cookie_parser

from escoba.i18n import LANG_COOKIE, choose_lang
from escoba.web.base.errors import speaks_json
from escoba.web.base.limits import Limiter
from escoba.web.base.settings import DEFAULT_LIMITS, PageLimits, Settings
from escoba.web.devices.devices import DEVICE_COOKIE, Devices
from escoba.web.rendering.templating import render_page
from escoba.web.table.store import hash_token
from escoba.words import say

log = logging.getLogger("escoba.security")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)
BASE_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
)
HSTS = (b"strict-transport-security", b"max-age=31536000")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

JOIN_PATHS = (
    re.compile(r"^/api/tables/?$"),
    re.compile(r"^/api/tables/[^/]+/seats/?$"),
    re.compile(r"^/tables/?$"),
    re.compile(r"^/t/[^/]+/join/?$"),
)
TABLE_PATH = re.compile(r"^/(?:api/tables|t)/([^/]+)/")
#: where a «Seguir en otro dispositivo» code is tried (in a browser, or for a
#: token through the API): counted per IP, right or wrong
TRANSFER_PATH = re.compile(r"^/(?:seguir|api/transfer)/?$")

#: Which limit was passed → the words (escoba.words) of the refusal.
RATE_WORDS = {
    "join": "rate_join",
    "ip": "rate_ip",
    "seat": "rate_seat",
    "transfer": "rate_transfer",
}


class GuardMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        settings: Settings,
        limiter: Limiter | None,
        signer: URLSafeSerializer,
        devices: Devices | None = None,
    ) -> None:
        self.app = app
        self.signer = signer
        self.devices = devices
        self.settings = settings
        self.limits = settings.limits
        self.limiter = limiter if settings.rate_limits else None
        self.trusted_hosts = {h for h in (_host_of(o) for o in _origins(settings)) if h is not None}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        path = scope["path"]
        headers = _headers(scope)
        https = scope.get("scheme") == "https"
        if method not in SAFE_METHODS:
            refusal = self._cross_site(headers)
            if refusal is not None:
                log.warning("cross-site request refused", extra={"path": path, "why": refusal})
                await _refuse(send, scope, 403, "forbidden_origin", limits=self.limits)
                return
            if self.limiter is not None:
                over = await self._rate(scope, method, path, headers)
                if over is not None:
                    log.info("rate limited", extra={"path": path, "limit": over})
                    await _refuse(
                        send,
                        scope,
                        429,
                        "rate_limited",
                        words=RATE_WORDS[over],
                        limits=self.limits,
                        retry_after=self.settings.rate_window_seconds,
                    )
                    return
        secure = https or self.settings.secure_cookies

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = _with_security_headers(message.get("headers", []), secure)
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _cross_site(self, headers: dict[str, str]) -> str | None:
        fetch_site = headers.get("sec-fetch-site")
        if fetch_site is not None:
            return None if fetch_site in ("same-origin", "none") else f"sec-fetch-site {fetch_site}"
        origin = headers.get("origin")
        if origin is None:
            return None  # not a browser page's request
        origin_host = _host_of(origin)
        if origin_host is None:
            return "opaque origin"
        allowed = set(self.trusted_hosts)
        for name in ("host", "x-forwarded-host"):
            if name in headers:
                allowed.add(headers[name].split(",")[0].strip().lower())
        return None if origin_host in allowed else f"origin {origin_host}"

    def _seat_key(self, scope: Scope, headers: dict[str, str], invite: str) -> str | None:
        """What a seat's limit counts by: the seat's own token (hashed), read as
        the app reads it — the bearer token, else the seat the browser's
        device holds at this table (its cookie parsed as Starlette parses it
        and verified, the seat looked up once for the route too) — so that
        every spelling of one credential (a quoted or escaped cookie, the token
        as a bearer, a second device) counts as that one seat. A cookie that
        fails its signature counts under the IP only; a bearer token is not
        looked up here, so an invented one gets a counter of its own — its
        commands are refused with 403 all the same, and the IP's limit bounds
        how many it sends."""
        scheme, _, bearer = headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and bearer.strip():
            return hash_token(bearer.strip())[:40]
        if "cookie" not in headers or self.devices is None:
            return None
        raw = cookie_parser(headers["cookie"]).get(DEVICE_COOKIE)
        held = self.devices.seat_at(scope.setdefault("state", {}), raw, invite)
        return None if held is None else held.token_hash[:40]

    async def _rate(
        self, scope: Scope, method: str, path: str, headers: dict[str, str]
    ) -> str | None:
        assert self.limiter is not None
        s = self.settings
        client = scope.get("client")
        ip = client[0] if client else "unknown"
        keys: list[tuple[str, int]] = []
        kinds: dict[str, str] = {}
        if any(p.match(path) for p in JOIN_PATHS):
            keys.append((f"join:ip:{ip}", s.rate_join_per_ip))
            kinds[keys[-1][0]] = "join"
        elif TRANSFER_PATH.match(path):
            keys.append((f"transfer:ip:{ip}", s.rate_transfer_per_ip))
            kinds[keys[-1][0]] = "transfer"
        else:
            match = TABLE_PATH.match(path)
            if match is None:
                return None
            keys.append((f"act:ip:{ip}", s.rate_act_per_ip))
            kinds[keys[-1][0]] = "ip"
            seat = self._seat_key(scope, headers, match.group(1))
            if seat is not None:
                keys.append((f"act:seat:{seat}", s.rate_act_per_seat))
                kinds[keys[-1][0]] = "seat"
        try:
            over = self.limiter.hit(keys, s.rate_window_seconds)
        except Exception:  # the counters' store is down: serve rather than refuse all
            log.exception("rate limiter unavailable", extra={"path": path})
            return None
        return None if over is None else kinds[over]


class BodyLimitMiddleware:
    """Reads a request's body before the app does, up to `max_bytes`: a
    declared `Content-Length` over the cap is refused at once, a chunked body
    as soon as the bytes counted pass it, and a body slower than
    `timeout_seconds` in all is refused with 408. The refusal closes the
    connection, so the rest of the body is never read. What was read is
    handed to the app as one message; a request without a body (every GET)
    goes straight through, its `receive` untouched (a live stream listens on
    it for the client leaving)."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout_seconds: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_seconds = timeout_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length: str | None = None
        chunked = False
        for key, value in scope.get("headers", []):
            if key.lower() == b"content-length":
                length = value.decode("latin-1").strip()
            elif key.lower() == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
        if not chunked and (length is None or length == "0"):
            await self.app(scope, receive, send)
            return
        if length is not None and not chunked and not _is_length(length):
            await _refuse_and_close(scope, send, 400, "invalid", words="bad_request")
            return
        if length is not None and not chunked and int(length) > self.max_bytes:
            await self._too_large(scope, send)
            return
        body = bytearray()
        try:
            async with asyncio.timeout(self.timeout_seconds or None):  # 0: none
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return  # the client left: nobody to answer
                    body += message.get("body", b"")
                    if len(body) > self.max_bytes:
                        await self._too_large(scope, send)
                        return
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            log.warning("request body too slow", extra={"path": scope["path"]})
            await _refuse_and_close(scope, send, 408, "timeout")
            return
        await self.app(scope, _replay(bytes(body), receive), send)

    async def _too_large(self, scope: Scope, send: Send) -> None:
        log.warning("request body too large", extra={"path": scope["path"]})
        kb = max(1, self.max_bytes // 1024)
        await _refuse_and_close(scope, send, 413, "too_large", values={"kb": kb})


class HeaderLimitMiddleware:
    """Refuses a request whose head (its request line and headers) is over
    `max_bytes` with 431, before anything reads a header, and closes the
    connection. Under `escoba serve` the server's protocol refuses such a
    head as it arrives (escoba.web.frame.protocol); under another server (plain
    uvicorn, whose httptools takes heads of any size; gunicorn) this is the
    cap, once the server has read the head."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.max_bytes > 0 and head_size(scope) > self.max_bytes:
            log.warning("request head too large", extra={"path": scope["path"]})
            kb = max(1, self.max_bytes // 1024)
            await _refuse_and_close(scope, send, 431, "headers_too_large", values={"kb": kb})
            return
        await self.app(scope, receive, send)


def head_size(scope: Scope) -> int:
    """The bytes of the request's head as the client sent it (near enough:
    the request line, each header as `name: value` and its line end)."""
    path = scope.get("raw_path") or scope["path"].encode()
    query = scope.get("query_string") or b""
    size = len(scope.get("method", "GET")) + 1 + len(path) + (len(query) + 1 if query else 0)
    size += len(" HTTP/1.1\r\n") + 2  # and the empty line that ends the head
    for key, value in scope.get("headers", []):
        size += len(key) + len(value) + 4
    return size


async def _refuse_and_close(
    scope: Scope,
    send: Send,
    status: int,
    code: str,
    words: str | None = None,
    values: Mapping[str, object] | None = None,
) -> None:
    """`_refuse`, and `Connection: close`: what is left of the request is
    never read."""

    async def closing(out: Message) -> None:
        if out["type"] == "http.response.start":
            out["headers"] = [*out.get("headers", []), (b"connection", b"close")]
        await send(out)

    await _refuse(closing, scope, status, code, words, values=values)


def _is_length(value: str) -> bool:
    """ASCII digits only (`str.isdigit` also takes «²»), and not absurdly many."""
    return value.isascii() and value.isdigit() and len(value) <= 18


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body as one message, then the server's own `receive` (which
    tells of the client leaving)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _origins(settings: Settings) -> list[str]:
    out = [o.strip() for o in settings.trusted_origins.split(",") if o.strip()]
    if settings.base_url:
        out.append(settings.base_url)
    return out


def _host_of(origin: str) -> str | None:
    if origin == "null":
        return None
    parts = urlsplit(origin)
    return parts.netloc.lower() if parts.scheme and parts.netloc else None


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in scope.get("headers", []):
        out[key.decode("latin-1").lower()] = value.decode("latin-1")
    return out


def _with_security_headers(
    headers: list[tuple[bytes, bytes]], secure: bool
) -> list[tuple[bytes, bytes]]:
    present = {k.lower() for k, _ in headers}
    out = []
    for key, value in headers:
        if secure and key.lower() == b"set-cookie" and b"secure" not in value.lower():
            value = value + b"; Secure"
        out.append((key, value))
    extra = list(BASE_HEADERS) + ([HSTS] if secure else [])
    out.extend((k, v) for k, v in extra if k not in present)
    return out


def refusal_parts(
    scope: Scope,
    code: str,
    words: str | None = None,
    limits: PageLimits = DEFAULT_LIMITS,
    retry_after: int | None = None,
    values: Mapping[str, object] | None = None,
) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of a refusal for the request `scope` describes
    (its `path` and `headers`): under /api/ the API's `{"error", "message"}`
    (`code`, and its words in Spanish), elsewhere the error page in the
    viewer's language. `words` is the catalog's code when not `code`."""
    path = scope["path"]
    https = scope.get("scheme") == "https"
    words = words or code
    values = values or {}
    if speaks_json(path):
        message = say(words, "es", limits=limits, **values)
        body = json.dumps({"error": code, "message": message}).encode()
        content_type = b"application/json"
    else:
        lang = _lang(_headers(scope))
        body = render_page(
            "error.html",
            lang,
            limits,
            title=say("refused_title", lang),
            message=say(words, lang, limits=limits, **values),
            back_url="/",
            next_path="/",
        ).encode()
        content_type = b"text/html; charset=utf-8"
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    return _with_security_headers(headers, https), body


async def _refuse(
    send: Send,
    scope: Scope,
    status: int,
    code: str,
    words: str | None = None,
    limits: PageLimits = DEFAULT_LIMITS,
    retry_after: int | None = None,
    values: Mapping[str, object] | None = None,
) -> None:
    """Answer for the app with `refusal_parts`."""
    headers, body = refusal_parts(scope, code, words, limits, retry_after, values)
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _lang(headers: dict[str, str]) -> str:
    """The viewer's language, as `deps.lang_of` reads it off a request."""
    cookie = cookie_parser(headers.get("cookie", "")).get(LANG_COOKIE)
    return choose_lang(cookie, headers.get("accept-language"))
