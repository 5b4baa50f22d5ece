"""The analysis of finished rounds in the service (issue 28): queued in the
commit that finishes a round, computed action by action, its progress
written, stored as «escoba-analysis/1»; taken up again after a restart;
served fairly, the rounds someone waits for first; and in processes of
their own, never in the robots' way (issue 35). On SQLite and PostgreSQL
(the `db_url` fixture)."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Iterator
from typing import Any
from unittest.mock import patch

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from escoba.analysis import LINES, LunaEvaluator, RoundAnalysis, analyse_round
from escoba.analysis.lines import LINE_NAMES
from escoba.web.api.schema import ReasonValuesOut
from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.models import RoundAnalysisRow
from escoba.web.base.settings import Settings
from escoba.web.table.analyses import analyse_position
from escoba.web.workers.analyses import AnalysisRunner
from escoba.words import CATALOG

from ..conftest import first_legal
from ..helpers import Player, create, run_async, service_of

WORLDS = 16


@pytest.fixture
def client(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    small = settings.model_copy(update={"analysis_worlds": WORLDS})
    app = create_app(small, clock=clock, rng=random.Random(4), brain=first_legal)
    with TestClient(app) as c:
        yield c


def against_a_robot(client: TestClient) -> Player:
    ana = create(client, "Ana")
    ana.command("/robots", robot="tito")
    ana.command("/start")
    return ana


def finish_round(ana: Player, rng: random.Random) -> None:
    """Ana plays (the robot answers at once) until the round is over."""
    for _ in range(200):
        view = ana.table()["view"]
        if view["phase"] != "playing":
            return
        if view["legal_actions"]:
            ana.act(rng.choice(view["legal_actions"]))
    raise AssertionError("the round did not end")


def rows(client: TestClient) -> list[Any]:
    with service_of(client).db.snapshot() as conn:
        return list(conn.execute(select(RoundAnalysisRow.__table__)).all())


def test_the_commit_that_finishes_a_round_queues_its_analysis(client: TestClient) -> None:
    ana = against_a_robot(client)
    assert rows(client) == []
    finish_round(ana, random.Random(1))
    state = service_of(client).reads.game_state(ana.invite)
    assert state is not None
    (summary,) = state.finished_rounds
    (row,) = rows(client)
    assert (row.round, row.status, row.done, row.total, row.analysis) == (
        1,
        "queued",
        0,
        len(summary.actions),
        None,
    )


def test_a_queued_analysis_is_run_and_stored_as_the_library_makes_it(
    client: TestClient,
) -> None:
    ana = against_a_robot(client)
    finish_round(ana, random.Random(2))
    service = service_of(client)
    assert service.analysis_queue.run_all() == 1
    assert service.analysis_queue.run_all() == 0  # once
    (row,) = rows(client)
    state = service.reads.game_state(ana.invite)
    assert state is not None
    summary = state.finished_rounds[0]
    assert (row.status, row.done, row.total) == ("done", len(summary.actions), row.total)
    expected = analyse_round(
        summary, state.players, state.rules, evaluator=LunaEvaluator(worlds=WORLDS)
    )
    assert RoundAnalysis.from_json(row.analysis) == expected
    read = service.analyses.round_analysis(ana.invite, 1)
    assert read.status == "done" and read.analysis == expected


def test_progress_is_written_action_by_action(client: TestClient) -> None:
    ana = against_a_robot(client)
    finish_round(ana, random.Random(3))
    service = service_of(client)
    (pending,) = service.analysis_queue.pending()
    job = service.analysis_queue.claim(pending)
    assert job is not None
    assert service.analyses.round_analysis(ana.invite, 1).status == "running"
    service.analysis_queue.progress(job.id, 5)
    read = service.analyses.round_analysis(ana.invite, 1)
    assert (read.status, read.done, read.total, read.analysis) == (
        "running",
        5,
        len(job.positions),
        None,
    )


def test_a_running_analysis_whose_process_died_is_taken_up_again(
    client: TestClient, clock: ManualClock
) -> None:
    ana = against_a_robot(client)
    finish_round(ana, random.Random(4))
    service = service_of(client)
    (pending,) = service.analysis_queue.pending()
    assert service.analysis_queue.claim(pending) is not None  # a process took it...
    assert service.analysis_queue.pending() == []  # ...and is alive: nobody else takes it
    assert service.analysis_queue.claim(pending) is None
    clock.advance(seconds=service.settings.analysis_stale_seconds + 1)  # ...and died
    assert service.analysis_queue.pending() == [pending]
    assert service.analysis_queue.run_all() == 1
    assert service.analyses.round_analysis(ana.invite, 1).status == "done"


def test_a_restarted_app_runs_what_was_left_queued(settings: Settings, clock: ManualClock) -> None:
    """The round finished in one app (robots inline: nothing ran it); an app
    with the runner, started on the same database, analyses it by itself."""
    small = settings.model_copy(update={"analysis_worlds": WORLDS})
    app = create_app(small, clock=clock, rng=random.Random(4), brain=first_legal)
    with TestClient(app) as first:
        ana = against_a_robot(first)
        finish_round(ana, random.Random(5))
        invite = ana.invite
    served = small.model_copy(update={"robot_inline": False, "robot_processes": 0})
    again = create_app(served, clock=clock, rng=random.Random(4), brain=first_legal)
    with TestClient(again) as second:
        service = service_of(second)
        for _ in range(600):
            if service.analyses.round_analysis(invite, 1).status == "done":
                break
            threading.Event().wait(0.05)
        read = service.analyses.round_analysis(invite, 1)
        assert read.status == "done" and read.analysis is not None
        assert read.done == read.total == len(read.analysis.steps)


def test_a_round_in_play_has_no_analysis_and_an_unknown_round_none(client: TestClient) -> None:
    from escoba.web.base.errors import Conflict, NotFound

    ana = against_a_robot(client)
    service = service_of(client)
    with pytest.raises(Conflict) as refused:
        service.analyses.round_analysis(ana.invite, 1)
    assert refused.value.code == "round_in_play"
    with pytest.raises(NotFound):
        service.analyses.round_analysis(ana.invite, 2)


def test_a_finished_round_without_its_row_is_queued_when_asked_for(client: TestClient) -> None:
    ana = against_a_robot(client)
    finish_round(ana, random.Random(6))
    service = service_of(client)
    with service.db.write() as conn:
        conn.execute(RoundAnalysisRow.__table__.delete())
    assert service.analyses.round_analysis(ana.invite, 1).status == "queued"
    assert len(rows(client)) == 1
    assert service.analysis_queue.run_all() == 1


# --------------------------------------------------------------------------
# The queue's order, and the runner in processes of its own (issue 35)


def rounds_of(ana: Player, count: int, rng: random.Random) -> None:
    """Ana plays `count` rounds against her robot (SIGUIENTE RONDA between)."""
    for n in range(count):
        if n:
            ana.command("/next-round")
        finish_round(ana, rng)


def test_the_queue_serves_the_rounds_someone_waits_for_then_each_tables_oldest_first(
    client: TestClient,
) -> None:
    """Ana finishes three rounds before Beto finishes one: Beto's round is
    not served after all of Ana's, but after her first. Once someone opens
    Ana's third, it goes before every other."""
    ana = against_a_robot(client)
    rounds_of(ana, 3, random.Random(11))
    beto = create(client, "Beto")
    beto.command("/robots", robot="tito")
    beto.command("/start")
    finish_round(beto, random.Random(12))
    service = service_of(client)
    by_id = {r.id: (r.table_id, r.round) for r in rows(client)}
    ana_table = next(t for t, n in by_id.values() if n == 3)

    def order() -> list[tuple[str, int]]:
        return [
            ("ana" if by_id[i][0] == ana_table else "beto", by_id[i][1])
            for i in service.analysis_queue.pending()
        ]

    assert order() == [("ana", 1), ("beto", 1), ("ana", 2), ("ana", 3)]
    assert service.analyses.round_analysis(ana.invite, 3).status == "queued"  # a page asks for it
    assert order() == [("ana", 3), ("ana", 1), ("beto", 1), ("ana", 2)]
    job = service.analysis_queue.claim_next("test:1")
    assert job is not None and (job.table_id, job.summary.number) == (ana_table, 3)


def test_two_runners_never_claim_one_round_and_each_is_named_on_its_rows(
    client: TestClient,
) -> None:
    ana = against_a_robot(client)
    rounds_of(ana, 2, random.Random(13))
    service = service_of(client)
    first = service.analysis_queue.claim_next("host-a:1")
    second = service.analysis_queue.claim_next("host-b:2")
    assert first is not None and second is not None and first.id != second.id
    assert service.analysis_queue.claim_next("host-c:3") is None
    claimed = {r.id: r.claimed_by for r in rows(client)}
    assert claimed == {first.id: "host-a:1", second.id: "host-b:2"}


def test_a_runner_that_stops_gives_back_the_round_it_was_weighing(client: TestClient) -> None:
    ana = against_a_robot(client)
    finish_round(ana, random.Random(14))
    service = service_of(client)
    started = threading.Event()
    gate = threading.Event()

    def weigh_slowly(*args: Any) -> Any:
        started.set()
        gate.wait(10)
        return analyse_position(*args)

    async def scenario() -> None:
        runner = AnalysisRunner(service.analysis_queue, 0, WORLDS, poll_seconds=0.05)
        runner.start_pool()
        runner.start(asyncio.get_running_loop())
        while not started.is_set():
            await asyncio.sleep(0.01)
        await runner.stop()
        gate.set()

    with patch("escoba.web.workers.analyses.analyse_position", weigh_slowly):
        run_async(scenario())
    (row,) = rows(client)
    assert (row.status, row.done) == ("queued", 0)
    assert service.analysis_queue.run_all() == 1


def test_a_robot_answers_while_an_analysis_runs_however_long(
    settings: Settings, clock: ManualClock
) -> None:
    """Robots and analyses each with one worker thread: the analysis of the
    first round hangs, and Ana plays the whole second round against Tito,
    who answers every move. (With the analyses in the robots' pool, its one
    worker was the hung analysis's, and Tito never answered.)"""
    served = settings.model_copy(
        update={
            "analysis_worlds": WORLDS,
            "robot_inline": False,
            "robot_delay": 0,
            "robot_processes": 0,
            "analysis_processes": 0,
        }
    )
    hanging = threading.Event()
    release = threading.Event()

    def hang(*args: Any) -> Any:
        hanging.set()
        release.wait(60)
        return analyse_position(*args)

    with (
        patch("escoba.web.workers.analyses.analyse_position", hang),
        TestClient(create_app(served, clock=clock, rng=random.Random(4), brain=first_legal)) as c,
    ):
        try:
            ana = against_a_robot(c)
            rng = random.Random(15)
            for round_number in (1, 2):
                if round_number == 2:
                    assert hanging.wait(30), "the first round's analysis did not start"
                    ana.command("/next-round")
                for _ in range(200):
                    view = ana.table()["view"]
                    if view["phase"] != "playing":
                        break
                    if view["legal_actions"]:
                        ana.act(rng.choice(view["legal_actions"]))
                    else:  # Tito's turn: he answers, however long the analysis hangs
                        assert wait_for(lambda: ana.table()["view"]["legal_actions"], 20) or (
                            ana.table()["view"]["phase"] != "playing"
                        ), "Tito did not answer"
                assert ana.table()["view"]["phase"] != "playing"
            read = service_of(c).analyses.round_analysis(ana.invite, 1)
            assert (read.status, read.done) == ("running", 0)  # still hung all along
        finally:
            release.set()


def wait_for(predicate: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


# --------------------------------------------------------------------------
# The API: GET /api/tables/{invite}/rounds/{n}/analysis (every answer is
# checked against the published schema: conftest)


def test_the_api_serves_a_rounds_analysis_to_seats_and_spectators(client: TestClient) -> None:
    ana = against_a_robot(client)
    path = f"/api/tables/{ana.invite}/rounds/1/analysis"
    in_play = client.get(path, headers=ana.headers)
    assert in_play.status_code == 409
    assert in_play.json()["error"] == "round_in_play"
    finish_round(ana, random.Random(8))
    queued = client.get(path)  # a spectator
    assert queued.status_code == 200
    body = queued.json()
    assert (body["status"], body["done"], body["analysis"]) == ("queued", 0, None)
    assert body["total"] > 0
    service_of(client).analysis_queue.run_all()
    for who in ({}, ana.headers):
        done = client.get(path, headers=who)
        assert done.status_code == 200
        data = done.json()
        assert data["status"] == "done" and data["done"] == data["total"]
        analysis = data["analysis"]
        assert analysis["format"] == "escoba-analysis/1"
        assert [s["step"] for s in analysis["steps"]] == list(range(1, data["total"] + 1))
        assert RoundAnalysis.from_json(analysis).round == 1
    assert done.headers["Cache-Control"] == "no-store"


def test_the_api_refuses_unknown_rounds_and_strangers(client: TestClient) -> None:
    ana = against_a_robot(client)
    finish_round(ana, random.Random(9))
    base = f"/api/tables/{ana.invite}/rounds"
    for number in ("2", "99"):
        r = client.get(f"{base}/{number}/analysis")
        assert r.status_code == 404 and r.json()["error"] == "no_round"
    for bad in ("0", "x", "-1", "99999999999"):
        r = client.get(f"{base}/{bad}/analysis")
        assert r.status_code == 422 and r.json()["error"] == "invalid"
    stranger = client.get(f"{base}/1/analysis", headers={"Authorization": "Bearer nope"})
    assert stranger.status_code == 403 and stranger.json()["error"] == "not_seated"
    nowhere = client.get("/api/tables/AAAAAAAAAAAA/rounds/1/analysis")
    assert nowhere.status_code == 404


# --------------------------------------------------------------------------
# Why: every step's lines and reasons in the API, and the older analyses
# stored without them


def strip_lines(client: TestClient) -> None:
    """Make the stored analyses look as they did before the lines existed."""
    table = RoundAnalysisRow.__table__
    with service_of(client).db.write() as conn:
        for row in conn.execute(select(table)).all():
            data = dict(row.analysis)
            data["steps"] = [
                {k: v for k, v in step.items() if k not in ("lines", "reasons")}
                for step in data["steps"]
            ]
            conn.execute(update(table).where(table.c.id == row.id).values(analysis=data))


def test_the_api_carries_each_step_s_lines_and_reasons(client: TestClient) -> None:
    ana = against_a_robot(client)
    finish_round(ana, random.Random(8))
    service_of(client).analysis_queue.run_all()
    data = client.get(f"/api/tables/{ana.invite}/rounds/1/analysis").json()
    steps = data["analysis"]["steps"]
    for step in steps:
        assert [x["line"] for x in step["lines"]] == list(LINES)
        for x in step["lines"]:
            assert len(x["played"]) == len(x["best"]) == 2
        assert abs(sum(x["cost"] for x in step["lines"]) - step["cost"]) <= max(step["noise"], 0.01)
        if step["given_away"] > 0:
            assert step["reasons"], step["step"]
            for reason in step["reasons"]:
                assert reason["code"] in CATALOG
                assert set(reason["values"]) <= set(ReasonValuesOut.model_fields)
    assert any(s["reasons"] for s in steps), "Ana's random plays give points away"


def test_the_reasons_and_lines_are_typed_in_the_published_schema(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    step = schemas["StepAnalysisOut"]
    assert {"lines", "reasons"} <= set(step["required"])
    assert step["properties"]["lines"]["items"]["$ref"] == "#/components/schemas/LineOut"
    reason = schemas["ReasonOut"]
    # every reason the analysis can give is a code of the words' catalog, and only those
    codes = {c for c in CATALOG if c.startswith("analysis_reason_")}
    assert set(reason["properties"]["code"]["enum"]) == codes
    assert set(schemas["LineOut"]["properties"]["line"]["enum"]) == set(LINE_NAMES)
    assert reason["properties"]["values"]["$ref"] == "#/components/schemas/ReasonValuesOut"
    for name in ("LineOut", "ReasonOut", "ReasonValuesOut"):
        assert schemas[name]["additionalProperties"] is False, name


def test_an_analysis_stored_before_the_lines_is_served_without_them(client: TestClient) -> None:
    ana = against_a_robot(client)
    finish_round(ana, random.Random(8))
    service_of(client).analysis_queue.run_all()
    strip_lines(client)
    answer = client.get(f"/api/tables/{ana.invite}/rounds/1/analysis")
    assert answer.status_code == 200
    steps = answer.json()["analysis"]["steps"]
    assert steps and all(s["lines"] == [] and s["reasons"] == [] for s in steps)
