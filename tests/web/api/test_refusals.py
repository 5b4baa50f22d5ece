"""Bad input of every kind gets a clear refusal and changes nothing; racing
identical submissions apply exactly once."""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, inspect

from escoba import engine as eng
from escoba.web.base.db import migrate
from escoba.web.base.models import Base

from ..helpers import Player, create, join, move_seat, replay_log, service_of


def _started(client: TestClient) -> tuple[Player, Player]:
    ana = create(client, "Ana")
    beto = join(client, ana.invite, "Beto")
    ana.command("/start")
    return ana, beto


def _on_turn(players: tuple[Player, Player]) -> tuple[Player, Player]:
    turn = players[0].table()["view"]["turn"]
    a, b = players
    return (a, b) if a.game_seat() == turn else (b, a)


def _refused(p: Player, path: str, body: Any, status: int, code: str | None = None) -> str:
    before = p.table()["version"]
    r = p.client.post(f"/api/tables/{p.invite}{path}", json=body, headers=p.headers)
    assert r.status_code == status, r.text
    data = r.json()
    assert isinstance(data["message"], str) and data["message"]
    if code is not None:
        assert data["error"] == code
    assert p.table()["version"] == before  # nothing changed
    message: str = data["message"]
    return message


def test_wrong_moves_are_refused_with_a_message_a_player_understands(
    app_client: TestClient,
) -> None:
    actor, other = _on_turn(_started(app_client))
    view = actor.table()["view"]
    version = actor.table()["version"]
    hand = view["hand"]
    table = view["table"]
    not_mine = next(c for c in other.table()["view"]["hand"])

    def play(card: str, capture: list[str]) -> dict[str, Any]:
        return {"version": version, "action": {"type": "play", "card": card, "capture": capture}}

    # a wrong sum (find a hand card and one table card that do not make 15)
    wrong = next(
        (h, t)
        for h in hand
        for t in table
        if eng.parse_card(h).value + eng.parse_card(t).value != 15
    )
    message = _refused(actor, "/actions", play(wrong[0], [wrong[1]]), 409, "not_fifteen")
    assert message.startswith("Esas cartas suman") and message.endswith("no 15.")
    _refused(actor, "/actions", play(not_mine, []), 409, "not_in_hand")
    _refused(other, "/actions", play(other.table()["view"]["hand"][0], []), 409, "not_your_turn")
    _refused(actor, "/actions", play("11D", []), 422, "invalid")
    _refused(actor, "/actions", play(hand[0], ["ZZ"]), 422, "invalid")
    _refused(actor, "/actions", {"version": version, "action": {"type": "claim", "cards": []}}, 409)
    _refused(actor, "/actions", {"version": version, "action": {"type": "jump"}}, 422)
    _refused(actor, "/actions", {"action": {"type": "play", "card": hand[0]}}, 422)
    _refused(actor, "/actions", play(hand[0], []) | {"version": version - 1}, 409, "stale")
    _refused(actor, "/next-round", {"version": version}, 409)


def test_malformed_requests_are_4xx_never_500(app_client: TestClient) -> None:
    ana, _ = _started(app_client)
    url = f"/api/tables/{ana.invite}/actions"
    for raw in (b"", b"{", b"[]", b'{"version": "x"}', b"\xff\xfe"):
        r = app_client.post(
            url, content=raw, headers=ana.headers | {"content-type": "application/json"}
        )
        assert 400 <= r.status_code < 500, (raw, r.status_code)
    assert app_client.get("/api/tables/nope").status_code == 404
    assert app_client.get("/api/tables/" + "x" * 20).status_code == 404
    assert app_client.get("/api/tables/" + "x" * 500).status_code in (404, 422)
    for after in ("-1", "x", str(2**31), str(2**63)):  # beyond an INTEGER id too
        r = app_client.get(f"/api/tables/{ana.invite}/chat", params={"after": after})
        assert r.status_code == 422, (after, r.status_code)
    r = app_client.get(f"/api/tables/{ana.invite}/chat", params={"after": str(2**31 - 1)})
    assert r.status_code == 200 and r.json() == []
    r = app_client.post("/api/tables", json={"name": "Ana", "target": 25})
    assert r.status_code == 422
    for name, code in (
        ("", "empty_name"),
        ("   ", "empty_name"),
        ("x" * 40, "name_too_long"),
        ("Ana\x00", "bad_name"),
        ("Ana\u202e", "bad_name"),  # a bidi override: invisible, and it turns text around
    ):
        r = app_client.post("/api/tables", json={"name": name, "target": 21})
        assert r.status_code == 422 and r.json()["error"] == code
    r = app_client.post("/api/tables", json={"name": "Ana 👩\u200d💻", "target": 21})
    assert r.status_code == 201  # the joiner inside an emoji is no bad character
    seats = app_client.get(f"/api/tables/{r.json()['invite']}").json()["seats"]
    assert seats[0]["name"] == "Ana 👩\u200d💻"


def test_api_inputs_take_strict_types_only(app_client: TestClient) -> None:
    """A number sent as text, a float or a boolean is refused even where a lax
    reading would find the right value in it (`"3"` for version 3): the
    client learns its mistake instead of the server acting on a guess."""
    ana = create(app_client, "Ana")
    join(app_client, ana.invite, "Beto")
    ana.command("/robots", robot="tito")
    version = ana.table()["version"]
    for wrong in (str(version), float(version), True, None, [version]):
        message = _refused(ana, "/start", {"version": wrong}, 422, "invalid")
        assert "version" in message, message
    for wrong in ("2", 2.0, True):
        body = {"version": version, "position": wrong}
        _refused(ana, "/robots/remove", body, 422, "invalid")
        _refused(ana, "/partner", body, 422, "invalid")
    for wrong in ("21", 21.0, 31.0, True):
        r = app_client.post("/api/tables", json={"name": "Zoe", "target": wrong})
        assert r.status_code == 422 and r.json()["error"] == "invalid", (wrong, r.text)
    for body in ({"name": 7}, {"name": ["Zoe"]}, {"name": True}):
        r = app_client.post(f"/api/tables/{ana.invite}/seats", json=body)
        assert r.status_code == 422 and r.json()["error"] == "invalid", (body, r.text)
    _refused(ana, "/chat", {"text": 15}, 422, "invalid")
    ana.command("/start")  # the same values with their own types are taken
    version = ana.table()["version"]
    for action in (
        {"type": "play", "card": 7, "capture": []},
        {"type": "play", "card": "7D", "capture": "8D"},
        {"type": "claim", "cards": [4, 6]},
    ):
        _refused(ana, "/actions", {"version": version, "action": action}, 422, "invalid")


def _api_error(r: Any, status: int, code: str) -> None:
    """`r` is the documented refusal: exactly `error` and `message`, as text,
    and never kept by a cache."""
    assert r.status_code == status, (status, r.status_code, r.text)
    data = r.json()
    assert set(data) == {"error", "message"}, data
    assert data["error"] == code, data
    assert isinstance(data["message"], str) and data["message"]
    assert r.headers["cache-control"] == "no-store"


def test_every_api_error_has_the_documented_shape(app_client: TestClient) -> None:
    """Bodies FastAPI itself refuses before any route runs (not JSON, not
    UTF-8, labelled as another type, missing) and routing's own errors are
    refused in the API's shape, and change nothing."""
    ana = create(app_client, "Ana")
    join(app_client, ana.invite, "Beto")
    version = ana.table()["version"]
    good = b'{"version": %d}' % version
    url = f"/api/tables/{ana.invite}/start"
    cases: list[tuple[bytes, str | None, int, str]] = [
        (b"{", "application/json", 400, "bad_json"),
        (good[:-1], "application/json", 400, "bad_json"),
        (b"{'version': 1}", "application/json", 400, "bad_json"),
        (b"\xff", "application/json", 400, "bad_json"),  # not UTF-8
        (b"\xff\xfe", "application/json", 400, "bad_json"),
        (b"", "application/json", 422, "invalid"),
        (b"", None, 422, "invalid"),
        (b"[]", "application/json", 422, "invalid"),
        (b"null", "application/json", 422, "invalid"),
        (b'"version"', "application/json", 422, "invalid"),
        (good, None, 415, "unsupported_media_type"),
        (good, "text/plain", 415, "unsupported_media_type"),
        (
            b"version=%d" % version,
            "application/x-www-form-urlencoded",
            415,
            "unsupported_media_type",
        ),
    ]
    for raw, content_type, status, code in cases:
        headers = ana.headers | ({"content-type": content_type} if content_type else {})
        r = app_client.post(url, content=raw, headers=headers)
        _api_error(r, status, code)
        assert ana.table()["version"] == version, raw
    _api_error(app_client.get("/api/no-such-thing"), 404, "not_found")
    _api_error(app_client.get(f"/api/tables/{ana.invite}/nothing"), 404, "not_found")
    r = app_client.delete(f"/api/tables/{ana.invite}", headers=ana.headers)
    _api_error(r, 405, "method_not_allowed")
    assert r.headers["allow"] == "GET"
    _api_error(app_client.get("/api/tables"), 405, "method_not_allowed")
    assert ana.table()["status"] == "lobby"
    r = app_client.post(
        url, content=good, headers=ana.headers | {"content-type": "application/json; charset=utf-8"}
    )
    assert r.status_code == 200, r.text  # the right body, labelled right, is taken


def test_seats_and_lobby_rules(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    beto = join(app_client, ana.invite, "Beto")
    version = ana.table()["version"]
    _refused(beto, "/robots", {"version": version, "robot": "luna"}, 403, "not_creator")
    _refused(ana, "/robots", {"version": version, "robot": "hal"}, 422)
    _refused(beto, "/start", {"version": version}, 403, "not_creator")
    _refused(ana, "/robots/remove", {"version": version, "position": 1}, 422, "not_a_robot")
    ana.command("/robots", robot="carmen")
    ana.command("/robots", robot="tito")
    assert [s["name"] for s in ana.table()["seats"]] == ["Ana", "Beto", "Carmen", "Tito"]
    r = app_client.post(f"/api/tables/{ana.invite}/seats", json={"name": "Dora"})
    assert r.status_code == 409 and r.json()["error"] == "table_full"
    ana.command("/robots/remove", position=3)
    assert len(ana.table()["seats"]) == 3
    ana.command("/start")
    r = app_client.post(f"/api/tables/{ana.invite}/seats", json={"name": "Dora"})
    assert r.status_code == 409 and r.json()["error"] == "already_started"
    version = ana.table()["version"]
    _refused(ana, "/robots", {"version": version, "robot": "luna"}, 409, "already_started")


def test_a_lone_creator_cannot_start(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    _refused(ana, "/start", {"version": ana.table()["version"]}, 409, "not_enough")


def test_tampered_or_foreign_tokens_are_refused(app_client: TestClient) -> None:
    ana, beto = _started(app_client)
    other_table = create(app_client, "Zoe")
    actor, _ = _on_turn((ana, beto))
    action = actor.table()["view"]["legal_actions"][0]
    version = ana.table()["version"]
    for token in (actor.token + "x", other_table.token, "", "a" * 5000):  # type: ignore[operator]
        forged = Player(app_client, ana.invite, token)
        r = app_client.post(
            f"/api/tables/{ana.invite}/actions",
            json={"version": version, "action": action},
            headers=forged.headers,
        )
        assert r.status_code == 403, (token[:10], r.status_code)
    assert ana.table()["version"] == version


def test_a_read_with_a_token_that_holds_no_seat_is_refused(app_client: TestClient) -> None:
    """Without a token a read is a spectator's; with a token it is that
    seat's or a 403, the same refusal a command gets, never a silent
    spectator's view that a client would take for its own."""
    ana, beto = _started(app_client)
    other_table = create(app_client, "Zoe")
    actor, _ = _on_turn((ana, beto))
    action = actor.table()["view"]["legal_actions"][0]
    version = ana.table()["version"]
    for token in (actor.token + "x", other_table.token, "nope", "a" * 5000):  # type: ignore[operator]
        headers = {"Authorization": f"Bearer {token}"}
        r = app_client.post(
            f"/api/tables/{ana.invite}/actions",
            json={"version": version, "action": action},
            headers=headers,
        )
        _api_error(r, 403, "not_seated")
        for path in ("", "/chat", "/record"):
            r = app_client.get(f"/api/tables/{ana.invite}{path}", headers=headers)
            _api_error(r, 403, "not_seated")
            assert "hand" not in r.text
    spectator = Player(app_client, ana.invite, None)
    assert spectator.table()["you"] is None and spectator.get("/chat") == []
    assert ana.table()["you"] == 0 and beto.get("/chat") == []
    assert ana.table()["version"] == version


def test_chat_limits(app_client: TestClient) -> None:
    ana, _ = _started(app_client)
    _refused(ana, "/chat", {"text": "   "}, 422, "empty_chat")
    _refused(ana, "/chat", {"text": "x" * 301}, 422, "chat_too_long")
    _refused(ana, "/chat", {"text": "x" * 3000}, 422)
    for i in range(5):
        ana.post("/chat", {"text": f"mensaje {i}"}, expect=201)
    r = app_client.post(
        f"/api/tables/{ana.invite}/chat", json={"text": "uno más"}, headers=ana.headers
    )
    assert r.status_code == 429 and r.json()["error"] == "chat_rate"
    assert len(ana.get("/chat")) == 5


def test_control_characters_in_chat_and_links_are_harmless(app_client: TestClient) -> None:
    """PostgreSQL refuses a NUL byte in text: a chat line is cleaned of
    invisible control characters, and a link with one names no table."""
    ana, _ = _started(app_client)
    ana.post("/chat", {"text": "hola\x00 mundo\n¿qué tal?\x07"}, expect=201)
    ana.post("/chat", {"text": "👨\u200d💻\tjuego"}, expect=201)  # the joiner stays
    texts = [line["text"] for line in ana.get("/chat")]
    assert texts == ["hola mundo ¿qué tal?", "👨\u200d💻 juego"]
    _refused(ana, "/chat", {"text": "\x00\x01\n"}, 422, "invisible_chat")
    for path in (f"/api/tables/%00{ana.invite}", f"/api/tables/{ana.invite[:-1]}%00/chat"):
        assert app_client.get(path).status_code == 404, path
    for path in (f"/t/%00{ana.invite}", f"/t/{ana.invite}%00/board"):
        assert app_client.get(path).status_code == 404, path
    r = app_client.post(f"/api/tables/{ana.invite[:-1]}%00/seats", json={"name": "Luis"})
    assert r.status_code == 404 and r.json()["error"] == "no_table"


# The browser's forms (not in the OpenAPI schema, so not in the schemathesis
# run): each route with the fields it reads.
FORMS: list[tuple[str, tuple[str, ...]]] = [
    ("/lang", ("lang", "next")),
    ("/tables", ("name", "target")),
    ("/t/{invite}/join", ("name",)),
    ("/t/{invite}/robots", ("version", "robot")),
    ("/t/{invite}/robots/remove", ("version", "position")),
    ("/t/{invite}/partner", ("version", "position")),
    ("/t/{invite}/start", ("version",)),
    ("/t/{invite}/play", ("version", "card", "capture", "mode")),
    ("/t/{invite}/claim", ("version", "group")),
    ("/t/{invite}/next-round", ("version",)),
    ("/t/{invite}/leave", ("version",)),
    ("/t/{invite}/absence", ("version",)),
    ("/t/{invite}/rematch", ("version", "pairs")),
    ("/t/{invite}/chat", ("text",)),
    ("/t/{invite}/design", ("design",)),
    ("/t/{invite}/confirm", ("confirm",)),
]
PAGES = ("/t/{invite}", "/t/{invite}/board", "/t/{invite}/continue/{invite}", "/vendor/{invite}")
_NASTY = ["\x00", "a\x00b", "\n", "%00", "../", "<script>x</script>", "x" * 5000, "-1", "1e9"]
_ANY_VALUE = st.one_of(
    st.text(max_size=40),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(["1D", "7O 8C", "carmen", "keep", "take", "leave", "", *_NASTY]),
)


def test_the_forms_take_any_input_without_a_server_error(app_client: TestClient) -> None:
    """Generated form posts and page paths, on the real seat (its cookie) or
    on any text as the table's link: an answer, never a 500."""
    ana, _ = _started(app_client)
    assert ana.token is not None
    move_seat(app_client, ana.invite, ana.token)  # the seat's cookie
    failures: list[str] = []

    @given(
        form=st.sampled_from(FORMS),
        page=st.sampled_from(PAGES),
        invite=st.one_of(
            st.just(ana.invite),
            st.text(max_size=70),
            st.sampled_from([ana.invite + "\x00", "\x00" + ana.invite, *_NASTY]),
        ),
        values=st.lists(st.one_of(st.none(), _ANY_VALUE), min_size=4, max_size=4),
    )
    @settings(
        max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    def never_500(
        form: tuple[str, tuple[str, ...]], page: str, invite: str, values: list[str | None]
    ) -> None:
        link = quote(invite, safe="") or "x"
        path, fields = form
        data = {f: v for f, v in zip(fields, values, strict=False) if v is not None}
        r = app_client.post(path.format(invite=link), data=data, follow_redirects=False)
        if r.status_code >= 500:
            failures.append(f"POST {path} {invite!r} {data!r}: {r.status_code}")
        r = app_client.get(page.format(invite=link), follow_redirects=False)
        if r.status_code >= 500:
            failures.append(f"GET {page} {invite!r}: {r.status_code}")

    never_500()
    assert not failures, failures[:10]


def test_the_record_is_only_for_finished_games(app_client: TestClient) -> None:
    ana, _ = _started(app_client)
    r = app_client.get(f"/api/tables/{ana.invite}/record")
    assert r.status_code == 409 and r.json()["error"] == "not_finished"


def test_identical_submissions_at_once_apply_exactly_once(app_client: TestClient) -> None:
    ana, beto = _started(app_client)
    actor, _ = _on_turn((ana, beto))
    table = actor.table()
    action = table["view"]["legal_actions"][0]
    body = {"version": table["version"], "action": action}
    statuses: list[int] = []
    barrier = threading.Barrier(8)

    def submit() -> None:
        barrier.wait()
        r = app_client.post(f"/api/tables/{actor.invite}/actions", json=body, headers=actor.headers)
        statuses.append(r.status_code)

    threads = [threading.Thread(target=submit) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * 7
    log = service_of(app_client).reads.log(actor.invite)
    assert [e.kind for e in log].count("action") == 1
    assert actor.table()["version"] == table["version"] + 1


def test_conflicting_submissions_at_once_leave_one_consistent_table(
    app_client: TestClient,
) -> None:
    ana, beto = _started(app_client)
    actor, other = _on_turn((ana, beto))
    version = actor.table()["version"]
    legal = actor.table()["view"]["legal_actions"]
    jobs = [(actor, {"version": version, "action": a}, "/actions") for a in legal[:4]]
    jobs.append((other, {"version": version}, "/abandon"))
    statuses: list[int] = []
    barrier = threading.Barrier(len(jobs))

    def submit(p: Player, body: dict[str, Any], path: str) -> None:
        barrier.wait()
        r = app_client.post(f"/api/tables/{p.invite}{path}", json=body, headers=p.headers)
        statuses.append(r.status_code)

    threads = [threading.Thread(target=submit, args=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses.count(200) == 1 and statuses.count(409) == len(jobs) - 1
    service = service_of(app_client)
    assert replay_log(service, actor.invite) == service.reads.game_state(actor.invite)


def test_the_schema_comes_from_the_migrations_and_matches_the_models(db_url: str) -> None:
    if not db_url.startswith("sqlite"):
        pytest.skip("checked once, on SQLite")
    migrate(db_url)
    migrate(db_url)  # idempotent
    engine = create_engine(db_url)
    inspector = inspect(engine)
    for table in Base.metadata.sorted_tables:
        columns = {c["name"] for c in inspector.get_columns(table.name)}
        assert columns == {c.name for c in table.columns}, table.name
    engine.dispose()


def test_a_chat_line_never_makes_a_move_stale(app_client: TestClient) -> None:
    actor, other = _on_turn(_started(app_client))
    table = actor.table()
    other.post("/chat", {"text": "¿juegas o qué?"}, expect=201)
    action = table["view"]["legal_actions"][0]
    actor.post("/actions", {"version": table["version"], "action": action})
    assert actor.table()["version"] == table["version"] + 1
