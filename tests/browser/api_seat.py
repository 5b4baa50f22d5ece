"""People's seats through the JSON API, for the browser tests that need a
game brought to a round's end or the game's end fast (robots answer on
their own), then a seat opened in a browser the way a person moves it: by
a code's single-use link («Seguir en otro dispositivo»)."""

from __future__ import annotations

import random
from typing import Any

import httpx
from playwright.sync_api import Page, expect


class ApiSeat:
    def __init__(self, base: str, invite: str, token: str) -> None:
        self.invite, self.token = invite, token
        self.http = httpx.Client(base_url=base + "/api", timeout=20)
        self.http.headers["Authorization"] = f"Bearer {token}"

    @classmethod
    def create(cls, base: str, name: str = "Ana", **table: Any) -> ApiSeat:
        """A new table (`table`: more of `POST /tables`, as `rules`), and its
        creator's seat."""
        r = httpx.post(base + "/api/tables", json={"name": name, **table})
        assert r.status_code == 201, r.text
        return cls(base, r.json()["invite"], r.json()["token"])

    @classmethod
    def join(cls, base: str, invite: str, name: str) -> ApiSeat:
        r = httpx.post(f"{base}/api/tables/{invite}/seats", json={"name": name})
        assert r.status_code == 201, r.text
        return cls(base, invite, r.json()["token"])

    def table(self) -> dict[str, Any]:
        r = self.http.get(f"/tables/{self.invite}")
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def command(self, path: str, **body: Any) -> None:
        body["version"] = self.table()["version"]
        r = self.http.post(f"/tables/{self.invite}{path}", json=body)
        assert r.status_code in (200, 201, 409), r.text  # 409: a robot moved first

    def open_here(self, page: Page) -> None:
        """This seat moves to the page's browser, by a code's link."""
        r = self.http.post(f"/tables/{self.invite}/transfer")
        assert r.status_code == 201, r.text
        page.goto(r.json()["url"])
        page.get_by_role("button", name="SEGUIR AQUÍ").click()
        expect(page.locator("#board .board")).to_be_visible()


def play_until(seats: list[ApiSeat], rng: random.Random, until: str) -> None:
    """The seats' turns, each a random legal action preferring a take (the
    robots answer on their own), until the round is over (`until="round"`)
    or the game (`"game"`)."""
    for _ in range(5000):
        for seat in seats:
            table = seat.table()
            view = table["view"]
            if table["status"] == "finished":
                return
            if view["phase"] == "round_over":
                if until == "round":
                    return
                seat.command("/next-round")
            elif view["legal_actions"]:
                legal = view["legal_actions"]
                takes = [a for a in legal if a["type"] == "claim" or a.get("capture")]
                seat.command("/actions", action=rng.choice(takes or legal))
    raise AssertionError(f"the {until} did not end")
