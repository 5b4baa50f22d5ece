"""Held connections benchmark: what one client can keep open on a server
served directly (`escoba serve`, no proxy), the attacks of issue 12 item 5.

    .venv/bin/python bench/bench_held.py --streams 400 --half 100

From one address: `--streams` live streams on one table (how many are let
in, how the rest are answered), `--half` requests whose head never ends
(request line and a header, no blank line) and `--half` whose body never
ends (a `Content-Length` of 40, 15 bytes sent). Reported: how each was
answered and how long after it was sent the server closed it (p50 / max),
bounded by `--wait` seconds (past it: "held"). Defaults as shipped
(`ESCOBA_REQUEST_TIMEOUT_SECONDS` 10, `ESCOBA_LIVE_STREAMS_PER_IP` 20).
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
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from bench_load import free_port, percentile, prepare_database, report, yardstick_ms


async def held(port: int, request: bytes, wait: float) -> tuple[str, float | None]:
    """Send `request`, then read: (the status line's code or "closed", the
    seconds until the server closed the connection, None if it held it)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    sent = time.monotonic()
    writer.write(request)
    data = b""
    closed: float | None = None
    try:
        async with asyncio.timeout(wait):
            while chunk := await reader.read(65536):
                data += chunk
            closed = time.monotonic() - sent
    except TimeoutError:
        pass
    except ConnectionError:
        closed = time.monotonic() - sent
    writer.close()
    return (data[9:12].decode() if data.startswith(b"HTTP/1.1 ") else "closed"), closed


async def stream(port: int, invite: str, wait: float) -> str:
    """Open a stream; its status code. Held streams stay open for `wait`."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /t/{invite}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    head = await reader.readuntil(b"\r\n\r\n")
    code = head[9:12].decode()
    if code == "200":
        await asyncio.sleep(wait)
    writer.close()
    return code


def summary(results: list[tuple[str, float | None]]) -> dict[str, Any]:
    times = [t for _, t in results if t is not None]
    return {
        "answers": dict(Counter(code for code, _ in results)),
        "closed": len(times),
        "held": len(results) - len(times),
        "closed_after_s_p50": round(percentile(times, 50), 2) if times else None,
        "closed_after_s_max": round(max(times), 2) if times else None,
    }


async def run(args: argparse.Namespace, port: int) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    made = httpx.post(base + "/api/tables", json={"name": "Ana", "target": 21}, timeout=10)
    invite = made.json()["invite"]
    heads = b"GET /health/live HTTP/1.1\r\nHost: bench\r\n"
    bodies = (
        b"POST /api/tables HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        b'Content-Length: 40\r\n\r\n{"name": "Ana",'
    )
    started = time.monotonic()
    streams = asyncio.gather(*(stream(port, invite, args.wait) for _ in range(args.streams)))
    half_heads = asyncio.gather(*(held(port, heads, args.wait) for _ in range(args.half)))
    half_bodies = asyncio.gather(*(held(port, bodies, args.wait) for _ in range(args.half)))
    codes, h, b = await asyncio.gather(streams, half_heads, half_bodies)
    return {
        "streams": args.streams,
        "stream_answers": dict(Counter(codes)),
        "half_heads": summary(h),
        "half_bodies": summary(b),
        "seconds": round(time.monotonic() - started, 1),
    }


def row(r: dict[str, Any]) -> str:
    def cell(s: dict[str, Any]) -> str:
        answers = ", ".join(f"{k}: {v}" for k, v in sorted(s["answers"].items()))
        closed = f"{s['closed_after_s_p50']} / {s['closed_after_s_max']}" if s["closed"] else "—"
        return f"{s['closed']} closed, {s['held']} held ({answers}); {closed}"

    answers = ", ".join(f"{k}: {v}" for k, v in sorted(r["stream_answers"].items()))
    return (
        f"| {r['streams']} streams: {answers} | {cell(r['half_heads'])} | "
        f"{cell(r['half_bodies'])} | {r.get('yardstick_ms', '')} |"
    )


HEADER = (
    "| streams from one IP (answers) | half-sent heads: closed after s p50 / max "
    "| half-sent bodies: same | yardstick ms |\n|---|---|---|---|"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=400)
    parser.add_argument("--half", type=int, default=100)
    parser.add_argument("--wait", type=float, default=20.0, help="the longest a client waits")
    parser.add_argument("--json", type=Path, default=None, help="append the result here")
    args = parser.parse_args()
    yardstick = yardstick_ms()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="escoba-held-") as tmp:
        url = prepare_database("sqlite", "", Path(tmp))
        env = {**os.environ, "DATABASE_URL": url, "ESCOBA_LOG_LEVEL": "WARNING"}
        escoba = str(Path(sys.executable).with_name("escoba"))
        with (Path(tmp) / "server.log").open("wb") as log:
            proc = subprocess.Popen(
                [escoba, "serve", "--host", "127.0.0.1", "--port", str(port)],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                        break
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the server did not start")
                time.sleep(0.1)
            result = asyncio.run(run(args, port))
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    result["yardstick_ms"] = yardstick
    report(HEADER, row(result), result, args.json)


if __name__ == "__main__":
    main()
