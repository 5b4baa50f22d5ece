"""Shared set-up of the Web Push tests: an app in push test mode, seats made
through the pages or the API, their subscriptions, and notices to them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text

from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.settings import Settings
from escoba.web.notices.notice import Notice, NoticeKind
from escoba.web.notices.push import PushChannel

from .conftest import first_legal

#: settings for a push test: local endpoints taken, retries quick
PUSH_SETTINGS: dict[str, Any] = {
    "push_processes": 0,  # the channel in this process: its outcomes in reach
    "push_allow_private": True,
    "push_retry_seconds": 0.01,
    "push_retry_max_seconds": 0.05,
    "push_tries": 3,
    "push_max_failures": 2,
    "push_read_timeout": 30.0,
}


def push_settings(db_url: str, **more: Any) -> Settings:
    return Settings(
        database_url=db_url,
        robot_inline=True,
        robot_delay=0,
        secret_key="test-secret",
        **{**PUSH_SETTINGS, **more},
    )


@contextmanager
def push_app(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    app = create_app(settings, clock=clock, rng=random.Random(5), brain=first_legal)
    with TestClient(app) as client:
        yield client


def channel_of(client: TestClient) -> PushChannel:
    channel: PushChannel = client.app.state.ctx.push  # type: ignore[attr-defined]
    return channel


def seats_of(client: TestClient, invite: str) -> tuple[int, list[int]]:
    """(the table's id, its seats' ids by position)."""
    db = client.app.state.ctx.service.db  # type: ignore[attr-defined]
    with db.snapshot() as conn:
        table_id = conn.execute(
            text("SELECT id FROM tables WHERE invite = :i"), {"i": invite}
        ).scalar_one()
        seat_ids = conn.execute(
            text("SELECT id FROM seats WHERE table_id = :t ORDER BY position"), {"t": table_id}
        ).scalars()
        return int(table_id), [int(s) for s in seat_ids]


def rows(client: TestClient, query: str) -> list[Any]:
    db = client.app.state.ctx.service.db  # type: ignore[attr-defined]
    with db.snapshot() as conn:
        return list(conn.execute(text(query)))


def stored(client: TestClient) -> tuple[int, int]:
    """(subscriptions, seat links) in the database."""
    return channel_of(client).store.count()


def notice(
    clock: ManualClock,
    kind: NoticeKind,
    seat_id: int,
    table_id: int,
    invite: str,
    players: tuple[str, ...] = ("Ana", "Beto"),
    who: str | None = "Beto",
) -> Notice:
    now = clock.now()
    return Notice(
        kind=kind,
        seat_id=seat_id,
        table_id=table_id,
        invite=invite,
        players=players,
        who=who,
        at=now - timedelta(hours=5),
        deadline=now + timedelta(hours=8),
    )
