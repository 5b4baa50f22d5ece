"""The deck design «Jota 8, reina 9» (RULES.md) chosen at a table on a phone:
the 8 is drawn as a J with its value mark and named «jota», the 9 a Q; the
choice stays with this browser after a reload and in every language. Its
screenshot goes to the README."""

from __future__ import annotations

import re

import pytest

from .conftest import MISSING, LiveServer

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

from .helpers import (  # noqa: E402
    add_robot,
    check_axe,
    create_table,
    shot,
    start_game,
    tap_play,
    wait_for_my_turn_or_end,
)

#: a face of value 8 or 9 the player sees: in the hand or on the table
SEEN = "#hand .hand-card[data-card^='{v}'], #table-cards .table-card[data-card^='{v}']"

#: What the card's drawing says, read from the sprite its <use> names, as the
#: browser has it: the texts of the card's symbol (corner, face, value mark,
#: the corner upside down).
DRAWN_TEXTS = """async (el) => {
  const use = el.querySelector('svg use');
  const [url, id] = use.getAttribute('href').split('#');
  const sprite = await (await fetch(url)).text();
  const doc = new DOMParser().parseFromString(sprite, 'image/svg+xml');
  return [...doc.getElementById(id).querySelectorAll('text')].map(t => t.textContent);
}"""


def _until_seen(page: Page, value: int) -> str:
    """Play (Tito answers) until a card of `value` is in the hand or on the
    table, on the player's turn; its notation."""
    for _ in range(200):
        state = wait_for_my_turn_or_end(page)
        if state == "over":
            break
        if state == "summary":
            page.get_by_role("button", name="SIGUIENTE RONDA").tap()
            expect(page.locator("#board .summary")).to_have_count(0)
            continue
        seen = page.locator(SEEN.format(v=value))
        if seen.count():
            return str(seen.first.get_attribute("data-card"))
        tap_play(page)
    raise AssertionError(f"no card of value {value} came to sight")


def _label(page: Page, notation: str) -> str:
    card = page.locator(f"#board [data-card='{notation}'] svg").first
    return str(card.get_attribute("aria-label"))


def test_jota_8_reina_9_at_a_table_on_a_phone(server: LiveServer, phone: Page) -> None:
    create_table(phone, server.url, "Ana")
    add_robot(phone, "Tito")
    start_game(phone)
    assert wait_for_my_turn_or_end(phone) == "turn"

    # «Baraja» opens on the designs, each with what its faces are worth
    menu = phone.locator("#design-choice")
    expect(menu.locator("summary")).to_have_text("Francesa")
    expect(menu.locator("summary")).to_have_attribute("aria-label", "Baraja: Francesa")
    menu.locator("summary").tap()
    brazilian = menu.get_by_role("button", name="Brasileña")
    expect(brazilian).to_contain_text("Jota 8, reina 9, rey 10")
    expect(menu.get_by_role("button", name="Francesa")).to_contain_text("Reina 8, jota 9, rey 10")
    check_axe(phone, "table, «Baraja» open")
    shot(phone, "design-choice-phone")
    brazilian.tap()
    expect(phone.locator('#hand svg[data-card-design="brazilian"]').first).to_be_visible()
    expect(menu).not_to_have_attribute("open", "")  # closed, to show the cards
    expect(menu.locator("summary")).to_have_attribute("aria-label", "Baraja: Brasileña")
    expect(menu.locator("[aria-pressed='true']")).to_contain_text("Brasileña")
    expect(menu.locator("summary")).to_be_focused()  # where the choice was made

    eight = _until_seen(phone, 8)
    card = phone.locator(f"#board [data-card='{eight}']").first
    expect(card.locator("svg")).to_have_attribute("data-card-design", "brazilian")
    expect(card.locator("svg use")).to_have_attribute(
        "href", re.compile(rf"^/static/cards-brazilian\.[0-9a-f]{{10}}\.svg#c{eight}$")
    )
    # drawn as a J (its corners and its face) with the value mark 8; named «jota»
    assert card.evaluate(DRAWN_TEXTS) == ["J", "J", "8", "J"]
    label = _label(phone, eight)
    assert label.startswith("jota de ") and label.endswith("(vale 8)"), label
    assert card.bounding_box() is not None
    check_axe(phone, "table, Brazilian deck")
    phone.evaluate("() => window.scrollTo(0, 0)")
    shot(phone, "table-brazilian-phone")

    # the choice stays with this browser, in every language
    phone.reload()
    expect(phone.locator("#design-choice summary")).to_have_text("Brasileña")
    assert _label(phone, eight).startswith("jota de ")
    with phone.expect_navigation():
        phone.locator('.lang-btn[value="pt_BR"]').tap()
    expect(phone.locator("#design-choice summary")).to_have_attribute(
        "aria-label", "Baralho: Brasileiro"
    )
    label = _label(phone, eight)
    assert label.startswith("valete de ") and label.endswith("(vale 8)"), label
    with phone.expect_navigation():
        phone.locator('.lang-btn[value="es"]').tap()

    # and the 9 is the Q, «reina»
    nine = _until_seen(phone, 9)
    card = phone.locator(f"#board [data-card='{nine}']").first
    assert card.evaluate(DRAWN_TEXTS) == ["Q", "Q", "9", "Q"]
    label = _label(phone, nine)
    assert label.startswith("reina de ") and label.endswith("(vale 9)"), label
