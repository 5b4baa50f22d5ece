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

from .helpers import check_axe, create_table, shot

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
