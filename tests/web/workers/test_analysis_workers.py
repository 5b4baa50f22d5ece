"""`escoba worker` (issue 35): processes that run the rounds' analyses and
nothing else, against a PostgreSQL of their own test's, beside a web
process that runs none (ESCOBA_ANALYSES=worker). Two workers share the
queue and never run one round twice; a worker killed mid-round leaves it to
the other once it is stale; a worker stopped by SIGTERM gives its round
back."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from sqlalchemy.engine import Engine

from escoba.web.app import create_app
from escoba.web.base.models import RoundAnalysisRow
from escoba.web.base.settings import Settings

from ..conftest import first_legal
from ..helpers import Player, play_until_over
from ..servers import PG_URL, Server, fresh_pg_database, servers, wait_until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(PG_URL is None, reason="no PostgreSQL"),
]

_A = RoundAnalysisRow.__table__


@dataclass
class Worker:
    """`escoba worker` in a subprocess of its own session (its pool's
    processes with it), configured through the environment only."""

    database_url: str
    log_dir: Path
    env: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    def start(self) -> Worker:
        escoba = str(Path(sys.executable).with_name("escoba"))
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "ESCOBA_LOG_FORMAT": "json",
            "ESCOBA_LOG_LEVEL": "INFO",
            "ESCOBA_ANALYSIS_POLL_SECONDS": "0.2",
            **self.env,
        }
        self.log_path = self.log_dir / f"worker-{time.monotonic_ns()}.log"
        with self.log_path.open("wb") as out:
            self.proc = subprocess.Popen(
                [escoba, "worker", "--processes", "1"],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        if not wait_until(lambda: self.said("worker started") or self.proc.poll() is not None, 60):
            raise RuntimeError(f"worker did not start: {self.text()[-3000:]}")
        if self.proc.poll() is not None:
            raise RuntimeError(f"worker exited: {self.text()[-3000:]}")
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def text(self) -> str:
        return self.log_path.read_text() if self.log_path else ""

    def lines(self) -> list[dict[str, Any]]:
        out = []
        for line in self.text().splitlines():
            if line.startswith("{"):
                out.append(json.loads(line))
        return out

    def said(self, msg: str) -> bool:
        return any(line.get("msg") == msg for line in self.lines())

    def analysed(self) -> list[int]:
        return [line["id"] for line in self.lines() if line.get("msg") == "round analysed"]

    def kill(self) -> None:
        """SIGKILL to the worker and its pool: a machine gone."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def freeze(self) -> None:
        """SIGSTOP to the worker and its pool: what it holds stays held, and
        nothing of it moves on until `thaw`."""
        os.killpg(self.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        os.killpg(self.pid, signal.SIGCONT)

    def stop(self) -> int:
        """SIGTERM, as a service manager stops it (a frozen worker is thawed
        to hear it)."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGCONT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        code = self.proc.returncode
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        return code


@contextmanager
def workers(*items: Worker) -> Iterator[list[Worker]]:
    started: list[Worker] = []
    try:
        for w in items:
            started.append(w.start())
        yield started
    finally:
        for w in started:
            w.stop()


def analyses(engine: Engine) -> list[Any]:
    with engine.connect() as conn:
        return list(conn.execute(select(_A).order_by(_A.c.id)))


def held_by(engine: Engine, worker: Worker) -> Any:
    """The round `worker` is analysing now (its row), or None."""
    return next(
        (
            r
            for r in analyses(engine)
            if r.status == "running" and (r.claimed_by or "").endswith(f":{worker.pid}")
        ),
        None,
    )


def frozen_mid_round(engine: Engine, worker: Worker) -> Any:
    """`worker` frozen (`Worker.freeze`) while it holds a round with three
    steps or more still to weigh: whatever the worker does next (killed,
    stopped), that round is unfinished. The round's row. However quick a
    round's analysis is, the worker is caught in one: it is looked at every
    50 ms and frozen again until it holds one far from its end."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if wait_until(lambda: held_by(engine, worker) is not None, 1):
            worker.freeze()
            row = held_by(engine, worker)
            if row is not None and row.done <= row.total - 3:
                return row
            worker.thaw()
    raise AssertionError(f"the worker held no round: {worker.text()[-3000:]}")


def finish_games(url: str, count: int, seed: int) -> None:
    """`count` short games against Tito played to their end through an app
    of this process (robots inline: it runs no analysis), each round queued."""
    settings = Settings(database_url=url, robot_inline=True, secret_key="test-secret")
    with TestClient(create_app(settings, rng=random.Random(seed), brain=first_legal)) as client:
        for n in range(count):
            r = client.post("/api/tables", json={"name": "Ana", "rules": {"target": 15}})
            assert r.status_code == 201, r.text
            ana = Player(client, r.json()["invite"], r.json()["token"], r.json()["position"])
            ana.command("/robots", robot="tito")
            ana.command("/start")
            play_until_over([ana], random.Random(seed + n))


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[tuple[str, Engine]]:
    url = fresh_pg_database("escoba_test_workers")
    assert url is not None
    engine = create_engine(Settings(database_url=url).sqlalchemy_url)
    yield url, engine
    engine.dispose()


def test_two_workers_share_the_queue_beside_a_web_process_that_runs_none(
    pg: tuple[str, Engine], tmp_path: Path
) -> None:
    url, engine = pg
    web = Server(url, {"ESCOBA_ANALYSES": "worker", "ESCOBA_ROBOT_DELAY": "0"})
    small = {"ESCOBA_ANALYSIS_WORLDS": "8"}
    with (
        servers(web, log_dir=tmp_path),
        workers(Worker(url, tmp_path, small), Worker(url, tmp_path, small)) as (a, b),
    ):
        health = httpx.get(web.base + "/health", timeout=5).json()
        assert health["analyses"]["runs"] == "worker"
        finish_games(url, 3, seed=21)
        rows = analyses(engine)
        assert len(rows) >= 6
        assert wait_until(lambda: all(r.status == "done" for r in analyses(engine)), 180), [
            (r.id, r.status) for r in analyses(engine)
        ]
        rows = analyses(engine)
        by_a, by_b = a.analysed(), b.analysed()
        # each round run by one worker, once; both took their share
        assert sorted(by_a + by_b) == [r.id for r in rows]
        assert by_a and by_b
        names = {r.id: r.claimed_by for r in rows}
        assert {names[i].rsplit(":", 1)[1] for i in by_a} == {str(a.pid)}
        assert {names[i].rsplit(":", 1)[1] for i in by_b} == {str(b.pid)}
        health = httpx.get(web.base + "/health", timeout=5).json()
        assert (health["analyses"]["waiting"], health["analyses"]["oldest_seconds"]) == (0, None)


def test_a_round_left_by_a_killed_worker_is_run_by_the_other_and_a_stopped_one_gives_it_back(
    pg: tuple[str, Engine], tmp_path: Path
) -> None:
    url, engine = pg
    slow = {"ESCOBA_ANALYSIS_WORLDS": "96", "ESCOBA_ANALYSIS_STALE_SECONDS": "3"}
    doomed = Worker(url, tmp_path, slow).start()
    try:
        doomed.freeze()  # the rounds wait queued, whatever a round's analysis costs
        finish_games(url, 1, seed=31)
        doomed.thaw()
        lost = frozen_mid_round(engine, doomed).id
        doomed.kill()
        with workers(Worker(url, tmp_path, slow)) as (survivor,):
            assert wait_until(lambda: all(r.status == "done" for r in analyses(engine)), 180)
            assert lost in survivor.analysed()
            assert lost not in doomed.analysed()
            # and a worker stopped mid-round gives it back, unfinished
            survivor.freeze()
            finish_games(url, 1, seed=32)
            survivor.thaw()
            given = frozen_mid_round(engine, survivor).id
            assert survivor.stop() == 0
        row = next(r for r in analyses(engine) if r.id == given)
        assert (row.status, row.done) == ("queued", 0)
        assert survivor.said("worker stopped")
    finally:
        doomed.stop()
