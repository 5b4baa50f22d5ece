"""What may happen now (issue 36: `table/allowed.py`), worked out once: the
page's permissions and the commands' guards agree, at every step of a
table's life, because the guards ask the same function. Through the
service, without HTTP."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from escoba.engine import GameState
from escoba.web.base.errors import Conflict
from escoba.web.table.allowed import allowed, rematch_refusal
from escoba.web.table.pages import Allowed
from escoba.web.table.store import SeatRecord, TableRecord, find_seat

from .helpers import create, join, play_until_over, service_of


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
    assert service.page(ana.invite, ana.token).can == can  # the page reads the same
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
    service.accept_rematch(ana.invite, ana.token, version)  # Ana proposes
    table, you, state, can = permissions(app_client, ana.invite, ana.token)
    assert you is not None and (can.rematch, can.rematch_asked) == (False, True)
    refusal = rematch_refusal(table, you, state)
    assert refusal is not None and refusal.code == "already_accepted"
    with pytest.raises(Conflict) as refused:  # the guard says what the page said
        service.accept_rematch(ana.invite, ana.token, ana.table()["version"])
    assert refused.value.code == "already_accepted"
    assert ana.table()["can"]["rematch"] is False  # and the API's `can`
    assert beto.table()["can"]["rematch"] is True
