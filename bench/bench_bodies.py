"""Oversized bodies benchmark: what a client sending huge request bodies does
to the server's memory and to everyone else's requests.

    .venv/bin/python bench/bench_bodies.py --attackers 4 --mb 128 --seconds 10

One `escoba serve` process on SQLite (127.0.0.1). A prober asks
`GET /health/live` every 20 ms throughout (what a page or a load balancer
sees). First `--quiet` seconds with nothing else; then `--attackers`
clients, each sending `POST /api/tables` bodies of `--mb` megabytes back to
back for `--seconds` (half with a declared `Content-Length`, half chunked
without one), as fast as the connection takes them, until the server
answers or closes. Reported: the server's peak RSS (VmHWM) and its
largest sampled RSS during the attack, the prober's latency p50 / p95 / max
in each phase, the bodies sent and how they were answered, and the bytes
the attackers got into the connection before it was refused (the server
reads at most the cap; the rest sits in socket buffers or is never sent).

Run it against older code with `PYTHONPATH=<checkout>/src` to compare.
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

import aiohttp

from bench_load import free_port, percentile, prepare_database, report, yardstick_ms

PIECE = 65536


def _status(pid: int, field: str) -> float:
    """A /proc/<pid>/status figure in MB (VmRSS, VmHWM)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


async def probe(base: str, until: float, out: list[tuple[float, float]]) -> None:
    """GET /health/live every 20 ms: (when, latency ms); a failure counts 10 s."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        while time.monotonic() < until:
            sent = time.monotonic()
            try:
                async with session.get(base + "/health/live") as r:
                    await r.read()
                    ok = r.status == 200
            except (aiohttp.ClientError, TimeoutError):
                ok = False
            took = (time.monotonic() - sent) * 1000 if ok else 10_000.0
            out.append((sent, took))
            await asyncio.sleep(max(0.0, 0.02 - (time.monotonic() - sent)))


async def attack(
    port: int, size: int, chunked: bool, until: float, statuses: Counter[str], sent_mb: list[float]
) -> None:
    """Huge bodies back to back until `until`."""
    piece = b"x" * PIECE
    framed = b"%x\r\n%s\r\n" % (PIECE, piece)
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            statuses["connect failed"] += 1
            await asyncio.sleep(0.05)
            continue
        length = b"Transfer-Encoding: chunked" if chunked else b"Content-Length: %d" % size
        start = b'{"name": "Ana", "target": 21, "pad": "'
        writer.write(
            b"POST /api/tables HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
            + length
            + b"\r\n\r\n"
            + (b"%x\r\n%s\r\n" % (len(start), start) if chunked else start)
        )
        answer = asyncio.create_task(reader.read(200))
        sent = 0
        try:
            while sent < size - PIECE and not answer.done() and time.monotonic() < until:
                writer.write(framed if chunked else piece)
                await writer.drain()
                sent += PIECE
            if not answer.done() and time.monotonic() < until:
                tail = b'"}'
                writer.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(tail), tail) if chunked else tail)
                await writer.drain()
            head = await asyncio.wait_for(answer, max(0.1, until - time.monotonic() + 5))
            statuses[head[:12].decode(errors="replace").removeprefix("HTTP/1.1 ") or "closed"] += 1
        except (ConnectionError, TimeoutError):
            # the server closed while we were still sending: its answer, if it came through
            await asyncio.sleep(0.01)
            head = b""
            if answer.done() and not answer.cancelled() and answer.exception() is None:
                head = answer.result()
            code = head[:12].decode(errors="replace").removeprefix("HTTP/1.1 ")
            statuses[code or "reset"] += 1
        finally:
            answer.cancel()
            sent_mb.append(sent / 2**20)
            writer.close()


async def run(args: argparse.Namespace, url: str, log: Path) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "ESCOBA_SECRET_KEY": "bench",
        "ESCOBA_RATE_LIMITS": "false",
        "ESCOBA_LOG_LEVEL": "WARNING",
    }
    escoba = str(Path(sys.executable).with_name("escoba"))
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [escoba, "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        async with aiohttp.ClientSession() as session:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(aiohttp.ClientError, OSError):
                    async with session.get(base + "/health") as r:
                        if r.status == 200:
                            break
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the server did not start")
                await asyncio.sleep(0.1)
        pid = proc.pid
        start = time.monotonic()
        attack_from = start + args.quiet
        attack_to = attack_from + args.seconds
        probes: list[tuple[float, float]] = []
        prober = asyncio.create_task(probe(base, attack_to, probes))
        await asyncio.sleep(args.quiet)
        quiet_hwm = _status(pid, "VmHWM")
        statuses: Counter[str] = Counter()
        sent_mb: list[float] = []
        size = args.mb * 2**20
        attackers = [
            asyncio.create_task(attack(port, size, i % 2 == 1, attack_to, statuses, sent_mb))
            for i in range(args.attackers)
        ]
        rss_max = 0.0
        while time.monotonic() < attack_to:
            rss_max = max(rss_max, _status(pid, "VmRSS"))
            await asyncio.sleep(0.1)
        await asyncio.wait_for(asyncio.gather(*attackers, return_exceptions=True), 60)
        await prober
        hwm = _status(pid, "VmHWM")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    quiet = [ms for at, ms in probes if at < attack_from]
    loud = [ms for at, ms in probes if at >= attack_from]
    return {
        "attackers": args.attackers,
        "body_mb": args.mb,
        "seconds": args.seconds,
        "peak_rss_mb_quiet": round(quiet_hwm, 1),
        "peak_rss_mb": round(hwm, 1),
        "rss_max_sampled_mb": round(rss_max, 1),
        "health_quiet_ms": {
            "p50": round(percentile(quiet, 50), 2),
            "p95": round(percentile(quiet, 95), 2),
            "max": round(max(quiet), 1),
        },
        "health_attack_ms": {
            "p50": round(percentile(loud, 50), 2),
            "p95": round(percentile(loud, 95), 2),
            "max": round(max(loud), 1),
        },
        "probes_failed": sum(ms >= 10_000 for ms in loud),
        "bodies": sum(statuses.values()),
        "answers": dict(statuses),
        "sent_mb_p50": round(percentile(sent_mb, 50), 2),
        "sent_mb_max": round(max(sent_mb), 1) if sent_mb else 0.0,
    }


def row(r: dict[str, Any]) -> str:
    q, a = r["health_quiet_ms"], r["health_attack_ms"]
    answers = ", ".join(f"{k}: {v}" for k, v in sorted(r["answers"].items()))
    return (
        f"| {r['attackers']} × {r['body_mb']} MB, {r['seconds']:g} s | {r['bodies']} ({answers}) "
        f"| {r['sent_mb_p50']} / {r['sent_mb_max']} "
        f"| {r['peak_rss_mb_quiet']} → {r['peak_rss_mb']} "
        f"| {q['p50']} / {q['p95']} / {q['max']} | {a['p50']} / {a['p95']} / {a['max']} "
        f"| {r['probes_failed']} | {r.get('yardstick_ms', '')} |"
    )


HEADER = (
    "| attack | bodies (answers) | MB sent per body p50 / max | server peak RSS MB, "
    "quiet → attack | /health/live ms p50 / p95 / max, quiet | same, under attack "
    "| probes failed | yardstick ms |\n"
    "|---|---|---|---|---|---|---|---|"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attackers", type=int, default=4)
    parser.add_argument("--mb", type=int, default=128, help="size of each body")
    parser.add_argument("--quiet", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", type=Path, default=None, help="append the result here")
    args = parser.parse_args()
    yardstick = yardstick_ms()
    with tempfile.TemporaryDirectory(prefix="escoba-bodies-") as tmp:
        url = prepare_database("sqlite", "", Path(tmp))
        result = asyncio.run(run(args, url, Path(tmp) / "server.log"))
    result["yardstick_ms"] = yardstick
    report(HEADER, row(result), result, args.json)


if __name__ == "__main__":
    main()
