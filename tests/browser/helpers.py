"""Driving the table the way a person does: taps, drags and the keyboard."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from .conftest import AXE, SCREENSHOTS


def create_table(page: Page, base: str, name: str = "Ana", target: int = 21) -> str:
    page.goto(base + "/")
    page.fill("#name", name)
    page.locator(f'input[name="target"][value="{target}"]').check()
    page.get_by_role("button", name="CREAR MESA").click()
    expect(page.locator("#lobby-title")).to_be_visible()
    return page.url.rsplit("/", 1)[1]


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


def board_version(page: Page) -> int:
    return int(page.locator("#board .board").get_attribute("data-version") or "0")


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
