"""Fixtures for the web tests: a fresh database per test (SQLite file, and
PostgreSQL too when ESCOBA_TEST_DATABASE_URL is set), a clock the test moves,
seeded shuffles and robots that answer at once; and, around every test, every
answer of the JSON API checked against the published schema."""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.pool import StaticPool

from escoba import engine as eng
from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.db import Database, migrate
from escoba.web.base.models import Base
from escoba.web.base.settings import Settings
from escoba.web.notices.push.vapid import SECRET_NAME as VAPID_SECRET
from escoba.web.notices.push.vapid import new_private_key
from escoba.web.table.service import TableService

from .recording import Recorder
from .schema_check import watch_api_responses
from .servers import in_thread, worker_pg_url

PG_URL = os.environ.get("ESCOBA_TEST_DATABASE_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])


def first_legal(robot: str, view: eng.View, rng: random.Random) -> eng.Action:
    """A quick stand-in brain for tests that are not about robot skill: a
    random legal action from the seat's view."""
    return rng.choice(view.legal)


@pytest.fixture(autouse=True)
def api_answers_match_the_schema() -> Iterator[None]:
    """Every API answer any client of the test gets (a TestClient's, httpx's
    or requests' on a live server, schemathesis') must be one the OpenAPI
    schema documents: its status for that operation, its body valid against
    the schema of that status. A mismatch fails the call at once, and the
    test at its end if a thread swallowed it."""
    with watch_api_responses() as watch:
        yield
    assert not watch.failures, "\n".join(watch.failures[:20])


@pytest.fixture(scope="session")
def pg_url() -> str | None:
    """This process's PostgreSQL test database (each pytest-xdist worker has
    its own: servers.worker_pg_url), migrated; None without one."""
    return worker_pg_url()


@pytest.fixture(scope="session")
def pg_emptier(pg_url: str | None) -> Iterator[Callable[[], None] | None]:
    """Empties this process's PostgreSQL test database for the next test:
    every table's rows but the site's secrets (its Web Push key), the
    dependent ones first, and the ids counted from 1 again. One connection
    for the session, and DELETE rather than TRUNCATE (a TRUNCATE of the
    tables cost 40-60 ms, and a connection of its own more, each test)."""
    if pg_url is None:
        yield None
        return
    engine = create_engine(pg_url, poolclass=StaticPool)
    tables = [t.name for t in reversed(Base.metadata.sorted_tables) if t.name != "site_secrets"]
    with engine.connect() as conn:
        sequences = [
            row[0]
            for row in conn.execute(text("SELECT sequence_name FROM information_schema.sequences"))
        ]

    def empty() -> None:
        with engine.begin() as conn:
            for name in tables:
                conn.execute(text(f"DELETE FROM {name}"))
            for name in sequences:
                conn.execute(text(f"ALTER SEQUENCE {name} RESTART"))

    yield empty
    engine.dispose()


@pytest.fixture(scope="session")
def sqlite_migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite database migrated once a session (a worker): a fresh one
    costs every migration, most of a second, for each of a thousand tests."""
    path = tmp_path_factory.mktemp("sqlite-migrated") / "escoba.db"
    migrate(f"sqlite:///{path}")
    # and its Web Push key made, as PostgreSQL's database keeps it from one
    # test to the next: making it (and writing it) cost each app a tenth of
    # a second (tests/web/notices/test_push_keys.py makes its own)
    db = Database(f"sqlite:///{path}")
    db.secret(VAPID_SECRET, make=new_private_key)
    db.dispose()
    return path


@pytest.fixture(params=BACKENDS)
def db_url(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    pg_url: str | None,
    pg_emptier: Callable[[], None] | None,
    sqlite_migrated: Path,
) -> str:
    if request.param == "sqlite":
        # a copy of its own of the migrated database: as empty as a new one,
        # and create_app's migration finds it at the head
        shutil.copyfile(sqlite_migrated, tmp_path / "escoba.db")
        return f"sqlite:///{tmp_path / 'escoba.db'}"
    assert pg_url is not None and pg_emptier is not None
    pg_emptier()
    return pg_url


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def bare_service(db_url: str, clock: ManualClock) -> Iterator[TableService]:
    """A table service of the test's own, without the app and without HTTP,
    for each concern built alone (tests/web/alone.py)."""
    from .alone import service_alone  # (alone.py reads this module's robots)

    with service_alone(db_url, clock) as service:
        yield service


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(
        database_url=db_url,
        robot_inline=True,
        robot_delay=0,
        secret_key="test-secret",
        # Pushes in the app's own process: a worker process of their own
        # (production's default) costs ~1.5 s to stop after every test that
        # plays; tests/web/notices/test_push_worker.py tests that process.
        push_processes=0,
    )


@pytest.fixture
def app_client(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    app = create_app(settings, clock=clock, rng=random.Random(7), brain=first_legal)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def site(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    """The app for tests through its pages (seat cookies kept by the client)."""
    app = create_app(settings, clock=clock, rng=random.Random(5), brain=first_legal)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def quiet_settings(settings: Settings) -> Settings:
    """No sweep of notices of its own: time-based notices only when a test sweeps."""
    return settings.model_copy(update={"notice_sweep_seconds": 0})


@pytest.fixture
def recorder() -> Recorder:
    """A notices' channel that keeps what it is told (tests/web/recording.py)."""
    return Recorder()


@pytest.fixture
def recorded_client(
    quiet_settings: Settings, clock: ManualClock, recorder: Recorder
) -> Iterator[TestClient]:
    """The app whose notices go to `recorder` alone."""
    app = create_app(
        quiet_settings, clock=clock, rng=random.Random(7), brain=first_legal, channels=[recorder]
    )
    with TestClient(app) as client:
        yield client


@pytest.fixture
def live_server(db_url: str, clock: ManualClock) -> Iterator[str]:
    """The app served by a real uvicorn on a free local port, with robots that
    play on their own in the background (no delay)."""
    settings = Settings(
        database_url=db_url, robot_inline=False, robot_delay=0, secret_key="test-secret"
    )
    app = create_app(settings, clock=clock, rng=random.Random(3), brain=first_legal)
    with in_thread(app) as url:
        yield url
