"""The way between tables on a phone (issue 25, item 2), as lichess
correspondence has it: every table page shows «Mis mesas» beside the «15»;
while another table waits for the player, «Siguiente mesa (N)» beside the
turn opens the one waiting longest, follows live a turn that comes
elsewhere, and after a move the next game is one tap away."""

from __future__ import annotations

import httpx
import pytest

from .conftest import MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

from .helpers import check_axe, create_table, shot, start_game, tap_play, wait_for_my_turn_or_end

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 640}


class Friend:
    """A player at Ana's table through the API (another person's phone)."""

    def __init__(self, base: str, invite: str, name: str) -> None:
        self.base, self.invite = base, invite
        r = httpx.post(f"{base}/api/tables/{invite}/seats", json={"name": name})
        assert r.status_code == 201, r.text
        self.auth = {"Authorization": f"Bearer {r.json()['token']}"}

    def play(self) -> None:
        """A card played (never a claim, which keeps the turn)."""
        table = httpx.get(f"{self.base}/api/tables/{self.invite}", headers=self.auth).json()
        action = next(a for a in table["view"]["legal_actions"] if a["type"] == "play")
        r = httpx.post(
            f"{self.base}/api/tables/{self.invite}/actions",
            json={"version": table["version"], "action": action},
            headers=self.auth,
        )
        assert r.status_code == 200, r.text


def _game_with(page: Page, base: str, name: str) -> tuple[str, Friend]:
    """Ana's table against a friend, started: the friend plays first."""
    invite = create_table(page, base, "Ana")
    friend = Friend(base, invite, name)
    page.reload()
    start_game(page)
    return invite, friend


def _in_view(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (selector, box)


def test_the_next_table_is_one_tap_away_and_follows_live(
    server: LiveServer, browser: Browser
) -> None:
    context = new_context(
        browser, SMALL_PHONE, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    try:
        page = context.new_page()
        first, beto = _game_with(page, server.url, "Beto")
        second, carla = _game_with(page, server.url, "Carla")
        here, dora = _game_with(page, server.url, "Dora")
        beto.play()  # Ana's turn at the first table: the one waiting longest
        dora.play()
        page.goto(f"{server.url}/t/{here}")
        assert wait_for_my_turn_or_end(page) == "turn"

        # «Mis mesas» beside the «15», and the next table beside the turn
        page.evaluate("() => window.scrollTo(0, 0)")
        home = page.get_by_role("link", name="Mis mesas")
        expect(home).to_be_visible()
        _in_view(page, ".nav-my-tables")
        header = page.locator(".site-header").bounding_box()
        assert header is not None and header["height"] < 48  # one line
        following = page.locator("#next-table")
        expect(following).to_have_text("Siguiente mesa (1)")
        expect(following).to_have_attribute("href", f"/t/{first}")
        _in_view(page, "#next-table")

        # a turn comes to Ana at another table while this page is open
        page.wait_for_function("() => !document.querySelector('#live-status:not([hidden])')")
        carla.play()
        expect(following).to_have_text("Siguiente mesa (2)")
        expect(following).to_have_attribute("href", f"/t/{first}")  # still the oldest
        expect(page.locator("#turn-banner")).to_have_text("¡Tu turno!")  # this game stays

        # after her move here the next game is one tap away, bright, in view
        tap_play(page)
        expect(page.locator("#turn-banner")).to_contain_text("Turno de Dora")
        expect(following).to_have_class("btn btn-small next-table btn-primary")
        page.evaluate("() => window.scrollTo(0, 0)")
        _in_view(page, "#next-table")
        check_axe(page, "the next table, after a move")
        shot(page, "next-table-phone-360")
        following.tap()
        page.wait_for_url(f"{server.url}/t/{first}")
        assert wait_for_my_turn_or_end(page) == "turn"
        expect(page.locator("#next-table")).to_have_text("Siguiente mesa (1)")
        expect(page.locator("#next-table")).to_have_attribute("href", f"/t/{second}")

        # and «Mis mesas» lists them all
        page.get_by_role("link", name="Mis mesas").tap()
        page.wait_for_url(f"{server.url}/")
        expect(page.locator("#my-tables li.my-table")).to_have_count(3)
    finally:
        context.close()


def test_every_table_page_leads_back_to_mis_mesas(server: LiveServer, browser: Browser) -> None:
    """The lobby, a game and its end, in every language: «Mis mesas» in the
    header's one line, on the smallest phone."""
    context = new_context(
        browser, SMALL_PHONE, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    try:
        page = context.new_page()
        invite = create_table(page, server.url, "Ana")
        for lang, words in (("es", "Mis mesas"), ("pt_BR", "Minhas mesas"), ("en", "My tables")):
            with page.expect_navigation():
                page.locator(f'.lang-btn[value="{lang}"]').tap()
            link = page.get_by_role("link", name=words)
            expect(link).to_be_visible()
            header = page.locator(".site-header").bounding_box()
            assert header is not None and header["height"] < 48, (lang, header)
            _in_view(page, ".nav-my-tables")
            # the languages by their codes here, their names for screen readers
            portuguese = page.get_by_role("button", name="Português")
            expect(portuguese.locator(".lang-code")).to_have_text("PT")
            expect(portuguese.locator(".lang-code")).to_be_visible()
            width = portuguese.bounding_box()
            assert width is not None and width["width"] < 50, width
        with page.expect_navigation():
            page.locator('.lang-btn[value="es"]').tap()
        friend = Friend(server.url, invite, "Beto")
        page.reload()
        start_game(page)
        expect(page.get_by_role("link", name="Mis mesas")).to_be_visible()
        friend_leaves = httpx.get(f"{server.url}/api/tables/{invite}", headers=friend.auth).json()
        r = httpx.post(
            f"{server.url}/api/tables/{invite}/abandon",
            json={"version": friend_leaves["version"]},
            headers=friend.auth,
        )
        assert r.status_code == 200, r.text
        expect(page.locator("#board .winner")).to_be_visible()
        page.get_by_role("link", name="Mis mesas").tap()
        page.wait_for_url(f"{server.url}/")
        expect(page.locator(f'#my-tables li[data-invite="{invite}"]')).to_be_visible()
    finally:
        context.close()
