"""How soon commands are accepted after the database comes back.

    .venv/bin/python bench/bench_db_return.py --rounds 5

On a PostgreSQL of its own (tests/web/own_servers.py: initdb and pg_ctl, as the
`postgres` user when run as root), the app served by uvicorn in this
process: a table is made, then each round stops the server (a fast
shutdown: every connection cut), sends a command (503 busy, timed), starts
the server again and sends commands until one is accepted, then four more.
Measured from the moment `pg_ctl start` returned (the server accepts
connections): the first accepted command, and how many commands failed
after the return (none, with the fix). Prints one markdown row and the JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import httpx

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

from escoba.web.app import create_app  # noqa: E402
from escoba.web.base.settings import Settings  # noqa: E402
from web.own_servers import own_postgres  # noqa: E402
from web.servers import in_thread  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    refused_ms: list[float] = []
    accepted_ms: list[float] = []
    failed_after = 0
    with own_postgres() as pg:
        url = pg.create_database("escoba")
        settings = Settings(database_url=url, secret_key="bench", push_processes=0)
        with in_thread(create_app(settings)) as base, httpx.Client(base_url=base) as http:
            r = http.post("/api/tables", json={"name": "Ana", "target": 21})
            invite, token = r.json()["invite"], r.json()["token"]
            headers = {"Authorization": f"Bearer {token}"}

            seated = [False]
            version = [http.get(f"/api/tables/{invite}", headers=headers).json()["version"]]

            def command(_label: str) -> int:
                """A robot seated at position 1, or taken away: a command
                that can be repeated for ever in the lobby."""
                if seated[0]:
                    path, body = "robots/remove", {"position": 1}
                else:
                    path, body = "robots", {"robot": "tito"}
                body["version"] = version[0]
                r = http.post(f"/api/tables/{invite}/{path}", json=body, headers=headers)
                if r.status_code == 200:
                    seated[0] = not seated[0]
                    version[0] = r.json()["version"]
                return r.status_code

            for n in range(args.rounds):
                pg.stop()
                start = time.perf_counter()
                refused = command(f"Ana{n}a")
                assert refused == 503, refused
                refused_ms.append((time.perf_counter() - start) * 1000)
                pg.start()
                back = time.perf_counter()
                while command(f"Ana{n}b") != 200:
                    failed_after += 1
                accepted_ms.append((time.perf_counter() - back) * 1000)
                failed_after += sum(command(f"Ana{n}c{k}") != 200 for k in range(4))
    result = {
        "rounds": args.rounds,
        "refused_during_outage_ms_median": round(statistics.median(refused_ms), 1),
        "first_accepted_after_return_ms": [round(x, 1) for x in accepted_ms],
        "failed_after_return": failed_after,
    }
    print(
        f"| {args.rounds} | {result['refused_during_outage_ms_median']} ms "
        f"| {min(accepted_ms):.0f}–{max(accepted_ms):.0f} ms | {failed_after} |"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
