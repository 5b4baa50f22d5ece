"""`/metrics` (issue 37, point 4): who may read it (ESCOBA_METRICS), and that
what happens on the server moves its numbers: commands, streams, robots, the
analyses' queue, notices, database errors."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
from collections.abc import Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import cast

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families
from pydantic import ValidationError
from sqlalchemy import Table, insert, select, text

from escoba.web.app import create_app
from escoba.web.base import metrics
from escoba.web.base.clock import ManualClock
from escoba.web.base.db import Database
from escoba.web.base.metrics_access import MetricsAccess
from escoba.web.base.models import RoundAnalysisRow, TableRow
from escoba.web.base.settings import Settings
from escoba.web.cli import MULTIPROC_ENV, metrics_dir
from escoba.web.notices.notice import Notice

from ..conftest import first_legal
from ..helpers import create, service_of
from ..own_servers import own_redis
from ..recording import Recorder
from ..servers import Server, in_thread, wait_until

LOCAL = ("127.0.0.1", 50000)


def sample(page: str, name: str, **labels: str) -> float:
    """The value of the sample `name` with these labels in a scrape (0: absent)."""
    for family in text_string_to_metric_families(page):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return float(s.value)
    return 0.0


def scrape(client: TestClient | httpx.Client) -> str:
    r = client.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return r.text


@pytest.fixture
def metered(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    """The app with /metrics open to this machine, seen from 127.0.0.1."""
    app = create_app(
        settings.model_copy(update={"metrics": "127.0.0.1/32"}),
        clock=clock,
        rng=random.Random(7),
        brain=first_legal,
    )
    with TestClient(app, client=LOCAL) as client:
        yield client


# ----------------------------------------------------------------------
# Who may read them


def _client(settings: Settings, metrics: str, address: str) -> TestClient:
    app = create_app(settings.model_copy(update={"metrics": metrics}))
    return TestClient(app, client=(address, 50000))


def test_metrics_are_off_by_default_and_answer_the_sites_404(settings: Settings) -> None:
    assert Settings().metrics == "off"
    with _client(settings, "off", "127.0.0.1") as client:
        r = client.get("/metrics")
        assert r.status_code == 404
        assert "escoba_" not in r.text
        missing = client.get("/no-such-page")
        assert (r.status_code, r.headers["content-type"]) == (
            missing.status_code,
            missing.headers["content-type"],
        )


def test_metrics_answer_the_allowed_networks_only(settings: Settings) -> None:
    allowed = "127.0.0.1/32, 10.0.0.0/8"
    with _client(settings, allowed, "10.1.2.3") as client:
        page = scrape(client)
        assert "# TYPE escoba_commands_total counter" in page
        assert "escoba_analyses_queued" in page
    with _client(settings, allowed, "192.168.1.5") as client:
        assert client.get("/metrics").status_code == 404
    with _client(settings, allowed, "::ffff:127.0.0.1") as client:  # IPv4 as IPv6 writes it
        assert client.get("/metrics").status_code == 200


def test_metrics_answer_the_bearer_token_only(settings: Settings) -> None:
    with _client(settings, "token:s3cret-long", "127.0.0.1") as client:
        assert client.get("/metrics").status_code == 404  # no token, even from here
        wrong = {"Authorization": "Bearer s3cret-wrong"}
        assert client.get("/metrics", headers=wrong).status_code == 404
        right = {"Authorization": "Bearer s3cret-long"}
        r = client.get("/metrics", headers=right)
        assert r.status_code == 200
        assert "escoba_commands_total" in r.text


@pytest.mark.parametrize("value", ["127.0.0.1/33", "not-a-network", "token:"])
def test_a_wrong_metrics_setting_is_refused_at_start(value: str) -> None:
    with pytest.raises(ValidationError, match="metrics"):
        Settings(metrics=value)


def test_the_access_rule_reads_networks_and_tokens() -> None:
    rule = MetricsAccess("10.0.0.0/8,2001:db8::/32")
    assert rule.allows("10.9.9.9", None)
    assert rule.allows("2001:db8::1", None)
    assert not rule.allows("11.0.0.1", None)
    assert not rule.allows("testclient", None)
    assert not rule.allows(None, None)
    assert not MetricsAccess("off").enabled
    assert MetricsAccess("token:abc").allows(None, "bearer abc")


# ----------------------------------------------------------------------
# What moves them


def test_a_played_move_counts_a_command_and_its_time(metered: TestClient) -> None:
    ana = create(metered, "Ana")
    ana.command("/robots", robot="carmen")
    ana.command("/start")
    before = scrape(metered)
    move = next(a for a in ana.table()["view"]["legal_actions"] if a["type"] == "play")
    ana.act(move)
    after = scrape(metered)
    ok = {"kind": "act", "outcome": "ok"}
    assert (
        sample(after, "escoba_commands_total", **ok)
        == sample(before, "escoba_commands_total", **ok) + 1
    )
    count = "escoba_command_seconds_count"
    assert sample(after, count, kind="act") == sample(before, count, kind="act") + 1
    assert sample(after, "escoba_command_seconds_sum", kind="act") > sample(
        before, "escoba_command_seconds_sum", kind="act"
    )
    # the robot's answer went through the same path
    robot = "escoba_commands_total"
    assert sample(after, robot, kind="robot_play", outcome="ok") > sample(
        before, robot, kind="robot_play", outcome="ok"
    )
    # a stale move is counted with its refusal
    ana.post("/actions", {"action": move, "version": 1}, expect=409)
    stale = scrape(metered)
    assert (
        sample(stale, robot, kind="act", outcome="stale")
        == sample(after, robot, kind="act", outcome="stale") + 1
    )


def test_the_analyses_queue_is_read_from_the_database_when_scraped(
    metered: TestClient, clock: ManualClock
) -> None:
    page = scrape(metered)
    assert sample(page, "escoba_analyses_queued") == 0
    assert sample(page, "escoba_analyses_oldest_seconds") == 0
    ana = create(metered, "Ana")
    db = service_of(metered).db
    tables = cast(Table, TableRow.__table__)
    rows = cast(Table, RoundAnalysisRow.__table__)
    with db.write() as conn:
        table_id = conn.scalar(select(tables.c.id).where(tables.c.invite == ana.invite))
        now = clock.now()
        for number, (status, age) in enumerate(
            [("queued", 300), ("running", 120), ("done", 900)], start=1
        ):
            at = now - timedelta(seconds=age)
            conn.execute(
                insert(rows).values(
                    table_id=table_id,
                    game_number=1,
                    round=number,
                    status=status,
                    done=0,
                    total=10,
                    created_at=at,
                    updated_at=at,
                )
            )
    page = scrape(metered)
    assert sample(page, "escoba_analyses_queued") == 2  # the done one is no longer waiting
    assert sample(page, "escoba_analyses_oldest_seconds") == 300
    clock.advance(seconds=60)
    assert sample(scrape(metered), "escoba_analyses_oldest_seconds") == 360


class Failing:
    """A notices' channel that always fails."""

    name = "broken"

    def deliver(self, notices: Sequence[Notice]) -> None:
        raise ConnectionError("the channel is down")


def test_notices_are_counted_sent_and_failed_by_channel(
    quiet_settings: Settings, clock: ManualClock
) -> None:
    recorder = Recorder()
    app = create_app(
        quiet_settings.model_copy(update={"metrics": "127.0.0.1/32"}),
        clock=clock,
        rng=random.Random(7),
        brain=first_legal,
        channels=[recorder, Failing()],
    )
    with TestClient(app, client=LOCAL) as client:
        before = scrape(client)
        ana = create(client, "Ana")
        ana.command("/robots", robot="carmen")
        ana.command("/start")  # Carmen plays first and gives Ana the turn: one notice
        assert client.app.state.ctx.dispatcher.flush(10)  # type: ignore[attr-defined]
        told = len(recorder.take())
        assert told >= 1
        after = scrape(client)
    name = "escoba_notices_total"
    sent = {"channel": "recording", "outcome": "sent"}
    failed = {"channel": "broken", "outcome": "failed"}
    assert sample(after, name, **sent) == sample(before, name, **sent) + told
    assert sample(after, name, **failed) == sample(before, name, **failed) + told
    assert sample(after, name, channel="broken", outcome="sent") == 0


def test_database_errors_are_counted_by_class(metered: TestClient, db_url: str) -> None:
    before = scrape(metered)
    db = Database(db_url)
    try:
        with pytest.raises(Exception, match="no_such_table"), db.snapshot() as conn:
            conn.execute(text("SELECT * FROM no_such_table"))
    finally:
        db.dispose()
    after = scrape(metered)
    name = "escoba_database_errors_total"
    total_before = sum(
        s.value for f in text_string_to_metric_families(before) for s in f.samples if s.name == name
    )
    total_after = sum(
        s.value for f in text_string_to_metric_families(after) for s in f.samples if s.name == name
    )
    assert total_after == total_before + 1


# ----------------------------------------------------------------------
# On a real server: streams and robots


@pytest.fixture
def metered_server(db_url: str, clock: ManualClock) -> Iterator[str]:
    """A real uvicorn in a thread, with robots that think in the thinking
    pool (its thread) and play at once, and /metrics open to this machine."""
    settings = Settings(
        database_url=db_url,
        robot_inline=False,
        robot_delay=0,
        robot_processes=0,
        secret_key="test-secret",
        push_processes=0,
        metrics="127.0.0.1/32",
    )
    app = create_app(settings, clock=clock, rng=random.Random(3), brain=first_legal)
    with in_thread(app) as url:
        yield url


def test_open_streams_and_the_robots_work_are_measured(metered_server: str) -> None:
    with httpx.Client(base_url=metered_server, timeout=10) as client:
        r = client.post("/api/tables", json={"name": "Ana", "target": 21})
        ana = r.json()
        invite, auth = ana["invite"], {"Authorization": f"Bearer {ana['token']}"}
        streams = sample(scrape(client), "escoba_streams_open")

        holder = contextlib.ExitStack()
        page = holder.enter_context(
            httpx.Client(base_url=metered_server, timeout=httpx.Timeout(10, read=None))
        )
        holder.enter_context(page.stream("GET", f"/t/{invite}/events"))  # its head came
        assert wait_until(
            lambda: sample(scrape(client), "escoba_streams_open") == streams + 1, 10
        ), "the open stream was not counted"

        before = scrape(client)
        version = client.get(f"/api/tables/{invite}").json()["version"]
        r = client.post(
            f"/api/tables/{invite}/robots",
            json={"robot": "carmen", "version": version},
            headers=auth,
        )
        version = r.json()["version"]
        r = client.post(f"/api/tables/{invite}/start", json={"version": version}, headers=auth)
        assert r.status_code == 200
        # Carmen plays first, by herself, in the thinking pool
        assert wait_until(
            lambda: client.get(f"/api/tables/{invite}", headers=auth).json()["view"]["turn"] == 0,
            20,
        ), "the robot never played"
        holder.close()  # the page is closed
        assert wait_until(lambda: sample(scrape(client), "escoba_streams_open") == streams, 10), (
            "the closed stream is still counted"
        )
        after = scrape(client)
        for name in ("escoba_robot_queue_seconds_count", "escoba_robot_thinking_seconds_count"):
            assert sample(after, name) >= sample(before, name) + 1, name
        played = {"kind": "robot_play", "outcome": "ok"}
        assert sample(after, "escoba_commands_total", **played) >= 1


def test_the_live_bus_state_and_its_resyncs_are_reported(metered: TestClient) -> None:
    hub = metered.app.state.ctx.hub  # type: ignore[attr-defined]
    backend = hub.backend
    assert backend != "local"  # a file database: the SQLite watcher (or PostgreSQL's LISTEN)
    assert wait_until(lambda: sample(scrape(metered), "escoba_bus_up", backend=backend) == 1, 10), (
        "the listening bus is not reported up"
    )
    before = sample(scrape(metered), "escoba_bus_resyncs_total", backend=backend)
    metrics.bus_resynced(backend)
    assert sample(scrape(metered), "escoba_bus_resyncs_total", backend=backend) == before + 1
    hub.stop()  # the listener gone: the bus is down
    assert sample(scrape(metered), "escoba_bus_up", backend=backend) == 0


# ----------------------------------------------------------------------
# Several processes: `escoba serve --workers 2`


def _commands_of(path: Path) -> float:
    """The `escoba_commands_total` one process wrote in its file."""
    return sum(
        s.value
        for family in MultiProcessCollector.merge([str(path)])
        for s in family.samples
        if s.name == "escoba_commands_total"
    )


def test_with_several_processes_a_scrape_sums_them_all(tmp_path: Path) -> None:
    values = tmp_path / "metrics"
    values.mkdir()
    (values / "counter_999999.db").write_bytes(b"an earlier run's values")
    with own_redis() as redis:
        server = Server(
            f"sqlite:///{tmp_path / 'escoba.db'}",
            env={
                "ESCOBA_REDIS_URL": redis.url,
                "ESCOBA_METRICS": "127.0.0.1/32",
                "ESCOBA_CHAT_BURST": "1000",
                "PROMETHEUS_MULTIPROC_DIR": str(values),
            },
            serve=True,
            workers=2,
        )
        # (two processes starting on a busy machine may take a while)
        with contextlib.ExitStack() as stack:
            stack.callback(server.stop)
            server.start(tmp_path, wait=180)
            # the earlier run's file was emptied out at start
            assert not (values / "counter_999999.db").exists()
            # each request on a connection of its own: the kernel hands them
            # to either process
            fresh = httpx.Limits(max_keepalive_connections=0)
            with httpx.Client(base_url=server.base, timeout=10, limits=fresh) as client:
                r = client.post("/api/tables", json={"name": "Ana", "target": 21})
                assert r.status_code == 201, r.text
                invite, token = r.json()["invite"], r.json()["token"]
                auth = {"Authorization": f"Bearer {token}"}
                said = 0

                def both_counted() -> bool:
                    files = values.glob("counter_*.db")
                    return sum(1 for f in files if _commands_of(f) > 0) >= 2

                while said < 200 and not (said >= 2 and both_counted()):
                    r = client.post(
                        f"/api/tables/{invite}/chat", json={"text": f"hola {said}"}, headers=auth
                    )
                    assert r.status_code == 201, r.text
                    said += 1
                assert both_counted(), "one process took every command"
                page = scrape(client)
                assert sample(page, "escoba_commands_total", kind="chat", outcome="ok") == said
                assert sample(page, "escoba_command_seconds_count", kind="chat") == said
                per_process = [_commands_of(f) for f in values.glob("counter_*.db")]
                assert sum(per_process) == sample(page, "escoba_commands_total")
            workers = _pids(values, "counter_*.db")
            assert workers <= _pids(values, "gauge_live*.db")
            server.stop()
        # the stopped processes' open streams and bus left the sums with them
        assert not _pids(values, "gauge_live*.db") & workers


def _pids(values: Path, pattern: str) -> set[int]:
    """The processes that wrote files of `pattern` (`counter_<pid>.db`)."""
    return {int(f.stem.rsplit("_", 1)[1]) for f in values.glob(pattern)}


def test_escoba_serve_gives_each_run_a_multiprocess_directory_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # set, then removed: so that the monkeypatch's undo removes what
    # metrics_dir sets (a bare delenv of an unset variable records nothing,
    # and the path would leak into every process the later tests start)
    monkeypatch.setenv(MULTIPROC_ENV, "")
    monkeypatch.delenv(MULTIPROC_ENV)
    assert metrics_dir(1) is None  # one process: no multiprocess mode
    assert MULTIPROC_ENV not in os.environ
    made = metrics_dir(2)
    assert made is not None and made.is_dir() and not any(made.iterdir())
    assert os.environ[MULTIPROC_ENV] == str(made)  # what the workers inherit
    shutil.rmtree(made)
    # one the operator names is used, emptied of an earlier run's values, and kept
    given = tmp_path / "values"
    given.mkdir()
    (given / "counter_123.db").write_bytes(b"old")
    (given / "notes.txt").write_text("not ours")
    monkeypatch.setenv(MULTIPROC_ENV, str(given))
    assert metrics_dir(1) is None
    assert sorted(p.name for p in given.iterdir()) == ["notes.txt"]
