"""Do robots wait for the rounds' analyses? (issue 35, part 2)

    .venv/bin/python bench/bench_robot_wait.py --seconds 60 --burners 2
    .venv/bin/python bench/bench_robot_wait.py --src /path/to/an/older/checkout ...

One app process (uvicorn, SQLite, the default settings but the rate limits)
serves, for `--seconds` after `--warmup`:

- the analyses' load: `--finishers` two-person tables played by one client
  as fast as it can (random legal moves, SIGUIENTE RONDA at once, a new
  table when a game ends): a round every second or two, each queuing a
  round's analysis, far more than one process weighs — the queue never
  empties;
- the machine kept busy: `--burners` processes of pure computation, at the
  robots' priority;
- the measured tables: `--tables` tables of one person and Tito (robot
  delay `--delay`), whose person answers the moment their turn comes. For
  each of Tito's answers: the time from the person's move (its POST
  answered) to the first look (every 20 ms) that shows Tito's move, less
  the delay: what Tito made the person wait beyond it.

`--src DIR` runs the app of another checkout (its `src/` first on the
server's PYTHONPATH; the same virtualenv), to time today's arrangement
against an older one on the same load in the same session. Prints a
markdown row and one JSON line (appended to `--json` if given).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bench_load import Server, percentile, report, yardstick_ms
from bench_robot_client import Client as Api

POLL = 0.02


async def finisher(api: Api, stop: asyncio.Event, rounds: list[float], seed: int) -> None:
    """Two people at full speed: rounds finished one after the other."""
    rng = random.Random(seed)
    invite, tokens = await api.table([], humans=2)
    while not stop.is_set():
        _, page = await api.call("GET", f"/api/tables/{invite}", tokens[0])
        if page["status"] != "playing":
            invite, tokens = await api.table([], humans=2)
            continue
        view = page["view"]
        if view["phase"] == "round_over":
            rounds.append(time.monotonic())
            await api.call(
                "POST", f"/api/tables/{invite}/next-round", tokens[0], {"version": page["version"]}
            )
            continue
        token = next(tokens[s["position"]] for s in page["seats"] if s["game_seat"] == view["turn"])
        _, mine = await api.call("GET", f"/api/tables/{invite}", token)
        if mine["view"]["legal_actions"]:
            await api.call(
                "POST",
                f"/api/tables/{invite}/actions",
                token,
                {"version": mine["version"], "action": rng.choice(mine["view"]["legal_actions"])},
            )


async def person(
    api: Api, stop: asyncio.Event, delay: float, waits: list[float], seed: int
) -> None:
    """One person against Tito, answering at once; each of Tito's answers
    timed from the person's move."""
    rng = random.Random(seed)
    invite, tokens = await api.table(["tito"], humans=1)
    moved_at: float | None = None
    moved_version = 0
    while not stop.is_set():
        _, page = await api.call("GET", f"/api/tables/{invite}", tokens[0])
        seen = time.monotonic()
        if moved_at is not None and page["version"] > moved_version:
            if page["status"] == "playing" and page["view"]["phase"] == "playing":
                waits.append(seen - moved_at - delay)
            moved_at = None
        if page["status"] != "playing":
            invite, tokens = await api.table(["tito"], humans=1)
            continue
        view = page["view"]
        me = next(s["game_seat"] for s in page["seats"] if s["you"])
        if view["phase"] == "round_over":
            await api.call(
                "POST", f"/api/tables/{invite}/next-round", tokens[0], {"version": page["version"]}
            )
        elif view["turn"] == me and view["legal_actions"]:
            status, out = await api.call(
                "POST",
                f"/api/tables/{invite}/actions",
                tokens[0],
                {"version": page["version"], "action": rng.choice(view["legal_actions"])},
            )
            if status == 200 and out.get("view", {}).get("turn") not in (None, me):
                moved_at, moved_version = time.monotonic(), out["version"]
        else:
            await asyncio.sleep(POLL)
            continue
        await asyncio.sleep(POLL)


def burn() -> None:
    os.nice(0)
    while True:
        pass


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="escoba-robot-wait-"))
    env = {"ESCOBA_ROBOT_DELAY": str(args.delay), "ESCOBA_LOG_LEVEL": "WARNING"}
    if args.src:
        env["PYTHONPATH"] = str(Path(args.src).resolve() / "src")
    url = f"sqlite:///{tmp / 'bench.db'}"
    # migrated by the code that serves it (an older checkout knows fewer revisions)
    subprocess.run(
        [sys.executable, "-c", f"from escoba.web.base.db import migrate; migrate({url!r})"],
        env={**os.environ, **env},
        check=True,
    )
    server = Server(url, 1, env, tmp / "server.log")
    burners = [multiprocessing.Process(target=burn, daemon=True) for _ in range(args.burners)]
    try:
        async with aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=60),
            connector=aiohttp.TCPConnector(limit=200),
        ) as session:
            await server.wait(session, 1)
            api = Api(server.base, session)
            for b in burners:
                b.start()
            stop = asyncio.Event()
            rounds: list[float] = []
            waits: list[float] = []
            tasks = [
                asyncio.create_task(finisher(api, stop, rounds, 100 + i))
                for i in range(args.finishers)
            ] + [
                asyncio.create_task(person(api, stop, args.delay, waits, 200 + i))
                for i in range(args.tables)
            ]
            await asyncio.sleep(args.warmup)
            waits.clear()
            rounds.clear()
            cpu0 = server.cpu_seconds()
            start = time.monotonic()
            await asyncio.sleep(args.seconds)
            elapsed = time.monotonic() - start
            cpu = server.cpu_seconds() - cpu0
            _, health = await api.call("GET", "/health")
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for b in burners:
            b.kill()
        server.stop()
    queued = health.get("analyses", {}).get("waiting")
    return {
        "src": args.src or "this checkout",
        "seconds": round(elapsed),
        "burners": args.burners,
        "delay_s": args.delay,
        "robot_answers": len(waits),
        "wait_p50_ms": round(1000 * percentile(waits, 50)),
        "wait_p95_ms": round(1000 * percentile(waits, 95)),
        "wait_p99_ms": round(1000 * percentile(waits, 99)),
        "wait_max_ms": round(1000 * max(waits)) if waits else None,
        "rounds_finished": len(rounds),
        "analyses_waiting_at_end": queued,
        "server_cores": round(cpu / elapsed, 2),
        "yardstick_ms": yardstick_ms(),
        "load": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=15)
    parser.add_argument("--finishers", type=int, default=2)
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--burners", type=int, default=2)
    parser.add_argument("--delay", type=float, default=1.2)
    parser.add_argument("--src", default="")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = asyncio.run(run(args))
    report(
        "| code | burners | Tito's answers | wait beyond the delay p50 / p95 / p99 / max (ms) "
        "| rounds finished | analyses waiting at the end |\n|---|---|---|---|---|---|",
        f"| {result['src']} | {result['burners']} | {result['robot_answers']} "
        f"| {result['wait_p50_ms']} / {result['wait_p95_ms']} / {result['wait_p99_ms']} / "
        f"{result['wait_max_ms']} | {result['rounds_finished']} "
        f"| {result['analyses_waiting_at_end']} |",
        result,
        args.json,
    )


if __name__ == "__main__":
    main()
