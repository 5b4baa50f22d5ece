"""Whole games through HTTP: two people, robots, three and four players, a
spectator and the chat, with the hidden-information scan after every step."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from escoba import engine as eng

from ..helpers import Player, cards_in, create, join, play_until_over, server_state


def test_two_people_play_a_whole_game_with_a_spectator_and_chat(
    app_client: TestClient,
) -> None:
    ana = create(app_client, "Ana")
    beto = join(app_client, ana.invite, "Beto")
    spectator = Player(app_client, ana.invite, None)

    ana.post("/chat", {"text": "¡Suerte!"}, expect=201)
    beto.post("/chat", {"text": "<b>Igualmente</b>"}, expect=201)
    spectator.post("/chat", {"text": "hola"}, expect=403)

    ana.command("/start")
    table = spectator.table()
    assert table["status"] == "playing"
    assert table["view"]["hand"] == []  # a spectator holds no hand
    assert table["view"]["legal_actions"] == []

    final = play_until_over([ana, beto], random.Random(1), spectator=spectator, check_hidden=True)
    assert final["status"] == "finished"
    totals = final["view"]["totals"]
    winner = final["view"]["result"]["winners"]
    assert len(winner) == 1 and totals[winner[0]] >= 21
    assert totals[winner[0]] > totals[1 - winner[0]]
    assert "gana la partida" in final["result"]

    chat = spectator.get("/chat")
    assert [line["text"] for line in chat] == ["¡Suerte!", "<b>Igualmente</b>"]

    record = spectator.get("/record")
    assert record["format"] == "escoba-record/1"
    assert [p["name"] for p in record["players"]] == ["Ana", "Beto"]
    assert eng.replay(record).totals == tuple(totals)


def test_one_person_against_a_robot_plays_to_the_end(app_client: TestClient) -> None:
    ana = create(app_client, "Ana", target=31)
    ana.command("/robots", robot="luna")
    ana.command("/start")
    table = ana.table()
    assert [s["name"] for s in table["seats"]] == ["Ana", "Luna"]
    final = play_until_over([ana], random.Random(2))
    assert final["status"] == "finished"
    assert max(final["view"]["totals"]) >= 31


def test_three_players_each_for_themselves(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    beto = join(app_client, ana.invite, "Beto")
    ana.command("/robots", robot="tito")
    ana.command("/start")
    table = ana.table()
    assert table["view"]["players"] == 3
    assert len(table["view"]["totals"]) == 3
    final = play_until_over([ana, beto], random.Random(3))
    assert final["status"] == "finished"


def test_four_players_play_in_pairs_with_the_chosen_partner(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    beto = join(app_client, ana.invite, "Beto")
    ana.command("/robots", robot="carmen")
    ana.command("/robots", robot="tito")
    # LAS PAREJAS: Ana picks Beto (position 1) as her partner
    ana.command("/partner", position=1)
    ana.command("/start")
    table = ana.table()
    seats = {s["name"]: s["game_seat"] for s in table["seats"]}
    assert seats["Ana"] == 0 and seats["Beto"] == 2  # partners sit opposite
    assert table["names"][0] == "Ana" and table["names"][2] == "Beto"
    assert table["view"]["players"] == 4 and len(table["view"]["totals"]) == 2
    final = play_until_over([ana, beto], random.Random(4))
    assert final["status"] == "finished"
    assert final["result"].startswith("¡Ana y Beto ganan") or final["result"].startswith(
        "¡Carmen y Tito ganan"
    )


def test_views_never_carry_another_hand_or_the_deck(app_client: TestClient) -> None:
    """Over a whole four-seat game with robots: at every step, nothing a
    person or the spectator received names a card they may not know."""
    ana = create(app_client, "Ana")
    beto = join(app_client, ana.invite, "Beto")
    carla = join(app_client, ana.invite, "Carla")
    ana.command("/robots", robot="luna")
    ana.command("/start")
    spectator = Player(app_client, ana.invite, None)
    play_until_over([ana, beto, carla], random.Random(5), spectator=spectator, check_hidden=True)
    state = server_state(app_client, ana.invite)
    assert state is not None and state.result is not None
    # the scan did look at cards: the spectator saw public ones all along
    assert any(cards_in(text) for text in spectator.received)
