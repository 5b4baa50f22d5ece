"""A stale command whose wish is already done is no error: two players press
SIGUIENTE RONDA on the same version; the second gets the fresh board. So
with TERMINAR POR AUSENCIA pressed twice."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from escoba.web.base.clock import ManualClock
from escoba.words import say

from ..device_helpers import round_over
from ..helpers import Player, create, join, move_seat, service_of, text_of, version_of

HX = {"HX-Request": "true"}


def _at_round_over(client: TestClient) -> tuple[Player, Player, int]:
    ana = create(client, "Ana")
    luis = join(client, ana.invite, "Luis")
    ana.command("/start")
    round_over([ana, luis], random.Random(3))
    return ana, luis, ana.table()["version"]


def test_two_next_rounds_on_one_version_through_the_api(app_client: TestClient) -> None:
    ana, luis, version = _at_round_over(app_client)
    ana.post("/next-round", {"version": version})
    table = luis.post("/next-round", {"version": version})  # no 409 «stale»
    assert table["view"]["phase"] == "playing"
    assert table["version"] == version + 1  # nothing more was dealt
    kinds = [row.kind for row in service_of(app_client).reads.log(ana.invite)]
    assert kinds.count("next_round") == 1
    # once more, after a play of the new round: still done, still no error
    turn = ana if ana.table()["view"]["turn"] == ana.game_seat() else luis
    turn.act(turn.table()["view"]["legal_actions"][0])
    assert luis.post("/next-round", {"version": version})["view"]["phase"] == "playing"
    # a stale play is still refused: its wish is not the table's
    now = ana if ana.table()["view"]["turn"] == ana.game_seat() else luis
    stale = {"version": version + 1, "action": now.table()["view"]["legal_actions"][0]}
    assert now.post("/actions", stale, expect=409)["error"] == "stale"


def test_the_second_press_on_the_page_shows_the_fresh_board_without_a_red_line(
    app_client: TestClient, site: TestClient
) -> None:
    ana, luis, version = _at_round_over(app_client)
    # (two apps on one database: Luis's browser reaches the table through `site`)
    move_seat(site, luis.invite, str(luis.token))
    ana.post("/next-round", {"version": version})
    r = site.post(f"/t/{ana.invite}/next-round", data={"version": str(version)}, headers=HX)
    assert r.status_code == 200, r.text
    stale_words = say("stale", "es")
    assert stale_words not in text_of(r.text)
    assert 'role="alert"' not in r.text or stale_words not in r.text
    assert version_of(r.text) == version + 1  # the new round's board
    assert "Ronda 2" in text_of(r.text)
    assert [row.kind for row in service_of(app_client).reads.log(ana.invite)].count(
        "next_round"
    ) == 1


def test_someone_without_a_seat_is_still_refused(app_client: TestClient) -> None:
    ana, _luis, version = _at_round_over(app_client)
    ana.post("/next-round", {"version": version})
    stranger = Player(app_client, ana.invite, None)
    answer = stranger.post("/next-round", {"version": version}, expect=403)
    assert answer["error"] == "not_seated"


def test_absence_pressed_twice_on_one_version(app_client: TestClient, clock: ManualClock) -> None:
    ana = create(app_client, "Ana")
    luis = join(app_client, ana.invite, "Luis")
    carla = join(app_client, ana.invite, "Carla")
    ana.command("/start")
    view = ana.table()["view"]
    waiting = [p for p in (ana, luis, carla) if p.game_seat() != view["turn"]]
    clock.advance(hours=49)
    version = ana.table()["version"]
    waiting[0].post("/absence", {"version": version})
    table = waiting[1].post("/absence", {"version": version})  # no 409 «stale»
    assert table["status"] == "finished" and table["version"] == version + 1
    assert table["view"]["result"]["reason"] == "absence"
    # a stale ABANDONAR is not what happened: still refused
    assert waiting[1].post("/abandon", {"version": version}, expect=409)["error"] == "stale"


def test_a_version_the_table_never_reached_is_stale_not_a_fault(app_client: TestClient) -> None:
    """A forged version (past any the table reached, past the database's
    integers) is asked nothing of the log: 409 «stale», nothing done."""
    ana, _luis, version = _at_round_over(app_client)
    for forged in (version + 5, 2**63):
        assert ana.post("/next-round", {"version": forged}, expect=409)["error"] == "stale"
    assert ana.table()["version"] == version
    assert [row.kind for row in service_of(app_client).reads.log(ana.invite)].count(
        "next_round"
    ) == 0
