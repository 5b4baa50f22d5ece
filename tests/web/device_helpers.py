"""Helpers for the tests of «Mis mesas», transfers and a seat's devices:
tables brought to a given state through the API, seats held by a browser
(a TestClient with its device cookie), and the pages read back."""

from __future__ import annotations

import random
import re

from fastapi.testclient import TestClient

from .helpers import Player, create, join, move_seat

LISTED = re.compile(r'<li class="my-table is-(\w+)" data-invite="([^"]+)"')
CODE = re.compile(r'id="transfer-code"[^>]*>([A-Z0-9]{5}-[A-Z0-9]{5})<')


def browser(
    site: TestClient, user_agent: str = "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0"
) -> TestClient:
    """Another browser on the same app: its own cookies, its own device."""
    return TestClient(site.app, headers={"User-Agent": user_agent})


def hold(client: TestClient, player: Player) -> None:
    """This browser holds the seat (moved to it with a transfer code)."""
    assert player.token is not None
    move_seat(client, player.invite, player.token)


def started(client: TestClient, me: str = "Ana", other: str = "Beto") -> tuple[Player, Player]:
    """A two-player game under way, through the API: (creator, the other)."""
    ana = create(client, me)
    beto = join(client, ana.invite, other)
    ana.command("/start")
    return ana, beto


def give_turn(to: Player, other: Player) -> None:
    """The game's turn is `to`'s (the other plays once if need be)."""
    view = to.table()["view"]
    if view["turn"] != to.game_seat():
        other.act(other.table()["view"]["legal_actions"][0])
    assert to.table()["view"]["turn"] == to.game_seat()


def round_over(players: list[Player], rng: random.Random) -> None:
    """Both play until the round ends (SIGUIENTE RONDA awaited)."""
    by_seat = {p.game_seat(): p for p in players}
    for _ in range(200):
        view = players[0].table()["view"]
        if view["phase"] != "playing":
            assert view["phase"] == "round_over", view["phase"]
            return
        actor = by_seat[view["turn"]]
        actor.act(rng.choice(actor.table()["view"]["legal_actions"]))
    raise AssertionError("the round did not end")


def listed(client: TestClient) -> list[tuple[str, str]]:
    """The home page's «Mis mesas»: (group, invite), in order."""
    r = client.get("/")
    assert r.status_code == 200, r.text
    return [(m.group(1), m.group(2)) for m in LISTED.finditer(r.text)]


def code_of(html: str) -> str:
    found = CODE.search(html)
    assert found is not None, html
    return found.group(1)


def cookie_names(client: TestClient) -> list[str]:
    return sorted(cookie.name for cookie in client.cookies.jar)


def seated(client: TestClient, invite: str) -> bool:
    """The table page shows this browser a seat (its chat form)."""
    return 'class="chat-form' in client.get(f"/t/{invite}").text
