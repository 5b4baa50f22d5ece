"""The rules page on a phone (issue 34, point 1): /reglas at 390×844 in
Spanish fits the screen (nothing to scroll sideways), passes axe, and a line
of its worked round summary leads to its paragraph. Its screenshot goes to
the README (docs/screenshots/rules-phone.png)."""

from __future__ import annotations

import pytest

from .conftest import MISSING, LiveServer

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

from .helpers import WIDER_THAN_PAGE, check_axe, shot  # noqa: E402


def test_a_summary_line_leads_to_its_rule_on_a_phone(server: LiveServer, phone: Page) -> None:
    phone.goto(server.url + "/")
    phone.get_by_role("link", name="Las reglas completas, con ejemplos").click()
    expect(phone).to_have_url(server.url + "/reglas")
    expect(phone.locator("h1")).to_have_text("Cómo se juega a la escoba del 15")
    # the ten values, drawn in the viewer's deck (the French by default)
    values = phone.locator(".rules-values li")
    expect(values).to_have_count(10)
    expect(values.first.locator("svg")).to_have_attribute("data-card-design", "french")
    assert phone.evaluate(WIDER_THAN_PAGE) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "rules-phone")
    check_axe(phone, "the rules page")

    # the worked round's summary: «Más cartas» says why, and leads to its rule
    why = phone.locator(".rules-summary .summary-why li[data-line='cards']").first
    why.scroll_into_view_if_needed()
    expect(why).to_contain_text("Ana: 22, Luna: 18. 1 punto para Ana, por tener más.")
    why.get_by_role("link", name="Más cartas").click()
    expect(phone).to_have_url(server.url + "/reglas#mas-cartas")
    paragraph = phone.locator("#mas-cartas")
    expect(paragraph).to_be_in_viewport()
    expect(paragraph.locator("xpath=following-sibling::p[1]")).to_contain_text(
        "2 si todos los demás se llevaron menos de 10"
    )
