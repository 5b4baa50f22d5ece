"""The API documents itself: the view is a typed schema, every refusal's code
is listed with its status, a claim's cards have one name, a command answers
with the new view, and the schema checker that watches every API answer of
the tests (conftest) tells a wrong answer from a right one."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import escoba
from escoba.engine import EndReason, Phase
from escoba.web.api.refusals import HTTP_REFUSALS
from escoba.web.api.schema import ERROR_CODES
from escoba.web.app import create_app
from escoba.web.base.errors import ServiceError
from escoba.web.base.settings import Settings
from escoba.web.table.pages import TableStatus

from ..helpers import Player, create, join
from ..schema_check import ApiSchema

SRC = Path(escoba.__file__).parent

#: Codes raised in the source that no API answer carries, and why.
NOT_THE_APIS: dict[tuple[str, int], str] = {
    ("ended", 409): "the expiry job's own, caught by the job",
    ("active", 409): "the expiry job's own, caught by the job",
    ("too_many_streams", 429): "the live stream's (/t/{invite}/events), not the API's",
    ("nothing_to_transfer", 409): "Mis mesas' «Seguir en otro dispositivo» (a page's)",
    ("no_such_device", 404): "revoking a device: the table page's",
    ("no_step", 404): "a round's replay: /t/{invite}/ronda/{n}?paso=k, a page",
}
#: POST operations that take no body (the seat is the bearer token's).
BODILESS_POSTS = frozenset({"/api/tables/{invite}/transfer"})


@pytest.fixture(scope="module")
def openapi(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    db = tmp_path_factory.mktemp("schema") / "escoba.db"
    app = create_app(Settings(database_url=f"sqlite:///{db}", secret_key="schema"))
    schema: dict[str, Any] = app.openapi()
    return schema


def _schemas(openapi: dict[str, Any]) -> dict[str, Any]:
    schemas: dict[str, Any] = openapi["components"]["schemas"]
    return schemas


def _documented_codes(openapi: dict[str, Any]) -> set[tuple[str, int]]:
    """(code, status) of every refusal the schema lists."""
    out: set[tuple[str, int]] = set()
    for name, schema in _schemas(openapi).items():
        if name.startswith("Error") and name[5:].isdigit():
            out |= {(code, int(name[5:])) for code in schema["properties"]["error"]["enum"]}
    return out


def _raised_codes() -> dict[tuple[str, int], str]:
    """(code, status) of every refusal written in the source, with where:
    the service's errors (their class says the status), the engine's
    (`IllegalAction`, which the service answers as a 409 `Conflict`), and
    the API's and the middleware's own (`refusal`, `_refuse`,
    `_refuse_and_close`: a status then a code), and FastAPI's routing errors
    as the API words them."""
    statuses = {cls.__name__: cls.status for cls in _subclasses(ServiceError)}
    found: dict[tuple[str, int], str] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            values = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
            code: Any = None
            status: Any = None
            if name == "IllegalAction" and values:
                code, status = values[0], 409
            elif name in statuses and values:
                code, status = values[0], statuses[name]  # ServiceError(code, **values)
            elif name in ("refusal", "_refuse", "_refuse_and_close"):
                pairs = itertools.pairwise(values)
                status, code = next(
                    ((s, c) for s, c in pairs if type(s) is int and isinstance(c, str)),
                    (None, None),
                )
            if isinstance(code, str) and isinstance(status, int):
                where = f"{path.relative_to(SRC)}:{node.lineno}"
                found.setdefault((code, status), where)
    for status, code in HTTP_REFUSALS.items():
        found.setdefault((code, status), "web/api/routes.py HTTP_REFUSALS")
    return found


def _subclasses(cls: type) -> list[type]:
    out = [cls]
    for sub in cls.__subclasses__():
        out.extend(_subclasses(sub))
    return out


def test_every_error_code_raised_is_documented_with_its_status(openapi: dict[str, Any]) -> None:
    raised = _raised_codes()
    documented = _documented_codes(openapi)
    assert len(raised) > 40, raised  # the scan found the refusals
    undocumented = {k: v for k, v in raised.items() if k not in documented | set(NOT_THE_APIS)}
    assert not undocumented, f"refusals missing from the OpenAPI schema: {undocumented}"
    never_raised = documented - set(raised)
    assert not never_raised, f"documented refusals nothing raises: {never_raised}"
    assert set(NOT_THE_APIS) <= set(raised), "an exception above names a code gone"
    assert not set(NOT_THE_APIS) & documented
    rows = [(e.code, e.status) for e in ERROR_CODES]
    assert len(rows) == len(set(rows))


def test_every_api_operation_documents_its_answers(openapi: dict[str, Any]) -> None:
    """Each answer a typed schema, each refusal its status's model, never
    FastAPI's default 422 (which has another shape)."""
    operations = [
        (path, method, op)
        for path, item in openapi["paths"].items()
        if path.startswith("/api/")
        for method, op in item.items()
    ]
    assert len(operations) >= 14
    for path, method, op in operations:
        where = f"{method.upper()} {path}"
        responses = op["responses"]
        successes = [s for s in responses if s.startswith("2")]
        assert len(successes) == 1, where
        for status, response in responses.items():
            if status == "204":  # no content, and nothing else
                assert "content" not in response, where
                continue
            schema = response["content"]["application/json"]["schema"]
            if status.startswith("2"):
                assert "$ref" in schema or "items" in schema or path.endswith("/record"), where
            else:
                assert schema == {"$ref": f"#/components/schemas/Error{status}"}, where
        assert {"405", "422", "503"} <= set(responses), where
        if "{invite}" in path:
            assert {"403", "404"} <= set(responses), where  # no table, or not your seat
        if method == "post":
            assert {"400", "415", "429"} <= set(responses), where
            if path in BODILESS_POSTS:
                assert "requestBody" not in op, where
                continue
            assert "$ref" in op["requestBody"]["content"]["application/json"]["schema"], where
    assert "HTTPValidationError" not in str([op for _, _, op in operations])


def test_the_view_is_a_typed_schema(openapi: dict[str, Any]) -> None:
    schemas = _schemas(openapi)
    assert schemas["TableStatus"]["enum"] == [s.value for s in TableStatus]
    assert schemas["Phase"]["enum"] == [p.value for p in Phase]
    assert schemas["EndReason"]["enum"] == [r.value for r in EndReason]
    table = schemas["TableOut"]
    assert table["properties"]["status"]["$ref"] == "#/components/schemas/TableStatus"
    assert {"$ref": "#/components/schemas/ViewOut"} in table["properties"]["view"]["anyOf"]
    view = schemas["ViewOut"]["properties"]
    assert view["phase"]["$ref"] == "#/components/schemas/Phase"
    for cards in ("hand", "table"):
        assert view[cards]["items"]["pattern"] == r"^(10|[1-9])[DHSC]$"
    legal = view["legal_actions"]["items"]
    assert legal["discriminator"]["mapping"] == {
        "play": "#/components/schemas/PlayOut",
        "claim": "#/components/schemas/ClaimOut",
    }
    history = view["history"]["items"]["discriminator"]["mapping"]
    assert history == {
        "play": "#/components/schemas/PlayedOut",
        "claim": "#/components/schemas/ClaimedOut",
    }
    for name in ("claimable", "claim_seat", "last_round", "result", "table_take"):
        assert name in view and name in schemas["ViewOut"]["required"], name
    # one name for a claim's cards: the command's, the view's and the record's
    for claim in ("ClaimIn", "ClaimOut", "ClaimedOut"):
        assert "cards" in schemas[claim]["required"] and "group" not in schemas[claim]["properties"]
    # every object of an answer is exactly its fields
    for name in ("TableOut", "ViewOut", "SeatOut", "ResultOut", "Error409", "CanOut"):
        assert schemas[name]["additionalProperties"] is False, name


# ---------------------------------------------------------------------------
# The checker itself


def test_the_schema_checker_tells_a_wrong_answer(app_client: TestClient) -> None:
    """The check conftest puts on every API answer fails on a missing or an
    extra field, a value outside its enum, a code its status does not list,
    an undocumented status, and routing's refusals in another shape."""
    import json

    schema = ApiSchema(app_client.app.openapi())  # type: ignore[attr-defined]
    ana = create(app_client, "Ana")
    path = f"/api/tables/{ana.invite}"
    table = ana.table()
    body = json.dumps(table).encode()

    def problems(data: Any, status: int = 200, method: str = "GET", at: str = path) -> list[str]:
        raw = data if isinstance(data, bytes) else json.dumps(data).encode()
        return schema.problems(method, at, status, "application/json", raw)

    assert problems(body) == []
    assert problems({k: v for k, v in table.items() if k != "can"})
    assert problems(table | {"extra": 1})
    assert problems(table | {"status": "paused"})
    assert problems(table | {"can": table["can"] | {"join": "yes"}})
    assert problems(table, status=201)  # not documented for a read
    assert problems(b"not json")
    refusal = {"error": "stale", "message": "La mesa cambió."}
    assert problems(refusal, 409, "POST", f"{path}/start") == []
    assert problems(refusal, 403, "POST", f"{path}/start")  # stale is no 403
    assert problems(refusal | {"detail": "x"}, 409, "POST", f"{path}/start")
    assert problems({"error": "not_found", "message": "No."}, 404, "GET", "/api/nothing") == []
    assert problems({"detail": "Not Found"}, 404, "GET", "/api/nothing")
    allowed = {"error": "method_not_allowed", "message": "No."}
    assert problems(allowed, 405, "DELETE", path) == []
    assert problems(allowed, 404, "DELETE", path)


# ---------------------------------------------------------------------------
# Commands answer with the view


def _started(client: TestClient) -> tuple[Player, Player]:
    ana = create(client, "Ana")
    beto = join(client, ana.invite, "Beto")
    ana.command("/start")
    return ana, beto


def test_a_command_answers_with_the_new_view_of_its_seat(app_client: TestClient) -> None:
    r = app_client.post("/api/tables", json={"name": "Ana", "target": 21})
    assert r.status_code == 201
    seat = r.json()
    ana = Player(app_client, seat["invite"], seat["token"], seat["position"])
    assert seat["table"] == ana.table()
    assert seat["table"]["you"] == 0 and seat["table"]["can"]["manage"]
    r = app_client.post(f"/api/tables/{ana.invite}/seats", json={"name": "Beto"})
    assert r.status_code == 201 and r.json()["table"]["you"] == 1
    beto = Player(app_client, ana.invite, r.json()["token"], 1)
    version = ana.table()["version"]
    started = ana.post("/start", {"version": version})
    assert started == ana.table()
    assert started["version"] == version + 1 and started["status"] == "playing"
    assert len(started["view"]["hand"]) == 3
    actor = ana if started["view"]["turn"] == started["view"]["seat"] else beto
    before = actor.table()
    action = before["view"]["legal_actions"][0]
    after = actor.post("/actions", {"version": before["version"], "action": action})
    assert after == actor.table()  # the view a read would give, for the same seat
    assert after["version"] == before["version"] + 1
    assert after["view"]["seat"] == before["view"]["seat"]
    assert action["card"] not in after["view"]["hand"]
    played = after["view"]["history"][-1]
    assert {k: played[k] for k in action} == action and played["seat"] == after["view"]["seat"]
    said = actor.post("/chat", {"text": "¡hola!"}, expect=201)
    assert said == actor.table() and said["version"] == after["version"]  # chat: no version


# ---------------------------------------------------------------------------
# A claim's cards


def _claim_chance(players: tuple[Player, Player], rng: random.Random) -> tuple[Player, Any]:
    """Play on, leaving on the table a card that made 15 whenever one can,
    until a player may LLEVAR EL 15: that player and its table."""
    ana = players[0]
    by_seat = {p.game_seat(): p for p in players}
    for _ in range(400):
        table = ana.table()
        view = table["view"]
        if view["phase"] == "round_over":
            ana.command("/next-round")
            continue
        assert view["phase"] == "playing", view["phase"]
        actor = by_seat[view["turn"]]
        mine = actor.table()
        legal = mine["view"]["legal_actions"]
        if any(a["type"] == "claim" for a in legal):
            return actor, mine
        takers = {a["card"] for a in legal if a["type"] == "play" and a["capture"]}
        leaves = [a for a in legal if a["type"] == "play" and not a["capture"]]
        chances = [a for a in leaves if a["card"] in takers]
        actor.act(rng.choice(chances or leaves))
    raise AssertionError("no chance of LLEVAR EL 15 came up")


def test_a_claim_names_its_cards_as_the_view_and_the_record_do(app_client: TestClient) -> None:
    """`cards`, every card taken with the left card first: the view's legal
    claim, the command, the history and the record say the same."""
    players = _started(app_client)
    actor, table = _claim_chance(players, random.Random(3))
    view = table["view"]
    left = view["claimable"]
    claim = next(a for a in view["legal_actions"] if a["type"] == "claim")
    assert set(claim) == {"type", "cards"} and claim["cards"][0] == left
    assert left in view["table"] and set(claim["cards"]) <= set(view["table"])
    version = table["version"]

    def refused(cards: list[str], code: str) -> None:
        body = {"version": version, "action": {"type": "claim", "cards": cards}}
        r = app_client.post(f"/api/tables/{actor.invite}/actions", json=body, headers=actor.headers)
        assert r.status_code == 409 and r.json()["error"] == code, r.text

    refused(claim["cards"][1:], "claim_missing_card")  # the left card is one of them
    refused([left], "empty_claim")
    others = [c for c in view["table"] if c not in claim["cards"]]
    if others:
        refused([left, others[0]], "not_fifteen")
    after = actor.post(
        "/actions",
        {"version": version, "action": {"type": "claim", "cards": claim["cards"][::-1]}},
    )
    taken = after["view"]["history"][-1]
    assert taken == {
        "seat": view["seat"],
        "type": "claim",
        "cards": claim["cards"],
        "escoba": taken["escoba"],
    }
    actor.command("/abandon")
    record = actor.get("/record")
    assert record["rounds"][-1]["actions"][-1] == taken


def test_a_malformed_card_is_one_mistake_with_one_code(app_client: TestClient) -> None:
    """Whatever its length or its case, a card not in the notation is a 422
    `invalid` that says how a card is written, in a play, its capture or a
    claim; and the claim's old `group` is no field of it any more."""
    ana, beto = _started(app_client)
    table = ana.table()
    actor = ana if table["view"]["turn"] == table["view"]["seat"] else beto
    hand = actor.table()["view"]["hand"]
    version = table["version"]
    bad_cards = ("11D", "ZZ", "7d", " 7D", "7DD", "0S", "", "x" * 50)
    for action in (
        *({"type": "play", "card": bad, "capture": []} for bad in bad_cards),
        *({"type": "play", "card": hand[0], "capture": [bad]} for bad in bad_cards),
        *({"type": "claim", "cards": [bad]} for bad in bad_cards),
    ):
        r = app_client.post(
            f"/api/tables/{actor.invite}/actions",
            json={"version": version, "action": action},
            headers=actor.headers,
        )
        assert r.status_code == 422 and r.json()["error"] == "invalid", (action, r.text)
        assert "no es una carta" in r.json()["message"], r.text
    for action in ({"type": "play"}, {"type": "claim", "group": ["4S"]}):
        r = app_client.post(
            f"/api/tables/{actor.invite}/actions",
            json={"version": version, "action": action},
            headers=actor.headers,
        )
        assert r.status_code == 422 and r.json()["error"] == "invalid", (action, r.text)
    assert actor.table()["version"] == version


def test_the_readme_lists_the_codes_the_schema_lists(openapi: dict[str, Any]) -> None:
    """The README's table of refusals, status by status, is the schema's."""
    import re

    readme = (Path(__file__).parents[3] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The JSON API", 1)[1].split("\n## ", 1)[0]
    listed: set[tuple[str, int]] = set()
    for line in section.splitlines():
        row = re.match(r"\| (\d{3}) \| (.*) \|$", line)
        if row:
            # a code opens its backticks after a space or a parenthesis... of its own row
            codes = re.findall(r"(?:^|, |: )`([a-z_]+)`", row.group(2))
            listed |= {(code, int(row.group(1))) for code in codes}
    assert listed == _documented_codes(openapi)
