"""Issue 34, item 6: what a form of the table page answers is said beside
that form. A refused chat line under the chat (it was said on top of the
board, a thousand pixels above the chat box on a phone), an oversize line
refused in words whatever its length (a line over 2,000 letters was a 422
page, which HTMX does not show), GUARDAR in «Avisos» saying what it kept;
and no «El análisis de Luna» heading over nothing after ABANDONAR."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.settings import Settings
from escoba.words import say

from .conftest import text_of
from .test_html_routes import HX, create, first_legal, started, version_of


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'said.db'}",
        robot_inline=True,
        robot_delay=0,
        secret_key="ui-test-secret",
        chat_max_length=120,
    )
    app = create_app(settings, clock=ManualClock(), rng=random.Random(3), brain=first_legal)
    with TestClient(app) as c:
        yield c


def _said(fragment: str) -> str:
    """What the answer says beside the chat: its out-of-band #chat-said."""
    found = re.search(
        r'<div class="chat-said" id="chat-said" hx-swap-oob="true">(.*?)</div>', fragment, re.S
    )
    assert found, fragment[-1500:]
    return found.group(1)


def _board(fragment: str) -> str:
    return fragment[: fragment.index('id="chat-log"')]


def _lines(client: TestClient, invite: str) -> int:
    return len(client.get(f"/api/tables/{invite}/chat").json())


def test_a_refused_chat_line_is_said_beside_the_chat_not_on_the_board(client: TestClient) -> None:
    invite = create(client)
    r = client.post(f"/t/{invite}/chat", data={"text": "   "}, headers=HX)
    assert r.status_code == 200
    said = _said(r.text)
    assert 'role="alert"' in said and text_of(said) == say("empty_chat", "es")
    assert say("empty_chat", "es") not in text_of(_board(r.text))
    # a line sent clears it
    sent = client.post(f"/t/{invite}/chat", data={"text": "hola"}, headers=HX)
    assert text_of(_said(sent.text)) == ""
    # an answer of another form carries no #chat-said: a refusal stays said
    other = client.get(f"/t/{invite}/board", headers=HX)
    assert 'id="chat-said"' not in other.text
    # without a script, the page says it under the chat too
    plain = client.post(f"/t/{invite}/chat", data={"text": " "}, follow_redirects=False)
    page = plain.text
    assert plain.status_code == 422 and 'class="alert chat-error"' in page
    assert page.index('id="chat-text"') < page.index(say("empty_chat", "es")), "under the line"


@pytest.mark.parametrize("length", [121, 2000, 5000])
def test_an_oversize_line_is_refused_in_words_at_any_length(
    client: TestClient, length: int
) -> None:
    """The limit is the settings' (120 here), said in the sentence; a line
    over the form's old 2,000 got FastAPI's 422 page, which HTMX drops."""
    invite = create(client)
    before = _lines(client, invite)
    r = client.post(f"/t/{invite}/chat", data={"text": "x" * length}, headers=HX)
    assert r.status_code == 200
    assert text_of(_said(r.text)) == say("chat_too_long", "es", limit=120)
    assert "máximo 120 letras" in text_of(_said(r.text))
    assert _lines(client, invite) == before
    client.cookies.set("lang", "en")
    r = client.post(f"/t/{invite}/chat", data={"text": "x" * length}, headers=HX)
    assert text_of(_said(r.text)) == say("chat_too_long", "en", limit=120)


def test_the_api_refuses_an_oversize_line_in_words_at_any_length(client: TestClient) -> None:
    made = client.post("/api/tables", json={"name": "Ana"}).json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    for length in (121, 2500):
        r = client.post(
            f"/api/tables/{made['invite']}/chat", json={"text": "x" * length}, headers=auth
        )
        assert r.status_code == 422
        assert r.json() == {
            "error": "chat_too_long",
            "message": say("chat_too_long", "es", limit=120),
        }
    assert client.get(f"/api/tables/{made['invite']}/chat").json() == []


def test_the_chat_line_carries_its_limit_and_a_counter(client: TestClient) -> None:
    invite = create(client)
    page = client.get(f"/t/{invite}").text
    assert 'maxlength="120" data-max-length="120"' in page
    assert 'id="chat-count"' in page and 'aria-describedby="chat-count"' in page
    # the script's words: the left and over counts, and the server's refusal
    found = re.search(r'data-messages="([^"]*)"', page)
    assert found
    words = json.loads(html.unescape(found.group(1)))
    assert (
        words["chatLeftMany"] == "Quedan {n} letras." and words["chatOverOne"] == "Sobra 1 letra."
    )
    assert words["chatTooLong"] == say("chat_too_long", "es", limit=120)


@pytest.mark.parametrize(
    ("lang", "kinds", "words"),
    [
        (
            "es",
            ["turn", "end"],
            "Guardado: cuando la mesa no esté abierta, te avisaremos de Mi turno y "
            "Fin de la partida.",
        ),
        ("es", [], "Guardado: no te avisaremos de nada cuando la mesa no esté abierta."),
        (
            "en",
            ["turn", "chat"],
            "Saved: when the table is not open, we will notify you of My turn and Chat.",
        ),
        (
            "pt_BR",
            ["round"],
            "Salvo: quando a mesa não estiver aberta, avisaremos você de PRÓXIMA RODADA.",
        ),
    ],
)
def test_guardar_says_what_it_kept(
    client: TestClient, lang: str, kinds: list[str], words: str
) -> None:
    invite = started(client)
    client.cookies.set("lang", lang)
    r = client.post(f"/t/{invite}/notices", data={"kinds": kinds}, headers=HX)
    assert r.status_code == 200
    said = re.search(r'<p class="notice-said" id="notice-said" role="status">(.*?)</p>', r.text)
    assert said and text_of(said.group(1)) == words
    # said in «Avisos», under GUARDAR: not on the board's top
    assert r.text.index('id="notice-save"') < r.text.index('id="notice-said"')
    assert 'class="alert"' not in r.text
    # said once: the next board (a live update) does not say it again
    assert 'id="notice-said"' not in client.get(f"/t/{invite}/board", headers=HX).text


def test_a_refused_notices_form_is_said_in_avisos(client: TestClient) -> None:
    invite = started(client)
    r = client.post(f"/t/{invite}/notices", data={"kinds": ["nonsense"]}, headers=HX)
    assert r.status_code == 200
    body = r.text[r.text.index('id="notice-save"') :]
    assert 'class="alert notice-said" role="alert"' in body


def test_no_analysis_heading_after_abandon_before_a_round_ended(client: TestClient) -> None:
    """A game abandoned in its first round has no round to weigh: the game's
    end shows no «El análisis de Luna» over nothing."""
    invite = started(client)
    v = version_of(client.get(f"/t/{invite}").text)
    assert client.post(f"/t/{invite}/leave", data={"version": v}).status_code in (200, 303)
    page = client.get(f"/t/{invite}").text
    assert 'class="panel winner"' in page and "/analisis" not in page
    block = client.get(f"/t/{invite}/analisis")
    assert block.status_code == 200
    assert "El análisis de Luna" not in block.text and text_of(block.text) == ""
