"""The coach that advises, in Chromium (issue 34, points 4 and 6): on a
360×640 phone with the coach on (and on a phone on its side), its advice
and the picked card's facts leave the table, the hand and its buttons in
view; and the main (bright) button follows what the picked card allows, as
the hint says it: LLEVAR for a card that makes 15, DEJAR EN LA MESA for one
that makes none, neither before a card is picked."""

from __future__ import annotations

import json

import pytest

from .conftest import MISSING, LiveServer

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.browser

from .api_seat import ApiSeat  # noqa: E402
from .helpers import check_axe, shot, wait_for_my_turn_or_end  # noqa: E402
from .test_analysis import console_errors  # noqa: E402
from .test_layout import _context, _play_in_view  # noqa: E402

MAIN = "btn-primary"


@pytest.mark.parametrize("name", ["phone-360", "phone-landscape"])
def test_the_coach_advises_and_the_main_button_follows_the_card_on_a_small_phone(
    server: LiveServer, browser: Browser, name: str
) -> None:
    """On a phone on its side too: the coach's panel made the hand's column
    taller than the screen, and the felt stretched beside it past the
    bottom edge."""
    seat = ApiSeat.create(server.url)
    seat.command("/robots", robot="tito")
    seat.command("/start")
    context = _context(browser, name)
    try:
        page = context.new_page()
        errors = console_errors(page)
        seat.open_here(page)
        page.locator("#coach-toggle").click()
        expect(page.locator("#coach-toggle")).to_have_attribute("aria-pressed", "true")
        assert wait_for_my_turn_or_end(page) == "turn"
        advice = page.locator("#coach-advice")
        expect(advice).to_contain_text("Yo ")
        links = advice.locator("a.rules-word")
        for k in range(links.count()):
            assert (links.nth(k).get_attribute("href") or "").startswith("/reglas#")
        # nothing picked yet: no play button is the main one
        for button in ("#btn-take", "#btn-leave"):
            assert MAIN not in (page.locator(button).get_attribute("class") or "")
        _play_in_view(page, f"{name}, the coach on, nothing picked")
        cards = page.locator("#hand .hand-card")
        for k in range(cards.count()):
            card = cards.nth(k)
            groups = json.loads(card.get_attribute("data-groups") or "[]")
            can_leave = card.get_attribute("data-can-leave") == "true"
            card.tap()
            expect(card).to_have_attribute("aria-pressed", "true")
            take, leave = page.locator("#btn-take"), page.locator("#btn-leave")
            hint = page.locator("#play-hint")
            if groups:
                expect(hint).to_contain_text("puedes hacer 15")
                expect(take).to_have_class(f"btn {MAIN}")
                expect(leave).to_have_class("btn")
            else:
                expect(hint).to_contain_text("no hace 15")
                expect(leave).to_have_class(f"btn {MAIN}" if can_leave else "btn")
                expect(take).to_have_class("btn")
            # the picked card's facts: the plays that take first
            shown = page.locator("#coach .coach-option:visible")
            expect(shown.first).to_be_visible()
            kinds = [shown.nth(i).get_attribute("data-capture") for i in range(shown.count())]
            captures = [bool(c) for c in kinds]
            assert captures == sorted(captures, reverse=True), captures
            expect(advice).to_be_visible()  # the advice stays, first
            _play_in_view(page, f"{name}, the coach on, {card.get_attribute('data-card')} picked")
        shot(page, f"coach-advice-{name}", full_page=True)
        check_axe(page, f"the coach's advice, {name}")
        assert errors == [], errors
    finally:
        context.close()
