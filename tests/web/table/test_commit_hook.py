"""The command path's one hook: whatever follows a commit (the live hub, the
notices' dispatcher, the robots' runner, the analyses' runner) is a listener
added at start-up, told of every change in order; the table names none."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection

from escoba.web.base.clock import ManualClock
from escoba.web.base.db import Database, migrate
from escoba.web.base.settings import Settings
from escoba.web.live.bridges import Hub
from escoba.web.live.streams import Broker
from escoba.web.table.command_path import Change, CommitHook
from escoba.web.table.service import TableService


class Ear:
    """A listener that writes down what it hears, and when."""

    def __init__(self, name: str, heard: list[tuple[str, str, Change]]) -> None:
        self.name, self.heard = name, heard

    def during(self, conn: Connection, change: Change) -> None:
        assert conn.in_transaction()
        self.heard.append((self.name, "during", change))

    def after(self, change: Change) -> None:
        self.heard.append((self.name, "after", change))


def test_every_listener_hears_in_the_order_it_was_added() -> None:
    heard: list[tuple[str, str, Change]] = []
    hook = CommitHook(Ear("live", heard))
    hook.add(Ear("notices", heard))
    hook.add(Ear("robots", heard))
    hook.after(Change(7, 3))
    assert [(n, when) for n, when, _ in heard] == [
        ("live", "after"),
        ("notices", "after"),
        ("robots", "after"),
    ]


def test_a_command_tells_each_listener_what_it_committed(db_url: str) -> None:
    migrate(db_url)
    db = Database(db_url)
    service = TableService(
        db,
        Settings(database_url=db_url, secret_key="x"),
        ManualClock(datetime.now(UTC)),
        Hub(Broker()),
        rng=random.Random(1),
    )
    heard: list[tuple[str, str, Change]] = []
    service.after_commit.add(Ear("a", heard))
    service.after_commit.add(Ear("b", heard))

    ana = service.lobby.create_table("Ana", 21)
    # a table's creation: no command's commit, nobody's move
    assert [(n, w) for n, w, _ in heard] == [
        ("a", "during"),
        ("b", "during"),
        ("a", "after"),
        ("b", "after"),
    ]
    created = heard[-1][2]
    assert created.version == 1 and created.commit is None and created.mover is None
    heard.clear()

    version = service.pages.page(ana.invite, ana.token).version
    service.lobby.add_robot(ana.invite, ana.token, version, "carmen")
    service.lobby.start(ana.invite, ana.token, version + 1)
    after = [c for n, w, c in heard if n == "a" and w == "after"]
    assert [c.version for c in after] == [version + 1, version + 2]
    added, started = after
    assert added.commit is not None and added.commit.actor == 0 and not added.robot_next
    assert started.commit is not None and started.commit.status_before == "lobby"
    assert started.mover is not None  # Ana's seat: her own page has the board
    # the robot is on turn exactly when the game's first turn is hers
    view = service.pages.page(ana.invite, ana.token).view
    assert view is not None and view.turn is not None
    assert started.robot_next == (view.turn != view.seat)
    db.dispose()


def test_a_commands_kind_says_what_its_commit_does_beside_its_rows(db_url: str) -> None:
    """MOVE makes a new version and counts as play; NOTE (a chat line) makes
    neither, so a move made on the version before it is not stale; SERVER
    (the expiry) makes a new version but is no play."""
    migrate(db_url)
    db = Database(db_url)
    start = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    clock = ManualClock(start)
    settings = Settings(database_url=db_url, secret_key="x")
    service = TableService(db, settings, clock, Hub(Broker()), rng=random.Random(3))
    ana = service.lobby.create_table("Ana", 21)
    bea = service.lobby.join(ana.invite, "Bea")
    version = service.pages.page(ana.invite, ana.token).version

    clock.advance(seconds=60)
    service.chat.chat(ana.invite, bea.token, "¡Hola!")
    assert service.pages.page(ana.invite, ana.token).version == version
    with db.snapshot() as conn:
        table = service.store.snap(conn, ana.invite)
    assert table.last_action_at.replace(tzinfo=UTC) == start

    clock.advance(seconds=60)
    service.lobby.start(ana.invite, ana.token, version)  # made before the chat line
    with db.snapshot() as conn:
        table = service.store.snap(conn, ana.invite)
    assert table.version == version + 1
    assert table.last_action_at.replace(tzinfo=UTC) == start + timedelta(seconds=120)

    clock.advance(days=settings.expiry_days, seconds=60)
    assert service.jobs.expire() == 1
    with db.snapshot() as conn:
        table = service.store.snap(conn, ana.invite)
    assert table.status == "expired" and table.version == version + 2
    assert table.last_action_at.replace(tzinfo=UTC) == start + timedelta(seconds=120)
    db.dispose()
