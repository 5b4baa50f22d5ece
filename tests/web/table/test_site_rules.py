"""Every button of RULES.md's site rules: SIGUIENTE RONDA, TERMINAR POR AUSENCIA
(47 and 49 hours), ABANDONAR with and without pairs, expiry, and the rematch
with MANTENER and CAMBIAR."""

from __future__ import annotations

import random
import threading

from fastapi.testclient import TestClient

from escoba.web.base.clock import ManualClock

from ..helpers import Player, create, join, play_until_over, server_state, service_of, text_of


def _two_people(client: TestClient) -> tuple[Player, Player]:
    ana = create(client, "Ana")
    beto = join(client, ana.invite, "Beto")
    ana.command("/start")
    return ana, beto


def _on_turn(players: list[Player]) -> tuple[Player, list[Player]]:
    turn = players[0].table()["view"]["turn"]
    actor = next(p for p in players if p.game_seat() == turn)
    return actor, [p for p in players if p is not actor]


def test_the_next_round_starts_only_when_a_player_presses_it(app_client: TestClient) -> None:
    ana, beto = _two_people(app_client)
    rng = random.Random(11)
    for _ in range(200):
        table = ana.table()
        if table["view"]["phase"] == "round_over":
            break
        actor, _ = _on_turn([ana, beto])
        actor.act(rng.choice(actor.table()["view"]["legal_actions"]))
    table = ana.table()
    assert table["view"]["phase"] == "round_over"
    assert table["can"]["next_round"] and beto.table()["can"]["next_round"]
    summary = table["view"]["last_round"]
    assert len(summary["sides"]) == 2 and summary["totals"] == table["view"]["totals"]
    # nothing happens by itself, and a spectator cannot deal
    assert ana.table()["view"]["round"] == 1
    Player(app_client, ana.invite, None).command("/next-round", expect=403)
    beto.command("/next-round")
    table = ana.table()
    assert table["view"]["round"] == 2 and table["view"]["dealer"] == 1
    assert table["view"]["turn"] == 0  # the seat after the new dealer starts


def test_absence_can_be_called_after_48_hours_not_before(
    app_client: TestClient, clock: ManualClock
) -> None:
    ana, beto = _two_people(app_client)
    absent, others = _on_turn([ana, beto])
    other = others[0]
    clock.advance(hours=47)
    assert not other.table()["can"]["absence"]
    other.command("/absence", expect=409)
    clock.advance(hours=2)  # 49 hours idle
    assert other.table()["can"]["absence"]
    assert not absent.table()["can"]["absence"]  # not for the one on turn
    absent.command("/absence", expect=403)
    other.command("/absence")
    table = other.table()
    assert table["status"] == "finished"
    result = table["view"]["result"]
    absent_seat = absent.game_seat()
    assert result["reason"] == "absence" and result["loser_seat"] == absent_seat
    assert result["winners"] == [1 - absent_seat]
    assert "no jugó en más de 48 horas" in table["result"]
    # no rematch after an absence
    other.command("/rematch", expect=409)


def test_acting_resets_the_absence_clock(app_client: TestClient, clock: ManualClock) -> None:
    ana, beto = _two_people(app_client)
    clock.advance(hours=40)
    actor, others = _on_turn([ana, beto])
    actor.act(actor.table()["view"]["legal_actions"][0])
    clock.advance(hours=40)  # 80 hours since the start, 40 since the last action
    assert not actor.table()["can"]["absence"]
    assert not others[0].table()["can"]["absence"]


def test_abandon_without_pairs_gives_the_win_to_the_best_of_the_others(
    app_client: TestClient,
) -> None:
    ana = create(app_client, "Ana")
    beto = join(app_client, ana.invite, "Beto")
    carla = join(app_client, ana.invite, "Carla")
    ana.command("/start")
    # nobody has points yet: the two others tie at the top and share the win
    beto.command("/abandon")
    table = ana.table()
    assert table["status"] == "finished"
    result = table["view"]["result"]
    assert result["reason"] == "abandon" and result["loser_seat"] == 1
    assert result["winners"] == [0, 2]
    assert "Beto abandonó" in table["result"]
    carla.command("/abandon", expect=409)  # the game is already over
    ana.command("/rematch", expect=409)


def test_abandon_with_pairs_the_whole_pair_loses(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    beto = join(app_client, ana.invite, "Beto")
    ana.command("/robots", robot="tito")
    ana.command("/robots", robot="carmen")
    ana.command("/start")
    # default pairs: positions 0 and 2 (Ana and Tito) against Beto and Carmen
    names = ana.table()["names"]
    assert names[0] == "Ana" and names[2] == "Tito"
    ana.command("/abandon")
    result = beto.table()["view"]["result"]
    assert result["winners"] == [1] and result["reason"] == "abandon"


def test_a_spectator_or_stranger_cannot_end_the_game(app_client: TestClient) -> None:
    ana, _ = _two_people(app_client)
    stranger = Player(app_client, ana.invite, "not-a-real-token-at-all")
    version = ana.table()["version"]
    stranger.command("/abandon", expect=403, version=version)
    Player(app_client, ana.invite, None).command("/abandon", expect=403, version=version)
    assert ana.table()["status"] == "playing"


def test_expiry_ends_idle_tables_only_once_and_keeps_active_ones(
    app_client: TestClient, clock: ManualClock
) -> None:
    service = service_of(app_client)
    idle, _ = _two_people(app_client)
    lobby = create(app_client, "Solo")
    clock.advance(days=6)
    active, active_other = _two_people(app_client)
    clock.advance(days=1, minutes=1)
    actor, _ = _on_turn([active, active_other])
    actor.act(actor.table()["view"]["legal_actions"][0])
    assert service.jobs.expire() == 2  # the idle game and the idle lobby
    table = idle.table()
    assert table["status"] == "expired"
    assert table["view"]["result"] == {"winners": [], "reason": "expired"}
    assert "sin ganador" in table["result"]
    assert lobby.table()["status"] == "expired"
    assert active.table()["status"] == "playing"
    assert service.jobs.expire() == 0  # running it again changes nothing
    idle.command("/rematch", expect=409)
    idle.act({"type": "play", "card": "1D"}, expect=409)


def test_two_expiry_runs_at_once_end_each_table_once(
    app_client: TestClient, clock: ManualClock
) -> None:
    service = service_of(app_client)
    invites = [_two_people(app_client)[0].invite for _ in range(4)]
    clock.advance(days=8)
    counts: list[int] = []
    runs = [threading.Thread(target=lambda: counts.append(service.jobs.expire())) for _ in range(2)]
    for t in runs:
        t.start()
    for t in runs:
        t.join()
    assert sum(counts) == 4
    for invite in invites:
        entries = [e.kind for e in service.reads.log(invite)]
        assert entries.count("expire") == 1
        state = server_state(app_client, invite)
        assert state is not None and state.result is not None


def _finish_on_points(players: list[Player], seed: int) -> None:
    final = play_until_over(players, random.Random(seed))
    assert final["view"]["result"]["reason"] == "target"


def test_rematch_starts_when_every_person_accepts(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    beto = join(app_client, ana.invite, "Beto")
    ana.command("/robots", robot="tito")
    ana.command("/start")
    _finish_on_points([ana, beto], 21)
    assert ana.table()["can"]["rematch"]
    assert [s["rematch"] for s in ana.table()["seats"]] == [False, False, False]
    watcher = TestClient(app_client.app)
    page = text_of(watcher.get(f"/t/{ana.invite}").text)
    assert "Sin revancha" not in page  # the game ended on points: watchers are told so too
    assert "Si todos aceptan, la revancha se juega en esta misma mesa." in page

    ana.command("/rematch")  # she proposes it
    refused = ana.command("/rematch", expect=409)  # already asked
    assert refused == {"error": "already_accepted", "message": "Ya pediste la revancha."}
    table = beto.table()
    assert table["status"] == "finished"
    assert [s["rematch"] for s in table["seats"]] == [True, False, False]
    assert table["can"]["rematch"] and not ana.table()["can"]["rematch"]
    assert "Ana propone la revancha." in text_of(watcher.get(f"/t/{ana.invite}").text)
    beto.command("/rematch")  # he accepts; the robot needs no asking
    table = ana.table()
    assert table["status"] == "playing" and table["game_number"] == 2
    assert table["view"]["totals"] == [0, 0, 0]
    assert table["view"]["dealer"] == 0  # the creator deals the first round again


def test_rematch_with_four_keep_or_change_the_pairs(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    beto = join(app_client, ana.invite, "Beto")
    carla = join(app_client, ana.invite, "Carla")
    dani = join(app_client, ana.invite, "Dani")
    people = [ana, beto, carla, dani]
    ana.command("/start")
    assert ana.table()["names"] == ["Ana", "Beto", "Carla", "Dani"]
    _finish_on_points(people, 31)
    ana.command("/rematch", expect=422)  # the creator must choose MANTENER or CAMBIAR
    ana.command("/rematch", pairs="keep")
    for p in people[1:]:
        p.command("/rematch")
    table = ana.table()
    assert table["game_number"] == 2
    assert table["names"] == ["Ana", "Beto", "Carla", "Dani"]  # MANTENER: Ana with Carla
    _finish_on_points(people, 32)
    ana.command("/rematch", pairs="change")
    for p in people[1:]:
        p.command("/rematch")
    names = ana.table()["names"]
    assert names[0] == "Ana" and names[2] == "Dani"  # CAMBIAR: a new partner opposite
    assert sorted(names) == ["Ana", "Beto", "Carla", "Dani"]
