"""Names and chat that could deceive: a name others cannot see, a name that
passes for a robot or for someone already at the table, and a chat line that
turns around what follows it. Each is refused (or cleaned) through the service
and through HTTP, and changes nothing; every name and chat line is isolated in
the pages, and robots are marked wherever seats are shown."""

from __future__ import annotations

import random
import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, update

from escoba.bots import SEATABLE
from escoba.web.app import create_app
from escoba.web.clock import ManualClock
from escoba.web.errors import Conflict, Invalid
from escoba.web.models import ChatRow, SeatRow
from escoba.web.service import TableService
from escoba.web.settings import Settings
from escoba.web.spoofing import (
    has_visible_letter_or_digit,
    look_alike,
    looks_like_a_robot,
    skeleton,
    strip_bidi_controls,
)

from .conftest import first_legal
from .helpers import create, join, page_table, service_of, table_version

INVISIBLE = [
    "\u200d",  # ZERO WIDTH JOINER alone
    "\u3164",  # HANGUL FILLER: a «letter» that draws nothing
    "\u2800",  # BRAILLE PATTERN BLANK
    "\u115f\u1160",  # the other Hangul fillers
    "\uffa0",  # HALFWIDTH HANGUL FILLER
    "\u3164 \u2800",
    "👩\u200d💻",  # an emoji: visible, but no letter or digit to call someone by
    "...",
]
LOOKALIKES_OF_ANA = [
    "Ana",  # the same
    "\u0410na",  # Cyrillic А
    "\uff21\uff4e\uff41",  # fullwidth Ａｎａ
    "ANA",
    "ana",
    "Ana\u200d",  # an invisible joiner at the end
]
ROBOTISH = [
    "Luna",
    "Luna (robot)",
    "LUNA",
    "luna",
    "L u n a",
    "\uff2c\uff55\uff4e\uff41",  # fullwidth Ｌｕｎａ
    "Lun\u0430",  # Cyrillic а
    "Lunabot",
    "Tito",
    "T\u0456to",  # Cyrillic і
    "Carmen",
    "Carrnen",  # rn reads as m
    "Ana (robot)",
    "Ana bot",
    "Robotina",
    "Pedro robô",
]
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


# ---------------------------------------------------------------------------
# The rules themselves


def test_visible_letter_or_digit() -> None:
    for name in INVISIBLE:
        assert not has_visible_letter_or_digit(name), repr(name)
    for name in ("Ana", "42", "Ana 👩\u200d💻", "李", "أحمد", "Zoë"):
        assert has_visible_letter_or_digit(name), name


def test_skeletons_come_from_unicode_confusables() -> None:
    assert skeleton("\u0410na") == skeleton("Ana") == skeleton("\uff21na")
    assert skeleton("m") == skeleton("rn")  # confusables.txt: m → rn
    assert skeleton("I") == skeleton("l") == skeleton("1")
    assert skeleton("Ana\u200d\ufe0f") == skeleton("Ana")  # invisible ones dropped
    assert skeleton("José") != skeleton("Jose")  # an accent shows


def test_lookalike_names() -> None:
    for name in LOOKALIKES_OF_ANA:
        assert look_alike(name, "Ana"), repr(name)
    for name in ("Anabel", "Ana María", "Aña", "Eva", "Dani"):
        assert not look_alike(name, "Ana"), name


def test_robot_lookalikes() -> None:
    robots = [robot.display_name for robot in SEATABLE.values()]
    for name in ROBOTISH:
        assert looks_like_a_robot(name, robots), repr(name)
    for name in ("Ana", "Luna María", "Roberto", "Talbot", "Bottini", "Titania", "Carla"):
        assert not looks_like_a_robot(name, robots), name


def test_bidi_controls_are_stripped_and_marks_kept() -> None:
    assert strip_bidi_controls(f"a{BIDI_CONTROLS}b") == "ab"
    assert strip_bidi_controls("שלום\u200f!") == "שלום\u200f!"  # RLM: right-to-left writers need it
    assert strip_bidi_controls("plain ascii") == "plain ascii"


# ---------------------------------------------------------------------------
# Through the service


def _service(client: TestClient) -> TableService:
    return service_of(client)


def _refused(call: object, error: type[Exception], code: str) -> None:
    with pytest.raises(error) as caught:
        call()  # type: ignore[operator]
    assert getattr(caught.value, "code", None) == code
    assert re.search(r"[a-záéíóú]", getattr(caught.value, "message", ""))  # Spanish words


def test_service_refuses_invisible_and_robot_names(app_client: TestClient) -> None:
    service = _service(app_client)
    invite = service.create_table("Ana", 21).invite
    version = service.version(invite)
    for name in INVISIBLE:
        _refused(lambda n=name: service.create_table(n, 21), Invalid, "invisible_name")
        _refused(lambda n=name: service.join(invite, n), Invalid, "invisible_name")
    for name in ROBOTISH:
        _refused(lambda n=name: service.create_table(n, 21), Invalid, "robot_name")
        _refused(lambda n=name: service.join(invite, n), Invalid, "robot_name")
    assert service.version(invite) == version
    assert [s.name for s in service.page(invite, None).seats] == ["Ana"]


def test_service_refuses_a_name_like_one_at_the_table(app_client: TestClient) -> None:
    service = _service(app_client)
    invite = service.create_table("Ana", 21).invite
    version = service.version(invite)
    for name in LOOKALIKES_OF_ANA:
        _refused(lambda n=name: service.join(invite, n), Conflict, "name_taken")
    assert service.version(invite) == version
    service.join(invite, "Beto")
    _refused(lambda: service.join(invite, "B\u0435to"), Conflict, "name_taken")  # Cyrillic е
    _refused(lambda: service.join(invite, "BETO"), Conflict, "name_taken")
    service.join(invite, "Anabel")  # near, but it reads differently
    assert [s.name for s in service.page(invite, None).seats] == ["Ana", "Beto", "Anabel"]
    # a name taken at one table is free at another
    other = service.create_table("Beto", 21).invite
    service.join(other, "Ana")


def test_no_robot_sits_beside_a_person_named_like_it(
    settings: Settings, clock: ManualClock
) -> None:
    """A name kept from before these rules («Luna» was allowed) does not get
    a robot Luna beside it; the other robots may still sit."""
    app = create_app(settings, clock=clock, rng=random.Random(5), brain=first_legal)
    with TestClient(app) as client:
        ana = create(client, "Ana")
        join(client, ana.invite, "Beto")
    engine = create_engine(settings.sqlalchemy_url)
    with engine.begin() as conn:
        conn.execute(update(SeatRow).where(SeatRow.name == "Beto").values(name="Luna"))
    engine.dispose()
    app = create_app(settings, clock=clock, rng=random.Random(5), brain=first_legal)
    with TestClient(app) as client:
        ana.client = client
        version = ana.table()["version"]
        r = client.post(
            f"/api/tables/{ana.invite}/robots",
            json={"version": version, "robot": "luna"},
            headers=ana.headers,
        )
        _api_refused(r, 409, "name_taken")
        assert ana.table()["version"] == version
        ana.command("/robots", robot="tito")
        assert [s["name"] for s in ana.table()["seats"]] == ["Ana", "Luna", "Tito"]


def test_service_strips_bidi_controls_from_chat(app_client: TestClient) -> None:
    service = _service(app_client)
    joined = service.create_table("Ana", 21)
    service.chat(joined.invite, joined.token, "perdí \u202e21:00 a las\u202c, ¿no?")
    service.chat(joined.invite, joined.token, f"x{BIDI_CONTROLS}y \u2067שלום\u2069")
    texts = [line.text for line in service.chat_lines(joined.invite)]
    assert texts == ["perdí 21:00 a las, ¿no?", "xy שלום"]
    _refused(
        lambda: service.chat(joined.invite, joined.token, BIDI_CONTROLS), Invalid, "empty_chat"
    )


def test_chat_lines_kept_before_the_cleaning_are_shown_clean(app_client: TestClient) -> None:
    service = _service(app_client)
    joined = service.create_table("Ana", 21)
    table_id = service.table_id(joined.invite)
    with service.db.write() as conn:
        conn.execute(
            insert(ChatRow),
            {
                "table_id": table_id,
                "position": 0,
                "name": "Ana",
                "text": "hola \u202eodnum",
                "created_at": service.clock.now(),
            },
        )
    assert [line.text for line in service.chat_lines(joined.invite)] == ["hola odnum"]
    r = app_client.get(f"/api/tables/{joined.invite}/chat")
    assert [line["text"] for line in r.json()] == ["hola odnum"]


# ---------------------------------------------------------------------------
# Through HTTP: the JSON API


def _api_refused(r: object, status: int, code: str) -> None:
    assert r.status_code == status, r.text  # type: ignore[attr-defined]
    data = r.json()  # type: ignore[attr-defined]
    assert data["error"] == code and data["message"], data


def test_api_refuses_invisible_robot_and_lookalike_names(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    version = ana.table()["version"]
    for name in INVISIBLE:
        r = app_client.post("/api/tables", json={"name": name, "target": 21})
        _api_refused(r, 422, "invisible_name")
        r = app_client.post(f"/api/tables/{ana.invite}/seats", json={"name": name})
        _api_refused(r, 422, "invisible_name")
    for name in ("Luna", "Luna (robot)", "Ｔｉｔｏ", "Carrnen"):
        r = app_client.post("/api/tables", json={"name": name, "target": 21})
        _api_refused(r, 422, "robot_name")
        r = app_client.post(f"/api/tables/{ana.invite}/seats", json={"name": name})
        _api_refused(r, 422, "robot_name")
    for name in LOOKALIKES_OF_ANA:
        r = app_client.post(f"/api/tables/{ana.invite}/seats", json={"name": name})
        _api_refused(r, 409, "name_taken")
    assert ana.table()["version"] == version
    assert [s["name"] for s in ana.table()["seats"]] == ["Ana"]
    join(app_client, ana.invite, "Beto")


def test_api_chat_loses_its_bidi_controls(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    ana.post("/chat", {"text": "gané \u202e!odot"}, expect=201)
    assert [line["text"] for line in ana.get("/chat")] == ["gané !odot"]


# ---------------------------------------------------------------------------
# Through HTTP: the pages


def test_pages_refuse_the_same_names_with_a_clear_message(site: TestClient) -> None:
    r = site.post("/tables", data={"name": "\u3164", "target": "21"})
    assert r.status_code == 422 and "al menos una letra o un número" in r.text
    r = site.post("/tables", data={"name": "Luna (robot)", "target": "21"})
    assert r.status_code == 422 and "Ese nombre es de robot" in r.text
    invite = page_table(site, "Ana")
    version = table_version(site, invite)
    visitor = TestClient(site.app)
    r = visitor.post(f"/t/{invite}/join", data={"name": "\u0410na"})
    assert r.status_code == 409 and "Ya hay alguien en la mesa con ese nombre" in r.text
    r = visitor.post(f"/t/{invite}/join", data={"name": "Luna"})
    assert r.status_code == 422 and "Ese nombre es de robot" in r.text
    assert table_version(site, invite) == version
    visitor.cookies.set("lang", "en")
    r = visitor.post(f"/t/{invite}/join", data={"name": "\uff21\uff4e\uff41"})
    assert r.status_code == 409 and "Someone at the table already has that name" in r.text
    assert table_version(site, invite) == version


def _section(html: str, start: str, end: str) -> str:
    i = html.index(start)
    return html[i : html.index(end, i)]


def test_names_and_chat_are_isolated_and_robots_marked(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    site.post(f"/t/{invite}/robots", data={"version": table_version(site, invite), "robot": "tito"})
    site.post(f"/t/{invite}/chat", data={"text": "hola \u202e00:21"})
    lobby = site.get(f"/t/{invite}").text
    seats = _section(lobby, '<ol class="seats-lobby">', "</ol>")
    assert '<bdi class="who">Ana</bdi>' in seats and '<bdi class="who">Tito</bdi>' in seats
    chat = _section(lobby, '<ol id="chat-log"', "</ol>")
    assert '<b class="chat-name"><bdi>Ana</bdi></b>' in chat
    assert '<bdi class="chat-text">hola 00:21</bdi>' in chat  # isolated, and no override left
    assert "\u202e" not in lobby

    site.post(f"/t/{invite}/start", data={"version": table_version(site, invite)})
    for page in (site.get(f"/t/{invite}").text, site.get(f"/t/{invite}/board").text):
        seats = _section(page, '<ul class="seats"', "</ul>")
        tito = _section(seats, 'data-seat="1"', "</li>")
        assert '<bdi class="who">Tito</bdi> <span class="tag tag-robot">robot</span>' in tito
        ana = _section(seats, 'data-seat="0"', "</li>")
        assert '<bdi class="who">Ana</bdi>' in ana and "tag-robot" not in ana
        recent = _section(page, '<ol class="recent-list">', "</ol>")
        assert '<bdi class="who">Tito</bdi> <span class="tag tag-robot">' in recent
        totals = _section(page, '<span class="totals"', "</span>\n")
        assert '<bdi class="who">Ana</bdi>' in totals
