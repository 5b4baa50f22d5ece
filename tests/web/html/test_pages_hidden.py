"""Hidden information in the HTML: over a whole game, no page or board
fragment a person or a spectator loads names a card they may not know — by
notation or by name, in any deck design."""

from __future__ import annotations

import random
import re

from fastapi.testclient import TestClient

from escoba import engine as eng
from escoba.names import Design, card_name

from ..helpers import Player, cards_in, create, hidden_cards, join, move_seat, server_state

NAMES = {design: {card_name(c, design).lower(): str(c) for c in eng.CARDS} for design in Design}


PATH_DATA = re.compile(r'\s(d|points|transform|viewBox)="[^"]*"')


def _named_cards(html: str) -> set[str]:
    """Cards a page names, by notation or name; SVG geometry («0.3,1H-0.3»)
    is not text and is left out first."""
    html = PATH_DATA.sub(" ", html)
    text = html.lower()
    found = cards_in(html)
    for names in NAMES.values():
        found |= {notation for name, notation in names.items() if name in text}
    return found


def _browser(app_client: TestClient, invite: str, token: str | None, design: Design) -> TestClient:
    browser = TestClient(app_client.app)
    browser.cookies.set("deck", design.value)
    if token is not None:
        move_seat(browser, invite, token)
    return browser


def test_no_page_names_a_hidden_card(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    beto = join(app_client, ana.invite, "Beto")
    ana.command("/robots", robot="carmen")
    ana.command("/start")
    players = {ana.game_seat(): ana, beto.game_seat(): beto}
    browsers: list[tuple[TestClient, int | None]] = [
        (_browser(app_client, ana.invite, ana.token, Design.FRENCH), ana.game_seat()),
        (_browser(app_client, ana.invite, beto.token, Design.SPANISH), beto.game_seat()),
        (_browser(app_client, ana.invite, None, Design.SPANISH), None),
        (_browser(app_client, ana.invite, None, Design.BRAZILIAN), None),
    ]
    rng = random.Random(8)
    spectator = Player(app_client, ana.invite, None)
    seen_own_hand = False
    for _ in range(60):
        state = server_state(app_client, ana.invite)
        assert state is not None
        if state.phase is not eng.Phase.PLAYING:
            break
        for browser, seat in browsers:
            for path in (f"/t/{ana.invite}", f"/t/{ana.invite}/board"):
                html = browser.get(path).text
                named = _named_cards(html)
                leaked = named & hidden_cards(state, seat)
                assert not leaked, f"{path} showed seat {seat} the hidden cards {leaked}"
                if seat is not None and {str(c) for c in state.round.hands[seat]} <= named:
                    seen_own_hand = True
        actor = players[spectator.table()["view"]["turn"]]
        actor.act(rng.choice(actor.table()["view"]["legal_actions"]))
    assert seen_own_hand  # the scan reads the cards a page does show
