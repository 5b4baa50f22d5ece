"""`escoba serve`, `escoba migrate` and `escoba expire`: the web app's
operator commands."""

from __future__ import annotations

import typer

from escoba.web.settings import Settings


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
    workers: int = typer.Option(1, help="Processes (several need PostgreSQL)."),
) -> None:
    """Apply the migrations, then serve the web app (DATABASE_URL, default SQLite)."""
    import uvicorn

    from escoba.web.db import migrate

    settings = Settings()
    migrate(settings.sqlalchemy_url)
    typer.echo(f"Escoba en http://{host}:{port}/  (base de datos: {settings.sqlalchemy_url})")
    uvicorn.run(
        "escoba.web.asgi:app",
        host=host,
        port=port,
        workers=workers,
        proxy_headers=True,
        forwarded_allow_ips="*" if workers > 1 else None,
    )


def migrate_command() -> None:
    """Bring the database schema up to date (idempotent)."""
    from escoba.web.db import migrate

    migrate(Settings().sqlalchemy_url)
    typer.echo("Esquema al día.")


def expire() -> None:
    """End every table with no game action for 7 days (no winner). Safe to run
    at any time, twice at once, and while people play."""
    from escoba.web.clock import SystemClock
    from escoba.web.db import Database, migrate
    from escoba.web.service import TableService

    settings = Settings()
    migrate(settings.sqlalchemy_url)
    db = Database(settings.sqlalchemy_url)
    service = TableService(db, settings, SystemClock(), notifier=_NoWatchers())
    count = service.expire()
    db.dispose()
    typer.echo(f"Mesas vencidas: {count}")


class _NoWatchers:
    """The cron job has no live streams of its own; players' streams pick the
    change up on their next update or reload."""

    def publish(self, table_id: int, version: int) -> None:
        return None
