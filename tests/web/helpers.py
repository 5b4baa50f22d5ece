"""A small API client for the web tests: one `Player` per seat token."""

from __future__ import annotations

import html
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient

from escoba import engine as eng
from escoba.engine.view import round_summary_dict
from escoba.web.frame.deps import AppContext
from escoba.web.table.service import TableService

CARD_RE = re.compile(r"(?<![0-9A-Za-z])(10|[1-9])([DHSC])(?![0-9A-Za-z])")


def text_of(markup: str) -> str:
    """What a page reads as: tags dropped, entities read, spaces folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


@dataclass
class Player:
    client: TestClient
    invite: str
    token: str | None
    position: int | None = None
    received: list[str] = field(default_factory=list)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def get(self, path: str = "") -> Any:
        r = self.client.get(f"/api/tables/{self.invite}{path}", headers=self.headers)
        self.received.append(r.text)
        assert r.status_code == 200, r.text
        return r.json()

    def table(self) -> dict[str, Any]:
        """The seat's view of the table (checked against the published
        `TableOut`, as every API answer is: conftest)."""
        data: dict[str, Any] = self.get()
        return data

    def post(self, path: str, body: dict[str, Any], expect: int = 200) -> Any:
        r = self.client.post(f"/api/tables/{self.invite}{path}", json=body, headers=self.headers)
        self.received.append(r.text)
        assert r.status_code == expect, (r.status_code, r.text)
        return r.json()

    def command(self, path: str, expect: int = 200, **body: Any) -> Any:
        if "version" not in body:
            body["version"] = self.table()["version"]
        return self.post(path, body, expect)

    def game_seat(self) -> int:
        seat: int = next(s["game_seat"] for s in self.table()["seats"] if s["you"])
        return seat

    def act(self, action: dict[str, Any], expect: int = 200) -> Any:
        return self.command("/actions", expect=expect, action=action)


def move_seat(browser: Any, invite: str, token: str) -> None:
    """The browser `browser` (a TestClient, or an httpx.Client on a live
    server) holds the seat of `token`, moved to it as a player moves one:
    a «Seguir en otro dispositivo» code made through the API (with the
    seat's token) and typed at /seguir."""
    auth = {"Authorization": f"Bearer {token}"}
    r = browser.post(f"/api/tables/{invite}/transfer", headers=auth)
    assert r.status_code == 201, r.text
    r = browser.post("/seguir", data={"code": r.json()["code"]}, follow_redirects=False)
    assert r.status_code == 303, r.text


def create(client: TestClient, name: str = "Ana", target: int = 21) -> Player:
    r = client.post("/api/tables", json={"name": name, "target": target})
    assert r.status_code == 201, r.text
    data = r.json()
    p = Player(client, data["invite"], data["token"], data["position"])
    p.received.append(r.text)
    return p


def join(client: TestClient, invite: str, name: str) -> Player:
    r = client.post(f"/api/tables/{invite}/seats", json={"name": name})
    assert r.status_code == 201, r.text
    data = r.json()
    p = Player(client, invite, data["token"], data["position"])
    p.received.append(r.text)
    return p


def page_table(client: TestClient, name: str = "Ana") -> str:
    """A table made through the home page's form (the seat cookie kept by
    `client`); its invite."""
    r = client.post("/tables", data={"name": name, "target": "21"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    invite: str = r.headers["location"].rsplit("/", 1)[1]
    return invite


def version_of(page: str) -> int:
    """The table version a page's forms carry."""
    match = re.search(r'name="version" value="(\d+)"', page)
    assert match, page[:300]
    return int(match.group(1))


def page_game_on_my_turn(client: TestClient, robots: tuple[str, ...] = ("tito",)) -> str:
    """Ana's game against robots (who answer at once in tests), made through
    the forms as a player does; its invite, on her turn."""
    invite = page_table(client, "Ana")
    for robot in robots:
        version = version_of(client.get(f"/t/{invite}").text)
        r = client.post(f"/t/{invite}/robots", data={"version": version, "robot": robot})
        assert r.status_code in (200, 303), r.text
    version = version_of(client.get(f"/t/{invite}").text)
    r = client.post(f"/t/{invite}/start", data={"version": version})
    assert r.status_code in (200, 303), r.text
    assert 'data-my-turn="true"' in client.get(f"/t/{invite}").text
    return invite


def table_version(client: TestClient, invite: str) -> int:
    version: int = client.get(f"/api/tables/{invite}").json()["version"]
    return version


def service_of(client: TestClient) -> TableService:
    service: TableService = client.app.state.ctx.service  # type: ignore[attr-defined]
    return service


def ctx_of(client: TestClient) -> AppContext:
    """What the routes see: the service, and the concerns beside it (the
    devices' and the notices' rooms)."""
    ctx: AppContext = client.app.state.ctx  # type: ignore[attr-defined]
    return ctx


def server_state(client: TestClient, invite: str) -> eng.GameState | None:
    """The true state, server side (only tests look at it)."""
    return service_of(client).reads.game_state(invite)


def hidden_cards(state: eng.GameState, seat: int | None) -> set[str]:
    """Cards `seat` (None: a spectator) must not know now: other hands and the deck."""
    if state.phase is not eng.Phase.PLAYING:
        return set()
    rs = state.round
    hidden = {str(c) for c in rs.deck}
    for s, hand in enumerate(rs.hands):
        if s != seat:
            hidden |= {str(c) for c in hand}
    return hidden


def cards_in(text: str) -> set[str]:
    return {m.group(1) + m.group(2) for m in CARD_RE.finditer(text)}


def current_round_text(response_text: str, state: eng.GameState) -> str:
    """A table response without the previous round's summary, whose cards
    (the leftover) were public then and may be in a hand now; that summary is
    checked to be exactly the public one instead."""
    data = json.loads(response_text)
    view = data.get("view") or {}
    last = view.pop("last_round", None)
    if last is not None:
        summary = state.finished_rounds[-1]
        assert last == round_summary_dict(summary)
    return json.dumps(data)


def play_until_over(
    players: list[Player],
    rng: random.Random,
    spectator: Player | None = None,
    check_hidden: bool = False,
    max_steps: int = 5000,
) -> dict[str, Any]:
    """Every human plays random legal actions (and presses SIGUIENTE RONDA)
    until the game ends; after each step, nothing any client received may name
    a card hidden from it."""
    by_seat: dict[int, Player] = {}
    for p in players:
        by_seat[p.game_seat()] = p
    client = players[0].client
    invite = players[0].invite
    for _ in range(max_steps):
        table = players[0].table()
        if table["status"] != "playing":
            return table
        view = table["view"]
        if view["phase"] == "round_over":
            rng.choice(players).command("/next-round")
        else:
            actor = by_seat[view["turn"]]
            mine = actor.table()
            legal = mine["view"]["legal_actions"]
            # take something when possible: games end sooner than with pure chance
            takes = [a for a in legal if a["type"] == "claim" or a.get("capture")]
            actor.act(rng.choice(takes or legal))
        if check_hidden:
            state = server_state(client, invite)
            assert state is not None
            watchers = [(p, s) for s, p in by_seat.items()]
            if spectator is not None:
                spectator.table()
                watchers.append((spectator, None))  # type: ignore[arg-type]
            for p, seat in watchers:
                p.table()
                text = current_round_text(p.received[-1], state)
                leaked = cards_in(text) & hidden_cards(state, seat)
                assert not leaked, f"seat {seat} was shown hidden cards {leaked}"
    raise AssertionError("the game did not end")


def run_async(coro: Any) -> Any:
    """`asyncio.run(coro)` in a thread of its own: the browser tests' Playwright
    (its sync API, session-wide) keeps an event loop running in the main
    thread for the rest of the run, where asyncio.run refuses to start."""
    import threading

    result: dict[str, Any] = {}

    def target() -> None:
        import asyncio

        try:
            result["value"] = asyncio.run(coro)
        except BaseException as err:  # handed to the caller
            result["error"] = err

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result.get("value")


def replay_log(service: TableService, invite: str) -> eng.GameState | None:
    """Rebuild the current game from the server's action log alone: the
    crash-safety check (every acknowledged move is in the log)."""
    state: eng.GameState | None = None
    for row in service.reads.log(invite):
        p = row.payload
        if row.kind == "start":
            deck = [eng.CARDS[i] for i in p["deck"]]
            state = eng.new_game(
                eng.RuleSet(target=p["target"]), p["players"], deck, first_dealer=0
            )
        elif state is None:
            continue
        elif row.kind == "action":
            state, _ = eng.apply(state, p["seat"], eng.action_from_dict(p["action"]))
        elif row.kind == "next_round":
            state, _ = eng.start_next_round(state, [eng.CARDS[i] for i in p["deck"]])
        elif row.kind in ("end", "expire") and state.phase is not eng.Phase.GAME_OVER:
            reason = eng.EndReason(p.get("reason", "expired"))
            state, _ = eng.end_game(state, reason, p.get("loser_seat"))
    return state
