"""A restart never hangs on the open table pages: on SIGTERM every live
stream ends at once and cleanly (the chunked response is complete, which a
browser answers by reconnecting), the process exits within seconds, and a
stream that reconnects to the next process with its `Last-Event-ID` starts
with the change it missed while no process was up."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..servers import PG_URL, Server, first_event, fresh_pg_database, open_stream

pytestmark = pytest.mark.slow

STREAMS = 200
# seconds; a generous bound: the process exits in about one, and without the
# fix it waits for the clients to leave, that is forever
EXIT_BOUND = 10.0
UNCAPPED = {"ESCOBA_LIVE_STREAMS_PER_IP": "0"}


def read_to_end(sock: socket.socket) -> bytes:
    out = b""
    while chunk := sock.recv(4096):
        out += chunk
    sock.close()
    return out


def _servers(tmp_path: Path, kind: str) -> tuple[Server, Server]:
    if kind == "uvicorn":  # the app alone must do it: nothing of `escoba serve` helps
        url = f"sqlite:///{tmp_path / 'escoba.db'}"
        from escoba.web.base.db import migrate

        migrate(url)
        return Server(url, UNCAPPED), Server(url, UNCAPPED)
    pg = fresh_pg_database("escoba_test_restart")
    assert pg is not None
    return (
        Server(pg, UNCAPPED, serve=True, workers=2),
        Server(pg, UNCAPPED, serve=True, workers=2),
    )


@pytest.mark.parametrize(
    "kind",
    [
        "uvicorn",
        pytest.param(
            "serve-workers",
            marks=pytest.mark.skipif(PG_URL is None, reason="several workers need PostgreSQL"),
        ),
    ],
)
def test_sigterm_ends_the_streams_and_a_reconnecting_page_catches_up(
    tmp_path: Path, kind: str
) -> None:
    first, second = _servers(tmp_path, kind)
    try:
        first.start(tmp_path)
        made: Any = httpx.post(
            first.base + "/api/tables", json={"name": "Ana", "target": 21}, timeout=10
        ).json()
        invite = made["invite"]
        # a page's stream: the id of the last event it heard is its Last-Event-ID
        heard = first_event(first.base, f"/t/{invite}/events", {"Last-Event-ID": "0"})
        seen = int(heard[0].removeprefix("id: "))
        streams = [open_stream(first.port, invite) for _ in range(STREAMS)]
        assert first.proc is not None
        stopping = time.monotonic()
        first.proc.terminate()
        try:
            first.proc.wait(timeout=EXIT_BOUND)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the server was still up {EXIT_BOUND} s after SIGTERM")
        took = time.monotonic() - stopping
        for sock in streams:
            # ended by the app (the last chunk), not cut by a timeout or a kill
            assert read_to_end(sock).endswith(b"0\r\n\r\n")

        second.start(tmp_path)
        joined = httpx.post(
            f"{second.base}/api/tables/{invite}/seats", json={"name": "Beto"}, timeout=10
        )
        assert joined.status_code == 201, joined.text
        now = httpx.get(f"{second.base}/api/tables/{invite}", timeout=10).json()["version"]
        assert now > seen
        back = first_event(second.base, f"/t/{invite}/events", {"Last-Event-ID": str(seen)})
        assert back == [f"id: {now}", f"data: {now}"], (back, took)
    finally:
        first.stop()
        second.stop()
