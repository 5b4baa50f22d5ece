"""The HTML router over a real app and database (SQLite): forms in, pages,
fragments and redirects out; a refused action is a message, never a 500."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from escoba import engine as eng
from escoba.engine import parse_card
from escoba.engine.cards import NOTATION, VALUE
from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.settings import Settings
from escoba.words import say

HX = {"HX-Request": "true"}


def first_legal(robot: str, view: eng.View, rng: random.Random) -> eng.Action:
    return rng.choice(view.legal)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'ui.db'}",
        robot_inline=True,
        robot_delay=0,
        secret_key="ui-test-secret",
    )
    app = create_app(settings, clock=ManualClock(), rng=random.Random(3), brain=first_legal)
    with TestClient(app) as c:
        yield c


def create(client: TestClient, name: str = "Ana") -> str:
    r = client.post("/tables", data={"name": name, "target": "21"}, follow_redirects=False)
    assert r.status_code == 303
    location = r.headers["location"]
    assert re.fullmatch(r"/t/[\w-]+", location)
    return location.rsplit("/", 1)[1]


def version_of(html: str) -> int:
    match = re.search(r'name="version" value="(\d+)"', html)
    assert match, html[:500]
    return int(match.group(1))


def service(client: TestClient):  # type: ignore[no-untyped-def]
    return client.app.state.ctx.service  # type: ignore[attr-defined]


def test_home_and_assets(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "CREAR MESA" in r.text
    css = client.get("/static/escoba.css")
    assert css.status_code == 200 and ".hand-card" in css.text
    assert client.get("/static/escoba.js").status_code == 200
    htmx = client.get("/vendor/htmx.min.js")
    assert htmx.status_code == 200 and "htmx" in htmx.text
    assert htmx.headers["content-type"].startswith("text/javascript")
    sse = client.get("/vendor/htmx-ext-sse.js")
    assert sse.status_code == 200 and "sse" in sse.text
    assert client.get("/vendor/anything.js").status_code == 404


def test_create_then_lobby_robots_and_start(client: TestClient) -> None:
    invite = create(client)
    page = client.get(f"/t/{invite}")
    assert page.status_code == 200
    assert "Mesa a 21 puntos" in page.text and "COPIAR" in page.text
    assert f"http://testserver/t/{invite}" in page.text
    v = version_of(page.text)
    r = client.post(f"/t/{invite}/robots", data={"version": v, "robot": "tito"}, headers=HX)
    assert r.status_code == 200
    assert "<html" not in r.text and "Tito" in r.text and 'id="chat-log"' in r.text
    v = version_of(r.text)
    r = client.post(f"/t/{invite}/start", data={"version": v}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/t/{invite}"
    game = client.get(f"/t/{invite}")
    assert "Ronda 1" in game.text and ("Tu turno" in game.text or "Turno de" in game.text)


def started(client: TestClient) -> str:
    invite = create(client)
    v = version_of(client.get(f"/t/{invite}").text)
    client.post(f"/t/{invite}/robots", data={"version": v, "robot": "carmen"})
    v = version_of(client.get(f"/t/{invite}").text)
    client.post(f"/t/{invite}/start", data={"version": v})
    return invite


def test_play_a_card_through_the_form(client: TestClient) -> None:
    invite = started(client)
    html = client.get(f"/t/{invite}").text
    assert "Tu turno" in html  # robots answer at once: it is Ana's turn again
    hand = re.findall(r'class="card hand-card" data-card="(\w+)"', html)
    groups = re.findall(r"class=\"card hand-card\"[^>]*data-groups='([^']*)'", html)
    assert hand and len(hand) == len(groups)
    v = version_of(html)
    r = client.post(
        f"/t/{invite}/play",
        data={"version": v, "card": hand[0], "capture": "", "mode": "leave"},
        headers=HX,
    )
    assert r.status_code == 200
    assert 'class="alert"' not in r.text, r.text[:400]
    assert version_of(r.text) > v


def test_stale_and_wrong_actions_are_messages(client: TestClient) -> None:
    invite = started(client)
    html = client.get(f"/t/{invite}").text
    hand = re.findall(r'class="card hand-card" data-card="(\w+)"', html)
    v = version_of(html)
    stale = client.post(
        f"/t/{invite}/play",
        data={"version": v - 1, "card": hand[0], "mode": "leave"},
        headers=HX,
    )
    assert stale.status_code == 200 and 'role="alert"' in stale.text
    plain = client.post(
        f"/t/{invite}/play",
        data={"version": v - 1, "card": hand[0], "mode": "leave"},
        follow_redirects=False,
    )
    assert plain.status_code == 409 and 'role="alert"' in plain.text and "<html" in plain.text
    table = re.findall(r'class="card table-card[^"]*" data-card="(\w+)"', html)
    if table:
        # a capture that does not make 15 is refused with words, not a 500
        bad = [c for c in table if eng.parse_card(c).value + eng.parse_card(hand[0]).value != 15]
        if bad:
            r = client.post(
                f"/t/{invite}/play",
                data={"version": v, "card": hand[0], "capture": bad[0], "mode": "capture"},
                headers=HX,
            )
            assert r.status_code == 200 and 'role="alert"' in r.text
    nonsense = client.post(
        f"/t/{invite}/play", data={"version": v, "card": "ZZ", "mode": "leave"}, headers=HX
    )
    assert nonsense.status_code == 200 and "no es una carta" in nonsense.text


def test_visitor_joins_and_spectator_cannot_chat(client: TestClient) -> None:
    invite = create(client)
    visitor = TestClient(client.app)
    page = visitor.get(f"/t/{invite}")
    assert f'action="/t/{invite}/join"' in page.text
    r = visitor.post(f"/t/{invite}/join", data={"name": "Beto"}, follow_redirects=False)
    assert r.status_code == 303 and "device" in r.cookies
    seated = visitor.get(f"/t/{invite}")
    assert "Beto" in seated.text and 'class="chat-form' in seated.text
    said = visitor.post(f"/t/{invite}/chat", data={"text": "<i>hola</i>"}, headers=HX)
    assert said.status_code == 200 and "&lt;i&gt;hola&lt;/i&gt;" in said.text
    watcher = TestClient(client.app)
    refused = watcher.post(f"/t/{invite}/chat", data={"text": "hola"}, headers=HX)
    assert refused.status_code == 200 and 'role="alert"' in refused.text
    assert 'class="chat-form' not in watcher.get(f"/t/{invite}").text


def test_design_switch_is_per_viewer(client: TestClient) -> None:
    invite = started(client)
    r = client.post(f"/t/{invite}/design", data={"design": "spanish"}, headers=HX)
    assert r.status_code == 200 and 'data-card-design="spanish"' in r.text
    assert r.cookies.get("deck") == "spanish"
    assert 'data-card-design="spanish"' in client.get(f"/t/{invite}/board").text
    other = TestClient(client.app)
    assert 'data-card-design="french"' in other.get(f"/t/{invite}/board").text


def test_a_seat_moved_by_code_opens_in_the_browser(client: TestClient) -> None:
    joined = service(client).lobby.create_table("Luz", 31)
    transfers = client.app.state.ctx.transfers  # type: ignore[attr-defined]
    code = transfers.seat_code(joined.invite, joined.token)
    fresh = TestClient(client.app)
    r = fresh.post("/seguir", data={"code": code.code}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/t/{joined.invite}?llegada=1"
    page = fresh.get(f"/t/{joined.invite}").text
    assert "Luz" in page and '<span class="tag tag-you">tú</span>' in page


def test_unknown_table_and_bad_form_are_not_500(client: TestClient) -> None:
    assert client.get("/t/doesnotexist").status_code == 404
    assert client.get("/t/doesnotexist/board").status_code == 404
    r = client.post("/tables", data={"name": "", "target": "21"})
    assert r.status_code in (400, 422) and 'role="alert"' in r.text
    r = client.post("/tables", data={"name": "Ana", "target": "50"})
    assert r.status_code == 422 and "21 o a 31" in r.text


def test_board_fragment_for_htmx(client: TestClient) -> None:
    invite = started(client)
    r = client.get(f"/t/{invite}/board")
    assert r.status_code == 200
    assert r.text.lstrip().startswith('<div class="board')
    assert r.headers["cache-control"] == "no-store"
    legal = {NOTATION[c] for c in range(40)}
    shown = set(re.findall(r'data-card="(\w+)"', r.text))
    assert shown <= legal


def test_a_refused_capture_reaches_the_viewer_in_their_language(client: TestClient) -> None:
    """The engine refuses with a code; the page says it in the viewer's
    language, in the board fragment (HTMX) and on the whole page alike."""
    invite = started(client)
    client.cookies.set("lang", "en")
    html = client.get(f"/t/{invite}").text
    assert "Your turn!" in html
    hand = re.findall(r'class="card hand-card" data-card="(\w+)"', html)
    table = re.findall(r'class="card table-card[^"]*"\s+data-card="(\w+)"', html)
    card, other = next(
        (h, t) for h in hand for t in table if VALUE[parse_card(h)] + VALUE[parse_card(t)] != 15
    )
    total = VALUE[parse_card(card)] + VALUE[parse_card(other)]
    data = {"version": version_of(html), "card": card, "capture": other, "mode": "capture"}
    fragment = client.post(f"/t/{invite}/play", data=data, headers=HX)
    assert fragment.status_code == 200 and "<html" not in fragment.text
    assert f"Those cards add up to {total}, not 15." in fragment.text
    page = client.post(f"/t/{invite}/play", data=data, follow_redirects=False)
    assert page.status_code == 409 and "<html" in page.text
    assert f"Those cards add up to {total}, not 15." in page.text
    client.cookies.set("lang", "pt_BR")
    assert f"Essas cartas somam {total}, não 15." in (
        client.post(f"/t/{invite}/play", data=data, headers=HX).text
    )
    # a form that names no card, or none at all, in the viewer's words too
    client.cookies.set("lang", "en")
    nonsense = {**data, "card": "ZZ"}
    r = client.post(f"/t/{invite}/play", data=nonsense, headers=HX)
    assert escape(say("not_a_card", "en", text="ZZ")) in r.text
    r = client.post(f"/t/{invite}/play", data={**data, "card": ""}, headers=HX)
    assert r.status_code == 200 and say("pick_card", "en") in r.text
    # and a refusal of the service (a stale version)
    r = client.post(f"/t/{invite}/play", data={**data, "version": 1}, headers=HX)
    assert escape(say("stale", "en")) in r.text


def _app(tmp_path: Path, clock: ManualClock, **changed: object) -> TestClient:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'limits.db'}",
        robot_inline=True,
        robot_delay=0,
        secret_key="ui-test-secret",
        **changed,  # type: ignore[arg-type]
    )
    app = create_app(settings, clock=clock, rng=random.Random(3), brain=first_legal)
    return TestClient(app)


def test_the_forms_take_their_lengths_from_the_settings(tmp_path: Path) -> None:
    with _app(tmp_path, ManualClock(), name_max_length=12, chat_max_length=80) as ana:
        assert 'name="name" required maxlength="12"' in ana.get("/").text
        invite = create(ana)
        assert 'name="text" maxlength="80"' in ana.get(f"/t/{invite}").text
        visitor = TestClient(ana.app)
        assert 'name="name" required maxlength="12"' in visitor.get(f"/t/{invite}").text
        too_long = visitor.post(f"/t/{invite}/join", data={"name": "B" * 13})
        assert too_long.status_code == 422 and "máximo 12 letras" in too_long.text
        said = ana.post(f"/t/{invite}/chat", data={"text": "x" * 81}, headers=HX)
        assert "máximo 80 letras" in said.text


def test_the_hours_of_absence_and_days_of_expiry_come_from_the_settings(tmp_path: Path) -> None:
    """With ESCOBA_ABSENCE_HOURS=100, the refusal before them and the notice
    after say 100; with ESCOBA_EXPIRY_DAYS=3, the expired table says 3."""
    clock = ManualClock()
    with _app(tmp_path, clock, absence_hours=100, expiry_days=3) as ana:
        invite = create(ana)
        beto = TestClient(ana.app)
        beto.post(f"/t/{invite}/join", data={"name": "Beto"})
        ana.post(f"/t/{invite}/start", data={"version": version_of(ana.get(f"/t/{invite}").text)})
        pages = {who: who.get(f"/t/{invite}").text for who in (ana, beto)}
        waiting = next(who for who, html in pages.items() if 'data-my-turn="false"' in html)
        clock.advance(hours=50)
        v = version_of(pages[waiting])
        early = waiting.post(f"/t/{invite}/absence", data={"version": v}, follow_redirects=False)
        assert early.status_code == 409
        assert "el jugador de turno tiene 100 horas para jugar" in early.text
        waiting.cookies.set("lang", "en")
        fragment = waiting.post(f"/t/{invite}/absence", data={"version": v}, headers=HX)
        assert escape(say("not_absent", "en", hours=100)) in fragment.text
        waiting.cookies.set("lang", "es")
        clock.advance(hours=51)
        notice = waiting.get(f"/t/{invite}").text
        assert "lleva más de 100 horas sin jugar." in notice and "48 horas" not in notice
        ended = waiting.post(f"/t/{invite}/absence", data={"version": version_of(notice)})
        assert ended.status_code == 200 and "no jugó en más de 100 horas." in ended.text
        waiting.cookies.set("lang", "en")
        assert "did not play for more than 100 hours." in waiting.get(f"/t/{invite}").text
        waiting.cookies.set("lang", "es")
        # another table, left alone for the expiry days
        other = create(ana, "Ana")
        clock.advance(days=4)
        assert service(ana).jobs.expire() >= 1
        expired = ana.get(f"/t/{other}").text
        assert "Pasaron 3 días sin jugadas" in expired


def _error_page_in(response: object, code: str, lang: str, status: int) -> None:
    r = response
    assert r.status_code == status, r.text[:300]  # type: ignore[attr-defined]
    assert r.headers["content-type"].startswith("text/html")  # type: ignore[attr-defined]
    html_lang = {"en": "en", "pt_BR": "pt-BR", "es": "es"}[lang]
    assert f'<html lang="{html_lang}">' in r.text  # type: ignore[attr-defined]
    assert escape(say(code, lang)) in r.text  # type: ignore[attr-defined]


def test_the_app_s_own_error_pages_speak_the_viewer_s_language(client: TestClient) -> None:
    """Not the routes' refusals: what the app answers for them — an unknown
    table's live stream, a page that does not exist, a wrong method, a form
    FastAPI could not read, a bug — a page in the viewer's language."""
    client.cookies.set("lang", "en")
    _error_page_in(client.get("/t/XXXXXXXX/events"), "no_table", "en", 404)
    _error_page_in(client.get("/no/such/page"), "page_not_found", "en", 404)
    wrong = client.get("/t/XXXXXXXX/play")
    _error_page_in(wrong, "wrong_method", "en", 405)
    assert "POST" in wrong.headers["allow"]
    invite = create(client)
    bad = client.post(f"/t/{invite}/play", data={"version": "many"})
    _error_page_in(bad, "bad_form", "en", 422)
    # no cookie: the browser's Accept-Language
    browser = TestClient(client.app)
    lost = browser.get("/no/such/page", headers={"accept-language": "pt-BR,pt;q=0.9"})
    _error_page_in(lost, "page_not_found", "pt_BR", 404)
    # the API keeps its own shape
    api = browser.get("/api/no/such/thing")
    assert api.status_code == 404 and api.json()["error"] == "not_found"


def test_a_bug_is_a_page_in_the_viewer_s_language(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    invite = create(client)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(service(client).pages, "page", broken)
    visitor = TestClient(client.app, raise_server_exceptions=False)
    visitor.cookies.set("lang", "en")
    _error_page_in(visitor.get(f"/t/{invite}"), "server_error", "en", 500)
    api = visitor.get(f"/api/tables/{invite}")
    assert api.status_code == 500 and api.text == "Internal Server Error"


def test_a_browser_that_asks_for_es_ar_reads_the_voseo(client: TestClient) -> None:
    """Accept-Language es-AR (or es-UY): the voseo, `<html lang="es-AR">`;
    the switch shows «Español» chosen, and pressing it keeps the voseo; the
    English button and back to «Español» come back to it too."""
    argentine = {"Accept-Language": "es-AR,es;q=0.9"}
    home = client.get("/", headers=argentine).text
    assert '<html lang="es-AR">' in home and "Creá una mesa" in home
    invite = create(client)
    table = client.get(f"/t/{invite}", headers={"Accept-Language": "es-UY"}).text
    assert '<html lang="es-AR">' in table and "Mandá el enlace o sumá un robot" in table
    for button, lang in (("en", "en"), ("es", "es_AR"), ("es_AR", "es_AR")):
        r = client.post(
            "/lang", data={"lang": button, "next": "/"}, headers=argentine, follow_redirects=False
        )
        assert r.status_code == 303 and f"lang={lang};" in r.headers["set-cookie"]
    # a cookie of es_AR wins over a browser that asks for Spain's Spanish
    client.cookies.set("lang", "es_AR")
    assert "Si vaciás la mesa" in client.get("/", headers={"Accept-Language": "es-ES"}).text
    client.cookies.set("lang", "es")
    assert "Si vacías la mesa" in client.get("/", headers=argentine).text
