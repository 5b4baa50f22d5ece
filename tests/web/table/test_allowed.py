"""What may happen now (issue 36: `table/allowed.py`), worked out once: the
page's permissions and the commands' guards agree, at every step of a
table's life, because the guards ask the same function. Through the
service, without HTTP."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from escoba.engine import GameState, RuleSet, new_game, shuffled_deck
from escoba.web.base.errors import Conflict
from escoba.web.table.allowed import allowed, rematch_refusal
from escoba.web.table.pages import Allowed
from escoba.web.table.store import (
    SeatRecord,
    TableRecord,
    creators_partner,
    find_seat,
    person_on_turn,
    robot_on_turn,
    robot_seats,
    seat_on_turn,
)

from ..helpers import create, join, play_until_over, service_of


def permissions(
    client: TestClient, invite: str, token: str | None
) -> tuple[TableRecord, SeatRecord | None, GameState | None, Allowed]:
    service = service_of(client)
    with service.db.snapshot() as conn:
        table, state = service.store.read_invite(conn, invite)
    you = find_seat(table.seats, token) if token else None
    now = service.clock.now()
    return table, you, state, allowed(table, you, state, now, service.settings.absence_hours)


def test_the_page_says_what_the_guards_allow_from_lobby_to_rematch(app_client: TestClient) -> None:
    ana = create(app_client, "Ana", target=21)
    beto = join(app_client, ana.invite, "Beto")
    service = service_of(app_client)
    assert ana.token is not None and beto.token is not None
    _, _, _, can = permissions(app_client, ana.invite, ana.token)
    assert (can.start, can.manage, can.leave, can.rematch) == (True, True, False, False)
    _, _, _, beto_can = permissions(app_client, ana.invite, beto.token)
    assert (beto_can.start, beto_can.manage, beto_can.chat) == (False, False, True)
    _, _, _, stranger = permissions(app_client, ana.invite, None)
    assert (stranger.join, stranger.chat) == (True, False)  # a free seat, no seat yet
    ana.command("/start")
    _, _, _, can = permissions(app_client, ana.invite, ana.token)
    assert (can.start, can.leave, can.rematch_offered) == (False, True, False)
    assert service.pages.page(ana.invite, ana.token).can == can  # the page reads the same
    play_until_over([ana, beto], random.Random(4))
    table, you, state, can = permissions(app_client, ana.invite, ana.token)
    assert you is not None
    assert (can.leave, can.rematch_offered, can.rematch, can.rematch_asked) == (
        False,
        True,
        True,
        False,
    )
    assert rematch_refusal(table, you, state) is None
    version = ana.table()["version"]
    service.rematches.accept_rematch(ana.invite, ana.token, version)  # Ana proposes
    table, you, state, can = permissions(app_client, ana.invite, ana.token)
    assert you is not None and (can.rematch, can.rematch_asked) == (False, True)
    refusal = rematch_refusal(table, you, state)
    assert refusal is not None and refusal.code == "already_accepted"
    with pytest.raises(Conflict) as refused:  # the guard says what the page said
        service.rematches.accept_rematch(ana.invite, ana.token, ana.table()["version"])
    assert refused.value.code == "already_accepted"
    assert ana.table()["can"]["rematch"] is False  # and the API's `can`
    assert beto.table()["can"]["rematch"] is True


def _table(positions: list[int], partner: int | None, robots: dict[int, str]) -> TableRecord:
    now = datetime(2026, 12, 1, tzinfo=UTC)
    seats = tuple(
        SeatRecord(p + 1, p, f"S{p}", robots.get(p), None, i, False)
        for i, p in enumerate(positions)
    )
    return TableRecord(1, "x" * 22, "playing", 21, 5, 1, partner, now, now, False, seats)


def test_the_creators_partner_is_the_one_chosen_or_else_the_third_seat() -> None:
    assert creators_partner(_table([0, 1, 2, 3], None, {})) == 2
    assert creators_partner(_table([0, 1, 3, 2], None, {})) == 2
    assert creators_partner(_table([0, 1, 2, 3], 3, {})) == 3
    # with three seats there are no pairs, whatever was chosen before one left
    assert creators_partner(_table([0, 1, 3], 3, {})) is None


def test_who_is_on_turn_only_in_a_round_being_played() -> None:
    state = new_game(RuleSet(), 2, shuffled_deck(random.Random(5)))
    turn = state.round.turn
    people = _table([0, 1], None, {})
    robot = _table([0, 1], None, {turn: "carmen"})
    assert seat_on_turn(people, state) is not None
    assert person_on_turn(people, state) is seat_on_turn(people, state)
    assert not robot_on_turn(people, state)
    assert person_on_turn(robot, state) is None and robot_on_turn(robot, state)
    assert robot_seats(robot) == frozenset({turn})
    lobby = replace(people, status="lobby")
    assert seat_on_turn(lobby, state) is None and seat_on_turn(people, None) is None
