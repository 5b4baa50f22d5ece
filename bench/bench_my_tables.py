"""«Mis mesas» benchmark: the home page of one browser whose device holds a
seat at each of `--tables` tables, through the app served by uvicorn on
127.0.0.1 (its own process), requested one at a time.

    .venv/bin/python bench/bench_my_tables.py --db sqlite --tables 200
    .venv/bin/python bench/bench_my_tables.py --db postgres --tables 200

The tables are made beforehand through the service, in a mix of states: a
quarter on this device's turn, a quarter on another's, some waiting for
SIGUIENTE RONDA, lobbies and finished games. Reported, p50 / p99 over
`--requests` requests of each:

- `GET /` *cold*: a fresh server process, whose cache of parsed states holds
  none of the tables (the list reads the few values it shows inside each
  state's JSON, in the same one statement for all of them): a server that
  has not served those tables since it started;
- `GET /` *warm*: after each table was read once through the API (the
  states parsed and cached, as they are for any table in play);
- `GET /my-tables`, warm: the list alone, as the live refresh fetches it;
- `GET /t/{invite}/board`, warm: the board of one of those tables (one on
  the device's turn), as a table page fetches it after each live update:
  with its «Siguiente mesa (N)», which reads the device's list too;
- `GET /health/live`: the same HTTP path with no work, for scale.

Prints one markdown table row and a JSON line (appended to `--json`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench_load import free_port, percentile, prepare_database, report, yardstick_ms

PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/escoba_bench"
SECRET = "bench"
USER_AGENT = "Mozilla/5.0 (Android 14; Mobile; rv:130.0) Gecko/130.0 Firefox/130.0"


def make_tables(url: str, count: int, seed: int) -> tuple[str, dict[str, int]]:
    """`count` tables whose creator's seat one device holds; its cookie and
    how many tables of each kind were made."""
    from itsdangerous import URLSafeSerializer

    from escoba.web.app import build_core
    from escoba.web.base.settings import Settings
    from escoba.web.devices.devices import Devices

    rng = random.Random(seed)
    core = build_core(Settings(database_url=url, secret_key=SECRET), migrate=False)
    service = core.service
    devices = Devices(core.db, service.clock, URLSafeSerializer(SECRET, salt="escoba-seat"))
    made = devices.create(USER_AGENT)
    kinds = {"your_turn": 0, "waiting": 0, "next_round": 0, "lobby": 0, "finished": 0}

    def act(invite: str, token: str) -> None:
        page = service.pages.page(invite, token, with_chat=False)
        assert page.view is not None
        service.playing.act(invite, token, page.version, rng.choice(page.view.legal))

    for i in range(count):
        kind = ("your_turn", "waiting", "your_turn", "waiting", "next_round", "lobby", "finished")[
            i % 7
        ]
        kinds[kind] += 1
        me = service.lobby.create_table(f"Ana{i % 10}", 21)
        devices.hold(made.device.id, me.invite, me.token)
        if kind == "lobby":
            continue
        other = service.lobby.join(me.invite, "Beto")
        service.lobby.start(me.invite, me.token, service.reads.version(me.invite))
        tokens: dict[int, str] = {}
        for joined in (me, other):
            seat = service.reads.seat_for(me.invite, joined.token)
            assert seat is not None and seat.game_seat is not None
            tokens[seat.game_seat] = joined.token
        mine = next(s for s, token in tokens.items() if token == me.token)
        if kind == "finished":
            service.ending.abandon(me.invite, other.token, service.reads.version(me.invite))
            continue
        for _ in range(200):
            state = service.reads.game_state(me.invite)
            assert state is not None
            turn = state.turn
            done = {
                "next_round": turn is None,
                "your_turn": turn == mine,
                "waiting": turn is not None and turn != mine,
            }
            if done[kind]:
                break
            act(me.invite, tokens[state.round.turn])
    core.close()
    return made.cookie, kinds


class Server:
    """`uvicorn escoba.web.asgi:app`, one process."""

    def __init__(self, url: str, log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "DATABASE_URL": url, "ESCOBA_SECRET_KEY": SECRET}
        self._log = log.open("wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "escoba.web.asgi:app",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--no-access-log",
            ],
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited; see {log}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/health", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


def timed(client: httpx.Client, path: str, requests: int) -> dict[str, float]:
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        r = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert r.status_code == 200, (path, r.status_code)
    return {"p50": round(percentile(times, 50), 2), "p99": round(percentile(times, 99), 2)}


def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    url = prepare_database(args.db, args.pg_url, tmp)
    started = time.monotonic()
    cookie, kinds = make_tables(url, args.tables, args.seed)
    setup_s = round(time.monotonic() - started, 1)
    server = Server(url, tmp / "server.log")
    try:
        with httpx.Client(base_url=server.base, cookies={"device": cookie}, timeout=30) as client:
            page = client.get("/").text
            listed = re.findall(r'<li class="my-table is-(\w+)" data-invite="([^"]+)"', page)
            assert len(listed) == args.tables, len(listed)
            groups = {g: sum(1 for k, _ in listed if k == g) for g, _ in listed}
            cold = timed(client, "/", args.requests)
            for _, invite in listed:  # each state parsed and cached once
                assert client.get(f"/api/tables/{invite}").status_code == 200
            warm = timed(client, "/", args.requests)
            fragment = timed(client, "/my-tables", args.requests)
            playing = next((i for g, i in listed if g == "your_turn"), listed[0][1])
            board = timed(client, f"/t/{playing}/board", args.requests)
            bare = timed(client, "/health/live", args.requests)
            size_kb = round(len(client.get("/").content) / 1024, 1)
    finally:
        server.stop()
    return {
        "bench": "my_tables",
        "db": args.db,
        "tables": args.tables,
        "made": kinds,
        "listed": groups,
        "requests": args.requests,
        "home_cold_ms": cold,
        "home_warm_ms": warm,
        "fragment_warm_ms": fragment,
        "board_warm_ms": board,
        "bare_ms": bare,
        "page_kb": size_kb,
        "setup_s": setup_s,
        "yardstick_ms": yardstick_ms(),
        "load_average": round(os.getloadavg()[0], 1),
    }


HEADER = (
    "| database | tables | GET / cold ms p50 / p99 | GET / warm ms p50 / p99 | "
    "GET /my-tables warm ms p50 / p99 | GET a board warm ms p50 / p99 | "
    "GET /health/live ms p50 / p99 | page KB | yardstick ms | load average |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def row(r: dict[str, Any]) -> str:
    def pair(name: str) -> str:
        return f"{r[name]['p50']} / {r[name]['p99']}"

    return (
        f"| {r['db']} | {r['tables']} | {pair('home_cold_ms')} | {pair('home_warm_ms')} | "
        f"{pair('fragment_warm_ms')} | {pair('board_warm_ms')} | {pair('bare_ms')} | "
        f"{r['page_kb']} | "
        f"{r['yardstick_ms']} | {r['load_average']} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--pg-url", default=PG_DEFAULT)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = run(args, Path(tmp))
    report(HEADER, row(result), result, args.json)


if __name__ == "__main__":
    main()
