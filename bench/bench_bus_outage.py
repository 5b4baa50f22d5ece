"""Bus outage benchmark: how long an open page takes to catch up once the
way news crosses processes comes back (issue 37, point 1).

    .venv/bin/python bench/bench_bus_outage.py --bus postgres --rounds 5
    .venv/bin/python bench/bench_bus_outage.py --bus redis --rounds 5 --outage 8

Two app processes (uvicorn) on servers of the benchmark's own
(tests/web/own_servers.py), a stream held open on the second, the periodic
check off (ESCOBA_LIVE_CHECK_SECONDS=0: the reconnection alone). Each round:

- postgres: new connections refused (ALLOW_CONNECTIONS false) and both
  processes' LISTEN backends terminated; a move through the first process
  (its NOTIFY reaches nobody); `--outage` seconds later connections are
  allowed again: the time from then until the stream on the second
  process has the move;
- redis: redis-server killed; a move through the first process (published
  to nobody); `--outage` seconds later redis-server is started again on
  its port: the time from then until the stream has the move.

Prints one markdown row per bus and the JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.web.live.test_bus_outage import Game, _ok, lost_bus
from tests.web.own_servers import OwnPostgres, OwnRedis
from tests.web.servers import Listener, Server, servers, wait_until

ARRIVAL = 60.0
ENV = {"ESCOBA_LIVE_CHECK_SECONDS": "0"}


def _moved(game: Game) -> None:
    for _ in range(20):
        if game.move(game.a).status_code == 200:
            return
        time.sleep(0.3)
    raise RuntimeError("no move was accepted")


def postgres_rounds(rounds: int, logs: Path, outage: float) -> list[float]:
    pg = OwnPostgres()
    pg.start()
    try:
        url = pg.create_database("escoba_bench_bus")
        with servers(Server(url, ENV), Server(url, ENV), log_dir=logs) as (a, b):
            game = Game(a, b)
            listener = Listener(b.base, game.invite)
            wait_until(lambda: b.live_connections() >= 1, 10)
            times = []
            for _ in range(rounds):
                lost = lost_bus(b)
                pg.sql('ALTER DATABASE "escoba_bench_bus" ALLOW_CONNECTIONS false')
                pg.sql(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = 'escoba_bench_bus' AND query LIKE 'LISTEN%'"
                )
                wait_until(lambda lost=lost: lost_bus(b) > lost, 10)
                _moved(game)
                time.sleep(outage)
                pg.sql('ALTER DATABASE "escoba_bench_bus" ALLOW_CONNECTIONS true')
                back = time.monotonic()
                arrived = listener.wait_for(game.version, back + ARRIVAL)
                if arrived is None:
                    raise RuntimeError("the move never arrived")
                times.append(arrived - back)
            listener.close()
            return times
    finally:
        pg.destroy()


def redis_rounds(rounds: int, logs: Path, outage: float) -> list[float]:
    redis = OwnRedis()
    redis.start()
    try:
        db = f"sqlite:///{logs / 'shared.db'}"
        from escoba.web.base.db import migrate

        migrate(db)
        env = {**ENV, "ESCOBA_REDIS_URL": redis.url}
        with servers(Server(db, env), Server(db, env), log_dir=logs) as (a, b):
            game = Game(a, b)
            listener = Listener(b.base, game.invite)
            wait_until(lambda: b.live_connections() >= 1, 10)
            times = []
            for _ in range(rounds):
                lost = lost_bus(b)
                redis.stop()
                wait_until(lambda lost=lost: lost_bus(b) > lost, 10)
                _ok(game.move(a))
                time.sleep(outage)
                redis.start()
                back = time.monotonic()
                arrived = listener.wait_for(game.version, back + ARRIVAL)
                if arrived is None:
                    raise RuntimeError("the move never arrived")
                times.append(arrived - back)
            listener.close()
            return times
    finally:
        redis.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bus", choices=["postgres", "redis"], required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--outage", type=float, default=0.0, help="seconds the bus stays away after the move"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="escoba-bench-bus-") as tmp:
        run = postgres_rounds if args.bus == "postgres" else redis_rounds
        times = run(args.rounds, Path(tmp), args.outage)
    result = {
        "bus": args.bus,
        "outage_s": args.outage,
        "rounds": len(times),
        "median_s": round(statistics.median(times), 2),
        "max_s": round(max(times), 2),
        "all_s": [round(t, 2) for t in times],
    }
    row = [args.bus, f"{args.outage:g} s", len(times), f"{result['median_s']} s"]
    print("| " + " | ".join(map(str, [*row, f"{result['max_s']} s"])) + " |")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
