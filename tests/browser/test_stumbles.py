"""Issue 34, item 6: what new users stumbled on, measured in Chromium. The
¡ESCOBA! badge covered a seat's «reparte» and a robot's level; «Avisos»,
«Baraja» and «Dispositivos» let the page's words show through them; on a
phone on its side a raised card (and the coach's words under the hand)
pushed the table's cards half off the screen; a chat refusal was said at
the page's top, a thousand pixels over the chat box; a long paste was cut
to the limit unsaid; GUARDAR in «Avisos» said nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .conftest import DESKTOP, MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError

from .helpers import add_robot, create_table, start_game, wait_for_my_turn_or_end

pytestmark = pytest.mark.browser

#: the sizes the issue names: phones upright and on their side, a desktop
SIZES = {
    "360×640": {"width": 360, "height": 640},
    "390×844": {"width": 390, "height": 844},
    "844×390": {"width": 844, "height": 390},
    "desktop": DESKTOP,
}
ROBOTS = ("Carmen", "Tito", "Luna")


@pytest.fixture
def touch_phone(browser: Browser) -> Iterator[Page]:
    context = new_context(browser, {"width": 390, "height": 844})
    yield context.new_page()
    context.close()


def _my_turn(page: Page, base: str, robots: tuple[str, ...]) -> str:
    invite = create_table(page, base, "Ana")
    for robot in robots:
        add_robot(page, robot)
    start_game(page)
    assert wait_for_my_turn_or_end(page) == "turn"
    return invite


# Every seat gets its ¡ESCOBA! (as the board draws it, after the name), the
# badges' pop-in ends, and each badge's box is compared with its seat's
# name and visible tags («tú», «reparte», a robot's level…) in one go: a
# live update would swap the board between two reads.
BADGES_OVER = """async () => {
  const seats = [...document.querySelectorAll('#board .seat')];
  const badges = seats.map(s => {
    const badge = document.createElement('span');
    badge.className = 'escoba-badge';
    badge.textContent = '¡ESCOBA!';
    s.querySelector('.seat-name').after(badge);
    return badge;
  });
  await Promise.all(badges.flatMap(b => b.getAnimations()).map(a => a.finished));
  const covered = [];
  seats.forEach((s, i) => {
    const b = badges[i].getBoundingClientRect();
    const words = [...s.querySelectorAll('.seat-marks .tag, .seat-name > .tag')];
    const name = s.querySelector('.seat-name').firstChild;
    const range = document.createRange();
    range.selectNodeContents(name);
    const boxes = words.map(t => [t.textContent, t.getBoundingClientRect()])
      .concat([[name.textContent.trim(), range.getBoundingClientRect()]]);
    for (const [what, r] of boxes) {
      if (r.width <= 1 || r.height <= 1) continue;  // said to screen readers only
      if (r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom)
        covered.push(`${s.dataset.seat}: «${what}» under the badge`);
    }
    if (b.left < 0 || b.right > innerWidth) covered.push(`${s.dataset.seat}: badge off the screen`);
  });
  badges.forEach(b => b.remove());
  return [seats.length, covered, seats.some(s => s.querySelector('.seat-marks .tag'))];
}"""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_escoba_badge_leaves_a_seats_tags_readable(
    server: LiveServer, browser: Browser, players: int
) -> None:
    context = new_context(browser, SIZES["360×640"])
    try:
        page = context.new_page()
        _my_turn(page, server.url, ROBOTS[: players - 1])
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            seats, covered, tagged = page.evaluate(BADGES_OVER)
            assert seats == players and tagged, size
            assert covered == [], f"{players} players, {size}: {covered}"
    finally:
        context.close()


# The panel's background, and what the page shows at points over it (a
# grid): the panel itself, or something of the page above it.
PANEL = """s => {
  const body = document.querySelector(s);
  const r = body.getBoundingClientRect();
  const over = new Set();
  for (let x = r.left + 4; x < Math.min(r.right, innerWidth); x += 16)
    for (let y = r.top + 4; y < Math.min(r.bottom, innerHeight); y += 16) {
      const e = document.elementFromPoint(x, y);
      if (e && !body.contains(e)) over.add(e.tagName.toLowerCase() + '.' + e.className);
    }
  return [getComputedStyle(body).backgroundColor, [...over]];
}"""


def _panel_when_settled(page: Page, body: str) -> tuple[str, list[str]]:
    """PANEL's reading, taken twice with the same board in between (its
    version unchanged, no swap under way): the reading of a page at rest."""
    for _ in range(20):
        before = page.evaluate("() => document.querySelector('#board .board').dataset.version")
        reading = page.evaluate(PANEL, body)
        page.wait_for_timeout(100)
        after = page.evaluate("() => document.querySelector('#board .board').dataset.version")
        if before == after and page.evaluate(PANEL, body) == reading:
            return reading[0], reading[1]
    raise AssertionError(f"{body}: the board never rested")


#: Resolves once the board has not been swapped for 700 ms.
AT_REST = """() => new Promise(resolve => {
  let timer = setTimeout(resolve, 700);
  document.addEventListener('htmx:afterSettle', () => {
    clearTimeout(timer);
    timer = setTimeout(resolve, 700);
  });
})"""


def _at_rest(page: Page) -> None:
    """Until no live update has redrawn the board for a while."""
    page.evaluate(AT_REST)


def _scroll_to(locator: Locator) -> None:
    """`scroll_into_view_if_needed`, again when a live update swapped the
    element for its new self meanwhile (Playwright does not retry that)."""
    for _ in range(10):
        try:
            locator.scroll_into_view_if_needed()
            return
        except PlaywrightError as err:
            if "not attached" not in str(err):
                raise
    raise AssertionError(f"{locator} never stayed in the page")


def _opaque(color: str) -> bool:
    """`rgb(…)` or `rgba(…, 1)`: nothing shows through."""
    return color.startswith("rgb(") or color.replace(" ", "").endswith(",1)")


@pytest.mark.parametrize("size", ["390×844", "844×390"])
def test_the_table_settings_panels_cover_the_page(
    server: LiveServer, browser: Browser, size: str
) -> None:
    """«Avisos», «Baraja» and «Dispositivos» are opaque and on top: the
    page's words and buttons under them do not show through."""
    context = new_context(browser, SIZES[size], has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        _my_turn(page, server.url, ("Tito",))
        panels = {
            "#notice-choices": "#notice-choices .notice-body",
            "#design-choice": "#design-choice .design-switch",
            "#seat-devices": "#seat-devices .seat-devices-body",
        }
        for details, body in panels.items():
            page.locator(f"{details} > summary").click()
            expect(page.locator(details)).to_have_attribute("open", "")
            expect(page.locator(body)).to_be_visible()
            page.locator(body).scroll_into_view_if_needed()
            # read when no board is being swapped in: a robot's move redraws
            # the board (the panel kept open) and, mid-swap, what is under
            # the panel's place is the new board, the panel not yet opened
            background, over = _panel_when_settled(page, body)
            assert _opaque(background), f"{size}, {body}: {background}"
            assert over == [], f"{size}, {body}: the page shows over it: {over}"
            page.locator(f"{details} > summary").click()
            expect(page.locator(details)).not_to_have_attribute("open", "")
    finally:
        context.close()


# The table's cards that are not wholly on the screen, at scroll 0.
OFF_SCREEN = """() => [...document.querySelectorAll('#table-cards .table-card')]
  .map(c => [c.dataset.card, c.getBoundingClientRect()])
  .filter(([_, r]) => r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5
                      || r.right > innerWidth + 0.5)
  .map(([card, r]) => `${card} at ${Math.round(r.top)}–${Math.round(r.bottom)}`)"""


def test_a_raised_card_keeps_the_table_on_a_phone_on_its_side(
    server: LiveServer, browser: Browser
) -> None:
    """844×390, against Tito with the coach on: raising each card of the
    hand (the hint and the coach's words grow the hand's column) leaves
    every card of the table on the screen."""
    context = new_context(browser, SIZES["844×390"], has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        _my_turn(page, server.url, ("Tito",))
        page.locator("#coach-toggle").tap()
        expect(page.locator("#coach-toggle")).to_have_attribute("aria-pressed", "true")
        assert wait_for_my_turn_or_end(page) == "turn"
        page.evaluate("() => window.scrollTo(0, 0)")
        assert page.locator("#table-cards .table-card").count() > 0
        assert page.evaluate(OFF_SCREEN) == [], "before a card is raised"
        hand = page.locator("#hand .hand-card")
        for i in range(hand.count()):
            card = hand.nth(i)
            card.tap()
            expect(card).to_have_attribute("aria-pressed", "true")
            page.evaluate("() => window.scrollTo(0, 0)")
            off = page.evaluate(OFF_SCREEN)
            assert off == [], f"{card.get_attribute('data-card')} raised: {off}"
    finally:
        context.close()


def test_the_chat_says_its_refusals_and_its_length_beside_it(
    server: LiveServer, touch_phone: Page
) -> None:
    """390×844: a blank line refused is said under the chat's line, where
    the focus stays; a 2,000-letter paste goes in whole, the counter says it
    is over the limit (the settings', 300) and by how much, and it is not
    sent; GUARDAR in «Avisos» says what it kept, in place."""
    page = touch_phone
    _my_turn(page, server.url, ("Tito",))
    line = page.locator("#chat-text")
    count = page.locator("#chat-count")
    expect(count).to_have_text("Quedan 300 letras.")
    line.fill("   ")
    page.locator(".chat-form button").tap()
    said = page.locator("#chat-said .chat-error")
    expect(said).to_have_text("Escribe algo antes de enviar.")
    expect(page.locator("#board .alert")).to_have_count(0)
    expect(line).to_be_focused()
    said_box, line_box = said.bounding_box(), line.bounding_box()
    assert said_box and line_box and 0 <= said_box["y"] - line_box["y"] < 120
    assert said_box["y"] < page.evaluate("() => window.scrollY + innerHeight"), "in view"
    # a long paste: whole, and said
    line.fill("")
    line.focus()
    page.keyboard.insert_text("x" * 2000)  # as a paste puts it in: maxlength cut it to 300
    assert page.evaluate("() => document.querySelector('#chat-text').value.length") == 2000
    expect(count).to_have_text("El mensaje es muy largo (máximo 300 letras). Sobran 1700 letras.")
    expect(count).to_have_class("chat-count is-over")
    lines = page.locator("#chat-log li[data-line]").count()
    page.locator(".chat-form button").tap()
    expect(said).to_have_text("El mensaje es muy largo (máximo 300 letras).")
    expect(line).to_be_focused()
    assert page.locator("#chat-log li[data-line]").count() == lines, "not sent"
    line.fill("hola")
    expect(count).to_have_text("Quedan 296 letras.")
    page.locator(".chat-form button").tap()
    expect(page.locator("#chat-log li[data-line]")).to_have_count(lines + 1)
    expect(said).to_have_count(0)
    expect(line).to_have_value("")
    expect(count).to_have_text("Quedan 300 letras.")
    # GUARDAR: said in «Avisos», the page where it was. First the page at
    # rest: the stream's board for the chat line, landing after GUARDAR's
    # answer, would redraw the board without what GUARDAR said
    _at_rest(page)
    page.locator("#notice-choices summary").tap()
    form = page.locator(".notice-form")
    form.locator('input[value="chat"]').check()
    form.locator('input[value="round"]').uncheck()
    # the stream's board for the chat line may land now: the button is
    # then a new one (a scroll does not wait for it, as a tap does)
    _scroll_to(page.locator("#notice-save"))
    scrolled = page.evaluate("() => window.scrollY")
    page.locator("#notice-save").tap()
    kept = page.locator("#notice-said")
    expect(kept).to_have_text(
        "Guardado: cuando la mesa no esté abierta, te avisaremos de Mi turno, Fin de la partida, "
        "TERMINAR POR AUSENCIA posible, Aviso antes de la ausencia, Mesa a punto de vencer y Chat."
    )
    expect(page.locator("#notice-choices")).to_have_attribute("open", "")
    expect(kept).to_be_in_viewport()
    assert page.evaluate("() => window.scrollY") == scrolled, "the page jumped"
