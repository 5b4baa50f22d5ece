"""Driving the table the way a person does: taps, drags and the keyboard."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from playwright.sync_api import Locator, Page, expect

from .conftest import AXE, SCREENSHOTS


def create_table(page: Page, base: str, name: str = "Ana", target: int = 21) -> str:
    page.goto(base + "/")
    page.fill("#name", name)
    page.locator(f'input[name="target"][value="{target}"]').check()
    page.get_by_role("button", name="CREAR MESA").click()
    expect(page.locator("#lobby-title")).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def open_seat(page: Page, base: str, invite: str, token: str) -> None:
    """`page`'s browser takes a seat made through the API, as a player moves
    one: a «Seguir en otro dispositivo» link (made with the seat's token),
    opened, and SEGUIR AQUÍ."""
    auth = {"Authorization": f"Bearer {token}"}
    made = httpx.post(f"{base}/api/tables/{invite}/transfer", headers=auth, timeout=20)
    assert made.status_code == 201, made.text
    page.goto(made.json()["url"])
    page.get_by_role("button", name="SEGUIR AQUÍ").click()
    # the seat's landing (`?llegada=1`), whose word the page then takes out
    # of the address (a reload does not say it again)
    expect(page.locator("#arrived-note")).to_be_visible()
    expect(page).to_have_url(f"{base}/t/{invite}")


def add_robot(page: Page, name: str) -> None:
    page.locator(".robots").get_by_role("button", name=name).click()
    expect(page.locator(".seat-slot .seat-name", has_text=name)).to_be_visible()


def start_game(page: Page) -> None:
    page.get_by_role("button", name="EMPEZAR").click()
    expect(page.locator(".game")).to_be_visible()


def start_two_player_game(ana: Page, beto: Page, base: str, touch: bool = False) -> str:
    """Ana makes a table, Beto sits through its invite link (a tap on a
    touch screen), Ana starts; both see the game. The table's invite."""
    invite = create_table(ana, base, "Ana")
    beto.goto(f"{base}/t/{invite}")
    beto.fill("#join-name", "Beto")
    sit = beto.get_by_role("button", name="SENTARME")
    sit.tap() if touch else sit.click()
    expect(ana.locator(".seat-slot .seat-name", has_text="Beto")).to_be_visible()
    start_game(ana)
    expect(beto.locator(".game")).to_be_visible()
    return invite


def notices_switch(page: Page) -> Locator:
    """This device's notices switch, in «Avisos» (opened first if closed)."""
    menu = page.locator("#notice-choices")
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()
        expect(menu).to_have_attribute("open", "")
    return page.locator("#notify-toggle")


def board_version(page: Page) -> int:
    return int(page.locator("#board .board").get_attribute("data-version") or "0")


def wait_version_above(version: int, *pages: Page) -> None:
    """Every one of `pages` shows a board newer than `version`. After a move
    between two people, wait for both: the mover's own answer may arrive
    after the other page's live update, and until then the mover's page
    still shows its old board, on its turn."""
    for page in pages:
        page.wait_for_function(
            "v => Number(document.querySelector('#board .board').dataset.version) > v",
            arg=version,
        )


def wait_for_my_turn_or_end(page: Page, timeout: float = 20_000) -> str:
    """ "turn", "summary" or "over": what the player has to act on next."""
    page.wait_for_function(
        """() => {
          const b = document.querySelector('#board .board');
          if (!b) return false;
          if (document.querySelector('#board form.htmx-request')) return false;
          return b.dataset.myTurn === 'true' || !!document.querySelector('#board .summary')
              || !!document.querySelector('#board .winner');
        }""",
        timeout=timeout,
    )
    if page.locator("#board .winner").count():
        return "over"
    if page.locator("#board .summary").count():
        return "summary"
    return "turn"


def choose_play(page: Page) -> tuple[str, list[str]]:
    """The hand card to play and the table cards to take with it: the
    biggest capture the engine offers (data-groups), else the first card."""
    cards = page.eval_on_selector_all(
        "#hand .hand-card",
        "els => els.map(e => [e.dataset.card, JSON.parse(e.dataset.groups || '[]'),"
        " e.dataset.canLeave === 'true'])",
    )
    best: tuple[str, list[str]] | None = None
    for card, groups, _ in cards:
        for group in groups:
            score = len(group) + (10 if "7D" in group or card == "7D" else 0)
            if best is None or score > len(best[1]) + (10 if "7D" in best[1] else 0):
                best = (card, list(group))
    if best is not None:
        return best
    leavable = [c for c, _, can_leave in cards if can_leave]
    return (leavable or [cards[0][0]])[0], []


def tap_play(page: Page) -> None:
    """One turn by tapping: raise the card, tap the group, tap the card again
    (or DEJAR EN LA MESA)."""
    before = board_version(page)
    card, group = choose_play(page)
    hand_card = page.locator(f'#hand .hand-card[data-card="{card}"]')
    hand_card.tap() if _touch(page) else hand_card.click()
    expect(hand_card).to_have_attribute("aria-pressed", "true")
    if group:
        for t in group:
            table_card = page.locator(f'#table-cards .table-card[data-card="{t}"]')
            table_card.tap() if _touch(page) else table_card.click()
        hand_card.tap() if _touch(page) else hand_card.click()
    else:
        leave = page.locator("#btn-leave")
        leave.tap() if _touch(page) else leave.click()
    page.wait_for_function(
        "v => Number(document.querySelector('#board .board').dataset.version) > v", arg=before
    )


_FOCUSED = "s => !!document.activeElement && document.activeElement.matches(s)"
_BEFORE_FOCUS = """s => {
  const target = document.querySelector(s), at = document.activeElement;
  return !!target && !!at && at !== document.body
    && !!(at.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING);
}"""
# the rows of cards the arrow keys move along (one Tab stop each)
_ROWS = ("#hand", "#table-cards")


def keys_to(page: Page, selector: str, limit: int = 80) -> int:
    """Reach `selector` with the keys, as a person would: Tab (Shift+Tab to go
    back) to it, or to its row of cards and then the arrow keys along the
    row; how many presses it took."""
    row = next((r for r in _ROWS if selector.startswith(r + " ")), None)
    in_row = f"{row} *" if row else selector
    key = "Shift+Tab" if page.evaluate(_BEFORE_FOCUS, selector) else "Tab"
    presses = 0
    while not page.evaluate(_FOCUSED, in_row) and not page.evaluate(_FOCUSED, selector):
        if presses >= limit:
            raise AssertionError(f"{key} never reached {selector}")
        page.keyboard.press(key)
        presses += 1
    while not page.evaluate(_FOCUSED, selector):
        if presses >= limit:
            raise AssertionError(f"the arrow keys never reached {selector}")
        page.keyboard.press("ArrowRight")
        presses += 1
    return presses


def _touch(page: Page) -> bool:
    return bool(page.evaluate("() => navigator.maxTouchPoints > 0"))


def check_axe(page: Page, label: str) -> None:
    """No serious or critical axe-core violation on the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # evaluated through the DevTools protocol, so the page's strict CSP
        # (no inline scripts) stays on for everything else
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    # axe measures colours as they are drawn at that moment: let the finite
    # animations end first (the winner's title pops in from transparent, and a
    # small tag in it half faded in fails the contrast check)
    page.evaluate(
        """() => Promise.all(document.getAnimations()
          .filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
          .map(a => a.finished.catch(() => null)))"""
    )
    result = page.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ['violations']});
          return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
        }"""
    )
    bad = [v for v in result if v["impact"] in ("serious", "critical")]
    assert bad == [], f"{label}: " + json.dumps(bad, ensure_ascii=False, indent=1)


def shot(page: Page, name: str, full_page: bool = False) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


#: whatever sticks out of the page's width (a card row, a table, a long word)
WIDER_THAN_PAGE = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('main *')) {
    const box = el.getBoundingClientRect();
    if (box.width && (box.right > width + 1 || box.left < -1)) {
      const where = Math.round(box.left) + '..' + Math.round(box.right);
      out.push(el.tagName + '.' + el.className + ' ' + where);
    }
  }
  return out.slice(0, 5);
}"""
