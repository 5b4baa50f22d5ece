"""Each viewer's deck design through HTTP (RULES.md, «Cards» and «Jota 8,
reina 9»): French (Q 8, J 9), Brazilian (J 8, Q 9) or Spanish, kept in a
cookie and read when a page renders; it changes the drawings and the names,
never the game. A value that names no design is refused and changes nothing."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from fastapi.testclient import TestClient

from escoba import engine as eng
from escoba.engine import parse_card
from escoba.names import Design, card_name

from ..helpers import move_seat, page_game_on_my_turn, server_state, service_of
from ..table.test_story import step_html

HX = {"HX-Request": "true"}
SVG = "{http://www.w3.org/2000/svg}"
#: a card on a page: its notation, its design and its name (escoba.web.base.cards_svg)
CARD = re.compile(
    r'data-card="(\w+)"[^>]*>\s*<svg [^>]*aria-label="([^"]+)" data-card-design="(\w+)"'
)


def _chosen(html: str) -> str:
    """The chooser's pressed button: its design."""
    match = re.search(r'name="design"\s+value="(\w+)" aria-pressed="true"', html)
    assert match, "no deck chooser"
    return match.group(1)


def _offered(html: str) -> list[tuple[str, str, str]]:
    """The chooser's buttons: each design's value, name and faces."""
    return re.findall(
        r'name="design"\s+value="(\w+)"[^>]*>\s*<span class="design-name">([^<]+)</span>'
        r'\s*<span class="design-faces">([^<]+)</span>',
        html,
    )


def _cards(html: str) -> list[tuple[str, str, str]]:
    found = CARD.findall(html)
    assert found, "no card on the page"
    return found


def _named_in(html: str, design: Design, lang: str = "es") -> None:
    """Every card of the page is drawn from `design`'s sprite and named in it."""
    for notation, label, drawn in _cards(html):
        assert drawn == design.value, notation
        assert label.startswith(card_name(parse_card(notation), design, lang)), (notation, label)


def test_the_brazilian_design_is_chosen_kept_and_per_viewer(site: TestClient) -> None:
    invite = page_game_on_my_turn(site)
    assert _chosen(site.get(f"/t/{invite}").text) == "french"

    r = site.post(f"/t/{invite}/design", data={"design": "brazilian"}, headers=HX)
    assert r.status_code == 200 and r.cookies.get("deck") == "brazilian"
    assert _chosen(r.text) == "brazilian"
    _named_in(r.text, Design.BRAZILIAN)
    for path in (f"/t/{invite}", f"/t/{invite}/board"):
        html = site.get(path).text
        assert _chosen(html) == "brazilian"
        _named_in(html, Design.BRAZILIAN)
        assert re.search(r"/static/cards-brazilian\.[0-9a-f]{10}\.svg#c\w+", html)
    # «Baraja» says the design seen, and names each with what its faces are worth
    page = site.get(f"/t/{invite}").text
    assert 'aria-label="Baraja: Brasileña">Brasileña</summary>' in page
    assert _offered(page) == [
        ("french", "Francesa", "Reina 8, jota 9, rey 10"),
        ("brazilian", "Brasileña", "Jota 8, reina 9, rey 10"),
        ("spanish", "Española", "Sota 8, caballo 9, rey 10"),
    ]

    # per viewer: another browser still sees the French deck
    other = TestClient(site.app)
    _named_in(other.get(f"/t/{invite}/board").text, Design.FRENCH)

    # a plain form post (no script) goes back to the table, the cookie kept
    r = site.post(f"/t/{invite}/design", data={"design": "spanish"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/t/{invite}"
    assert site.cookies.get("deck") == "spanish"
    _named_in(site.get(f"/t/{invite}/board").text, Design.SPANISH)


def test_the_brazilian_sprite_draws_the_8_as_a_j_and_the_9_as_a_q(site: TestClient) -> None:
    invite = page_game_on_my_turn(site)
    site.cookies.set("deck", "brazilian")
    html = site.get(f"/t/{invite}").text
    url = re.search(r"/static/cards-brazilian\.[0-9a-f]{10}\.svg", html)
    assert url is not None
    r = site.get(url.group(0))
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "immutable" in r.headers["cache-control"]  # kept by the browser: one per deck
    symbols = {s.get("id"): s for s in ET.fromstring(r.text).iter(f"{SVG}symbol")}
    assert len(symbols) == 40
    for suit in "DHSC":
        eight = [t.text for t in symbols[f"c8{suit}"].iter(f"{SVG}text")]
        nine = [t.text for t in symbols[f"c9{suit}"].iter(f"{SVG}text")]
        assert eight == ["J", "J", "8", "J"] and nine == ["Q", "Q", "9", "Q"]


def test_the_chooser_in_portuguese_and_english(site: TestClient) -> None:
    invite = page_game_on_my_turn(site)
    site.cookies.set("deck", "brazilian")
    site.cookies.set("lang", "pt_BR")
    page = site.get(f"/t/{invite}").text
    assert 'aria-label="Baralho: Brasileiro">Brasileiro</summary>' in page
    assert _offered(page)[:2] == [
        ("french", "Francês", "Dama 8, valete 9, rei 10"),
        ("brazilian", "Brasileiro", "Valete 8, dama 9, rei 10"),
    ]
    _named_in(page, Design.BRAZILIAN, "pt_BR")
    site.cookies.set("lang", "en")
    page = site.get(f"/t/{invite}").text
    assert 'aria-label="Deck: Brazilian">Brazilian</summary>' in page
    assert ("brazilian", "Brazilian", "Jack 8, queen 9, king 10") in _offered(page)
    _named_in(page, Design.BRAZILIAN, "en")


@pytest.mark.parametrize(
    "bad",
    [
        {"design": "klingon"},
        {"design": ""},
        {},
        {"design": "Brazilian"},
        {"design": "brazilian\x00"},
        {"design": "x" * 500},
    ],
)
def test_a_bad_design_is_refused_and_changes_nothing(site: TestClient, bad: dict[str, str]) -> None:
    invite = page_game_on_my_turn(site)
    site.post(f"/t/{invite}/design", data={"design": "brazilian"}, headers=HX)
    for headers in (HX, {}):
        r = site.post(f"/t/{invite}/design", data=bad, headers=headers, follow_redirects=False)
        assert r.status_code == 422, (bad, r.status_code)
        assert "set-cookie" not in r.headers
        assert 'role="alert"' in r.text
    assert site.cookies.get("deck") == "brazilian"
    board = site.get(f"/t/{invite}/board").text
    assert _chosen(board) == "brazilian"
    _named_in(board, Design.BRAZILIAN)


def _first_round_played(client: TestClient) -> tuple[str, str]:
    """Ana against Tito (who answers at once) until the first round ends,
    through the table service; her invite and seat token."""
    service = service_of(client)
    ana = service.lobby.create_table("Ana", 21)
    service.lobby.add_robot(ana.invite, ana.token, service.reads.version(ana.invite), "tito")
    service.lobby.start(ana.invite, ana.token, service.reads.version(ana.invite))
    rng = random.Random(4)
    for _ in range(200):
        state = service.reads.game_state(ana.invite)
        assert state is not None
        if state.phase is not eng.Phase.PLAYING:
            return ana.invite, ana.token
        legal = eng.view(state, 0).legal
        if legal:
            service.playing.act(
                ana.invite, ana.token, service.reads.version(ana.invite), rng.choice(legal)
            )
    raise AssertionError("the round did not end")


def test_the_replay_and_the_summary_in_the_brazilian_design(site: TestClient) -> None:
    invite, token = _first_round_played(site)
    state = server_state(site, invite)
    assert state is not None
    summary = state.finished_rounds[0]

    seated = TestClient(site.app)
    move_seat(seated, invite, token)
    seated.cookies.set("deck", "brazilian")
    board = seated.get(f"/t/{invite}").text
    assert '<th scope="row">Oros</th>' in board and '<th scope="row">Siete de oros</th>' in board

    watcher = TestClient(site.app)
    watcher.cookies.set("deck", "brazilian")
    faces = 0
    for step in range(len(summary.actions) + 2):
        html = step_html(watcher, invite, 1, step)
        cards = CARD.findall(html)
        if cards:
            _named_in(html, Design.BRAZILIAN)
        faces += sum(1 for notation, _, _ in cards if notation[:-1] in ("8", "9"))
        text = re.search(r'id="replay-text">(.*?)</p>', html, re.S)
        assert text is not None
        assert "diamantes" not in text.group(1) and "sota" not in text.group(1)
    assert faces  # a jota or a reina was shown, and named so
