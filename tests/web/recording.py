"""For the notices' tests: a channel that records what it is handed (and on
which thread), and the app with it."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from fastapi.testclient import TestClient

from escoba.web.notices.dispatch import Dispatcher
from escoba.web.notices.notice import Notice, NoticeKind
from escoba.web.table.service import TableService

from .helpers import Player, service_of


class Recorder:
    """A `notices.Channel` that keeps every notice it is handed."""

    name = "recording"

    def __init__(self) -> None:
        self.notices: list[Notice] = []
        self.threads: set[str] = set()
        self._lock = threading.Lock()

    def deliver(self, notices: Sequence[Notice]) -> None:
        with self._lock:
            self.notices.extend(notices)
            self.threads.add(threading.current_thread().name)

    def take(self) -> list[Notice]:
        with self._lock:
            taken, self.notices = self.notices, []
            return taken


def dispatcher_of(client: TestClient) -> Dispatcher:
    dispatcher: Dispatcher = client.app.state.ctx.dispatcher  # type: ignore[attr-defined]
    return dispatcher


def heard(client: TestClient, recorder: Recorder) -> list[Notice]:
    """Everything delivered since the last look, once the dispatcher has
    handled every command committed so far."""
    assert dispatcher_of(client).flush(10)
    return recorder.take()


@dataclass(frozen=True)
class Told:
    """A notice as the tests compare it: what, to whom (by seat name), about whom."""

    kind: NoticeKind
    to: str
    who: str | None = None


def told(service: TableService, notices: Sequence[Notice]) -> list[Told]:
    names = {}
    for notice in notices:
        if notice.seat_id not in names:
            names[notice.seat_id] = seat_name(service, notice.invite, notice.seat_id)
    return sorted(
        (Told(n.kind, names[n.seat_id], n.who) for n in notices),
        key=lambda t: (t.kind.value, t.to, t.who or ""),
    )


def seat_name(service: TableService, invite: str, seat_id: int) -> str:
    with service.db.snapshot() as conn:
        table = service.store.snap(conn, invite)
    return next(s.name for s in table.seats if s.id == seat_id)


def seat_id(client: TestClient, player: Player) -> int:
    found = service_of(client).reads.watch_target(player.invite, player.token)[1]
    assert found is not None
    return found
