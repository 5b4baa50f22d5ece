"""Races between the jobs and the players: absence pressed while the absent
player moves at last, expiry running while people act, abandon against a
move, two expiry runs at once against a move. Whatever the order, each table
ends in exactly one consistent state: one winner of the race, the other
refused with nothing applied, and the log replays to the saved state."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from fastapi.testclient import TestClient

from escoba.web.base.clock import ManualClock
from escoba.web.base.errors import ServiceError
from escoba.web.table.service import TableService

from ..helpers import Player, create, join, replay_log, service_of

ROUNDS = 4  # each race is run a few times: the order differs from run to run


def _race(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Run the jobs at once (a barrier releases them together); each result
    is the job's value or the ServiceError it raised."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = jobs[i]()
        except ServiceError as err:
            results[i] = err

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def _started(client: TestClient) -> tuple[Player, Player]:
    ana = create(client, "Ana")
    luis = join(client, ana.invite, "Luis")
    ana.command("/start")
    return ana, luis


def _consistent(service: TableService, invite: str) -> None:
    assert replay_log(service, invite) == service.reads.game_state(invite)
    versions = [row.version for row in service.reads.log(invite)]
    assert versions == sorted(set(versions)), "two entries made the same version"


def _turn(ana: Player, luis: Player) -> tuple[Player, Player]:
    turn = ana.table()["view"]["turn"]
    return (ana, luis) if ana.game_seat() == turn else (luis, ana)


def test_absence_against_the_absent_players_late_move(
    app_client: TestClient, clock: ManualClock
) -> None:
    service = service_of(app_client)
    for _ in range(ROUNDS):
        ana, luis = _started(app_client)
        absent, other = _turn(ana, luis)
        clock.advance(hours=49)
        table = absent.table()
        version = table["version"]
        action = random.choice(table["view"]["legal_actions"])
        from escoba import engine as eng

        results = _race(
            [
                partial(
                    service.playing.act,
                    ana.invite,
                    absent.token,
                    version,
                    eng.action_from_dict(action),
                ),
                partial(service.ending.end_for_absence, ana.invite, other.token, version),
                partial(service.ending.end_for_absence, ana.invite, other.token, version),
            ]
        )
        final = ana.table()
        assert final["version"] == version + 1
        if isinstance(results[0], ServiceError):
            assert final["status"] == "finished"
            assert final["view"]["result"]["reason"] == "absence"
            # the second press asked for what the first did: no error either
            assert not any(isinstance(r, ServiceError) for r in results[1:]), results
        else:
            assert final["status"] == "playing"
            assert all(isinstance(r, ServiceError) for r in results[1:]), results
        _consistent(service, ana.invite)


def test_expiry_while_people_act_and_two_expiry_runs_at_once(
    app_client: TestClient, clock: ManualClock
) -> None:
    service = service_of(app_client)
    from escoba import engine as eng

    for _ in range(ROUNDS):
        ana, luis = _started(app_client)
        actor, _other = _turn(ana, luis)
        clock.advance(days=8)
        table = actor.table()
        version = table["version"]
        action = eng.action_from_dict(random.choice(table["view"]["legal_actions"]))
        results = _race(
            [
                partial(service.playing.act, ana.invite, actor.token, version, action),
                service.jobs.expire,
                service.jobs.expire,
            ]
        )
        final = ana.table()
        moved = not isinstance(results[0], ServiceError)
        expired_count = sum(row.kind == "expire" for row in service.reads.log(ana.invite))
        if moved:
            # the move came first: the table was played meanwhile, nothing expires
            assert final["status"] == "playing" and expired_count == 0
            assert final["version"] == version + 1
        else:
            assert results[0].code == "stale"
            assert final["status"] == "expired" and expired_count == 1
            assert final["view"]["result"]["reason"] == "expired"
        _consistent(service, ana.invite)
        # an expired table takes no further command
        if not moved:
            r = actor.act(random.choice(table["view"]["legal_actions"]), expect=409)
            assert r["error"] in ("stale", "not_playing", "game_over")


def test_abandon_against_a_move(app_client: TestClient) -> None:
    service = service_of(app_client)
    from escoba import engine as eng

    for _ in range(ROUNDS):
        ana, luis = _started(app_client)
        actor, other = _turn(ana, luis)
        table = actor.table()
        version = table["version"]
        action = eng.action_from_dict(random.choice(table["view"]["legal_actions"]))
        results = _race(
            [
                partial(service.playing.act, ana.invite, actor.token, version, action),
                partial(service.ending.abandon, ana.invite, other.token, version),
            ]
        )
        assert sum(not isinstance(r, ServiceError) for r in results) == 1, results
        final = ana.table()
        assert final["version"] == version + 1
        assert (final["status"] == "finished") == isinstance(results[0], ServiceError)
        _consistent(service, ana.invite)


@pytest.mark.parametrize("copies", [6])
def test_many_copies_of_one_next_round_deal_once(app_client: TestClient, copies: int) -> None:
    """SIGUIENTE RONDA pressed by both players at once, several times each:
    one new round is dealt, and the presses that came late are no error
    (their wish is done: the fresh board)."""
    service = service_of(app_client)
    ana, luis = _started(app_client)
    rng = random.Random(2)
    for _ in range(200):
        table = ana.table()
        if table["view"]["phase"] == "round_over":
            break
        actor, _other = _turn(ana, luis)
        actor.act(rng.choice(actor.table()["view"]["legal_actions"]))
    else:
        pytest.fail("the round did not end")
    version = ana.table()["version"]
    jobs = [
        (lambda p=p: service.playing.next_round(ana.invite, p.token, version))
        for p in (ana, luis) * (copies // 2)
    ]
    results = _race(jobs)
    assert not any(isinstance(r, ServiceError) for r in results), results
    assert {r.version for r in results} == {version + 1}
    table = ana.table()
    assert table["version"] == version + 1 and table["view"]["phase"] == "playing"
    assert [row.kind for row in service.reads.log(ana.invite)].count("next_round") == 1
    _consistent(service, ana.invite)


def test_a_command_writes_only_on_the_version_it_loaded(app_client: TestClient) -> None:
    """The unit of work's UPDATE carries the version it loaded: if the row
    moved on underneath (it cannot under the lock; this is the second guard),
    nothing is written and the command is refused as stale."""
    from sqlalchemy import text

    from escoba.web.base.errors import Conflict
    from escoba.web.table.store import TableTx

    ana = create(app_client, "Ana")
    service = service_of(app_client)
    before = service.reads.version(ana.invite)
    with pytest.raises(Conflict), service.db.write() as conn:
        table = service.store.select(conn, "invite", ana.invite, lock=True)
        assert table is not None
        tx = TableTx(conn, table)
        moved = text("UPDATE tables SET version = version + 5 WHERE id = :id")
        conn.execute(moved, {"id": table.id})
        tx.table.version += 1  # (the command's working copy)
        tx.table.partner_position = 1
        tx.log_rows.append({"table_id": table.id})  # never reached
        tx.write()
    assert service.reads.version(ana.invite) == before  # the whole transaction rolled back
    assert [row.kind for row in service.reads.log(ana.invite)] == ["create"]


def test_a_table_read_is_never_changed_a_command_changes_its_own_copy(
    app_client: TestClient,
) -> None:
    """The records a read gets are the ones the cache shares with every other
    read: frozen. A command gets its own draft; once it commits, the cache
    keeps the draft's record, and the record read before stays as it was."""
    import dataclasses

    ana = create(app_client, "Ana")
    service = service_of(app_client)
    with service.db.snapshot() as conn:
        read = service.store.snap(conn, ana.invite)
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.version += 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.seats[0].name = "Eva"  # type: ignore[misc]
    service.lobby.join(ana.invite, "Beto")
    with service.db.snapshot() as conn:
        after = service.store.snap(conn, ana.invite)
    assert (read.version, len(read.seats)) == (1, 1)
    assert (after.version, [s.name for s in after.seats]) == (2, ["Ana", "Beto"])


def test_a_replayed_move_is_refused_without_the_write_lock(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A double tap or a replayed request carries a version the table has left
    behind: it is refused as stale without taking the write lock, so a flood
    of them never queues behind the moves. A request on the current version
    still takes the lock, and is checked under it."""
    service = service_of(app_client)
    ana, luis = _started(app_client)
    actor, _ = _turn(ana, luis)
    table = actor.table()
    action = random.choice(table["view"]["legal_actions"])
    body = {"version": table["version"], "action": action}
    actor.post("/actions", body)

    writes = 0
    write = service.db.write

    def counted() -> Any:
        nonlocal writes
        writes += 1
        return write()

    monkeypatch.setattr(service.db, "write", counted)
    for _ in range(3):
        assert actor.post("/actions", body, expect=409)["error"] == "stale"
    assert writes == 0
    # a version from the future is no shortcut: it is checked under the lock
    ahead = {"version": table["version"] + 5, "action": action}
    assert actor.post("/actions", ahead, expect=409)["error"] == "stale"
    assert writes == 1
    assert actor.table()["version"] == table["version"] + 1
    _consistent(service, ana.invite)
