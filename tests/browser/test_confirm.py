"""«Confirmar jugadas» (issue 15, item 6): with it on, a play says what it
will do and nothing is sent before CONFIRMAR (by touch and by keyboard, for
LLEVAR, DEJAR EN LA MESA, the raised card tapped again and LLEVAR EL 15);
CANCELAR sends nothing. Off (the default) a tap plays at once, as before.
The choice is the viewer's and survives a reload."""

from __future__ import annotations

import json

import pytest

from .conftest import DESKTOP, MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Page, Request, expect

pytestmark = pytest.mark.browser

from .helpers import (  # noqa: E402
    add_robot,
    board_version,
    check_axe,
    choose_play,
    create_table,
    start_game,
    start_two_player_game,
    wait_for_my_turn_or_end,
    wait_version_above,
)


class Plays:
    """The plays this page sent (POSTs to /play and /claim)."""

    def __init__(self, page: Page) -> None:
        self.sent: list[str] = []
        page.on("request", self._seen)

    def _seen(self, request: Request) -> None:
        if request.method == "POST" and request.url.endswith(("/play", "/claim")):
            self.sent.append(request.url.rsplit("/", 1)[1])


def _against_tito(server: LiveServer, page: Page) -> None:
    create_table(page, server.url, "Ana")
    add_robot(page, "Tito")
    start_game(page)
    assert wait_for_my_turn_or_end(page) == "turn"


def _confirm_on(page: Page) -> None:
    toggle = page.get_by_role("button", name="Confirmar jugadas")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(page.get_by_role("button", name="Confirmar jugadas")).to_have_attribute(
        "aria-pressed", "true"
    )


def _wait_version_above(page: Page, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('#board .board').dataset.version) > v", arg=version
    )


def test_off_a_tap_plays_at_once(server: LiveServer, phone: Page) -> None:
    _against_tito(server, phone)
    plays = Plays(phone)
    expect(phone.locator("#confirm-toggle")).to_have_attribute("aria-pressed", "false")
    assert phone.locator("#confirm-play").count() == 0
    before = board_version(phone)
    card, group = choose_play(phone)
    phone.locator(f'#hand .hand-card[data-card="{card}"]').tap()
    for t in group:
        phone.locator(f'#table-cards .table-card[data-card="{t}"]').tap()
    phone.locator("#btn-take" if group else "#btn-leave").tap()
    _wait_version_above(phone, before)
    assert plays.sent == ["play"]


def test_on_a_play_waits_for_confirmar_and_cancelar_sends_nothing(
    server: LiveServer, phone: Page
) -> None:
    _against_tito(server, phone)
    _confirm_on(phone)
    plays = Plays(phone)
    panel = phone.locator("#confirm-play")
    question = phone.locator("#confirm-play-text")

    # DEJAR EN LA MESA (or LLEVAR, where taking is a must): a question, nothing sent
    while True:
        assert wait_for_my_turn_or_end(phone) == "turn"
        leavable = phone.locator('#hand .hand-card[data-can-leave="true"]')
        if leavable.count():
            break
        card, group = choose_play(phone)  # taking is a must here: take, and look again
        phone.locator(f'#hand .hand-card[data-card="{card}"]').tap()
        for t in group:
            phone.locator(f'#table-cards .table-card[data-card="{t}"]').tap()
        phone.locator("#btn-take").tap()
        expect(panel).to_be_visible()
        before = board_version(phone)
        phone.get_by_role("button", name="CONFIRMAR", exact=True).tap()
        _wait_version_above(phone, before)
        plays.sent.clear()
    card = leavable.first
    name = card.get_attribute("data-name") or ""
    before = board_version(phone)
    card.tap()
    phone.locator("#btn-leave").tap()
    expect(panel).to_be_visible()
    expect(question).to_have_text(f"Dejas {name} en la mesa.")
    expect(phone.locator("#btn-leave")).to_be_hidden()  # the question takes the buttons' place
    check_axe(phone, "confirm a play")
    phone.get_by_role("button", name="CANCELAR", exact=True).tap()
    expect(panel).to_be_hidden()
    expect(phone.locator("#btn-leave")).to_be_visible()
    expect(card).to_have_attribute("aria-pressed", "true")  # the selection stays
    phone.wait_for_timeout(300)
    assert plays.sent == [] and board_version(phone) == before

    # the same play, confirmed: sent once
    phone.locator("#btn-leave").tap()
    expect(question).to_have_text(f"Dejas {name} en la mesa.")
    assert plays.sent == []
    phone.get_by_role("button", name="CONFIRMAR", exact=True).tap()
    _wait_version_above(phone, before)
    assert plays.sent == ["play"]

    # a capture by tapping the raised card again: «Llevas … con …»
    for _ in range(12):
        if wait_for_my_turn_or_end(phone) != "turn":
            pytest.skip("the round ended before a capture came")
        card_n, group = choose_play(phone)
        if group:
            break
        phone.locator(f'#hand .hand-card[data-card="{card_n}"]').tap()
        phone.locator("#btn-leave").tap()
        before = board_version(phone)
        phone.get_by_role("button", name="CONFIRMAR", exact=True).tap()
        _wait_version_above(phone, before)
    else:
        pytest.fail("no capture in 12 turns")
    plays.sent.clear()
    hand_card = phone.locator(f'#hand .hand-card[data-card="{card_n}"]')
    hand_name = hand_card.get_attribute("data-name")
    taken = [
        phone.locator(f'#table-cards .table-card[data-card="{t}"]').get_attribute("data-name")
        for t in group
    ]
    hand_card.tap()
    for t in group:
        phone.locator(f'#table-cards .table-card[data-card="{t}"]').tap()
    hand_card.tap()  # the shortcut: the raised card again
    expect(panel).to_be_visible()
    text = question.inner_text()
    assert text.startswith("Llevas ") and text.endswith(f" con {hand_name}."), text
    for n in taken:
        assert n and n in text
    phone.wait_for_timeout(300)
    assert plays.sent == []
    before = board_version(phone)
    phone.get_by_role("button", name="CONFIRMAR", exact=True).tap()
    _wait_version_above(phone, before)
    assert plays.sent == ["play"]

    # the choice is kept for this browser: after a reload it is still on
    phone.reload()
    expect(phone.locator("#confirm-toggle")).to_have_attribute("aria-pressed", "true")


def test_on_by_keyboard_escape_cancels_and_enter_confirms(
    server: LiveServer, desktop: Page
) -> None:
    _against_tito(server, desktop)
    _confirm_on(desktop)
    plays = Plays(desktop)
    card, group = choose_play(desktop)
    desktop.locator(f'#hand .hand-card[data-card="{card}"]').focus()
    desktop.keyboard.press("Enter")
    for t in group:
        desktop.locator(f'#table-cards .table-card[data-card="{t}"]').focus()
        desktop.keyboard.press("Space")
    button = "#btn-take" if group else "#btn-leave"
    desktop.locator(button).focus()
    desktop.keyboard.press("Enter")
    expect(desktop.locator("#confirm-play")).to_be_visible()
    expect(desktop.locator("#btn-confirm")).to_be_focused()
    desktop.keyboard.press("Escape")
    expect(desktop.locator("#confirm-play")).to_be_hidden()
    expect(desktop.locator(button)).to_be_focused()  # back where it was
    desktop.wait_for_timeout(300)
    assert plays.sent == []
    before = board_version(desktop)
    desktop.keyboard.press("Enter")
    expect(desktop.locator("#btn-confirm")).to_be_focused()
    desktop.keyboard.press("Enter")
    _wait_version_above(desktop, before)
    assert plays.sent == ["play"]


def test_llevar_el_15_waits_for_confirmar(server: LiveServer, browser: Browser) -> None:
    """Both players confirm their plays; whoever finds a 15 left takes it
    through CONFIRMAR, and CANCELAR before that sends nothing."""
    ana_ctx, beto_ctx = new_context(browser, DESKTOP), new_context(browser, DESKTOP)
    try:
        ana, beto = ana_ctx.new_page(), beto_ctx.new_page()
        start_two_player_game(ana, beto, server.url)
        for page in (ana, beto):
            _confirm_on(page)
        plays = {id(ana): Plays(ana), id(beto): Plays(beto)}
        for _ in range(24):
            movers = [p for p in (ana, beto) if p.locator("#board .board.is-my-turn").count()]
            if not movers:
                for p in (ana, beto):
                    if p.locator("#board .summary").count():
                        p.get_by_role("button", name="SIGUIENTE RONDA").click()
                ana.wait_for_timeout(300)
                continue
            mover = movers[0]
            other = beto if mover is ana else ana
            groups = mover.eval_on_selector_all(
                "#hand .hand-card",
                "els => els.map(e => [e.dataset.card, JSON.parse(e.dataset.groups || '[]')])",
            )
            left = next((card for card, g in groups if g), None)
            before = board_version(mover)
            mover.locator(f'#hand .hand-card[data-card="{left or groups[0][0]}"]').click()
            mover.locator("#btn-leave").click()
            mover.get_by_role("button", name="CONFIRMAR", exact=True).click()
            wait_version_above(before, other, mover)
            if left is None:
                continue
            claim = other.locator("#btn-claim")
            expect(claim).to_be_visible()
            form = other.locator("#claim-form")
            claim_groups = json.loads(form.get_attribute("data-groups") or "[]")
            if len(claim_groups) > 1:
                for t in claim_groups[0]:
                    other.locator(f'#table-cards .table-card[data-card="{t}"]').click()
            sent = plays[id(other)]
            sent.sent.clear()
            claim.click()
            question = other.locator("#confirm-play-text")
            expect(question).to_contain_text("LLEVAR EL 15: llevas ")
            assert (form.get_attribute("data-name") or "?") in question.inner_text()
            other.get_by_role("button", name="CANCELAR", exact=True).click()
            other.wait_for_timeout(300)
            assert sent.sent == []
            before = board_version(other)
            claim.click()  # the selection stayed: LLEVAR EL 15 again
            other.get_by_role("button", name="CONFIRMAR", exact=True).click()
            _wait_version_above(other, before)
            assert sent.sent == ["claim"]
            expect(other.locator(".recent-list li").first).to_contain_text("lleva el 15")
            return
        pytest.fail("nobody had a 15 to leave in 24 turns")
    finally:
        for ctx in (ana_ctx, beto_ctx):
            ctx.close()
