"""The operator commands: `escoba migrate` and `escoba expire` (cron)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from typer.testing import CliRunner

from escoba.cli import app
from escoba.web.base.clock import ManualClock
from escoba.web.base.db import Database, migrate
from escoba.web.base.settings import Settings
from escoba.web.live.bridges import Hub
from escoba.web.live.streams import Broker
from escoba.web.table.service import TableService


def test_expire_command_ends_week_old_tables(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    migrate(db_url)
    settings = Settings(database_url=db_url, secret_key="x")
    db = Database(db_url)
    # a table whose last action was eight days ago, by the real clock
    old = ManualClock(datetime.now(UTC) - timedelta(days=8))
    service = TableService(db, settings, old, Hub(Broker()), rng=random.Random(1))
    stale = service.lobby.create_table("Ana", 21)
    fresh = TableService(db, settings, ManualClock(datetime.now(UTC)), Hub(Broker()))
    recent = fresh.lobby.create_table("Beto", 21)

    monkeypatch.setenv("DATABASE_URL", db_url)
    runner = CliRunner()
    result = runner.invoke(app, ["expire"])
    assert result.exit_code == 0, result.output
    assert "Tables expired: 1" in result.output
    assert service.pages.page(stale.invite, None).status == "expired"
    assert service.pages.page(recent.invite, None).status == "lobby"
    again = runner.invoke(app, ["expire"])
    assert "Tables expired: 0" in again.output
    db.dispose()


def test_migrate_command_is_idempotent(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", db_url)
    runner = CliRunner()
    for _ in range(2):
        result = runner.invoke(app, ["migrate"])
        assert result.exit_code == 0, result.output
        assert result.output == "Schema up to date.\n"
    db = Database(Settings(database_url=db_url).sqlalchemy_url)
    assert len(db.secret()) == 64
    db.dispose()
