"""`escoba serve`, `escoba worker`, `escoba migrate` and `escoba expire`: the web app's
operator commands. They speak English, like the rest of the command line."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import typer

from escoba.web.base.settings import Settings

# On SIGTERM the live streams end at once (escoba.web.live.streams.close_on_exit_signals);
# this bounds the wait for the rest, such as a client that stopped reading.
GRACEFUL_SHUTDOWN_SECONDS = 5
#: With several workers, how long uvicorn gives a new one to finish its
#: start-up (the app, its robots' pool) before it kills it and tries again:
#: uvicorn's 5 s is short on a busy machine, where workers then die in a loop.
WORKER_START_SECONDS = 60
#: Where prometheus_client's processes keep their values (`metrics_dir`).
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
    workers: int = typer.Option(1, help="Processes (several need PostgreSQL or Redis)."),
    forwarded_allow_ips: str = typer.Option(
        "127.0.0.1",
        help="Proxies whose X-Forwarded-For/-Proto are trusted (comma-separated, or *).",
    ),
) -> None:
    """Apply the migrations, then serve the web app (DATABASE_URL, default SQLite).
    Several workers share live updates through PostgreSQL LISTEN/NOTIFY (or
    Redis with ESCOBA_REDIS_URL); behind a proxy, see docs/deploy.md. A
    request's head must arrive within ESCOBA_REQUEST_TIMEOUT_SECONDS and fit
    in ESCOBA_MAX_HEADER_BYTES (escoba.web.frame.protocol), and a stop (SIGTERM)
    takes at most a few seconds."""
    settings = Settings()
    if workers > 1 and settings.live in ("local", "sqlite"):
        raise typer.BadParameter(
            "several workers need PostgreSQL (DATABASE_URL) or Redis (ESCOBA_REDIS_URL) "
            "so that live updates reach every process",
            param_hint="--workers",
        )
    made = metrics_dir(workers)  # first: before anything imports prometheus_client
    try:
        import uvicorn
        from sqlalchemy.engine import make_url

        from escoba.web.base.assets import FrontEndMissing, require_front_end
        from escoba.web.base.db import migrate
        from escoba.web.base.logs import log_config
        from escoba.web.frame.protocol import HeadLimitsProtocol

        try:
            require_front_end()  # before anything: pages without htmx cannot play
        except FrontEndMissing as exc:
            typer.echo(f"escoba: not started: {exc}", err=True)
            raise typer.Exit(1) from None
        database = make_url(settings.sqlalchemy_url).render_as_string(hide_password=True)
        typer.echo(f"escoba: applying migrations ({database})", err=True)
        migrate(settings.sqlalchemy_url)
        shown = f"[{host}]" if ":" in host else host  # an IPv6 address, as a URL writes it
        typer.echo(f"escoba: serving on http://{shown}:{port}/ (Ctrl-C stops it)", err=True)
        uvicorn.run(
            "escoba.web.asgi:app",
            host=host,
            port=port,
            workers=workers,
            proxy_headers=True,
            forwarded_allow_ips=forwarded_allow_ips,
            log_config=log_config(settings.log_format, settings.log_level),
            http=HeadLimitsProtocol,
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
            timeout_worker_healthcheck=WORKER_START_SECONDS,
        )
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


def metrics_dir(workers: int) -> Path | None:
    """prometheus_client's multiprocess mode (web/base/metrics.py), before
    anything imports it: with several workers, or when the operator set
    PROMETHEUS_MULTIPROC_DIR. That directory, or a new temporary one made
    for this run (set in the environment the workers inherit, and removed
    at the end: what this returns), is emptied of an earlier run's files."""
    given = os.environ.get(MULTIPROC_ENV)
    if workers <= 1 and not given:
        return None
    path = Path(given) if given else Path(tempfile.mkdtemp(prefix="escoba-metrics-"))
    path.mkdir(parents=True, exist_ok=True)
    for entry in path.glob("*.db"):
        entry.unlink()
    os.environ[MULTIPROC_ENV] = str(path)
    return None if given else path


def worker(
    processes: int = typer.Option(
        None, help="Processes to weigh in (default: ESCOBA_ANALYSIS_PROCESSES)."
    ),
) -> None:
    """Run the rounds' analyses, and nothing else, against the configured
    database (DATABASE_URL): any number of workers, on any machines that
    share it; set ESCOBA_ANALYSES=worker on the web processes so they leave
    the analyses to the workers (docs/deploy.md). SIGTERM or Ctrl-C stops
    it; the rounds it was weighing go back to the queue."""
    settings = Settings()
    if processes is not None:
        if processes < 0:
            raise typer.BadParameter("0 or more", param_hint="--processes")
        settings = settings.model_copy(update={"analysis_processes": processes})
    import logging.config

    from escoba.web.base.logs import log_config
    from escoba.web.worker import run

    logging.config.dictConfig(log_config(settings.log_format, settings.log_level))
    typer.echo(
        f"escoba: running analyses in {max(1, settings.analysis_processes)} process(es) "
        "(SIGTERM or Ctrl-C stops)",
        err=True,
    )
    raise typer.Exit(run(settings))


def migrate_command() -> None:
    """Bring the database schema up to date (idempotent)."""
    from escoba.web.base.db import migrate

    migrate(Settings().sqlalchemy_url)
    typer.echo("Schema up to date.")


def expire() -> None:
    """End every table with no game action for ESCOBA_EXPIRY_DAYS (no winner).
    Safe to run at any time, twice at once, and while people play."""
    from escoba.web.app import build_core

    # the app's own wiring, with no streams of its own: the bridge (if any)
    # tells the app processes
    core = build_core(Settings())
    core.dispatcher.start()  # the players of the games that end hear of it
    try:
        count = core.service.jobs.expire()
    finally:
        core.close()
    typer.echo(f"Tables expired: {count}")
