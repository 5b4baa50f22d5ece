"""The house rules on the web (issue 17): the creator chooses them on the
new-table form or through the API, the table keeps them (its games and its
rematches are played under them), the pages and the round's summary say
them, bad rules are refused with nothing made, and the record names them."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from escoba import engine as eng
from escoba.engine.round_steps import round_story
from escoba.engine.scoring import leftover_check
from escoba.web.base.models import TableRow

from ..helpers import Player, join, play_until_over, server_state, service_of, version_of

SITE = {
    "target": 21,
    "thirty_is_double": True,
    "compulsory_capture": False,
    "setenta": False,
    "ties": "nobody",
}

#: the form's field → the rules it makes, and the words the pages say
VARIANTS: dict[str, tuple[dict[str, Any], str]] = {
    "setenta": ({"setenta": True}, "la setenta"),
    "ties_each": ({"ties": "each"}, "empates: punto para cada uno"),
    "compulsory_capture": ({"compulsory_capture": True}, "captura obligatoria"),
    "thirty_single": ({"thirty_is_double": False}, "30 en la mesa cuenta una escoba"),
}


def text_of(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def tables_count(client: TestClient) -> int:
    with service_of(client).db.snapshot() as conn:
        count: int = conn.execute(select(func.count()).select_from(TableRow)).scalar_one()
    return count


def api_create(client: TestClient, body: dict[str, Any]) -> Player:
    r = client.post("/api/tables", json={"name": "Ana", **body})
    assert r.status_code == 201, r.text
    data = r.json()
    return Player(client, data["invite"], data["token"], data["position"])


def form_create(client: TestClient, **fields: str) -> str:
    r = client.post("/tables", data={"name": "Ana", **fields}, follow_redirects=False)
    assert r.status_code == 303, r.text
    invite: str = r.headers["location"].rsplit("/", 1)[1]
    return invite


# ---------------------------------------------------------------------------
# Choosing the rules


@pytest.mark.parametrize("field", list(VARIANTS))
def test_the_form_makes_a_table_of_each_house_rule(site: TestClient, field: str) -> None:
    invite = form_create(site, target="21", **{field: "1"})
    rules, words = VARIANTS[field]
    table = site.get(f"/api/tables/{invite}").json()
    assert table["rules"] == SITE | rules and table["target"] == 21
    page = text_of(site.get(f"/t/{invite}").text)  # the creator's lobby
    assert f"Reglas de la casa, a 21 puntos: {words}." in page


@pytest.mark.parametrize("target", [15, 30])
def test_the_form_takes_the_variant_targets(site: TestClient, target: int) -> None:
    invite = form_create(site, target=str(target))
    table = site.get(f"/api/tables/{invite}").json()
    assert table["rules"] == SITE | {"target": target} and table["target"] == target
    assert f"Reglas de la casa: a {target} puntos." in text_of(site.get(f"/t/{invite}").text)


def test_the_form_with_nothing_ticked_is_the_site_rules(site: TestClient) -> None:
    home = site.get("/").text
    assert "Reglas de la casa" in home and '<details class="house-rules">' in home  # closed
    assert 'name="target" value="21" checked' in home
    invite = form_create(site, target="31")
    assert site.get(f"/api/tables/{invite}").json()["rules"] == SITE | {"target": 31}
    assert "Reglas del sitio, a 31 puntos." in text_of(site.get(f"/t/{invite}").text)


def test_the_form_with_every_house_rule(site: TestClient) -> None:
    invite = form_create(site, target="30", **{field: "1" for field in VARIANTS})
    rules = site.get(f"/api/tables/{invite}").json()["rules"]
    assert rules == {
        "target": 30,
        "thirty_is_double": False,
        "compulsory_capture": True,
        "setenta": True,
        "ties": "each",
    }
    words = ", ".join(w for _, w in VARIANTS.values())
    assert f"Reglas de la casa, a 30 puntos: {words}." in text_of(site.get(f"/t/{invite}").text)


@pytest.mark.parametrize(
    "fields",
    [{"target": "17"}, {"target": "veinte"}, {"target": "21", "setenta": "quizás"}],
    ids=["target-17", "target-word", "setenta-word"],
)
def test_the_form_refuses_bad_rules_and_makes_nothing(
    site: TestClient, fields: dict[str, str]
) -> None:
    r = site.post("/tables", data={"name": "Ana", **fields}, follow_redirects=False)
    assert r.status_code == 422
    assert "<html" in r.text.lower()  # a page that says so, not a 500 nor JSON
    if fields["target"] == "17":
        assert "21 o a 31 puntos (a 15 o a 30 con las reglas de la casa)" in r.text
        # the form comes back as it was
        assert 'value="Ana"' in r.text
    assert tables_count(site) == 0


@pytest.mark.parametrize("field", list(VARIANTS))
def test_the_api_makes_a_table_of_each_house_rule(app_client: TestClient, field: str) -> None:
    rules, words = VARIANTS[field]
    ana = api_create(app_client, {"rules": rules})
    table = ana.table()
    assert table["rules"] == SITE | rules
    join(app_client, ana.invite, "Beto")
    ana.command("/start")
    view = ana.table()["view"]
    assert view["rules"] == SITE | rules  # the game is played under them
    state = server_state(app_client, ana.invite)
    assert state is not None and state.rules == eng.RuleSet.from_dict(SITE | rules)
    # the invite page of a newcomer and the table's page say them
    newcomer = TestClient(app_client.app)
    assert words in text_of(newcomer.get(f"/t/{ana.invite}?mirar=1").text)


def test_the_api_takes_a_variant_target_in_the_rules(app_client: TestClient) -> None:
    ana = api_create(app_client, {"rules": {"target": 15, "setenta": True}})
    table = ana.table()
    assert table["target"] == 15 and table["rules"] == SITE | {"target": 15, "setenta": True}
    # the body's target when the rules name none; the same target twice is fine
    beto = api_create(app_client, {"target": 31, "rules": {"ties": "each"}})
    assert beto.table()["rules"] == SITE | {"target": 31, "ties": "each"}
    carla = api_create(app_client, {"target": 21, "rules": {"target": 21}})
    assert carla.table()["rules"] == SITE
    # no rules: the site's, as before
    dani = api_create(app_client, {"target": 31})
    assert dani.table()["rules"] == SITE | {"target": 31}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"rules": {"target": 17}}, "invalid"),
        ({"rules": {"target": "15"}}, "invalid"),
        ({"rules": {"target": 15.0}}, "invalid"),
        ({"rules": {"setenta": "yes"}}, "invalid"),
        ({"rules": {"setenta": 1}}, "invalid"),
        ({"rules": {"ties": "all"}}, "invalid"),
        ({"rules": {"thirty_is_double": None}}, "invalid"),
        ({"rules": {"setentа": True}}, "invalid"),  # a Cyrillic «а»: no such rule
        ({"rules": ["setenta"]}, "invalid"),
        ({"target": 15}, "invalid"),  # the variant targets come in `rules`
        ({"target": 31, "rules": {"target": 15}}, "bad_target"),
    ],
)
def test_the_api_refuses_bad_rules_and_makes_nothing(
    app_client: TestClient, body: dict[str, Any], code: str
) -> None:
    r = app_client.post("/api/tables", json={"name": "Ana", **body})
    assert r.status_code == 422, r.text
    data = r.json()
    assert data["error"] == code and data["message"]
    assert tables_count(app_client) == 0


def test_two_targets_are_named_in_the_refusal(app_client: TestClient) -> None:
    r = app_client.post("/api/tables", json={"name": "Ana", "target": 31, "rules": {"target": 15}})
    assert r.json()["message"] == (
        "Se indicaron dos metas distintas, 31 y 15 puntos: indica una sola."
    )


def test_a_table_made_before_the_house_rules_plays_the_site_rules(
    app_client: TestClient,
) -> None:
    ana = api_create(app_client, {"target": 31})
    with service_of(app_client).db.write() as conn:  # as migration 0009 leaves it
        conn.execute(TableRow.__table__.update().values(rules=None))  # type: ignore[attr-defined]
    beto = join(app_client, ana.invite, "Beto")
    ana.command("/start")
    assert beto.table()["rules"] == SITE | {"target": 31}
    state = server_state(app_client, ana.invite)
    assert state is not None and state.rules == eng.RuleSet(target=31)


# ---------------------------------------------------------------------------
# The round's summary


def _to_round_over(players: list[Player], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    by_seat = {p.game_seat(): p for p in players}
    for _ in range(500):
        table = players[0].table()
        if table["view"]["phase"] != "playing":
            return table
        actor = by_seat[table["view"]["turn"]]
        actor.act(rng.choice(actor.table()["view"]["legal_actions"]))
    raise AssertionError("the round did not end")


def summary_rows(page: str) -> dict[str, list[str]]:
    """The summary's rows: heading → each side's cell as shown («22 → 1»)."""
    found = re.search(r'<table class="summary-table">.*?</table>', page, re.S)
    assert found is not None, "no summary on the page"
    rows = {}
    for head, cells in re.findall(
        r"<tr[^>]*><th scope=\"row\">(.*?)</th>(.*?)</tr>", found[0], re.S
    ):
        shown = []
        for td in re.findall(r"<td>(.*?)</td>", cells, re.S):
            visible = re.search(r'aria-hidden="true">(.*?)</span><span', td, re.S)
            shown.append(text_of(visible[1] if visible else td))
        rows[text_of(head)] = shown
    return rows


@pytest.mark.parametrize("seed", [3, 8])
def test_the_summary_under_la_setenta(app_client: TestClient, seed: int) -> None:
    ana = api_create(app_client, {"rules": {"setenta": True, "ties": "each"}})
    beto = join(app_client, ana.invite, "Beto")
    ana.command("/start")
    table = _to_round_over([ana, beto], seed)
    last = table["view"]["last_round"]
    state = server_state(app_client, ana.invite)
    assert state is not None
    summary = state.finished_rounds[-1]
    # the API's round score names each side's setenta (null: «coja»)
    assert [s["setenta"] for s in last["sides"]] == [s.setenta for s in summary.scores]
    assert all(s.setenta_rule for s in summary.scores)

    page = TestClient(app_client.app).get(f"/t/{ana.invite}?mirar=1").text
    rows = summary_rows(page)
    assert "Sietes" not in rows
    assert rows["Setenta"] == [
        f"{'coja' if s.setenta is None else s.setenta} → {s.points_sevens}" for s in summary.scores
    ]
    # the lines add up to the round's points
    lines = [k for k in rows if k not in ("Puntos de la ronda", "Total")]
    assert len(lines) == 5  # escobas, cards, diamonds, setenta, the 7 of diamonds
    for side, score in enumerate(summary.scores):
        given = [rows[line][side].split("→")[-1].strip() for line in lines]
        assert sum(int(p) for p in given if p != "—") == score.points
        assert rows["Puntos de la ronda"][side] == str(score.points)
    # the leftover check and the rules in force
    total, fifteens = leftover_check(summary.leftover.cards)
    assert total == 10 + 15 * fifteens
    check = f"Cuenta de los restos: suman {total}" + ("" if fifteens == 0 else " = 10 + ")
    text = text_of(page)
    assert check in text
    assert "Reglas de la casa, a 21 puntos: la setenta, empates: punto para cada uno." in text


def test_the_summary_of_the_site_rules_has_the_sevens_and_the_leftover_check(
    app_client: TestClient,
) -> None:
    ana = api_create(app_client, {})
    beto = join(app_client, ana.invite, "Beto")
    ana.command("/start")
    table = _to_round_over([ana, beto], 5)
    assert "setenta" not in table["view"]["last_round"]["sides"][0]
    state = server_state(app_client, ana.invite)
    assert state is not None
    summary = state.finished_rounds[-1]
    page = TestClient(app_client.app).get(f"/t/{ana.invite}?mirar=1").text
    rows = summary_rows(page)
    assert "Setenta" not in rows
    assert rows["Sietes"] == [f"{s.sevens} → {s.points_sevens}" for s in summary.scores]
    total, fifteens = leftover_check(summary.leftover.cards)
    shown = str(total) if fifteens == 0 else f"{total} = 10 + "
    assert f"Cuenta de los restos: suman {shown}" in text_of(page)
    assert "Reglas del sitio, a 21 puntos." in text_of(page)
    # the replay's end says the same check
    steps = TestClient(app_client.app).get(f"/t/{ana.invite}/ronda/1?paso=999")
    assert steps.status_code == 404  # past the end
    last_step = len(round_story(summary, 2, state.rules).steps) - 1
    end = TestClient(app_client.app).get(f"/t/{ana.invite}/ronda/1?paso={last_step}").text
    assert f"Cuenta de los restos: suman {shown}" in text_of(end)


@pytest.mark.parametrize(
    ("rules", "last_line"),
    [({}, "sevens"), ({"setenta": True, "ties": "each"}, "setenta")],
    ids=["site", "setenta-ties-each"],
)
@pytest.mark.parametrize("seed", [3, 5, 8])
def test_the_apis_round_score_has_the_points_line_by_line(
    app_client: TestClient, rules: dict[str, Any], last_line: str, seed: int
) -> None:
    """The API's round score carries what each line of the summary gave, and
    they add up to the side's points (every answer is also checked against
    the published schema, conftest)."""
    ana = api_create(app_client, {"rules": rules} if rules else {})
    beto = join(app_client, ana.invite, "Beto")
    ana.command("/start")
    last = _to_round_over([ana, beto], seed)["view"]["last_round"]
    state = server_state(app_client, ana.invite)
    assert state is not None
    summary = state.finished_rounds[-1]
    names = ["escobas", "cards", "diamonds", "seven_of_diamonds", last_line]
    for side, score in zip(last["sides"], summary.scores, strict=True):
        lines = side["lines"]
        assert list(lines) == names
        assert sum(lines.values()) == side["points"] == score.points
        assert tuple(lines.values()) == score.line_points
        assert lines["escobas"] == side["escobas"]  # one point an escoba
    # the spectator's view and the seat's say the same
    watcher = TestClient(app_client.app).get(f"/api/tables/{ana.invite}").json()
    assert watcher["view"]["last_round"]["sides"] == last["sides"]


# ---------------------------------------------------------------------------
# The rematch and the record


def test_a_rematch_keeps_the_rules_and_the_record_names_them(app_client: TestClient) -> None:
    rules = {"target": 15, "setenta": True, "ties": "each", "compulsory_capture": True}
    ana = api_create(app_client, {"rules": rules})
    beto = join(app_client, ana.invite, "Beto")
    ana.command("/start")
    final = play_until_over([ana, beto], random.Random(4))
    assert final["view"]["result"]["reason"] == "target"

    record = ana.get("/record")
    assert record["rules"] == SITE | rules and record["target"] == 15
    for rnd in record["rounds"]:
        assert all("setenta" in side for side in rnd["score"]["sides"])
    replayed = eng.replay(record)
    assert replayed.rules.setenta and replayed.result is not None
    assert replayed.totals == tuple(final["view"]["totals"])
    # the file the page offers is the same record
    download = app_client.get(f"/t/{ana.invite}/registro")
    assert download.status_code == 200 and download.json()["rules"] == SITE | rules

    ana.command("/rematch")
    beto.command("/rematch")
    table = ana.table()
    assert table["game_number"] == 2 and table["view"]["rules"] == SITE | rules
    state = server_state(app_client, ana.invite)
    assert state is not None and state.rules == eng.RuleSet.from_dict(SITE | rules)
    # the series (earlier games replayed from the log) counts the first game
    page = TestClient(app_client.app).get(f"/t/{ana.invite}?mirar=1")
    assert page.status_code == 200
    winners = service_of(app_client).pages.page(ana.invite, None).series
    assert winners is not None and winners.games == 1


# ---------------------------------------------------------------------------
# Every combination, played to the end


COMBINATIONS = [
    {"setenta": setenta, "ties": ties, "compulsory_capture": compulsory, "thirty_is_double": double}
    for setenta in (False, True)
    for ties in ("nobody", "each")
    for compulsory in (False, True)
    for double in (True, False)
]


def _combination_id(rules: dict[str, Any]) -> str:
    named = [
        name
        for name, on in (
            ("setenta", rules["setenta"]),
            ("ties_each", rules["ties"] == "each"),
            ("compulsory", rules["compulsory_capture"]),
            ("thirty_single", not rules["thirty_is_double"]),
        )
        if on
    ]
    return "+".join(named) or "site"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("rules", COMBINATIONS, ids=_combination_id)
def test_a_game_under_every_combination_is_played_to_its_end_through_the_api(
    app_client: TestClient, rules: dict[str, Any]
) -> None:
    """Two people play random legal actions to a winner at 15 under the
    combination; every round's score is the engine's under those rules, and
    the record replays under them. (On SQLite: the storage is the same under
    every rule set, and PostgreSQL plays each variant in the tests above.)"""
    named = rules | {"target": 15}
    ana = api_create(app_client, {"rules": named})
    beto = join(app_client, ana.invite, "Beto")
    ana.command("/start")
    final = play_until_over([ana, beto], random.Random(len(str(rules))))
    assert final["status"] == "finished" and final["view"]["result"]["reason"] == "target"
    record = ana.get("/record")
    assert record["rules"] == SITE | named
    replayed = eng.replay(record)
    assert replayed.rules == eng.RuleSet.from_dict(SITE | named)
    assert replayed.totals == tuple(final["view"]["totals"])
    assert max(replayed.totals) >= 15


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_game_with_every_house_rule_is_played_to_its_end_through_the_pages(
    site: TestClient,
) -> None:
    """Ana makes the table on the form with every house rule ticked (to 15),
    Beto sits by the link in his own browser, and they play it to a winner
    through the play forms alone: each move is one the page offers (a card's
    capture groups, or leaving it only where the page allows it: never while
    a capture is compulsory), SIGUIENTE RONDA by its form, until the winner's
    page, whose summary shows la setenta and the leftover check."""
    invite = form_create(
        site,
        target="15",
        setenta="on",
        ties_each="on",
        compulsory_capture="on",
        thirty_single="on",
    )
    ana, beto = site, TestClient(site.app)
    assert beto.post(f"/t/{invite}/join", data={"name": "Beto"}).status_code == 200
    page = ana.get(f"/t/{invite}").text
    assert ana.post(f"/t/{invite}/start", data={"version": version_of(page)}).status_code == 200
    rng = random.Random(15)
    rounds = 0
    for _ in range(2000):
        pages = {who: who.get(f"/t/{invite}").text for who in (ana, beto)}
        if 'id="winner-title"' in pages[ana]:
            break
        who = rng.choice([ana, beto])
        page = pages[who]
        if 'action="/t/' + invite + '/next-round"' in page:
            rounds += 1
            assert "Setenta" in text_of(page) and "Cuenta de los restos:" in text_of(page)
            r = who.post(f"/t/{invite}/next-round", data={"version": version_of(page)})
            assert r.status_code == 200, r.text[:300]
            continue
        if 'data-my-turn="true"' not in page:
            continue
        cards = re.findall(
            r'data-card="(\w+)"[^>]*data-groups=\'([^\']*)\' data-can-leave="(\w+)"', page
        )
        options = [{"card": c, "mode": "leave"} for c, _, leave in cards if leave == "true"]
        for card, groups, _ in cards:
            for group in json.loads(html.unescape(groups)):
                options.append({"card": card, "capture": " ".join(group), "mode": "capture"})
        if any(o["mode"] == "capture" for o in options):
            # compulsory capture: the page never offers to leave a card then
            assert all(o["mode"] == "capture" for o in options), options
        form = rng.choice(options)
        r = who.post(f"/t/{invite}/play", data={"version": version_of(page), **form})
        assert r.status_code == 200 and 'class="alert"' not in r.text, r.text[:500]
    else:
        raise AssertionError("the game did not end")
    final = ana.get(f"/t/{invite}").text
    winner = re.search(r'id="winner-title"[^>]*>(.*?)</h2>', final, re.S)
    assert winner and ("Ana" in winner[1] or "Beto" in winner[1]), final[:500]
    record = site.get(f"/t/{invite}/registro").json()
    assert record["rules"] == SITE | {
        "target": 15,
        "setenta": True,
        "ties": "each",
        "compulsory_capture": True,
        "thirty_is_double": False,
    }
    assert len(record["rounds"]) == rounds + 1
    assert max(eng.replay(record).totals) >= 15
