"""Live, but asynchronous: every watcher hears each change without reloading,
and robots play their turns on the server by themselves."""

from __future__ import annotations

import queue
import re
import threading
import time
import zlib
from typing import Any

import httpx
import pytest

from escoba.web.live.sqlite_watch import POLL_SECONDS

from ..servers import first_event, wait_until


def _api(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=10)


def _create(client: httpx.Client, name: str) -> dict[str, Any]:
    r = client.post("/api/tables", json={"name": name, "target": 21})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def _listen(base: str, invite: str, out: queue.Queue[str], stop: threading.Event) -> None:
    try:
        with (
            httpx.Client(base_url=base, timeout=httpx.Timeout(10, read=None)) as client,
            client.stream("GET", f"/t/{invite}/events") as stream,
        ):
            out.put("open")
            for line in stream.iter_lines():
                if stop.is_set():
                    return
                if line.startswith("data:"):
                    out.put(line[5:].strip())
    except httpx.HTTPError as err:
        if not stop.is_set():  # the server closing the stream at the end is expected
            out.put(f"error: {err}")


def _next(out: queue.Queue[str], seconds: float = 10) -> str:
    return out.get(timeout=seconds)


def test_every_watcher_hears_each_change(live_server: str) -> None:
    with _api(live_server) as client:
        ana = _create(client, "Ana")
        invite = ana["invite"]
        heard: list[queue.Queue[str]] = [queue.Queue(), queue.Queue()]
        stop = threading.Event()
        listeners = [
            threading.Thread(target=_listen, args=(live_server, invite, q, stop), daemon=True)
            for q in heard
        ]
        for t in listeners:
            t.start()
        for q in heard:
            assert _next(q) == "open"
        time.sleep(0.2)  # let both streams subscribe before the change
        r = client.post(f"/api/tables/{invite}/seats", json={"name": "Beto"})
        assert r.status_code == 201
        version = client.get(f"/api/tables/{invite}").json()["version"]
        for q in heard:
            assert _next(q) == str(version)  # a version number, never a card
        stop.set()


def test_robots_play_by_themselves_without_blocking_requests(live_server: str) -> None:
    with _api(live_server) as client:
        ana = _create(client, "Ana")
        invite = ana["invite"]
        auth = {"Authorization": f"Bearer {ana['token']}"}
        version = client.get(f"/api/tables/{invite}").json()["version"]
        for robot in ("carmen", "tito", "luna"):
            r = client.post(
                f"/api/tables/{invite}/robots",
                json={"robot": robot, "version": version},
                headers=auth,
            )
            version = r.json()["version"]
        r = client.post(f"/api/tables/{invite}/start", json={"version": version}, headers=auth)
        assert r.status_code == 200
        # the start answers at once; robots (seats 1-3) then play in the background
        deadline = time.monotonic() + 30
        while True:
            table = client.get(f"/api/tables/{invite}", headers=auth).json()
            if table["view"]["turn"] == 0:
                break
            assert time.monotonic() < deadline, "the robots never played"
            time.sleep(0.05)
        assert len(table["view"]["history"]) >= 3
        assert [a["seat"] for a in table["view"]["history"][:3]] == [1, 2, 3]


def test_only_quiet_streams_are_pinged_and_the_loop_delivers_at_once() -> None:
    """Pings go to streams that sent nothing for the ping period, a stream at
    a time, never to all at once; a publication from the loop itself wakes
    its streams without a round through the loop."""
    import asyncio

    from escoba.web.live.streams import Broker

    async def scenario() -> None:
        broker = Broker(ping_seconds=15)
        broker.bind(asyncio.get_running_loop())
        quiet, busy = broker.attach(1), broker.attach(2)
        now = time.monotonic()
        quiet.last_sent, busy.last_sent = now - 20, now - 1
        assert broker.ping_quiet(now) == 1
        assert quiet.ping and quiet.wake.is_set()
        assert not busy.ping and not busy.wake.is_set()
        assert broker.ping_quiet(now) == 0  # pinged once until it is sent
        broker.publish(2, 7)
        assert busy.pending and busy.version == 7 and busy.wake.is_set()
        broker.close()

    # a loop of its own, in a thread (another test may leave one running here)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as err:
            errors.append(err)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive() and not errors, errors


def test_a_stream_that_was_away_starts_with_the_news(live_server: str) -> None:
    """With `since` (the page's version) or a browser's `Last-Event-ID` older
    than the table, the stream's first event is the current version; a client
    that is up to date hears nothing until the next change."""
    with _api(live_server) as client:
        ana = _create(client, "Ana")
        invite = ana["invite"]
        old = client.get(f"/api/tables/{invite}").json()["version"]
        assert client.post(f"/api/tables/{invite}/seats", json={"name": "Beto"}).status_code == 201
        now = client.get(f"/api/tables/{invite}").json()["version"]
        assert now > old

        events = f"/t/{invite}/events"
        assert first_event(live_server, f"{events}?since={old}", {}) == [
            f"id: {now}",
            f"data: {now}",
        ]
        assert first_event(live_server, events, {"Last-Event-ID": str(old)}) == [
            f"id: {now}",
            f"data: {now}",
        ]
        assert first_event(live_server, f"{events}?since={now}", {}) == []  # up to date: quiet
        assert first_event(live_server, events, {}) == []  # no version given: only news from now on
        assert first_event(live_server, events, {"Last-Event-ID": "nonsense"}) == []


def test_an_open_page_hears_a_change_committed_by_another_process(
    live_server: str, db_url: str
) -> None:
    """Issue 12.10: `escoba expire` from cron is another process, with no
    channel of its own to the one serving the pages. On SQLite as on
    PostgreSQL, an open page hears of the expiry within a few seconds, not
    at its next action."""
    import os
    import subprocess
    import sys

    with _api(live_server) as client:
        table = _create(client, "Ana")
        invite = table["invite"]
        version = client.get(f"/api/tables/{invite}").json()["version"]
        out: queue.Queue[str] = queue.Queue()
        stop = threading.Event()
        threading.Thread(target=_listen, args=(live_server, invite, out, stop), daemon=True).start()
        assert out.get(timeout=10) == "open"
        assert wait_until(lambda: client.get("/health").json()["live_connections"] >= 1, 10)
        # the table was made on the test clock (January); the job's clock is today's
        env = {**os.environ, "DATABASE_URL": db_url}
        done = subprocess.run(
            [sys.executable, "-m", "escoba.cli", "expire"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        heard = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                heard.append(out.get(timeout=max(0.01, deadline - time.monotonic())))
            except queue.Empty:
                break
            if heard[-1].isdigit() and int(heard[-1]) > version:
                break
        stop.set()
        assert heard and heard[-1].isdigit() and int(heard[-1]) > version, heard
        assert client.get(f"/api/tables/{invite}").json()["status"] == "expired"


def test_on_sqlite_the_watcher_does_not_send_this_process_its_own_news_again(
    live_server: str, db_url: str
) -> None:
    """The SQLite watcher hears every commit of another connection, and the
    serving process's own pool is other connections: a move it made and
    delivered at its commit must not reach the pages a second time (each
    repeat costs every page a board fetch)."""
    if not db_url.startswith("sqlite"):
        pytest.skip("the watcher is SQLite's")
    with _api(live_server) as client:
        invite = _create(client, "Ana")["invite"]
        out: queue.Queue[str] = queue.Queue()
        stop = threading.Event()
        threading.Thread(target=_listen, args=(live_server, invite, out, stop), daemon=True).start()
        assert out.get(timeout=10) == "open"
        assert wait_until(lambda: client.get("/health").json()["live_connections"] >= 1, 10)
        assert client.post(f"/api/tables/{invite}/seats", json={"name": "Beto"}).status_code == 201
        now = client.get(f"/api/tables/{invite}").json()["version"]
        heard = [out.get(timeout=10)]
        # several of the watcher's looks, for a repeat to show
        deadline = time.monotonic() + 4 * POLL_SECONDS
        while (left := deadline - time.monotonic()) > 0:
            try:
                heard.append(out.get(timeout=left))
            except queue.Empty:
                break
        stop.set()
        assert heard == [str(now)]


def _board_event(base: str, path: str, cookies: httpx.Cookies) -> tuple[str, int, str]:
    """The first event of a page's stream (`board=1`): its name, its id and
    its data (the lines joined as a browser joins them)."""
    name, ident, data = "", 0, []
    with (
        httpx.Client(base_url=base, cookies=cookies, timeout=httpx.Timeout(10, read=5)) as c,
        c.stream("GET", path) as stream,
    ):
        for line in stream.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("id: "):
                ident = int(line[4:])
            elif line.startswith("data: "):
                data.append(line[6:])
            elif not line and name:
                return name, ident, "\n".join(data)
    raise AssertionError("no event")


def _hand(html: str) -> list[str]:
    return re.findall(r'class="card hand-card" data-card="(\w+)"', html)


def test_a_table_page_stream_brings_each_viewer_its_own_board(live_server: str) -> None:
    """`board=1` (a table page's stream): each event is the board as a fetch
    of it with the stream's cookies would answer (its id the version), the
    viewer's own hand in it and nobody else's; a spectator's has no hand."""
    with (
        httpx.Client(base_url=live_server, timeout=10, follow_redirects=True) as ana,
        httpx.Client(base_url=live_server, timeout=10, follow_redirects=True) as beto,
    ):
        r = ana.post("/tables", data={"name": "Ana", "target": "21"})
        invite = str(r.url).rsplit("/", 1)[1]
        r = beto.post(f"/t/{invite}/join", data={"name": "Beto"})
        assert r.status_code == 200, r.text
        version = ana.get(f"/api/tables/{invite}").json()["version"]
        assert ana.post(f"/t/{invite}/start", data={"version": version}).status_code == 200
        now = ana.get(f"/api/tables/{invite}").json()["version"]
        events = f"/t/{invite}/events?since={version}&board=1"
        boards = {}
        for who, client in (("ana", ana), ("beto", beto)):
            name, ident, html = _board_event(live_server, events, client.cookies)
            fetched = client.get(f"/t/{invite}/board", headers={"HX-Request": "true"}).text
            assert name == "board" and ident == now
            assert f'data-version="{now}"' in html
            assert len(_hand(html)) == 3 and _hand(html) == _hand(fetched)
            boards[who] = html
        assert not set(_hand(boards["ana"])) & set(_hand(boards["beto"]))
        name, ident, html = _board_event(live_server, events + "&mirar=1", httpx.Cookies())
        assert name == "board" and ident == now and _hand(html) == []
        # without board=1 (an API client): the version only, as ever
        assert first_event(live_server, f"/t/{invite}/events?since={version}", {}) == [
            f"id: {now}",
            f"data: {now}",
        ]


def test_a_board_event_is_the_html_a_line_a_field() -> None:
    from escoba.web.live.streams import board_event

    event = board_event(7, '<div data-version="7">\r\n  <p>a</p>\r<p>b</p>\n</div>')
    assert event == (
        b"event: board\nid: 7\n"
        b'data: <div data-version="7">\ndata:   <p>a</p>\ndata: <p>b</p>\ndata: </div>\n\n'
    )


def test_the_seat_that_acted_hears_of_it_last() -> None:
    """Its page has the new board in its command's answer; the other pages'
    streams, woken first, render and send theirs first."""
    import asyncio

    from escoba.web.live.streams import Broker, acting

    async def scenario() -> list[str]:
        broker = Broker(ping_seconds=0)
        broker.bind(asyncio.get_running_loop())
        heard: list[str] = []
        subs = {
            "mover": broker.attach(1, seat=5),
            "other": broker.attach(1, seat=6),
            "spectator": broker.attach(1),
        }

        async def listen(name: str) -> None:
            await subs[name].wake.wait()
            heard.append(name)

        tasks = [asyncio.create_task(listen(n)) for n in ("mover", "other", "spectator")]
        await asyncio.sleep(0)
        with acting(5):
            broker.publish(1, 3)
        await asyncio.gather(*tasks)
        broker.close()
        return heard

    results: list[list[str]] = []
    worker = threading.Thread(target=lambda: results.append(asyncio.run(scenario())))
    worker.start()
    worker.join(timeout=30)
    assert (
        results
        and results[0][-1] == "mover"
        and set(results[0])
        == {
            "mover",
            "other",
            "spectator",
        }
    )


def test_a_table_page_stream_is_compressed_event_by_event(live_server: str) -> None:
    """A page's boards come gzipped, each event whole as it is sent (a flush
    each: none waits for the next), within one live update's byte budget
    (tests/web/html/test_wire.py); the next board costs less, told mostly as the
    one before."""
    from ..html.test_wire import UPDATE_BUDGET

    with (
        httpx.Client(base_url=live_server, timeout=10, follow_redirects=True) as ana,
        httpx.Client(base_url=live_server, timeout=10, follow_redirects=True) as beto,
    ):
        r = ana.post("/tables", data={"name": "Ana", "target": "21"})
        invite = str(r.url).rsplit("/", 1)[1]
        assert beto.post(f"/t/{invite}/join", data={"name": "Beto"}).status_code == 200
        version = ana.get(f"/api/tables/{invite}").json()["version"]
        assert ana.post(f"/t/{invite}/start", data={"version": version}).status_code == 200
        path = f"/t/{invite}/events?since={version}&board=1"
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        sizes: list[int] = []
        with (
            httpx.Client(
                base_url=live_server, cookies=ana.cookies, timeout=httpx.Timeout(10, read=5)
            ) as c,
            c.stream("GET", path, headers={"Accept-Encoding": "gzip"}) as stream,
        ):
            assert stream.headers["content-encoding"] == "gzip"
            wire, text = 0, b""
            for chunk in stream.iter_raw():
                wire += len(chunk)
                text += inflate.decompress(chunk)
                if text.count(b"event: board") > len(sizes) and text.endswith(b"\n\n"):
                    sizes.append(wire)
                    wire = 0
                    if len(sizes) == 1:  # the next change: a chat line
                        r = beto.post(f"/t/{invite}/chat", data={"text": "hola"})
                        assert r.status_code == 200
                    else:
                        break
        assert b"hola" in text.rsplit(b"event: board", 1)[1]
        assert sizes[0] <= UPDATE_BUDGET, sizes
        assert sizes[1] < sizes[0], sizes


def test_a_board_already_sent_is_not_sent_again() -> None:
    """A stream woken late renders the board as it is now: the news of the
    next version then finds that same board, which it does not send twice
    (the page would swap it in again: a third swap for two moves)."""
    import asyncio

    from escoba.web.live.streams import Broker, LiveStream

    boards = [(3, "<div data-version='3'>b</div>")]

    async def scenario() -> list[bytes]:
        broker = Broker(ping_seconds=0)
        broker.bind(asyncio.get_running_loop())
        sent: list[bytes] = []
        gone = asyncio.Event()

        async def receive() -> dict[str, str]:
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, object]) -> None:
            body = message.get("body")
            if isinstance(body, bytes) and body.startswith(b"event:"):
                sent.append(body)

        stream = LiveStream(broker, 1, board=lambda: boards[-1])
        task = asyncio.create_task(stream({"type": "http", "method": "GET"}, receive, send))
        for _ in range(20):
            await asyncio.sleep(0)
        broker.publish(1, 2)  # woken late: the board is at version 3 already
        for _ in range(20):
            await asyncio.sleep(0)
        broker.publish(1, 3)
        for _ in range(20):
            await asyncio.sleep(0)
        boards.append((3, "<div data-version='3'>absent</div>"))  # same version, new board
        broker.publish(1, 3)
        for _ in range(20):
            await asyncio.sleep(0)
        gone.set()
        await asyncio.wait_for(task, 10)
        broker.close()
        return sent

    results: list[list[bytes]] = []
    worker = threading.Thread(target=lambda: results.append(asyncio.run(scenario())))
    worker.start()
    worker.join(timeout=30)
    assert results, "the stream did not end"
    sent = results[0]
    assert [b"absent" in event for event in sent] == [False, True], sent


def test_the_other_pages_boards_are_made_before_the_movers_answer(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25, item 4: a change made through a page commits, then lets the
    loop run the streams its commit woke (the other players' pages) before
    it renders its own answer: the player who waits sees the change first."""
    from escoba.web.html.routes import Visit

    made: list[str] = []
    board_now, show = Visit.board_now, Visit.show

    def streamed(self: Visit) -> tuple[int, str]:
        made.append("the other page's board")
        return board_now(self)

    def answered(self: Visit, *args: Any, **kwargs: Any) -> Any:
        made.append("the answer")
        return show(self, *args, **kwargs)

    monkeypatch.setattr(Visit, "board_now", streamed)
    monkeypatch.setattr(Visit, "show", answered)
    with (
        httpx.Client(base_url=live_server, timeout=10, follow_redirects=True) as ana,
        httpx.Client(base_url=live_server, timeout=10, follow_redirects=True) as beto,
    ):
        r = ana.post("/tables", data={"name": "Ana", "target": "21"})
        invite = str(r.url).rsplit("/", 1)[1]
        assert beto.post(f"/t/{invite}/join", data={"name": "Beto"}).status_code == 200
        version = ana.get(f"/api/tables/{invite}").json()["version"]
        events: queue.Queue[str] = queue.Queue()

        def listen() -> None:
            with (
                httpx.Client(base_url=live_server, cookies=beto.cookies, timeout=10) as c,
                c.stream("GET", f"/t/{invite}/events?since={version}&board=1") as stream,
            ):
                for line in stream.iter_lines():
                    if line.startswith("event: "):
                        events.put(line)
                        return

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        assert wait_until(lambda: ana.get("/health").json()["live_connections"] >= 1, 10)
        made.clear()
        r = ana.post(f"/t/{invite}/chat", data={"text": "¡hola!"}, headers={"HX-Request": "true"})
        assert r.status_code == 200 and "¡hola!" in r.text
        assert events.get(timeout=10) == "event: board"
        listener.join(timeout=10)
    assert made[:2] == ["the other page's board", "the answer"], made
