"""Operations: a health check that means something, JSON log lines with the
table, every setting documented with its default, a shuffle from the OS's
CSPRNG whose card positions pass a chi-square test, and a bounded
schemathesis run over the OpenAPI schema with no server error."""

from __future__ import annotations

import io
import json
import logging
import random
import re
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from sqlalchemy import create_engine, text

from escoba import engine as eng
from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.logs import JsonFormatter
from escoba.web.base.settings import Settings
from escoba.web.table.service import TableService

from ..conftest import first_legal
from ..helpers import create, service_of

DOCS = Path(__file__).resolve().parents[3] / "docs" / "settings.md"


def test_health_reports_database_schema_and_live_bridge(app_client: TestClient) -> None:
    from escoba.web.live.bridges import wait_connected

    # PostgreSQL's bridge listens from a thread of its own, a moment after
    # start-up (the process is rightly not ready until then: 503): the report
    # is read once it listens, not raced against it (it lost on a busy machine)
    assert wait_connected(app_client.app.state.ctx.hub.bridge, 10)  # type: ignore[attr-defined]
    r = app_client.get("/health")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ok" and body["database"] == "ok"
    assert body["schema"] == body["schema"] and body["schema"] is not None
    assert body["live"] in ("local", "sqlite", "postgres", "redis") and body["live_ok"] is True
    assert app_client.get("/health/live").json() == {"status": "alive"}


def test_health_says_who_runs_the_analyses_and_how_long_the_queue_is(
    app_client: TestClient, clock: ManualClock
) -> None:
    """`analyses`: who runs them, the rounds waiting, the oldest's age (a
    round finished two minutes ago, nobody has run it: robots inline)."""
    assert app_client.get("/health").json()["analyses"] == {
        "runs": "web",
        "waiting": 0,
        "oldest_seconds": None,
    }
    ana = create(app_client, "Ana")
    ana.command("/robots", robot="tito")
    ana.command("/start")
    rng = random.Random(3)
    while ana.table()["view"]["phase"] == "playing":
        ana.act(rng.choice(ana.table()["view"]["legal_actions"]))
    clock.advance(seconds=120)
    assert app_client.get("/health").json()["analyses"] == {
        "runs": "web",
        "waiting": 1,
        "oldest_seconds": 120.0,
    }


def test_health_is_503_when_the_schema_is_behind(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    app = create_app(Settings(database_url=url, secret_key="k", robot_inline=True))
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    engine.dispose()
    with TestClient(app) as client:
        r = client.get("/health")
        assert r.status_code == 503
        assert r.json()["status"] == "unavailable" and r.json()["schema"] == "0001"


def test_log_lines_are_json_with_the_table(app_client: TestClient) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("escoba")
    logger.addHandler(handler)
    old = logger.level
    logger.setLevel(logging.INFO)
    try:
        ana = create(app_client, "Ana")
        ana.command("/robots", robot="tito")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    commands = [line for line in lines if line["msg"] == "command"]
    assert commands, lines
    table_id = service_of(app_client).reads.table_id(ana.invite)
    assert all({"ts", "level", "logger", "pid"} <= line.keys() for line in lines)
    assert commands[-1]["table_id"] == table_id and commands[-1]["invite"] == ana.invite


def test_every_setting_is_documented_with_its_default() -> None:
    doc = DOCS.read_text()
    for name, field in Settings.model_fields.items():
        env = "DATABASE_URL" if name == "database_url" else f"ESCOBA_{name.upper()}"
        row = re.search(rf"^\| `{env}` \| ([^|]*) \|", doc, re.MULTILINE)
        assert row is not None, f"{env} is not in docs/settings.md"
        default = field.default
        shown = row.group(1).strip()
        if default in (None, ""):
            assert shown in ("(unset)", "(empty)"), (env, shown)
        else:
            want = str(default).lower() if isinstance(default, bool) else str(default)
            assert shown == f"`{want}`", (env, shown, want)


def test_the_server_shuffles_with_the_os_csprng(app_client: TestClient) -> None:
    service = TableService.__new__(TableService)
    TableService.__init__(service, service_of(app_client).db, Settings(), None, None)  # type: ignore[arg-type]
    assert isinstance(service.path.rng, random.SystemRandom)


def test_card_positions_after_the_real_shuffle_are_uniform() -> None:
    """Chi-square over 40 cards × 40 positions from 20,000 shuffles of the
    server's own function with the server's own source. With 39·39 = 1521
    degrees of freedom the statistic has mean 1521 and sd ≈ 55; the fixed
    bounds (1300, 1800) are ±4 sd: a fair shuffle leaves them about once in
    30,000 runs, a broken one (a swapped pair, a biased first card) at once."""
    rng = random.SystemRandom()
    shuffles = 20_000
    counts = [[0] * 40 for _ in range(40)]
    for _ in range(shuffles):
        for position, card in enumerate(eng.shuffled_deck(rng)):
            counts[eng.CARDS.index(card)][position] += 1
    expected = shuffles / 40
    chi2 = sum((c - expected) ** 2 / expected for row in counts for c in row)
    assert 1300 < chi2 < 1800, chi2


# ---------------------------------------------------------------------------
# schemathesis over the JSON API


@pytest.fixture
def api_app(db_url: str) -> object:
    """On SQLite and PostgreSQL: they refuse different inputs (PostgreSQL a
    NUL byte in text, an integer beyond INTEGER's range). With SMTP settings,
    so that the e-mail routes take what they are sent (nothing is sent: no
    mail loop, and nothing listens on that port)."""
    settings_ = Settings(
        database_url=db_url,
        robot_inline=True,
        robot_delay=0,
        secret_key="fuzz",
        smtp_host="127.0.0.1",
        smtp_port=9,
        smtp_security="none",
        smtp_from="fuzz@escoba.test",
        smtp_poll_seconds=0,
    )
    return create_app(settings_, rng=random.Random(1), brain=first_legal)


#: Bodies no schema describes: not JSON, not UTF-8, not an object, labelled
#: as another media type, or missing.
MALFORMED_BODIES: list[tuple[bytes, str | None]] = [
    (b"{", "application/json"),
    (b'{"version": 1,', "application/json"),
    (b"\xff", "application/json"),
    (b"", "application/json"),
    (b"[]", "application/json"),
    (b"null", "application/json"),
    (b'{"version": 1}', "text/plain"),
    (b'{"version": 1}', None),
    (b"version=1", "application/x-www-form-urlencoded"),
]


def _error_shape_problem(response: Any) -> str | None:
    """Why an API refusal is not the documented `{"error", "message"}`."""
    try:
        data = response.json()
    except ValueError:
        return f"not JSON: {response.text[:80]!r}"
    if not isinstance(data, dict) or set(data) != {"error", "message"}:
        return f"not the error shape: {response.text[:120]}"
    if not all(isinstance(data[k], str) and data[k] for k in data):
        return f"empty or not text: {response.text[:120]}"
    return None


def test_schemathesis_finds_no_server_error(api_app: object) -> None:
    """Every operation, a few generated requests each (bounded: 12 examples
    per operation), valid and invalid ones (wrong types, missing fields), half
    of them on a real table with a real seat token, and then bodies no schema
    describes: never a server error, and every refusal of the API in its
    documented shape."""
    app = api_app
    with TestClient(app) as client:  # type: ignore[arg-type]
        ana = create(client, "Ana")
        schema = schemathesis.openapi.from_asgi("/openapi.json", app)  # type: ignore[arg-type]
        failures: list[str] = []
        seen = 0

        def check(method: str, path: str, response: Any) -> None:
            nonlocal seen
            seen += 1
            if response.status_code >= 500:
                failures.append(f"{method} {path}: {response.status_code}")
            elif response.status_code >= 400 and path.startswith("/api/"):
                problem = _error_shape_problem(response)
                if problem is not None:
                    failures.append(f"{method} {path}: {response.status_code} {problem}")

        for result in schema.get_all_operations():
            operation = result.ok()
            if operation.path.endswith("/events"):
                continue  # an endless stream; checked in test_security
            strategies = [operation.as_strategy()]
            if operation.body or operation.path_parameters or operation.query:
                strategies.append(operation.as_strategy(GenerationMode.NEGATIVE))

            @given(case=st.one_of(strategies), real=st.booleans())
            @settings(
                max_examples=12,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                database=None,
            )
            def never_500(case: schemathesis.Case, real: bool) -> None:
                if real and "invite" in (case.path_parameters or {}):
                    case.path_parameters["invite"] = ana.invite
                response = case.call(headers={"Authorization": f"Bearer {ana.token}"})
                check(case.method, case.formatted_path, response)

            never_500()
            if operation.body:
                path = operation.path.replace("{invite}", ana.invite)
                for raw, content_type in MALFORMED_BODIES:
                    headers = ana.headers | ({"content-type": content_type} if content_type else {})
                    response = client.request(operation.method, path, content=raw, headers=headers)
                    check(operation.method.upper(), operation.path, response)
                    if response.status_code < 400:
                        failures.append(f"{operation.path} took {raw!r} ({content_type})")
        assert seen > 50
        assert not failures, failures


def test_sqlite_checkpoints_run_in_the_background(tmp_path: Path) -> None:
    """Requests never pay for copying the WAL into the database: a background
    thread checkpoints (PASSIVE) and stops with the app."""
    import threading
    import time

    from escoba.web.base.db import BACKSTOP_PAGES, Database

    db = Database(f"sqlite:///{tmp_path / 'cp.db'}")
    db.migrate()
    with db.snapshot() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == BACKSTOP_PAGES
    before = set(threading.enumerate())
    db.start_checkpoints(every=0.05)
    (thread,) = [t for t in threading.enumerate() if t not in before]
    assert thread.name == "escoba-checkpoints" and thread.is_alive()
    for i in range(50):
        with db.write() as conn:
            conn.exec_driver_sql(
                "INSERT INTO site_secrets (name, value) VALUES (?, ?)", (f"k{i}", "v")
            )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        # busy: the background thread's own checkpoint held the lock at
        # that moment (frames and copied then read -1): ask again
        busy, frames, copied = db.checkpoint()
        if busy == 0 and frames > 0 and copied == frames:
            break
        time.sleep(0.05)
    assert busy == 0 and frames > 0 and copied == frames
    db.dispose()
    assert not thread.is_alive()


def test_a_serving_process_collects_young_objects_less_often(settings: Settings) -> None:
    """The ASGI entry point's app tunes the collector at start-up (its pauses
    were the load benchmark's tail latency); an app made in a test does not."""
    import gc

    from escoba.web.app import GC_YOUNG

    old = gc.get_threshold()
    try:
        with TestClient(create_app(settings)) as client:
            assert client.get("/health/live").status_code == 200
            assert gc.get_threshold() == old
        with TestClient(create_app(settings, serving=True)) as client:
            assert client.get("/health/live").status_code == 200
            assert gc.get_threshold()[0] == GC_YOUNG
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()
