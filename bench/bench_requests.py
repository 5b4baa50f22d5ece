"""What each kind of request costs the server, at saturation: the floor under
the load benchmark's «saturated ÷ bare» ratio.

    .venv/bin/python bench/bench_requests.py --db sqlite
    .venv/bin/python bench/bench_requests.py --db postgres

One app process (uvicorn, as bench_load.py starts it), `--tables` started
four-seat tables with their live streams open, then `--concurrency` clients
back to back for `--seconds` on each kind in turn:

- bare: GET /health/live (no database work; the same middleware);
- view: GET /api/tables/{invite}, a seat's view (auth, the table's version
  probe, the view from the cache of committed states);
- refused: POST of a move made on an old version (a double tap, a replayed
  request): auth, rate limit, the body, then a 409 «stale» from the
  process's memory of the table's newest version, without the write lock;
- action: what the load benchmark counts as one action, the seat's view and
  then the move (committed with an fsync on SQLite, four stream events).

Per kind: requests (or actions) per second, the server's and the load
generator's CPU per request, and the share of a core the server used. When
the server uses a whole core in two phases, their throughputs compare as
their server CPU costs do. Prints a markdown table and one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bench_load import PG_DEFAULT, Load, Server, Table, prepare_database, yardstick_ms

KINDS = ("bare", "view", "refused", "action")


async def one(load: Load, kind: str, table: Table) -> None:
    base = f"/api/tables/{table.invite}"
    if kind == "bare":
        async with load.session.get(load.base + "/health/live") as r:
            await r.read()
            status = r.status
    elif kind == "view":
        status, _ = await load.call("GET", base, table.tokens[0])
    elif kind == "refused":
        stale = {"version": 1, "action": {"type": "play", "card": "1D", "capture": []}}
        status, _ = await load.call("POST", base + "/actions", table.tokens[0], stale)
        status = 200 if status == 409 else status
    else:
        await load.act(table)  # counts its own errors (a turn asked of the
        return  # wrong seat is asked again, as in the load benchmark)
    if status != 200:
        load.stats.error(f"{kind} {status}")


async def measure(load: Load, server: Server, kind: str, clients: int, seconds: float) -> Any:
    tables = load.tables[:clients]
    stop = time.perf_counter() + seconds
    done = 0

    async def loop(table: Table) -> None:
        nonlocal done
        while time.perf_counter() < stop:
            await one(load, kind, table)
            done += 1

    load.stats.errors = 0
    load.stats.error_kinds = {}
    moves0 = load.stats.actions
    cpu0, gen0, t0 = server.cpu_seconds(), time.process_time(), time.perf_counter()
    await asyncio.gather(*(loop(t) for t in tables))
    wall = time.perf_counter() - t0
    if kind == "action":  # the moves made (a turn asked of the wrong seat is none)
        done = load.stats.actions - moves0
    cpu, gen = server.cpu_seconds() - cpu0, time.process_time() - gen0
    return {
        "kind": kind,
        "per_s": round(done / wall, 1),
        "server_cpu_ms": round(cpu / max(1, done) * 1000, 3),
        "generator_cpu_ms": round(gen / max(1, done) * 1000, 3),
        "server_core_share": round(cpu / wall, 2),
        "errors": load.stats.errors,
        "error_kinds": dict(load.stats.error_kinds),
    }


async def run(args: argparse.Namespace, url: str, log: Path) -> list[dict[str, Any]]:
    env = {"ESCOBA_LOG_LEVEL": "INFO"}
    server = Server(url, 1, env, log)
    try:
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as session:
            await server.wait(session, 1)
            load = Load(server.base, session, args.seed)
            await load.setup(args.tables)
            await load.open_streams(args.streams)
            load.stats.recording = True
            results = [
                await measure(load, server, kind, args.concurrency, args.seconds) for kind in KINDS
            ]
            for task in load.streams:
                task.cancel()
            await asyncio.gather(*load.streams, return_exceptions=True)
    finally:
        server.stop()
    bare = results[0]
    for r in results:
        r["per_s_over_bare"] = round(r["per_s"] / bare["per_s"], 3)
        r["bare_cpu_over_cpu"] = round(bare["server_cpu_ms"] / r["server_cpu_ms"], 3)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--streams", type=int, default=4, help="live streams per table")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=8.0, help="per kind")
    parser.add_argument("--pg-url", default=PG_DEFAULT, help="a database the bench may drop")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    yardstick = yardstick_ms()
    with tempfile.TemporaryDirectory(prefix="escoba-bench-") as tmp:
        url = prepare_database(args.db, args.pg_url, Path(tmp))
        results = asyncio.run(run(args, url, Path(tmp) / "server.log"))
    print(
        "| kind | per s | ÷ bare | server CPU ms | generator CPU ms | server's core share "
        "| errors |\n|---|---|---|---|---|---|---|"
    )
    for r in results:
        print(
            f"| {r['kind']} | {r['per_s']} | {r['per_s_over_bare']} | {r['server_cpu_ms']} | "
            f"{r['generator_cpu_ms']} | {r['server_core_share']} | {r['errors']} |"
        )
    print(json.dumps({"db": args.db, "yardstick_ms": yardstick, "kinds": results}))


if __name__ == "__main__":
    main()
