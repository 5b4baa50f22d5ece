"""The push channel in its own process (ESCOBA_PUSH_PROCESSES=1, the default):
a move that gives a subscribed seat its turn reaches that seat's push service
from the worker, signed and encrypted; a dropped subscription is dropped in
the app's database; closing the app lets the worker send what it was given."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from escoba.web.base.clock import ManualClock
from escoba.web.notices.push.worker import PushWorker

from ..helpers import create, join
from ..push_endpoint import PushEndpoint
from ..push_helpers import push_app, push_settings, stored


def _eventually(done: Callable[[], bool], timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _worker(site: TestClient) -> PushWorker:
    channels = site.app.state.ctx.dispatcher.channels  # type: ignore[attr-defined]
    worker = next(c for c in channels if isinstance(c, PushWorker))
    return worker


def _subscribe(site: TestClient, invite: str, headers: dict[str, str], sub: object) -> None:
    r = site.post(f"/api/tables/{invite}/push", json=sub, headers=headers)
    assert r.status_code == 204, r.text


def _play_first_legal(site: TestClient, player: object) -> None:
    table = player.table()  # type: ignore[attr-defined]
    action = table["view"]["legal_actions"][0]
    player.act(action)  # type: ignore[attr-defined]


@pytest.mark.parametrize("gone", [False, True], ids=["delivered", "gone"])
def test_a_turn_reaches_the_push_service_from_the_worker_process(
    db_url: str, clock: ManualClock, gone: bool
) -> None:
    with push_app(push_settings(db_url, push_processes=1), clock) as site:
        service = PushEndpoint(server_key=site.get("/push/key").json()["key"])
        with service.running():
            ana = create(site, "Ana")
            beto = join(site, ana.invite, "Beto")
            for player, name in ((ana, "ana"), (beto, "beto")):
                _subscribe(site, ana.invite, player.headers, service.subscribe(name))
                if gone:
                    service.answer(name, 410)
            ana.command("/start", version=ana.table()["version"])
            mover = ana if ana.table()["view"]["turn"] == ana.game_seat else beto
            waiting = "beto" if mover is ana else "ana"
            _play_first_legal(site, mover)
            if gone:
                assert service.wait(lambda: service.requests[waiting] >= 1, timeout=60)
            else:
                assert service.wait(lambda: len(service.pushes_to(waiting)) >= 1, timeout=60)
            assert _worker(site)._process is not None  # it was the worker's
            if gone:  # the worker dropped the subscription in the app's database
                assert _eventually(lambda: stored(site) == (0, 0))  # both had a turn
            else:
                push = service.pushes_to(waiting)[0]
                assert push.message["kind"] == "turn" and push.message["url"] == f"/t/{ana.invite}"
                assert "Beto" in push.message["title"] and "Ana" in push.message["title"]
            assert not service.errors, service.errors


def test_a_worker_that_could_not_start_lets_the_app_close() -> None:
    """A worker process that fails to start (no process can be made) costs
    the notices of that moment, logged, and nothing more: the app still
    closes (it joined the process that never began, and the app's shutdown
    failed with an AssertionError)."""
    import multiprocessing
    from typing import Any, cast

    from escoba.web.base.settings import Settings
    from escoba.web.notices.notice import Notice

    class NoProcesses:
        """The spawn context, but its processes cannot start."""

        def __init__(self) -> None:
            self._real = multiprocessing.get_context("spawn")

        def Queue(self) -> Any:
            return self._real.Queue()

        def Process(self, **kwargs: Any) -> Any:
            process = self._real.Process(**kwargs)

            def start() -> None:
                raise OSError("no process can be made now")

            process.start = start  # type: ignore[method-assign]
            return process

    worker = PushWorker(Settings(database_url="sqlite://", secret_key="x"))
    worker._context = cast(Any, NoProcesses())
    worker.deliver([cast(Notice, object())])  # logged, not raised
    worker.close()
