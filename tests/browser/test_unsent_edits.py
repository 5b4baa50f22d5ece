"""What a person ticked or typed and has not sent survives the live
updates that redraw the page under it: the notices' choices in «Avisos»
while the others play (CI caught it: a robot's move, arriving between a
tick and GUARDAR, unticked the box, and the choice saved was not the one
the person made), and the invitation's name while others sit down."""

from __future__ import annotations

import pytest

from .conftest import MISSING, LiveServer

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Page, expect

from .api_seat import ApiSeat
from .helpers import board_version, wait_version_above

pytestmark = pytest.mark.browser


def test_a_tick_in_avisos_survives_the_others_moves_until_guardar(
    server: LiveServer, phone: Page
) -> None:
    ana = ApiSeat.create(server.url, "Ana")
    beto = ApiSeat.join(server.url, ana.invite, "Beto")
    ana.command("/start")
    seats = {s["name"]: s["game_seat"] for s in ana.table()["seats"]}
    page = phone
    ana.open_here(page)
    page.locator("#notice-choices summary").click()
    form = page.locator(".notice-form")
    chat = form.locator('input[value="chat"]')
    expect(chat).not_to_be_checked()
    chat.check()
    # the others play on: each move redraws Ana's board, «Avisos» open
    for _ in range(3):
        table = beto.table()
        view = table["view"]
        mover = beto if view["turn"] == seats["Beto"] else ana
        mine = mover.table()["view"]
        version = board_version(page)
        mover.command("/actions", action=mine["legal_actions"][0])
        wait_version_above(version, page)
        expect(page.locator("#notice-choices")).to_have_attribute("open", "")
        expect(chat).to_be_checked()
    page.locator("#notice-save").click()
    expect(page.locator("#notice-said")).to_contain_text("Chat")
    # sent: the next redraw shows what was saved, and nothing is put back over it
    version = board_version(page)
    table = beto.table()
    mover = beto if table["view"]["turn"] == seats["Beto"] else ana
    mover.command("/actions", action=mover.table()["view"]["legal_actions"][0])
    wait_version_above(version, page)
    expect(chat).to_be_checked()


def test_a_name_half_typed_in_the_invitation_survives_another_sitting_down(
    server: LiveServer, phone: Page
) -> None:
    page = phone
    ana = ApiSeat.create(server.url, "Ana")
    page.goto(f"{server.url}/t/{ana.invite}")
    name = page.locator(".join-form input[name='name']")
    name.fill("Bea")
    version = board_version(page)
    ApiSeat.join(server.url, ana.invite, "Carlos")
    wait_version_above(version, page)
    expect(page.locator("#board")).to_contain_text("Carlos")
    expect(name).to_have_value("Bea")
