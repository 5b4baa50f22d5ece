"""How many cores of `escoba worker` keep the analyses' queue flat (issue 35,
part 3).

    .venv/bin/python bench/bench_workers.py --rounds 24 --workers 1,2

On a PostgreSQL database of its own (`--pg`, dropped and made anew), the
bench finishes `--rounds` rounds (short games of one person against Tito,
played in this process with the robots inline: a web process that runs no
analysis), then for each count in `--workers` starts that many `escoba
worker` processes (one analysis process each), queues the rounds again, and
times how long they take to empty the queue: rounds a second, and the
CPU-seconds a round cost (the workers' and their pools' CPU over the
rounds). From the CPU a round costs, and the actions a round has, it says
how many worker cores keep the queue flat at the load the README
advertises (500 tables, 300 moves a second) and at a realistic one
(`--tables` tables each moving every `--minutes` minutes on average:
tables played hours apart). Prints markdown and one JSON line (appended to
`--json` if given).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text, update

from bench_load import prepare_database, yardstick_ms

LOAD_MOVES_PER_SECOND = 300.0


def fresh_database(pg_url: str) -> str:
    """`pg_url`'s database dropped, made anew and migrated."""
    from escoba.web.base.settings import Settings

    url = Settings(database_url=pg_url).sqlalchemy_url
    return prepare_database("postgresql", url, Path(tempfile.gettempdir()))


def finish_rounds(url: str, rounds: int, seed: int) -> None:
    """Short games against Tito until `rounds` rounds are finished (queued)."""
    from fastapi.testclient import TestClient

    from escoba.web.app import create_app
    from escoba.web.base.settings import Settings

    settings = Settings(database_url=url, robot_inline=True, secret_key="bench")
    rng = random.Random(seed)
    with TestClient(create_app(settings, rng=random.Random(seed))) as client:
        done = 0
        while done < rounds:
            made = client.post("/api/tables", json={"name": "Ana", "rules": {"target": 15}}).json()
            path = f"/api/tables/{made['invite']}"
            auth = {"Authorization": f"Bearer {made['token']}"}

            def post(command: str, path: str = path, auth: Any = auth, **body: Any) -> None:
                body["version"] = client.get(path, headers=auth).json()["version"]
                client.post(path + command, json=body, headers=auth)

            post("/robots", robot="tito")
            post("/start")
            while done < rounds:
                now = client.get(path, headers=auth).json()
                if now["status"] != "playing":
                    break
                view = now["view"]
                if view["phase"] == "round_over":
                    done += 1
                    if done < rounds:
                        post("/next-round")
                elif view["legal_actions"]:
                    post("/actions", action=rng.choice(view["legal_actions"]))


def children(pid: int) -> list[int]:
    with suppress(OSError):
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return []


def cpu_of(pid: int) -> float:
    """CPU seconds of a process and its children (the worker's pool)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for p in [pid, *children(pid)]:
        with suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def drain(url: str, workers: int, log_dir: Path) -> dict[str, Any]:
    """Queue every round again, start `workers` workers, time the queue's end."""
    from escoba.web.base.models import RoundAnalysisRow

    table = RoundAnalysisRow.__table__
    engine = create_engine(url)
    with engine.begin() as conn:  # nothing to do until the workers are up
        conn.execute(update(table).values(status="done"))
    escoba = str(Path(sys.executable).with_name("escoba"))
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "ESCOBA_LOG_LEVEL": "WARNING",
        "ESCOBA_ANALYSIS_POLL_SECONDS": "0.2",
    }
    procs = []
    for n in range(workers):
        with (log_dir / f"worker-{workers}-{n}.log").open("wb") as out:
            procs.append(
                subprocess.Popen(
                    [escoba, "worker", "--processes", "1"],
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
    try:
        # up: each worker with its pool's process, its start-up's CPU not counted
        deadline = time.monotonic() + 60
        while not all(children(p.pid) for p in procs):
            if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                raise RuntimeError(f"a worker did not start; see {log_dir}")
            time.sleep(0.1)
        time.sleep(1.0)
        cpu0 = sum(cpu_of(p.pid) for p in procs)
        with engine.begin() as conn:
            conn.execute(
                update(table).values(status="queued", done=0, analysis=None, claimed_by=None)
            )
            rounds = conn.execute(text("SELECT count(*) FROM round_analyses")).scalar_one()
            actions = [r[0] for r in conn.execute(text("SELECT total FROM round_analyses"))]
        start = time.monotonic()
        while True:
            with engine.connect() as conn:
                left = conn.execute(
                    text("SELECT count(*) FROM round_analyses WHERE status <> 'done'")
                ).scalar_one()
            if not left:
                break
            if any(p.poll() is not None for p in procs):
                raise RuntimeError(f"a worker exited; see {log_dir}")
            time.sleep(0.1)
        elapsed = time.monotonic() - start
        cpu = sum(cpu_of(p.pid) for p in procs) - cpu0
    finally:
        for p in procs:
            with suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            p.wait(timeout=30)
        engine.dispose()
    return {
        "workers": workers,
        "rounds": rounds,
        "seconds": round(elapsed, 1),
        "rounds_per_second": round(rounds / elapsed, 3),
        "cpu_seconds_per_round": round(cpu / rounds, 2),
        "actions_per_round": round(statistics.mean(actions), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/escoba_bench_workers")
    parser.add_argument("--rounds", type=int, default=24)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    url = fresh_database(args.pg)
    finish_rounds(url, args.rounds, args.seed)
    log_dir = Path(tempfile.mkdtemp(prefix="escoba-bench-workers-"))
    runs = [drain(url, int(w), log_dir) for w in args.workers.split(",")]
    cpu = max(r["cpu_seconds_per_round"] for r in runs)  # the dearer figure
    actions = runs[0]["actions_per_round"]
    realistic = args.tables / (args.minutes * 60)
    sizing = {
        "cpu_seconds_per_round": cpu,
        "actions_per_round": actions,
        "cores_at_300_moves_per_second": round(LOAD_MOVES_PER_SECOND / actions * cpu, 1),
        "realistic_moves_per_second": round(realistic, 3),
        "cores_at_realistic_load": round(realistic / actions * cpu, 3),
    }
    print("| workers | rounds | seconds | rounds/s | CPU-s a round |\n|---|---|---|---|---|")
    for r in runs:
        print(
            f"| {r['workers']} | {r['rounds']} | {r['seconds']} | {r['rounds_per_second']} "
            f"| {r['cpu_seconds_per_round']} |"
        )
    print(json.dumps(sizing))
    result = {
        "runs": runs,
        "sizing": sizing,
        "yardstick_ms": yardstick_ms(),
        "load": os.getloadavg()[0],
    }
    print(json.dumps(result))
    if args.json is not None:
        with args.json.open("a") as out:
            out.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
