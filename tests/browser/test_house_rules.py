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
    # the numbers, and what the check is, in one plain line
    found = re.fullmatch(
        r"Cuenta de los restos: suman (\d+)(?: = 10 \+ (?:(\d+) × )?15)? "
        r"\(lo que queda siempre suma 10 más un múltiplo de 15\)\.",
        check,
    )
    assert found, check
    total = int(found[1])
    assert (total - 10) % 15 == 0
    expect(summary.locator(".summary-rules")).to_have_text(
        "Reglas de la casa, a 21 puntos: la setenta."
    )
    check_axe(phone, "a round's summary under la setenta")


def test_reglas_de_la_casa_is_a_disclosure_that_sums_up_its_choices(
    server: LiveServer, phone: Page
) -> None:
    """Issue 25: «Reglas de la casa» read as a heading. It has a marker that
    turns when it opens, and closed it says what is chosen in it."""
    phone.goto(server.url + "/")
    house = phone.locator("details.house-rules")
    summary = house.locator("summary")

    def marker() -> str:
        return str(summary.evaluate("s => getComputedStyle(s, '::before').content"))

    def shown() -> list[str]:
        return [t.strip() for t in house.locator(".house-sum > span:visible").all_inner_texts()]

    assert marker().startswith('"▸"')
    assert shown() == ["ninguna"]  # the site's rules
    expect(summary).to_have_accessible_name(re.compile(r"^Reglas de la casa\s*·\s*ninguna$"))
    summary.tap()
    assert marker().startswith('"▾"')
    assert shown() == []  # open: the choices themselves say it
    phone.locator('input[name="target"][value="15"]').check()
    phone.get_by_role("checkbox", name=re.compile("^La setenta")).check()
    phone.get_by_role("checkbox", name=re.compile("^Captura obligatoria")).check()
    summary.tap()
    assert shown() == ["15 puntos", "La setenta", "Captura obligatoria"]
    check_axe(phone, "«Reglas de la casa» closed, its choices summed up")
    # back to the site's target outside it, the others unticked: «ninguna» again
    phone.locator('input[name="target"][value="21"]').check()
    summary.tap()
    for name in ("^La setenta", "^Captura obligatoria"):
        phone.get_by_role("checkbox", name=re.compile(name)).uncheck()
    summary.tap()
    assert shown() == ["ninguna"]
