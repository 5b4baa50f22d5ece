"""Nothing finished becomes unreadable (issue 34, point 5): a rematch keeps
the game before it whole, its story, its rounds' replays, their analyses and
its record, each at an address of its own (`/t/{invite}/partidas/{n}/…`,
`/api/tables/{invite}/games/{n}/…`), while the table's own paths tell the
new game; on SQLite and PostgreSQL (the `db_url` fixture)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete

from escoba import engine as eng
from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.errors import NotFound
from escoba.web.base.models import ActionLogRow
from escoba.web.base.settings import Settings
from escoba.web.table.analyses import analyse_position
from escoba.web.table.history import GameHistory

from ..conftest import first_legal
from ..helpers import Player, move_seat, play_until_over, server_state, service_of, text_of

WORLDS = 4  # the analyses' worlds: enough to run them, fast


@pytest.fixture
def client(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    small = settings.model_copy(update={"analysis_worlds": WORLDS})
    app = create_app(small, clock=clock, rng=random.Random(4), brain=first_legal)
    with TestClient(app) as c:
        yield c


def short_game(client: TestClient, seed: int = 3) -> Player:
    """Ana against Tito to 15, played to its end."""
    r = client.post("/api/tables", json={"name": "Ana", "rules": {"target": 15}})
    assert r.status_code == 201, r.text
    data = r.json()
    ana = Player(client, data["invite"], data["token"], data["position"])
    ana.command("/robots", robot="tito")
    ana.command("/start")
    play_until_over([ana], random.Random(seed))
    return ana


def api(client: TestClient, path: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.get(f"/api/tables{path}", headers=headers)


def sections(html: str) -> list[str]:
    """The record page's rounds, as read (the links' words, not their addresses)."""
    return [
        text_of(s) for s in re.findall(r'<section class="record-round".*?</section>', html, re.S)
    ]


def step_text(html: str) -> str:
    start = html.index('class="replay-step"')
    return text_of(html[start : html.index('class="replay-links"', start)])


def test_a_rematch_keeps_the_finished_game_readable_at_its_own_addresses(
    client: TestClient, clock: ManualClock
) -> None:
    ana = short_game(client)
    i = ana.invite
    first = server_state(client, i)
    assert first is not None and first.result is not None
    rounds = [s.number for s in first.finished_rounds]
    watcher = TestClient(client.app)
    # what the table's own paths tell of the finished game
    story = watcher.get(f"/t/{i}/partida")
    replay = watcher.get(f"/t/{i}/ronda/{rounds[-1]}?paso=1")
    record = api(client, f"/{i}/record").json()
    assert story.status_code == replay.status_code == 200
    assert api(client, f"/{i}/games/1/record").json() == record  # the same, before
    clock.advance(hours=1)
    ana.command("/rematch")
    assert ana.table()["game_number"] == 2

    # the old game, at its own addresses: the same content
    assert api(client, f"/{i}/games/1/record").json() == record
    assert api(client, f"/{i}/games/1/record", ana.token).json() == record
    r = watcher.get(f"/t/{i}/partidas/1/registro")
    assert r.status_code == 200 and r.json() == record
    assert 'filename="escoba-partida-1.json"' in r.headers["content-disposition"]
    page = watcher.get(f"/t/{i}/partidas/1")
    assert page.status_code == 200
    assert sections(page.text) == sections(story.text)
    assert "Partida 1, jugada a jugada" in page.text
    assert f'href="/t/{i}/partidas/1/registro"' in page.text
    for n in rounds:  # each round's replay link under the game's own address
        assert f'href="/t/{i}/partidas/1/ronda/{n}"' in page.text
    again = watcher.get(f"/t/{i}/partidas/1/ronda/{rounds[-1]}?paso=1")
    assert again.status_code == 200
    assert step_text(again.text) == step_text(replay.text)
    assert f'href="/t/{i}/partidas/1/ronda/{rounds[-1]}?paso=2"' in again.text  # SIGUIENTE
    assert f'href="/t/{i}/partidas/1"' in again.text  # the game told whole

    # the table's own paths tell the new game
    r = api(client, f"/{i}/record")
    assert r.status_code == 409 and r.json()["error"] == "not_finished"
    assert watcher.get(f"/t/{i}/partida").status_code == 409
    state = server_state(client, i)
    assert state is not None and state.result is None and state.finished_rounds == ()
    assert watcher.get(f"/t/{i}/ronda/1").status_code == 404

    # the list: both games, the old one's result and its links
    games = api(client, f"/{i}/games").json()
    assert [g["number"] for g in games["games"]] == [1, 2]
    old, new = games["games"]
    assert old["status"] == "finished" and not old["current"]
    assert old["result"] == first.result.to_dict()
    assert old["totals"] == list(first.totals)
    assert [r["number"] for r in old["rounds"]] == rounds
    assert old["names"] == ["Ana", "Tito"] and old["positions"] == [0, 1]
    assert old["ended_at"] is not None and old["ended_at"] < new["started_at"]
    assert new["status"] == "playing" and new["current"] and new["result"] is None
    assert games["decided"] == 1
    won = dict((s["position"], s["wins"]) for s in games["series"])
    assert won == {0: int(first.result.winners == (0,)), 1: int(first.result.winners == (1,))}
    listing = watcher.get(f"/t/{i}/partidas")
    assert listing.status_code == 200
    assert f'href="/t/{i}/partidas/1"' in listing.text
    assert f'href="/t/{i}/partidas/1/ronda/{rounds[0]}"' in listing.text
    assert f'href="/t/{i}/partidas/2"' not in listing.text  # in play: to the table
    words = text_of(listing.text)
    assert "Partida 2 en juego" in words and "Partida 1" in words
    assert "Serie:" in words
    # the table's page, during the rematch, leads there
    seated = TestClient(client.app)
    assert ana.token is not None
    move_seat(seated, i, ana.token)
    assert f'href="/t/{i}/partidas"' in seated.get(f"/t/{i}").text


def test_the_analyses_of_a_game_replaced_by_a_rematch_run_and_stay_readable(
    client: TestClient,
) -> None:
    ana = short_game(client, seed=5)
    i = ana.invite
    first = server_state(client, i)
    assert first is not None
    rounds = [s.number for s in first.finished_rounds]
    ana.command("/rematch")  # before any analysis ran
    service = service_of(client)
    pending = service.analysis_queue.pending()
    assert len(pending) == len(rounds)  # the old game's rounds, queued
    jobs = [service.analysis_queue.claim(row) for row in pending]  # none dropped
    assert [job.summary if job else None for job in jobs] == list(first.finished_rounds)
    job = jobs[0]
    assert job is not None
    steps = [analyse_position(s, action, n, WORLDS) for n, s, action in job.positions]
    service.analysis_queue.finish(job, steps)  # round 1's, as the runner does it
    r = api(client, f"/{i}/games/1/rounds/1/analysis")
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["status"] == "done" and data["analysis"]["round"] == 1
    assert len(data["analysis"]["steps"]) == len(first.finished_rounds[0].actions)
    if len(rounds) > 1:  # the others still running: said so, at their own address
        later = api(client, f"/{i}/games/1/rounds/{rounds[1]}/analysis").json()
        assert later["status"] == "running" and later["analysis"] is None
    block = client.get(f"/t/{i}/partidas/1/ronda/1/analisis?paso=1")
    assert block.status_code == 200
    links = re.findall(r'href="(/t/[^"]+)"', block.text)
    assert all(link.startswith(f"/t/{i}/partidas/1/ronda/1?paso=") for link in links)
    game = client.get(f"/t/{i}/partidas/1/analisis")
    assert game.status_code == 200 and "El análisis de Luna" in game.text
    assert f'hx-get="/t/{i}/partidas/1/analisis"' in game.text or len(rounds) == 1
    # the replay shows it too, under the game's own address
    replay = client.get(f"/t/{i}/partidas/1/ronda/1?paso=1")
    assert 'id="analisis"' in replay.text
    # the game in play has no round 1 yet: its own refusal, by number as by path
    now = api(client, f"/{i}/rounds/1/analysis")
    by_number = api(client, f"/{i}/games/2/rounds/1/analysis")
    assert now.status_code == by_number.status_code == 409
    assert now.json() == by_number.json()


def test_the_game_in_play_answers_by_its_number_as_at_the_tables_paths(
    client: TestClient,
) -> None:
    r = client.post("/api/tables", json={"name": "Ana", "rules": {"target": 15}})
    ana = Player(client, r.json()["invite"], r.json()["token"])
    i = ana.invite
    assert api(client, f"/{i}/games").json()["games"] == []  # a lobby: no game yet
    assert api(client, f"/{i}/games/1/record").status_code == 404
    ana.command("/robots", robot="tito")
    ana.command("/start")
    for path in ("/record", "/rounds/1/analysis"):
        now, by_number = api(client, f"/{i}{path}"), api(client, f"/{i}/games/1{path}")
        assert now.status_code == by_number.status_code == 409
        assert now.json() == by_number.json()
    listed = api(client, f"/{i}/games").json()["games"]
    assert [(g["number"], g["status"], g["ended_at"]) for g in listed] == [(1, "playing", None)]
    play_until_over([ana], random.Random(3))
    assert api(client, f"/{i}/games/1/record").json() == api(client, f"/{i}/record").json()
    assert client.get(f"/t/{i}/partidas/1").status_code == 200


def test_unknown_games_and_rounds_are_clear_404s(client: TestClient) -> None:
    ana = short_game(client)
    i = ana.invite
    ana.command("/rematch")
    for path in ("/games/3/record", "/games/3/rounds/1/analysis", "/games/99999/record"):
        r = api(client, f"/{i}{path}")
        assert r.status_code == 404 and r.json()["error"] == "no_such_game", path
        assert "no jugó una partida con ese número" in r.json()["message"]
    r = api(client, f"/{i}/games/1/rounds/99/analysis")
    assert r.status_code == 404 and r.json()["error"] == "no_round"
    for path in ("/games/0/record", "/games/uno/record"):
        assert api(client, f"/{i}{path}").status_code == 422
    assert api(client, "/nosuchtable123/games").status_code == 404
    assert api(client, f"/{i}/games", "not-a-seat-token").status_code == 403
    for path in (
        "/partidas/3",
        "/partidas/0",
        "/partidas/x",
        "/partidas/3/ronda/1",
        "/partidas/3/registro",
        "/partidas/3/analisis",
        "/partidas/1%C2%B2",
    ):
        r = client.get(f"/t/{i}{path}")
        assert r.status_code == 404, path
        assert "Esta mesa no jugó una partida con ese número." in text_of(r.text), path
    for path in ("/partidas/1/ronda/99", "/partidas/1/ronda/1?paso=999", "/partidas/2/ronda/1"):
        assert client.get(f"/t/{i}{path}").status_code == 404, path
    assert client.get("/t/nosuchtable123/partidas").status_code == 404
    assert client.get("/t/nosuchtable123/partidas/1").status_code == 404


def test_a_game_ended_by_abandon_is_listed_and_read_with_its_round_cut_short(
    client: TestClient,
) -> None:
    r = client.post("/api/tables", json={"name": "Ana", "rules": {"target": 15}})
    ana = Player(client, r.json()["invite"], r.json()["token"])
    ana.command("/robots", robot="tito")
    ana.command("/start")
    ana.command("/abandon")
    game = api(client, f"/{ana.invite}/games").json()["games"][0]
    assert game["status"] == "finished" and game["result"]["reason"] == "abandon"
    page = client.get(f"/t/{ana.invite}/partidas/1")
    assert page.status_code == 200 and "sin terminar" in page.text
    listing = text_of(client.get(f"/t/{ana.invite}/partidas").text)
    assert "Partida 1" in listing and "en juego" not in listing


def test_past_games_are_rebuilt_from_the_log_by_a_process_that_never_saw_them(
    client: TestClient,
) -> None:
    ana = short_game(client)
    first = server_state(client, ana.invite)
    ana.command("/rematch")
    service = service_of(client)
    fresh = GameHistory(service.db, service.store)  # as a process that never saw them
    played = fresh.played_game(ana.invite, 1)
    assert played.state == first and not played.current
    assert played.names == ("Ana", "Tito") and played.robots == frozenset({1})
    assert isinstance(played.state, eng.GameState)


def test_my_tables_and_the_end_screen_link_to_the_tables_games(client: TestClient) -> None:
    ana = short_game(client)
    browser = TestClient(client.app)
    assert ana.token is not None
    move_seat(browser, ana.invite, ana.token)
    end = browser.get(f"/t/{ana.invite}").text
    assert f'href="/t/{ana.invite}/partidas"' in end
    home = browser.get("/").text
    line = home[home.index(f'data-invite="{ana.invite}"') :]
    assert f'href="/t/{ana.invite}/partidas"' in line[: line.index("</li>")]


def test_a_game_ended_by_expiry_stays_readable(client: TestClient, clock: ManualClock) -> None:
    r = client.post("/api/tables", json={"name": "Ana", "rules": {"target": 15}})
    ana = Player(client, r.json()["invite"], r.json()["token"])
    ana.command("/robots", robot="tito")
    ana.command("/start")
    service = service_of(client)
    clock.advance(days=service.settings.expiry_days + 1)
    assert service.jobs.expire() == 1
    game = api(client, f"/{ana.invite}/games").json()["games"][0]
    assert game["status"] == "finished" and game["result"]["reason"] == "expired"
    assert api(client, f"/{ana.invite}/games/1/record").status_code == 200
    assert client.get(f"/t/{ana.invite}/partidas/1").status_code == 200
    page = TestClient(client.app).get(f"/t/{ana.invite}").text  # «La mesa expiró»
    assert f'href="/t/{ana.invite}/partidas"' in page


def test_a_game_whose_log_does_not_rebuild_is_a_404_and_the_list_goes_on(
    client: TestClient,
) -> None:
    ana = short_game(client)
    ana.command("/rematch")
    service = service_of(client)
    with service.db.write() as conn:  # game 1's start gone: nothing to rebuild it from
        conn.execute(
            delete(ActionLogRow.__table__).where(
                ActionLogRow.game_number == 1, ActionLogRow.kind == "start"
            )
        )
    with pytest.raises(NotFound):  # (nothing read game 1 before: none kept it)
        service.history.played_game(ana.invite, 1)
    assert [g.number for g in service.history.table_games(ana.invite).games] == [2]
    r = api(client, f"/{ana.invite}/games/1/record")
    assert r.status_code == 404 and r.json()["error"] == "no_such_game"
    assert client.get(f"/t/{ana.invite}/partidas/1").status_code == 404
    assert client.get(f"/t/{ana.invite}/partidas").status_code == 200
