"""What one robot-heavy client costs everyone else (issue 12.6).

    .venv/bin/python bench/bench_robot_client.py --processes 0 1

One app process (uvicorn, SQLite, robots on their production delay) serves:

- the robot client: `--robot-tables` tables of one person and three Lunas,
  played by one client as fast as its person's turns come (it answers the
  moment it is on turn, starts the next round at once, and opens a new
  table when a game ends) — within the rate limits;
- everyone else: `--others` two-person tables whose people move at a steady
  `--rate` actions per second in all (each action: GET the seat's view, POST
  the move), whose POST latency is measured;
- a prober on GET /health/live every 20 ms.

For each `--processes` value (ESCOBA_ROBOT_PROCESSES: 0 is one thread of the
app's own process, as before issue 12; 1 is one worker process) it runs
`--seconds` without the robot client and then `--seconds` with it, and
reports the others' action p50/p99, /health/live p50/p95, the robot moves a
minute and the server's CPU (app process and robot workers). Prints a
markdown table and one JSON line (appended to `--json` if given).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bench_load import Server, percentile, prepare_database, report, yardstick_ms


class Client:
    def __init__(self, base: str, session: aiohttp.ClientSession) -> None:
        self.base = base
        self.session = session

    async def call(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.session.request(method, self.base + path, json=body, headers=headers) as r:
            return r.status, await r.json(content_type=None)

    async def table(self, robots: list[str], humans: int) -> tuple[str, list[str]]:
        status, made = await self.call("POST", "/api/tables", None, {"name": "Ana"})
        assert status == 201, made
        invite, tokens = made["invite"], [made["token"]]
        for i in range(humans - 1):
            status, joined = await self.call(
                "POST", f"/api/tables/{invite}/seats", None, {"name": f"Bea{i}"}
            )
            assert status == 201, joined
            tokens.append(joined["token"])
        for robot in robots:
            _, page = await self.call("GET", f"/api/tables/{invite}", tokens[0])
            status, out = await self.call(
                "POST",
                f"/api/tables/{invite}/robots",
                tokens[0],
                {"robot": robot, "version": page["version"]},
            )
            assert status == 200, out
        _, page = await self.call("GET", f"/api/tables/{invite}", tokens[0])
        status, out = await self.call(
            "POST", f"/api/tables/{invite}/start", tokens[0], {"version": page["version"]}
        )
        assert status == 200, out
        return invite, tokens


async def robot_player(client: Client, stop: asyncio.Event, moves: list[float]) -> None:
    """One table of the robot client, and the next when it ends."""
    invite, tokens = await client.table(["luna", "luna", "luna"], humans=1)
    last_version = 0
    while not stop.is_set():
        status, page = await client.call("GET", f"/api/tables/{invite}", tokens[0])
        if status != 200:
            await asyncio.sleep(0.1)
            continue
        if page["version"] != last_version:
            if last_version:  # the table's moves since the last look (robots' and ours)
                moves.extend([time.monotonic()] * (page["version"] - last_version))
            last_version = page["version"]
        if page["status"] != "playing":
            invite, tokens = await client.table(["luna", "luna", "luna"], humans=1)
            last_version = 0
            continue
        view = page["view"]
        me = next(s["game_seat"] for s in page["seats"] if s["you"])
        if view["phase"] == "round_over":
            await client.call(
                "POST", f"/api/tables/{invite}/next-round", tokens[0], {"version": page["version"]}
            )
        elif view["turn"] == me and view["legal_actions"]:
            await client.call(
                "POST",
                f"/api/tables/{invite}/actions",
                tokens[0],
                {"version": page["version"], "action": view["legal_actions"][0]},
            )
        else:
            await asyncio.sleep(0.05)


async def others(
    client: Client, count: int, rate: float, stop: asyncio.Event, latencies: list[float]
) -> None:
    tables = [await client.table([], humans=2) for _ in range(count)]
    rng = random.Random(1)
    period = 1.0 / rate
    next_at = time.monotonic()
    while not stop.is_set():
        next_at += period
        invite, tokens = rng.choice(tables)
        _, page = await client.call("GET", f"/api/tables/{invite}", tokens[0])
        if page["status"] != "playing":
            tables.remove((invite, tokens))
            tables.append(await client.table([], humans=2))
            continue
        view = page["view"]
        if view["phase"] == "round_over":
            await client.call(
                "POST", f"/api/tables/{invite}/next-round", tokens[0], {"version": page["version"]}
            )
        else:
            token = next(
                tokens[s["position"]] for s in page["seats"] if s["game_seat"] == view["turn"]
            )
            _, mine = await client.call("GET", f"/api/tables/{invite}", token)
            action = rng.choice(mine["view"]["legal_actions"])
            sent = time.perf_counter()
            status, _ = await client.call(
                "POST",
                f"/api/tables/{invite}/actions",
                token,
                {"version": mine["version"], "action": action},
            )
            if status == 200:
                latencies.append((time.perf_counter() - sent) * 1000)
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))


async def prober(client: Client, stop: asyncio.Event, latencies: list[float]) -> None:
    while not stop.is_set():
        sent = time.perf_counter()
        async with client.session.get(client.base + "/health/live") as r:
            await r.read()
        latencies.append((time.perf_counter() - sent) * 1000)
        await asyncio.sleep(0.02)


async def phase(
    client: Client, server: Server, args: argparse.Namespace, robot_client: bool
) -> dict[str, Any]:
    stop = asyncio.Event()
    actions: list[float] = []
    health: list[float] = []
    robot_moves: list[float] = []
    tasks = [
        asyncio.create_task(others(client, args.others, args.rate, stop, actions)),
        asyncio.create_task(prober(client, stop, health)),
    ]
    if robot_client:
        tasks += [
            asyncio.create_task(robot_player(client, stop, robot_moves))
            for _ in range(args.robot_tables)
        ]
    await asyncio.sleep(args.warmup)
    actions.clear()
    health.clear()
    robot_moves.clear()
    cpu0 = server.cpu_seconds()
    start = time.monotonic()
    await asyncio.sleep(args.seconds)
    elapsed = time.monotonic() - start
    cpu = server.cpu_seconds() - cpu0
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "robot_client": robot_client,
        "others_actions": len(actions),
        "action_p50_ms": round(percentile(actions, 50), 1),
        "action_p99_ms": round(percentile(actions, 99), 1),
        "health_p50_ms": round(percentile(health, 50), 2),
        "health_p95_ms": round(percentile(health, 95), 2),
        "robot_moves_per_min": round(len(robot_moves) * 60 / elapsed),
        "server_cores": round(cpu / elapsed, 2),
    }


async def run(
    args: argparse.Namespace, processes: int, url: str, log: Path
) -> list[dict[str, Any]]:
    env = {
        "ESCOBA_ROBOT_PROCESSES": str(processes),
        "ESCOBA_LIVE_BACKEND": "local",
        "ESCOBA_LOG_LEVEL": "WARNING",
    }
    server = Server(url, 1, env, log)
    rows = []
    try:
        connector = aiohttp.TCPConnector(limit=200)
        async with aiohttp.ClientSession(connector=connector) as session:
            await server.wait(session, 1)
            client = Client(server.base, session)
            for robot_client in (False, True):
                row = await phase(client, server, args, robot_client)
                rows.append({"robot_processes": processes, **row})
    finally:
        server.stop()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--robot-tables", type=int, default=8)
    parser.add_argument("--others", type=int, default=20)
    parser.add_argument("--rate", type=float, default=20.0, help="others' actions per second")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--json", type=Path, default=None, help="append the result here")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    yard = yardstick_ms()
    for processes in args.processes:
        with tempfile.TemporaryDirectory() as tmp:
            url = prepare_database("sqlite", "", Path(tmp))
            rows += asyncio.run(run(args, processes, url, Path(tmp) / "server.log"))
    header = (
        "| robot processes | robot client | robot moves/min | others' action p50 / p99 ms "
        "| /health/live p50 / p95 ms | server cores | yardstick ms |\n|---|---|---|---|---|---|---|"
    )
    lines = [
        f"| {r['robot_processes']} | {'yes' if r['robot_client'] else 'no'} "
        f"| {r['robot_moves_per_min']} | {r['action_p50_ms']} / {r['action_p99_ms']} "
        f"| {r['health_p50_ms']} / {r['health_p95_ms']} | {r['server_cores']} | {yard:.1f} |"
        for r in rows
    ]
    report(header, "\n".join(lines), {"yardstick_ms": yard, "rows": rows}, args.json)


if __name__ == "__main__":
    main()
