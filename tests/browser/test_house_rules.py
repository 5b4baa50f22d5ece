"""The house rules in a real browser (issue 17): on a phone Ana opens
«Reglas de la casa» on the new-table form, ticks la setenta, plays a round
against a robot by tapping, and the round's summary shows the «Setenta» line
(each side's sum, or «coja») and the leftover check; axe-core on each screen."""

from __future__ import annotations

import re
import time

import pytest

from .conftest import MISSING, LiveServer

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

from .helpers import add_robot, check_axe, start_game, tap_play, wait_for_my_turn_or_end  # noqa: E402
from .test_layout import _play_in_view as play_in_view  # noqa: E402


def test_a_table_with_la_setenta_to_its_first_summary(server: LiveServer, phone: Page) -> None:
    phone.goto(server.url + "/")
    house = phone.locator("details.house-rules")
    expect(house).not_to_have_attribute("open", "")  # closed: the site's rules unless chosen
    phone.fill("#name", "Ana")
    house.locator("summary").tap()
    setenta = phone.get_by_role("checkbox", name=re.compile("^La setenta"))
    expect(setenta).to_be_visible()
    check_axe(phone, "the new-table form with the house rules open")
    setenta.check()
    phone.get_by_role("button", name="CREAR MESA").tap()
    expect(phone.locator("#lobby-title")).to_be_visible()
    expect(phone.locator(".lobby .table-rules")).to_have_text(
        "Reglas de la casa, a 21 puntos: la setenta."
    )

    add_robot(phone, "Tito")
    start_game(phone)
    expect(phone.locator(".chip-house")).to_have_text("A 21 · casa")

    # the chip that says «casa» keeps the game in view on the phone
    assert wait_for_my_turn_or_end(phone) == "turn"
    play_in_view(phone, "house rules, phone")

    started = time.monotonic()
    while wait_for_my_turn_or_end(phone) == "turn":
        assert time.monotonic() - started < 120, "the round took too long"
        tap_play(phone)

    summary = phone.locator(".summary")
    expect(summary).to_be_visible()
    setenta_row = summary.locator("tr.row-setenta")
    expect(setenta_row.locator("th")).to_have_text("Setenta")
    expect(summary.locator("th", has_text="Sietes")).to_have_count(0)
    cells = setenta_row.locator(".line-shown").all_inner_texts()
    assert len(cells) == 2
    for cell in cells:
        assert re.fullmatch(r"(\d+|coja) → [01]", " ".join(cell.split())), cell
    check = summary.locator(".leftover-check").inner_text()
    found = re.fullmatch(r"Restos: (\d+)(?: = 10 \+ (?:(\d+) × )?15)?", check)
    assert found, check
    total = int(found[1])
    assert (total - 10) % 15 == 0
    expect(summary.locator(".summary-rules")).to_have_text(
        "Reglas de la casa, a 21 puntos: la setenta."
    )
    check_axe(phone, "a round's summary under la setenta")
