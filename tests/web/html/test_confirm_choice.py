"""«Confirmar jugadas» (issue 15, item 6): each viewer's choice, kept in a
cookie and read when the page renders, so the board comes right the first
time; off unless asked. Bad input is refused and changes nothing."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from ..helpers import page_game_on_my_turn

HX = {"HX-Request": "true"}


def _pressed(html: str) -> str:
    match = re.search(r'id="confirm-toggle"[^>]*aria-pressed="(\w+)"', html)
    assert match, "no «Confirmar jugadas» toggle"
    return match.group(1)


def test_confirm_moves_is_off_until_asked_and_then_kept(site: TestClient) -> None:
    invite = page_game_on_my_turn(site)
    page = site.get(f"/t/{invite}").text
    assert _pressed(page) == "false" and 'id="confirm-play"' not in page

    r = site.post(f"/t/{invite}/confirm", data={"confirm": "on"}, headers=HX)
    assert r.status_code == 200
    assert r.cookies.get("confirm") == "on"
    assert _pressed(r.text) == "true" and 'id="confirm-play"' in r.text
    # rendered with it from the first byte: the page and the live board
    for path in (f"/t/{invite}", f"/t/{invite}/board"):
        html = site.get(path).text
        assert _pressed(html) == "true" and 'id="confirm-play"' in html
        assert "CONFIRMAR" in html and "CANCELAR" in html

    # per viewer: another browser still plays at once
    other = TestClient(site.app)
    assert 'id="confirm-play"' not in other.get(f"/t/{invite}/board").text

    # a plain form post (no script) goes back to the table
    r = site.post(f"/t/{invite}/confirm", data={"confirm": "off"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/t/{invite}"
    assert site.cookies.get("confirm") == "off"
    page = site.get(f"/t/{invite}").text
    assert _pressed(page) == "false" and 'id="confirm-play"' not in page


def test_a_bad_confirm_choice_is_refused_and_changes_nothing(site: TestClient) -> None:
    invite = page_game_on_my_turn(site)
    site.post(f"/t/{invite}/confirm", data={"confirm": "on"}, headers=HX)
    for bad in (
        {"confirm": "yes"},
        {"confirm": ""},
        {},
        {"confirm": "on\x00"},
        {"confirm": "x" * 500},
    ):
        for headers in (HX, {}):
            r = site.post(f"/t/{invite}/confirm", data=bad, headers=headers, follow_redirects=False)
            assert r.status_code == 422, (bad, r.status_code)
            assert "set-cookie" not in r.headers
            assert 'role="alert"' in r.text
    assert site.cookies.get("confirm") == "on"
    assert _pressed(site.get(f"/t/{invite}").text) == "true"
