"""The table service over a test's database, with no app around it and no
HTTP: what the rooms' classes (escoba.web.devices, escoba.web.notices) are
built on when a test builds each concern alone, as lila's `Finisher` can be."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection

from escoba.web.base.clock import ManualClock
from escoba.web.base.db import Database
from escoba.web.base.settings import Settings
from escoba.web.table.command_path import Change
from escoba.web.table.lobby import Joined
from escoba.web.table.service import TableService

from .conftest import first_legal


class Heard:
    """A listener of the command path's hook: the changes told after their
    commit, in order."""

    def __init__(self) -> None:
        self.changes: list[Change] = []

    def during(self, conn: Connection, change: Change) -> None:
        return None

    def after(self, change: Change) -> None:
        self.changes.append(change)


@contextmanager
def database_alone(db_url: str) -> Iterator[tuple[Database, Settings]]:
    """The test's (migrated) database, and settings that name it."""
    db = Database(db_url)
    try:
        yield db, Settings(database_url=db_url, secret_key="test-secret")
    finally:
        db.dispose()


@contextmanager
def service_alone(db_url: str, clock: ManualClock) -> Iterator[TableService]:
    """A table service on the test's database, its clock the test's, robots
    answering at once; the hook's first listener a `Heard`."""
    with database_alone(db_url) as (db, settings):
        yield TableService(db, settings, clock, Heard(), brain=first_legal, rng=random.Random(7))


def playing(service: TableService) -> tuple[Joined, Joined]:
    """A two-player game under way: (its creator Ana, Beto)."""
    ana = service.lobby.create_table("Ana", 21)
    beto = service.lobby.join(ana.invite, "Beto")
    service.lobby.start(ana.invite, ana.token, service.reads.version(ana.invite))
    return ana, beto


def on_turn(service: TableService, *players: Joined) -> Joined:
    """Which of `players` is on turn."""
    state = service.reads.game_state(players[0].invite)
    assert state is not None
    for player in players:
        seat = service.reads.seat_for(player.invite, player.token)
        if seat is not None and seat.game_seat == state.round.turn:
            return player
    raise AssertionError("none of them is on turn")


def play_once(service: TableService, player: Joined) -> None:
    """`player`, on turn, plays its first legal play."""
    page = service.pages.page(player.invite, player.token, with_chat=False)
    assert page.view is not None
    service.playing.act(player.invite, player.token, page.version, page.view.legal[0])


def seat_id(service: TableService, player: Joined) -> int:
    found = service.reads.watch_target(player.invite, player.token)[1]
    assert found is not None
    return found
