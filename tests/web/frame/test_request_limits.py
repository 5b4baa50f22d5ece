"""What one client may hold, served directly without a proxy: a request body
over `ESCOBA_MAX_BODY_BYTES` is refused with 413 before it is read (by its
declared length, or by counting a chunked body as it comes) and changes
nothing; a request whose head or body does not arrive in time is answered
408 and closed; and one client IP may hold only so many live streams (429,
with a sentence saying why)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from sqlalchemy import create_engine, text

from escoba.web.base.db import migrate
from escoba.web.base.settings import Settings
from escoba.web.frame.security import BodyLimitMiddleware, HeaderLimitMiddleware
from escoba.words import say

from ..helpers import run_async
from ..servers import Server, open_stream, wait_until

CAP = 65536
OVER = CAP + 1


def _tables(url: str) -> int:
    engine = create_engine(url)
    with engine.connect() as conn:
        count = int(conn.execute(text("SELECT count(*) FROM tables")).scalar_one())
    engine.dispose()
    return count


def _padded_table_json(size: int) -> bytes:
    """A valid table to create, padded with a field the API ignores to `size` bytes."""
    body = json.dumps({"name": "Ana", "target": 21, "pad": ""}).encode()
    return body.replace(b'"pad": ""', b'"pad": "' + b"x" * (size - len(body)) + b'"')


# ---------------------------------------------------------------------------
# Bodies


def test_the_cap_is_the_documented_default() -> None:
    assert Settings().max_body_bytes == CAP


def test_a_body_over_the_cap_is_refused_with_413_and_changes_nothing(
    site: TestClient, settings: Settings
) -> None:
    before = _tables(settings.sqlalchemy_url)
    just_right = site.post(
        "/api/tables", content=_padded_table_json(CAP), headers={"content-type": "application/json"}
    )
    assert just_right.status_code == 201, just_right.text
    assert _tables(settings.sqlalchemy_url) == before + 1

    declared = site.post(
        "/api/tables",
        content=_padded_table_json(OVER),
        headers={"content-type": "application/json"},
    )
    assert declared.status_code == 413
    assert declared.json()["error"] == "too_large"
    assert "64 KB" in declared.json()["message"]
    assert declared.headers["connection"] == "close"

    def chunks() -> Iterator[bytes]:  # no Content-Length: sent chunked
        body = _padded_table_json(4 * CAP)
        for i in range(0, len(body), 8192):
            yield body[i : i + 8192]

    chunked = site.post(
        "/api/tables", content=chunks(), headers={"content-type": "application/json"}
    )
    assert chunked.status_code == 413
    assert chunked.json()["error"] == "too_large"

    form = site.post(
        "/tables",
        data={"name": "Ana", "target": "21", "pad": "x" * OVER},
        follow_redirects=False,
    )
    assert form.status_code == 413
    assert form.headers["content-type"].startswith("text/html")
    assert "demasiado grande" in form.text
    assert _tables(settings.sqlalchemy_url) == before + 1


def _through_the_cap(header: tuple[bytes, bytes], receive: Any) -> list[dict[str, Any]]:
    """What BodyLimitMiddleware sends for a POST with `header`, its body read
    from `receive`; the app behind it must never run."""
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the app must not run")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/tables", "headers": [header]}
    run_async(BodyLimitMiddleware(app, CAP, 10)(scope, receive, send))
    return sent


def test_a_chunked_body_is_refused_once_the_cap_is_passed_not_read_to_its_end() -> None:
    """The middleware counts as the chunks come: an endless body is refused
    after the cap's worth of chunks, and the app never runs."""
    received = 0

    async def endless() -> dict[str, Any]:
        nonlocal received
        received += 1
        return {"type": "http.request", "body": b"x" * 8192, "more_body": True}

    sent = _through_the_cap((b"transfer-encoding", b"chunked"), endless)
    assert sent[0]["status"] == 413
    assert received == CAP // 8192 + 1


@pytest.mark.parametrize(
    ("header", "lang"),
    [((b"cookie", b"lang=en"), "en"), ((b"accept-language", b"pt-BR,pt;q=0.9"), "pt_BR")],
)
def test_a_page_s_oversized_body_is_refused_in_the_viewer_s_language(
    header: tuple[bytes, bytes], lang: str
) -> None:
    """The page says it in the viewer's language (the API's `message` stays
    Spanish: the API's own words are another change)."""
    headers = [(b"content-length", str(OVER).encode()), header]
    scope = {"type": "http", "method": "POST", "path": "/tables", "headers": headers}
    sent = _refused_unread(lambda app: BodyLimitMiddleware(app, CAP, 10), scope)
    page = sent[1]["body"].decode()
    assert sent[0]["status"] == 413 and f'<html lang="{lang.replace("_", "-")}">' in page
    assert str(escape(say("too_large", lang, kb=64))) in page


@pytest.mark.parametrize("length", ["12x", "²", "-1", "9" * 40])
def test_a_content_length_that_is_no_number_is_a_400_not_a_500(length: str) -> None:
    """uvicorn refuses these itself; another server might pass them on."""

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    sent = _through_the_cap((b"content-length", length.encode("latin-1")), receive)
    assert sent[0]["status"] == 400
    assert json.loads(sent[1]["body"])["error"] == "invalid"


def test_a_chunked_body_on_the_wire_is_refused_before_its_end(tmp_path: Path) -> None:
    """A real server: a chunked body that passes the cap and never ends gets
    its 413 at once, without the server waiting for the rest; no table."""
    url = f"sqlite:///{tmp_path / 'escoba.db'}"
    migrate(url)
    with _server(Server(url), tmp_path) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        for _ in range(5):  # 80 KB, and no last chunk: the body has no end
            sock.sendall(b"%x\r\n%s\r\n" % (16384, b" " * 16384))
        answer = _answer(sock)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b'"too_large"' in answer
        assert _tables(url) == 0


def test_a_body_that_never_ends_gets_408_and_changes_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'escoba.db'}"
    migrate(url)
    env = {"ESCOBA_REQUEST_TIMEOUT_SECONDS": "1"}
    with _server(Server(url, env), tmp_path) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b'Content-Length: 40\r\n\r\n{"name": "Ana",'
        )
        answer = _answer(sock)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b'"timeout"' in answer
        assert _tables(url) == 0


# ---------------------------------------------------------------------------
# Heads (escoba serve's protocol)


@pytest.mark.parametrize(
    "sent",
    [b"", b"GET /health/live HTTP/1.1\r\nHost: t\r\n", b"GET /health/li"],
    ids=["nothing", "headers-without-end", "half-a-line"],
)
def test_a_request_head_that_never_ends_is_closed(tmp_path: Path, sent: bytes) -> None:
    url = f"sqlite:///{tmp_path / 'escoba.db'}"
    env = {"ESCOBA_REQUEST_TIMEOUT_SECONDS": "1"}
    with _server(Server(url, env, serve=True), tmp_path) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(sent)
        answer = _answer(sock)  # fails if the server keeps the connection
        # a request that began is told why; a connection that sent nothing just closes
        assert answer.startswith(b"HTTP/1.1 408") if sent else answer == b""


def test_a_head_sent_slowly_is_closed_at_its_deadline_and_a_stream_is_not(
    tmp_path: Path,
) -> None:
    """The deadline is for the head as a whole, not between bytes; once the
    head is in, a live stream stays open past it."""
    url = f"sqlite:///{tmp_path / 'escoba.db'}"
    env = {"ESCOBA_REQUEST_TIMEOUT_SECONDS": "1"}
    with _server(Server(url, env, serve=True), tmp_path) as server:
        made = httpx.post(server.base + "/api/tables", json={"name": "Ana", "target": 21})
        stream = open_stream(server.port, made.json()["invite"])
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        closed = False
        for byte in b"GET /health/live HTTP/1.1\r\nHost: t\r\nX-Slow: " + b"a" * 200:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.05)  # 200+ bytes: over 10 s in all if never closed
        if not closed:
            assert _answer(sock).startswith(b"HTTP/1.1 408")
        stream.settimeout(0.2)
        with pytest.raises(TimeoutError):  # still open: nothing to read, no EOF
            stream.recv(100)
        stream.close()


# ---------------------------------------------------------------------------
# Heads over ESCOBA_MAX_HEADER_BYTES: 431 (issue 25)

HEAD_CAP = 16384
#: the issue's probe: a 1 MB header, which was answered 200
HUGE = b"a" * 1_000_000


def test_the_header_cap_is_the_documented_default() -> None:
    assert Settings().max_header_bytes == HEAD_CAP


def test_a_head_over_the_cap_is_refused_with_431_and_changes_nothing(
    site: TestClient, settings: Settings
) -> None:
    """In the app (any server: the TestClient hands it the head whole):
    the API's refusal under /api/, a page in the viewer's language elsewhere."""
    before = _tables(settings.sqlalchemy_url)
    big = {"x-big": HUGE.decode()}
    r = site.post("/api/tables", json={"name": "Ana", "target": 21}, headers=big)
    assert r.status_code == 431 and r.headers["connection"] == "close"
    assert r.json()["error"] == "headers_too_large" and "16 KB" in r.json()["message"]
    assert _tables(settings.sqlalchemy_url) == before
    page = site.get("/", headers=big)
    assert page.status_code == 431 and page.headers["content-type"].startswith("text/html")
    assert "borra las cookies de este sitio" in page.text
    english = site.get("/", headers={"cookie": "lang=en", "x-big": "a" * HEAD_CAP})
    assert english.status_code == 431 and "clear this site" in english.text
    # a head of a browser's size, and one just under the cap, pass
    assert site.get("/").status_code == 200
    assert site.get("/", headers={"x-big": "a" * (HEAD_CAP - 1000)}).status_code == 200


def _huge_head(port: int, path: str) -> bytes:
    """A request with a 1 MB header, sent in pieces as a client would; what
    the server answers before it closes (the sending stops if it does)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    head = f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n".encode()
    head += b"X-Big: " + HUGE + b"\r\nContent-Length: 33\r\n\r\n"
    try:
        for i in range(0, len(head), 65536):
            sock.sendall(head[i : i + 65536])
        sock.sendall(b'{"name": "Ana", "target": 21}    ')
    except OSError:
        pass  # the server closed its side: the answer is in
    return _answer(sock)


@pytest.mark.parametrize("serve", [True, False], ids=["escoba-serve", "uvicorn"])
def test_a_huge_head_on_the_wire_gets_431(tmp_path: Path, serve: bool) -> None:
    """Under `escoba serve` the server's protocol refuses the head as it
    comes (never more than the cap read); under plain uvicorn, which reads
    heads of any size, the app does. Either way: 431, the API's words, the
    connection closed, no table; the next request is served."""
    url = f"sqlite:///{tmp_path / 'escoba.db'}"
    migrate(url)
    with _server(Server(url, serve=serve), tmp_path) as server:
        answer = _huge_head(server.port, "/api/tables")
        assert answer.startswith(b"HTTP/1.1 431 Request Header Fields Too Large"), answer[:200]
        assert b'"headers_too_large"' in answer and b"connection: close" in answer.lower()
        page = _huge_head(server.port, "/tables")
        assert page.startswith(b"HTTP/1.1 431") and b"borra las cookies" in page
        assert _tables(url) == 0
        made = httpx.post(server.base + "/api/tables", json={"name": "Ana", "target": 21})
        assert made.status_code == 201
        assert _tables(url) == 1


def test_escoba_serve_reads_no_more_than_the_cap_of_a_head_without_end(tmp_path: Path) -> None:
    """A head that never ends but keeps coming is refused once the cap's
    worth is in, long before its deadline (10 s), not read on and on."""
    url = f"sqlite:///{tmp_path / 'escoba.db'}"
    with _server(Server(url, serve=True), tmp_path) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sent = 0
        try:
            sock.sendall(b"GET /health/live HTTP/1.1\r\nHost: t\r\nX-Endless: ")
            while sent < 50 * HEAD_CAP:
                sock.sendall(b"a" * 4096)
                sent += 4096
                sock.settimeout(0.001)
                try:
                    if sock.recv(1, socket.MSG_PEEK):
                        break  # the answer has come
                except (BlockingIOError, TimeoutError):
                    pass
                sock.settimeout(10)
        except OSError:
            pass
        sock.settimeout(10)
        answer = _answer(sock)
        assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
        assert sent < 50 * HEAD_CAP  # refused while the head was still coming


def test_the_header_cap_runs_before_the_app() -> None:
    headers = [(b"cookie", b"lang=pt_BR"), (b"x-big", b"a" * HEAD_CAP)]
    scope = {"type": "http", "method": "GET", "path": "/", "headers": headers}
    sent = _refused_unread(lambda app: HeaderLimitMiddleware(app, HEAD_CAP), scope)
    assert sent[0]["status"] == 431 and (b"connection", b"close") in sent[0]["headers"]
    assert str(escape(say("headers_too_large", "pt_BR", kb=16))) in sent[1]["body"].decode()


# ---------------------------------------------------------------------------
# Live streams per client IP


def test_one_ip_holds_at_most_its_share_of_live_streams(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'escoba.db'}"
    migrate(url)
    env = {"ESCOBA_LIVE_STREAMS_PER_IP": "3"}
    with _server(Server(url, env), tmp_path) as server:
        made = httpx.post(server.base + "/api/tables", json={"name": "Ana", "target": 21})
        invite = made.json()["invite"]
        streams = [open_stream(server.port, invite) for _ in range(3)]
        events = f"{server.base}/t/{invite}/events"
        refused = httpx.get(events, timeout=10)
        assert refused.status_code == 429
        assert "demasiadas mesas abiertas" in refused.text
        # a page asks why without holding a stream
        assert httpx.head(events, timeout=10).status_code == 429
        streams.pop().close()
        assert wait_until(lambda: server.live_connections() == 2, 10)
        assert httpx.head(events, timeout=10).status_code == 200
        streams.append(open_stream(server.port, invite))
        assert httpx.get(events, timeout=10).status_code == 429
        for sock in streams:
            sock.close()


# ---------------------------------------------------------------------------


def _refused_unread(middleware: Any, scope: dict[str, Any]) -> list[dict[str, Any]]:
    """What `middleware(app)` sends for `scope`: a refusal, with the app
    never run and nothing of the request read."""
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the app must not run")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        raise AssertionError("a refused request is not read")

    run_async(middleware(app)(scope, receive, send))
    return sent


def _answer(sock: socket.socket) -> bytes:
    """All the server sends until it closes the connection; fails if it is
    still open after the socket's 10 s timeout."""
    out = b""
    try:
        while chunk := sock.recv(65536):
            out += chunk
    except TimeoutError:
        pytest.fail(f"the server kept the connection open; it sent {out[:100]!r}")
    except ConnectionResetError:
        pass
    finally:
        sock.close()
    return out


class _server:
    def __init__(self, server: Server, log_dir: Path) -> None:
        self.server = server
        self.log_dir = log_dir

    def __enter__(self) -> Server:
        return self.server.start(self.log_dir)

    def __exit__(self, *exc: object) -> None:
        self.server.stop()
