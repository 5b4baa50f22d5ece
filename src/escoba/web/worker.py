"""`escoba worker`: a process that runs the rounds' analyses and nothing
else (issue 35), against the configured database. Run any number of them,
on any machines that share the PostgreSQL, and set ESCOBA_ANALYSES=worker on
the web processes so they leave the analyses to them (docs/deploy.md,
«Analysis workers»).

A worker waits for the schema to be the newest migration (the web
processes' `escoba serve`, or `escoba migrate`, brings it there: several
workers starting at once never race to migrate), then claims rounds as the
web processes' runner does (`AnalysisRunner`), with ESCOBA_ANALYSIS_PROCESSES
processes of its own. SIGTERM or Ctrl-C stops it: the rounds it was weighing
go back to the queue."""

from __future__ import annotations

import asyncio
import logging
import signal

from sqlalchemy.engine import make_url

from escoba.web.app import analysis_runner
from escoba.web.base.clock import SystemClock
from escoba.web.base.db import Database
from escoba.web.base.settings import Settings
from escoba.web.table.command_path import AfterOnly, Change
from escoba.web.table.service import TableService

log = logging.getLogger("escoba.worker")

#: How often a worker looks again for the newest schema.
SCHEMA_WAIT_SECONDS = 5.0


class NoListener(AfterOnly):
    """A worker's commits (an analysis's rows) concern no page: the pages
    that wait for one ask again every two seconds."""

    def after(self, change: Change) -> None:
        return None


def wait_for_schema(db: Database) -> bool:
    """Until the database answers with the newest schema (True), or a stop
    signal comes (False; SIGTERM and SIGINT must be blocked: they are read
    here)."""
    said = False
    while True:
        try:
            have = db.schema_revision()
            if have == db.head_revision:
                return True
            problem = f"schema {have}, not {db.head_revision}: run escoba migrate"
        except Exception as err:  # the database is away, or has no schema yet
            problem = f"database unreachable: {type(err).__name__}"
        if not said:
            log.warning("worker waits: %s", problem)
            said = True
        if signal.sigtimedwait([signal.SIGTERM, signal.SIGINT], SCHEMA_WAIT_SECONDS):
            return False


async def serve_analyses(settings: Settings, stop: asyncio.Event) -> None:
    """Run the analyses until `stop` is set."""
    db = Database(
        settings.sqlalchemy_url, settings.sqlite_synchronous, settings.sqlite_busy_seconds
    )
    try:
        service = TableService(db, settings, SystemClock(), NoListener())
        runner = analysis_runner(service, settings)
        runner.start_pool()  # first: its processes fork from this one, before any thread
        runner.start(asyncio.get_running_loop())
        log.info(
            "worker started",
            extra={
                "database": make_url(settings.sqlalchemy_url).render_as_string(hide_password=True),
                "processes": settings.analysis_processes,
                "claimer": runner.claimer,
            },
        )
        await stop.wait()
        await runner.stop()
        log.info("worker stopped")
    finally:
        db.dispose()


def run(settings: Settings) -> int:
    """The worker's life, in this process: 0 on a stop by signal."""
    db = Database(
        settings.sqlalchemy_url, settings.sqlite_synchronous, settings.sqlite_busy_seconds
    )
    old = signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM, signal.SIGINT])
    try:
        ready = wait_for_schema(db)
    finally:
        db.dispose()
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    if not ready:
        return 0

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await serve_analyses(settings, stop)

    asyncio.run(main())
    return 0
