"""«Mis mesas» and «Seguir en otro dispositivo» in a real browser: the home
page lists a browser's tables and follows a change live; a code moves the
whole list to a second browser, which says so and marks them, and whose
seat then lists both devices."""

from __future__ import annotations

import httpx
import pytest

from .conftest import DESKTOP, MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, expect

from .api_seat import ApiSeat
from .helpers import check_axe, create_table, open_seat, shot

pytestmark = pytest.mark.browser


def test_mis_mesas_lists_live_and_moves_to_a_second_browser(
    browser: Browser, server: LiveServer
) -> None:
    phone_context = new_context(browser)
    desk_context = new_context(browser, DESKTOP)
    phone, desk = phone_context.new_page(), desk_context.new_page()
    try:
        lobby = create_table(phone, server.url, "Ana")
        game = create_table(phone, server.url, "Ana", 31)
        joined = httpx.post(f"{server.url}/api/tables/{game}/seats", json={"name": "Beto"})
        assert joined.status_code == 201
        phone.goto(f"{server.url}/t/{game}")
        phone.get_by_role("button", name="EMPEZAR").click()
        expect(phone.locator(".game")).to_be_visible()

        phone.goto(server.url + "/")
        mine = phone.locator("#my-tables")
        expect(mine.locator("li.my-table")).to_have_count(2)
        row = mine.locator(f'li[data-invite="{lobby}"]')
        expect(row).to_contain_text("1 de 4 lugares ocupado")
        phone.wait_for_function("() => !document.querySelector('#live-status:not([hidden])')")
        phone.wait_for_timeout(300)  # the stream is open
        # Beto joins the lobby from elsewhere: the open list shows it
        r = httpx.post(f"{server.url}/api/tables/{lobby}/seats", json={"name": "Beto"})
        assert r.status_code == 201
        expect(row).to_contain_text("2 de 4 lugares ocupados")
        expect(mine.locator(f'li[data-invite="{game}"]')).to_contain_text("A 31")
        # the target's chip apart from the news beside it (it ran into «¡Tu turno!»)
        gap = mine.locator(f'li[data-invite="{game}"] .my-news').evaluate(
            """news => {
                 const chip = news.querySelector('.chip');
                 let node = chip.nextSibling;
                 while (node && !node.textContent.trim()) node = node.nextSibling;
                 const range = document.createRange();
                 if (node.nodeType === Node.TEXT_NODE) {
                   const at = node.textContent.search(/\\S/);
                   range.setStart(node, at);
                   range.setEnd(node, at + 1);
                 } else {
                   range.selectNode(node);
                 }
                 return range.getBoundingClientRect().left - chip.getBoundingClientRect().right;
               }"""
        )
        assert gap >= 4, f"the chip «A 31» {gap} px from the words after it"
        check_axe(phone, "Mis mesas")
        shot(phone, "my-tables-phone")

        phone.locator(".my-transfer summary").click()
        phone.get_by_role("button", name="CREAR CÓDIGO").click()
        code = phone.locator("#transfer-code").inner_text().strip()
        assert len(code) == 11 and code[5] == "-"
        check_axe(phone, "transfer code")
        shot(phone, "transfer-code-phone")

        desk.goto(server.url + "/")
        expect(desk.locator("#my-tables")).to_have_count(0)  # a newcomer
        desk.get_by_role("link", name="¿Ya juegas en otro dispositivo?").click()
        desk.fill("#follow-code", code.lower())
        check_axe(desk, "follow")
        desk.get_by_role("button", name="SEGUIR AQUÍ").click()
        expect(desk.locator("#my-tables li.my-table")).to_have_count(2)
        # it says what happened, and shows them (issue 25: a plain home page)
        expect(desk.locator("#arrived-note")).to_have_text(
            "Ya tienes tus 2 mesas en este dispositivo."
        )
        expect(desk.locator("#my-tables li.is-arrived .tag-arrived")).to_have_count(2)
        # a click on the page leaves it (only a table's word, over the game, goes so)
        desk.locator("main h1, main h2").first.click()
        expect(desk.locator("#arrived-note")).to_be_visible()
        check_axe(desk, "the tables that came")
        shot(desk, "tables-arrived-desktop")

        desk.goto(f"{server.url}/t/{lobby}")
        desk.locator("#seat-devices summary").click()
        devices = desk.locator("#seat-devices-body .device")
        expect(devices).to_have_count(2)  # loaded when opened
        expect(devices.filter(has_text="este dispositivo")).to_have_count(1)
        check_axe(desk, "seat devices")
        shot(desk, "seat-devices-desktop")

        # the phone takes its seat back from the desk
        phone.goto(f"{server.url}/t/{lobby}")
        phone.locator("#seat-devices summary").click()
        other = phone.locator("#seat-devices-body .device:not(.is-this)")
        other.get_by_role("button", name="QUITAR").click()
        expect(phone.locator("#seat-devices-body .device")).to_have_count(1)
        desk.goto(server.url + "/")
        expect(desk.locator("#my-tables li.my-table")).to_have_count(1)
    finally:
        phone_context.close()
        desk_context.close()


def test_a_seat_moved_here_says_so_over_the_game_not_above_it(
    browser: Browser, server: LiveServer
) -> None:
    """«Ya tienes esta mesa en este dispositivo» pushed the game down on a
    360×640 phone and stayed until the next page. It is said over the page's
    top now: the game stands where it stands without it; it goes with its ✕,
    a touch elsewhere or the game's next move, and a reload does not say it
    again."""
    ana = ApiSeat.create(server.url, "Ana")
    beto = ApiSeat.join(server.url, ana.invite, "Beto")
    ana.command("/start")
    context = new_context(browser, {"width": 360, "height": 640}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        open_seat(page, server.url, beto.invite, beto.token)
        note = page.locator("#arrived-note")
        expect(note).to_contain_text("Ya tienes esta mesa en este dispositivo")
        check_axe(page, "a seat moved here")
        board = page.locator("#board .board").bounding_box()
        box = note.bounding_box()
        assert box is not None and box["y"] >= 0 and box["x"] >= 0
        assert box["x"] + box["width"] <= 360, f"the note is wider than the phone: {box}"

        page.get_by_role("button", name="Cerrar el aviso").tap()
        expect(note).to_have_count(0)
        page.reload()
        expect(page.locator("#board .board")).to_be_visible()
        expect(note).to_have_count(0)
        plain = page.locator("#board .board").bounding_box()
        assert plain is not None and board is not None
        assert board["y"] == plain["y"], f"the game moved down: {plain} → {board}"

        # a touch elsewhere on the page
        page.goto(f"{server.url}/t/{beto.invite}?llegada=1")
        expect(note).to_be_visible()
        page.touchscreen.tap(180, 600)
        expect(note).to_have_count(0)

        # the game's next move, from elsewhere
        page.goto(f"{server.url}/t/{beto.invite}?llegada=1")
        expect(note).to_be_visible()
        mover = next(seat for seat in (ana, beto) if seat.table()["view"]["legal_actions"])
        mover.command("/actions", action=mover.table()["view"]["legal_actions"][0])
        expect(note).to_have_count(0)
    finally:
        context.close()
