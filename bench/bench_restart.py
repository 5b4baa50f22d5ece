"""Restart benchmark: how long a stop takes with thousands of table pages
open, and how long until every page has caught up on the next process.

    .venv/bin/python bench/bench_restart.py --db sqlite --streams 2000
    .venv/bin/python bench/bench_restart.py --db postgres --workers 2 --streams 2000

Against real processes on 127.0.0.1 (`escoba serve`, or with `--uvicorn`
the bare `uvicorn escoba.web.asgi:app`), with the per-IP stream cap off
(every stream comes from this one address):

1. K tables made through the API, S live streams opened over them, each
   with the table's version as its `Last-Event-ID` (up to date, so quiet);
2. SIGTERM to the server. Measured from the signal: the last stream's end
   (and how many ended cleanly, with the last chunk, rather than cut), and
   the process's exit; bounded by `--timeout` (then SIGKILL: "hung");
3. the next process starts on the same port (the restart), a seat is taken
   at every table (what happened while the pages had no stream), and every
   stream reconnects at once with its `Last-Event-ID`: the time until the
   last one has heard the new version, its first event.

Prints one markdown row and the JSON. Run it against older code with
`PYTHONPATH=<checkout>/src` to see what the fix changes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bench_load import PG_DEFAULT, free_port, percentile, prepare_database, report, yardstick_ms

HEALTH_WAIT = 60.0


class Process:
    """`escoba serve` (or uvicorn) in its own session, on a given port."""

    def __init__(
        self, url: str, port: int, workers: int, uvicorn: bool, log: Path, tag: str
    ) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "ESCOBA_SECRET_KEY": "bench",
            "ESCOBA_RATE_LIMITS": "false",
            "ESCOBA_LIVE_STREAMS_PER_IP": "0",
            "ESCOBA_LOG_LEVEL": "WARNING",
        }
        if uvicorn:
            cmd = [sys.executable, "-m", "uvicorn", "escoba.web.asgi:app", "--no-access-log"]
            cmd += ["--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)]
            cmd += ["--backlog", "4096"]
        else:
            escoba = str(Path(sys.executable).with_name("escoba"))
            cmd = [escoba, "serve", "--host", "127.0.0.1", "--port", str(port)]
            cmd += ["--workers", str(workers)]
        self._log = (log.parent / f"{log.stem}-{tag}.log").open("wb")
        self.proc = subprocess.Popen(
            cmd, env=env, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True
        )

    async def wait(self, session: aiohttp.ClientSession) -> None:
        deadline = time.monotonic() + HEALTH_WAIT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited; see its log")
            with contextlib.suppress(aiohttp.ClientError, OSError):
                async with session.get(self.base + "/health") as r:
                    if r.status == 200:
                        return
            await asyncio.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self._log.close()


class Stream:
    """One page's live stream, raw: its table, the last id heard, how it ended."""

    def __init__(self, port: int, invite: str, last_id: int) -> None:
        self.port = port
        self.invite = invite
        self.last_id = last_id
        self.clean_end = False
        self.ended_at = 0.0
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(
            (
                f"GET /t/{self.invite}/events HTTP/1.1\r\nHost: bench\r\n"
                f"Last-Event-ID: {self.last_id}\r\n\r\n"
            ).encode()
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head[:200].decode(errors="replace"))

    async def until_end(self) -> None:
        """Read until the server closes; clean if the last chunk came first."""
        assert self.reader is not None
        tail = b""
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            while chunk := await self.reader.read(65536):
                tail = (tail + chunk)[-16:]
        self.clean_end = tail.endswith(b"0\r\n\r\n")
        self.ended_at = time.monotonic()
        self.close()

    async def first_update(self) -> int:
        """The version of the first `update` event."""
        assert self.reader is not None
        while True:
            line = await self.reader.readline()
            if not line:
                raise RuntimeError("the stream ended before its first event")
            if line.startswith(b"data:"):
                return int(line[5:].strip())

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def run(args: argparse.Namespace, url: str, log: Path) -> dict[str, Any]:
    port = free_port()
    connector = aiohttp.TCPConnector(limit=64)
    async with aiohttp.ClientSession(connector=connector) as session:
        first = Process(url, port, args.workers, args.uvicorn, log, "first")
        second: Process | None = None
        try:
            await first.wait(session)
            versions: dict[str, int] = {}
            for i in range(args.tables):
                async with session.post(
                    first.base + "/api/tables", json={"name": f"Ana{i}", "target": 21}
                ) as r:
                    made = await r.json()
                async with session.get(f"{first.base}/api/tables/{made['invite']}") as r:
                    versions[made["invite"]] = (await r.json())["version"]
            invites = list(versions)
            streams = [
                Stream(port, invites[i % len(invites)], versions[invites[i % len(invites)]])
                for i in range(args.streams)
            ]
            for start in range(0, len(streams), 200):
                await asyncio.gather(*(s.open() for s in streams[start : start + 200]))
            ends = [asyncio.create_task(s.until_end()) for s in streams]

            signalled = time.monotonic()
            first.proc.send_signal(signal.SIGTERM)
            exited: float | None = None
            while time.monotonic() - signalled < args.timeout:
                if first.proc.poll() is not None:
                    exited = time.monotonic() - signalled
                    break
                await asyncio.sleep(0.02)
            hung = exited is None
            first.kill()  # a hung server is killed: its streams are cut
            await asyncio.wait_for(asyncio.gather(*ends), 30)
            ended = [s.ended_at - signalled for s in streams]
            clean = sum(s.clean_end for s in streams)

            second = Process(url, port, args.workers, args.uvicorn, log, "second")
            restarting = time.monotonic()
            await second.wait(session)
            up = time.monotonic() - restarting
            for invite in invites:  # what happened while no page had its stream
                async with session.post(
                    f"{second.base}/api/tables/{invite}/seats", json={"name": "Beto"}
                ) as r:
                    if r.status != 201:
                        raise RuntimeError(await r.text())
                versions[invite] += 1  # taking a seat is one change
            reconnecting = time.monotonic()
            again = [Stream(port, s.invite, s.last_id) for s in streams]
            caught: list[float] = []

            async def catch_up(stream: Stream) -> None:
                await stream.open()
                heard = await stream.first_update()
                if heard < versions[stream.invite]:
                    raise RuntimeError(f"{stream.invite}: heard {heard}")
                caught.append(time.monotonic() - reconnecting)
                stream.close()

            await asyncio.wait_for(asyncio.gather(*(catch_up(s) for s in again)), 120)
        finally:
            first.kill()
            if second is not None:
                second.kill()
    return {
        "db": args.db,
        "workers": args.workers,
        "server": "uvicorn" if args.uvicorn else "escoba serve",
        "streams": args.streams,
        "tables": args.tables,
        "exit_s": None if hung else round(exited or 0.0, 2),
        "hung_past_s": args.timeout if hung else None,
        "streams_ended_p50_s": round(percentile(ended, 50), 2),
        "streams_ended_max_s": round(max(ended), 2),
        "streams_ended_cleanly": clean,
        "next_process_up_s": round(up, 2),
        "caught_up_p50_s": round(percentile(caught, 50), 2),
        "caught_up_max_s": round(max(caught), 2),
        "caught_up": len(caught),
    }


def row(r: dict[str, Any]) -> str:
    exit_s = f"{r['exit_s']}" if r["exit_s"] is not None else f"hung > {r['hung_past_s']:g}"
    return (
        f"| {r['db']}, {r['workers']} | {r['server']} | {r['streams']:,} | {exit_s} | "
        f"{r['streams_ended_p50_s']} / {r['streams_ended_max_s']} | "
        f"{r['streams_ended_cleanly']:,} | {r['next_process_up_s']} | "
        f"{r['caught_up']:,} in {r['caught_up_max_s']} (p50 {r['caught_up_p50_s']}) | "
        f"{r.get('yardstick_ms', '')} |"
    )


HEADER = (
    "| database, processes | server | streams | exit after SIGTERM s | streams ended p50 / max s "
    "| ended cleanly | next process up s | caught up (Last-Event-ID), s | yardstick ms |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--uvicorn", action="store_true", help="bare uvicorn, not escoba serve")
    parser.add_argument("--timeout", type=float, default=60.0, help="longest wait for the exit")
    parser.add_argument("--pg-url", default=PG_DEFAULT, help="a database the bench may drop")
    parser.add_argument("--json", type=Path, default=None, help="append the result here")
    args = parser.parse_args()
    yardstick = yardstick_ms()
    with tempfile.TemporaryDirectory(prefix="escoba-restart-") as tmp:
        url = prepare_database(args.db, args.pg_url, Path(tmp))
        result = asyncio.run(run(args, url, Path(tmp) / "server.log"))
    result["yardstick_ms"] = yardstick
    report(HEADER, row(result), result, args.json)


if __name__ == "__main__":
    main()
