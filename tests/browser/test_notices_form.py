"""«Avisos» on a phone: a seat chooses which notices it hears of while its
table is closed; the choice is kept, and the form fits the screen. This
device's switch is there too, beside the choice, and nowhere else (issue 25:
AVISARME beside «Avisos» left a newcomer asking which one turns them on)."""

from __future__ import annotations

import re

import pytest

from .conftest import MISSING, LiveServer

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Page, expect

from .helpers import (
    add_robot,
    check_axe,
    create_table,
    shot,
    start_game,
    wait_for_my_turn_or_end,
)

pytestmark = pytest.mark.browser


def test_a_seat_chooses_its_notices_on_a_phone(server: LiveServer, phone: Page) -> None:
    invite = create_table(phone, server.url, "Ana")
    add_robot(phone, "Tito")
    start_game(phone)
    # on Ana's turn, Tito waits: no live update resets the form while it is filled
    assert wait_for_my_turn_or_end(phone) == "turn"
    # one control for notices on the page: «Avisos»; this device's switch is
    # inside it, beside the choice of which notices, its words its state
    expect(phone.get_by_role("button", name=re.compile("AVISARME|Avisos en"))).to_be_hidden()
    phone.locator("#notice-choices summary").click()
    switch = phone.locator("#notice-choices #notify-toggle")
    expect(switch).to_be_visible()
    expect(switch).to_have_text("Avisos en este dispositivo: desactivados")
    form = phone.locator(".notice-form")
    expect(form).to_be_visible()
    switch_box, kinds_box = switch.bounding_box(), form.locator("fieldset").bounding_box()
    assert switch_box and kinds_box and 0 <= kinds_box["y"] - switch_box["y"] < 120
    chat = form.locator('input[value="chat"]')
    turn = form.locator('input[value="turn"]')
    expect(turn).to_be_checked()  # the defaults: all but the chat
    expect(chat).not_to_be_checked()
    box = form.bounding_box()
    width = phone.viewport_size["width"] if phone.viewport_size else 0
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    chat.check()
    turn.uncheck()
    check_axe(phone, "notices form")
    shot(phone, "notices-phone")
    with phone.expect_response(lambda r: r.url.endswith("/notices")) as saved:
        form.get_by_role("button", name="GUARDAR").click()
    assert saved.value.ok
    # kept: on the page the server sends back, and after a reload
    phone.goto(f"{server.url}/t/{invite}")
    phone.locator("#notice-choices summary").click()
    expect(phone.locator('.notice-form input[value="chat"]')).to_be_checked()
    expect(phone.locator('.notice-form input[value="turn"]')).not_to_be_checked()
