"""What clients read stays the same through a change of the code's shape
(issue 36: «the API's OpenAPI document and every page are the same before
and after»): the OpenAPI document, and the pages and fragments of a game
scripted with fixed seeds, compared with the ones recorded in
`tests/web/snapshots/`.

A change that is meant to change what clients read records them anew:

    ESCOBA_SNAPSHOTS=update .venv/bin/python -m pytest -n0 tests/web/test_snapshots.py

and the recorded files' diff, in the same commit, shows what changed. What
a run draws at random (a table's invite, the content hashes in the static
files' names) is written as a placeholder before comparing."""

from __future__ import annotations

import difflib
import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from escoba.engine import Action, View
from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.settings import Settings

from .conftest import first_legal
from .helpers import Player, move_seat

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("ESCOBA_SNAPSHOTS") == "update"
HX = {"HX-Request": "true"}
HASHED = re.compile(r"\.[0-9a-f]{10}\.(css|js|svg|png|webmanifest)\b")


def same_as_recorded(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{name}: nothing recorded (ESCOBA_SNAPSHOTS=update records it)"
    recorded = path.read_text(encoding="utf-8")
    if text != recorded:
        diff = "".join(
            list(
                difflib.unified_diff(
                    recorded.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    f"recorded {name}",
                    "now",
                )
            )[:80]
        )
        pytest.fail(f"{name} changed:\n{diff}")


def test_the_openapi_document_is_the_one_recorded(tmp_path: Path) -> None:
    """Byte for byte, as served (pretty-printed with its keys in their
    order, so that a change reads as a diff)."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'e.db'}", secret_key="s"))
    with TestClient(app) as client:
        served = client.get("/openapi.json")
    assert served.status_code == 200
    text = json.dumps(json.loads(served.content), indent=2, ensure_ascii=False) + "\n"
    same_as_recorded("openapi.json", text)


@pytest.fixture
def scripted(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    """The app with every draw seeded: the shuffles, and the robots' moves
    from one generator (the app's brain draws its own from the OS)."""
    moves = random.Random(36)

    def seeded(robot: str, view: View, rng: random.Random) -> Action:
        return first_legal(robot, view, moves)

    app = create_app(settings, clock=clock, rng=random.Random(36), brain=seeded)
    with TestClient(app) as client:
        yield client


def test_the_pages_of_a_scripted_game_are_the_ones_recorded(
    scripted: TestClient, clock: ManualClock
) -> None:
    """Ana, in her browser, against Tito and Carmen: the lobby, the table
    page and its board as the game goes, a spectator's, the chat, a round's
    summary, its replay, the story, the end, every game of the table, the
    record; and the pages that are no table's."""
    client = scripted
    made = client.post("/api/tables", json={"name": "Ana", "rules": {"target": 15}})
    assert made.status_code == 201, made.text
    data = made.json()
    ana = Player(client, data["invite"], data["token"], data["position"])
    invite = ana.invite
    move_seat(client, invite, data["token"])
    spectator = TestClient(client.app)
    pages: list[tuple[str, str]] = []

    def keep(name: str, path: str, browser: TestClient = client, **headers: str) -> None:
        r = browser.get(path, headers=headers)
        assert r.status_code == 200, (path, r.status_code)
        text = HASHED.sub(r".HASH.\1", r.text.replace(invite, "INVITE"))
        pages.append((name, text))

    keep("lobby", f"/t/{invite}")
    ana.command("/robots", robot="tito")
    ana.command("/robots", robot="carmen")
    ana.command("/start")
    keep("table-start", f"/t/{invite}")
    keep("board-start", f"/t/{invite}/board", **HX)
    keep("spectator-start", f"/t/{invite}", browser=spectator)
    rng = random.Random(7)
    step = 0
    while ana.table()["status"] == "playing":
        view = ana.table()["view"]
        if view["phase"] == "round_over":
            if view["round"] == 1:
                keep("table-round-over", f"/t/{invite}")
                keep("replay-round-1", f"/t/{invite}/ronda/1?paso=5")
                keep("story", f"/t/{invite}/repeticion")
            ana.command("/next-round")
            continue
        legal = view["legal_actions"]
        takes = [a for a in legal if a["type"] == "claim" or a.get("capture")]
        ana.act(rng.choice(takes or legal))
        clock.advance(seconds=37)
        step += 1
        if step == 4:
            keep("board-mid-round", f"/t/{invite}/board", **HX)
            client.post(f"/t/{invite}/chat", data={"text": "¡Buena jugada, Tito!"})
            keep("table-mid-round", f"/t/{invite}")
    keep("table-over", f"/t/{invite}")
    keep("games", f"/t/{invite}/partidas")
    keep("record", f"/t/{invite}/partida")
    keep("home", "/")
    keep("rules", "/reglas")
    keep("lesson", "/aprender")
    text = "".join(f"===== {name}\n{page}\n" for name, page in pages)
    same_as_recorded("pages.html", text)
