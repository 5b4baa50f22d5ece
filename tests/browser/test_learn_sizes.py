"""Learning the game at every size and in every language (issue 34, «Done
when»): the rules page, the lesson's list and two of its stages fit a
360×640 phone, a 390×844 one and a desktop in es, es-AR, pt_BR and en —
nothing sticks out sideways, the page speaks the browser's language, and
a stage's hand and buttons are there to tap."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, MISSING, PHONE, LiveServer

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, expect

from .conftest import new_context
from .helpers import WIDER_THAN_PAGE

pytestmark = pytest.mark.browser

PHONE_360 = {"width": 360, "height": 640}

#: the browser's language → <html lang> and the rules page's heading
LANGUAGES = {
    "es-ES": ("es", "Cómo se juega a la escoba del 15"),
    "es-AR": ("es-AR", "Cómo se juega a la escoba del 15"),
    "pt-BR": ("pt-BR", None),
    "en-US": ("en", None),
}


@pytest.mark.parametrize(
    "viewport", [PHONE_360, PHONE, DESKTOP], ids=["phone-360", "phone-390", "desktop"]
)
def test_the_rules_and_the_lesson_fit_in_every_language(
    server: LiveServer, browser: Browser, viewport: dict[str, int]
) -> None:
    for locale, (html_lang, heading) in LANGUAGES.items():
        context = new_context(browser, viewport, locale=locale)
        page = context.new_page()
        for path in ("/reglas", "/aprender", "/aprender/4"):
            page.goto(server.url + path)
            assert page.locator("html").get_attribute("lang") == html_lang, (locale, path)
            expect(page.locator("h1").first).to_be_visible()
            assert page.evaluate(WIDER_THAN_PAGE) == [], (locale, path)
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            if path == "/reglas" and heading:
                expect(page.locator("h1").first).to_have_text(heading)
            if path.startswith("/aprender/"):
                # the stage is played on the board: its hand's cards can be tapped
                hand = page.locator("#hand .card, .hand .card").first
                hand.scroll_into_view_if_needed()
                expect(hand).to_be_visible()
        context.close()
