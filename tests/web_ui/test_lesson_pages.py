"""«Aprender a jugar» over HTTP (web/html/lesson_routes.py): each stage's
page shows its position on the table's board; a right answer is said so
and leads on, a wrong one says why and shows the position again; a forged
post gets a clear message, never a 500 and never a change; the last stage
offers a first game against Tito with the coach on."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from sqlalchemy import func, select

from escoba.engine import Claim, Play, legal_actions
from escoba.lessons import STAGES, Stage, answer_of, judge, judge_answer, position
from escoba.names import Design
from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.models import TableRow
from escoba.web.base.settings import Settings
from escoba.web.rendering.lesson import verdict_text
from escoba.words import say

PLAYS = [(n, s) for n, s in enumerate(STAGES, 1) if s.question is None]
LAST = len(STAGES)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the module: a lesson is stateless, and the tests that
    make a table count the tables before and after."""
    db = tmp_path_factory.mktemp("lesson") / "lesson.db"
    settings = Settings(
        database_url=f"sqlite:///{db}",
        robot_inline=True,
        robot_delay=0,
        secret_key="lesson-test-secret",
    )
    app = create_app(settings, clock=ManualClock(), rng=random.Random(5))
    with TestClient(app) as c:
        yield c


def form_of(action: Play | Claim) -> dict[str, str]:
    """The lesson's forms as the page script fills them."""
    if isinstance(action, Claim):
        return {"kind": "claim", "group": " ".join(str(c) for c in action.group)}
    if not action.capture:
        return {"kind": "play", "card": str(action.card), "mode": "leave"}
    capture = " ".join(str(c) for c in action.capture)
    return {"kind": "play", "card": str(action.card), "capture": capture, "mode": "capture"}


def said(stage: Stage, action: Play | Claim, lang: str = "es") -> str:
    """The verdict's sentence as the page writes it (French deck: the default)."""
    return str(verdict_text(judge(stage, action), Design.FRENCH, lang))


def table_count(client: TestClient) -> int:
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    with ctx.service.db.read_engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(TableRow)).scalar_one())


def test_the_home_page_leads_to_the_lesson_and_the_lesson_to_its_stages(
    client: TestClient,
) -> None:
    home = client.get("/")
    assert 'href="/aprender"' in home.text and "Aprender a jugar" in home.text
    index = client.get("/aprender")
    assert index.status_code == 200
    for n in range(1, LAST + 1):
        assert f'href="/aprender/{n}"' in index.text


@pytest.mark.parametrize(("number", "stage"), PLAYS, ids=[s.key for _, s in PLAYS])
def test_a_stage_shows_its_position_on_the_board_that_takes_taps(
    client: TestClient, number: int, stage: Stage
) -> None:
    page = client.get(f"/aprender/{number}")
    assert page.status_code == 200
    html = page.text
    assert f"Etapa {number} de {LAST}" in html
    assert f'href="/reglas#{stage.anchor}"' in html
    # the table's board: the hand with its groups (the engine's), the table,
    # the forms the page script fills, posting back here
    for card in stage.hand:
        assert re.search(rf'class="card hand-card" data-card="{card}"', html)
    for card in stage.table:
        assert re.search(rf'class="card table-card[^"]*"\s+data-card="{card}"', html)
    assert f'id="play-form" class="play-form" method="post" action="/aprender/{number}"' in html
    assert 'id="lesson-verdict"' not in html
    assert ('id="claim-form"' in html) == (stage.left is not None)


@pytest.mark.parametrize(("number", "stage"), PLAYS, ids=[s.key for _, s in PLAYS])
def test_the_right_play_is_said_right_and_leads_to_the_next_stage(
    client: TestClient, number: int, stage: Stage
) -> None:
    before = table_count(client)
    for action in stage.right:
        page = client.post(f"/aprender/{number}", data=form_of(action))
        assert page.status_code == 200
        assert "lesson-verdict is-right" in page.text
        assert said(stage, action) in page.text
        assert f'id="lesson-next" href="/aprender/{number + 1}"' in page.text
        # the play made: the board takes no more taps
        assert 'id="play-form"' not in page.text
        assert 'class="card hand-card"' not in page.text or " disabled>" in page.text
    assert table_count(client) == before  # a lesson writes nothing


@pytest.mark.parametrize(("number", "stage"), PLAYS, ids=[s.key for _, s in PLAYS])
def test_a_wrong_play_says_why_and_shows_the_position_again(
    client: TestClient, number: int, stage: Stage
) -> None:
    wrong = [a for a in legal_actions(position(stage)) if a not in stage.right]
    assert wrong
    for action in wrong:
        page = client.post(f"/aprender/{number}", data=form_of(action))
        assert page.status_code == 200
        assert "lesson-verdict is-wrong" in page.text
        assert said(stage, action) in page.text
        assert "Prueba otra vez" in page.text
        assert 'id="lesson-next"' not in page.text
        assert f'action="/aprender/{number}"' in page.text  # the position again, to try


def test_the_wrong_groups_play_names_the_better_group() -> None:
    stage = STAGES[1]
    fewer = stage.wrong[0][0]
    text = said(stage, fewer)
    assert "el 3 de picas y el 7 de diamantes" in text and "el 7 de diamantes" in text


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"kind": "play", "card": "9C", "mode": "leave"}, say("not_in_hand", "es", card="9C")),
        ({"kind": "play", "card": "7Z", "mode": "leave"}, say("not_a_card", "es", text="7Z")),
        (
            {"kind": "play", "card": "7H", "capture": "4D", "mode": "capture"},
            say("not_fifteen", "es", sum=11),
        ),
        ({"kind": "play", "card": "", "mode": "leave"}, say("pick_card", "es")),
        ({"kind": "claim", "group": "8S"}, say("no_fifteen", "es")),
        ({"kind": "dance"}, say("bad_form", "es")),
        ({}, say("bad_form", "es")),
    ],
)
def test_a_forged_post_is_refused_with_a_clear_message(
    client: TestClient, form: dict[str, str], message: str
) -> None:
    page = client.post("/aprender/1", data=form)
    assert page.status_code == 422
    assert str(escape(message)) in page.text
    assert 'id="lesson-verdict"' not in page.text
    assert 'id="play-form"' in page.text  # the stage as it was


def test_a_claim_where_the_stage_has_another_card_left_is_refused(client: TestClient) -> None:
    page = client.post("/aprender/4", data={"kind": "claim", "group": "5S"})
    assert page.status_code == 422
    assert str(escape(say("not_fifteen", "es", sum=12))) in page.text


@pytest.mark.parametrize("path", ["/aprender/0", "/aprender/8", "/aprender/99"])
def test_no_such_stage(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404
    assert client.post(path, data={"kind": "answer", "answer": "1"}).status_code == 404
    assert client.get("/aprender/uno").status_code == 404


def test_reading_the_points_right_says_why_line_by_line_and_offers_a_game(
    client: TestClient,
) -> None:
    page = client.get(f"/aprender/{LAST}")
    assert page.status_code == 200
    assert "¿Cuántos puntos hiciste tú en esta ronda?" in page.text
    assert 'class="line-points"' not in page.text  # the points are the question
    assert 'id="lesson-play-tito"' not in page.text
    stage = STAGES[-1]
    right = answer_of(stage)
    page = client.post(f"/aprender/{LAST}", data={"kind": "answer", "answer": str(right)})
    assert page.status_code == 200
    assert "lesson-verdict is-right" in page.text
    assert f"¡Bien! Hiciste {right} puntos en esta ronda." in page.text
    assert "Más cartas: 28 contra 12, 1 punto para ti." in page.text
    assert "Más sietes: 1 contra 3, 1 punto para" in page.text
    assert 'class="line-points"' in page.text  # now the summary shows them
    assert 'id="lesson-play-tito"' in page.text


def test_reading_the_points_wrong_says_how_to_count(client: TestClient) -> None:
    stage = STAGES[-1]
    wrong = (answer_of(stage) + 1) % len(stage.choices)
    page = client.post(f"/aprender/{LAST}", data={"kind": "answer", "answer": str(wrong)})
    assert page.status_code == 200
    assert "lesson-verdict is-wrong" in page.text
    text = str(verdict_text(judge_answer(stage, wrong), Design.FRENCH, "es"))
    assert text in page.text and "Cuenta línea por línea" in text
    assert 'id="lesson-play-tito"' not in page.text


@pytest.mark.parametrize("answer", ["", "99", "-1", "cuatro", "4.0"])
def test_a_forged_answer_is_refused(client: TestClient, answer: str) -> None:
    page = client.post(f"/aprender/{LAST}", data={"kind": "answer", "answer": answer})
    assert page.status_code == 422
    assert say("bad_form", "es") in page.text


def test_the_last_stage_starts_a_game_against_tito_with_the_coach_on(
    client: TestClient,
) -> None:
    answer = client.post("/aprender/jugar", data={"name": "Ana"}, follow_redirects=False)
    assert answer.status_code == 303
    invite = answer.headers["location"].rsplit("/", 1)[1]
    service = client.app.state.ctx.service  # type: ignore[attr-defined]
    table = client.get(f"/t/{invite}")
    assert table.status_code == 200
    page = service.pages.page(invite, None)
    assert [(s.name, s.robot) for s in page.seats] == [("Ana", None), ("Tito", "tito")]
    assert page.view is not None and page.target == 21  # the game started, to 21
    # the coach, on for Ana's seat (her page, by the cookie the answer set)
    assert 'id="coach"' in table.text and "Ana" in table.text


def test_the_game_needs_a_name_and_says_so(client: TestClient) -> None:
    before = table_count(client)
    page = client.post("/aprender/jugar", data={"name": "  "})
    assert page.status_code == 422
    assert say("empty_name", "es") in page.text
    assert 'id="lesson-play-tito"' in page.text  # the offer again
    assert table_count(client) == before


def test_the_stage_speaks_the_viewer_s_language(client: TestClient) -> None:
    stage = STAGES[0]
    for lang, words in (("en", "Stage 1 of 7"), ("pt_BR", "Etapa 1 de 7")):
        client.cookies.set("lang", lang)
        page = client.post("/aprender/1", data=form_of(stage.right[0]))
        assert words in page.text
        assert said(stage, stage.right[0], lang) in page.text
    client.cookies.delete("lang")
