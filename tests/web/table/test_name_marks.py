"""Names that differ from another seat's only by accents, a ring or
punctuation (issue 37, point 5) read as the same name at a glance: «Aná»,
«Åna», «Ana.» beside «Ana», «Lúna» beside the robot Luna. They are refused
at one table as the Cyrillic twins are (their skeletons compared without
marks and punctuation), while names with letters of their own stay apart."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, update

from escoba.bots import SEATABLE
from escoba.spoofing import look_alike, looks_like_a_robot
from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.errors import Conflict, Invalid
from escoba.web.base.models import SeatRow
from escoba.web.base.settings import Settings

from ..conftest import first_legal
from ..helpers import create, join, page_table, service_of, table_version

TWINS_OF_ANA = [
    "An\u00e1",  # Aná, composed
    "Ana\u0301",  # Aná, a combining acute
    "\u00c5na",  # Åna, a ring
    "\u212bna",  # Ångström sign, a ring too
    "Ana.",
    "A.n.a",
    "¡Ana!",
    "Ana-",
    "\u00c1NA",  # ÁNA
    "A\u00f1a",  # Aña: a tilde is a mark as well
    "\u0410n\u00e1",  # Cyrillic А and an accent
]
ROBOT_TWINS = ["L\u00fana", "Lun\u00e1", "T\u00edto", "Carm\u00e9n", "Luna.", "C\u00e1rmen!"]
APART = [
    ("Ana", "Anabel"),
    ("Jos\u00e9", "Josep"),
    ("Ana", "Ana María"),
    ("Ana", "Anna"),
    ("Ana", "Eva"),
    ("Luc\u00eda", "Lucas"),
    ("Ana", "Ana 2"),
    ("Ana", "\u0410\u043d\u0430"),  # Serbian Ана reads apart (н draws a small capital H)
]
ROBOT_APART = ["Lunita", "Luna María", "Titania", "Carla", "Lu"]


def test_names_alike_but_for_marks_and_punctuation() -> None:
    for twin in TWINS_OF_ANA:
        assert look_alike(twin, "Ana"), repr(twin)
        assert look_alike("Ana", twin), repr(twin)
    assert look_alike("Jos\u00e9", "Jose")
    assert look_alike("Nguy\u1ec5n", "Nguyen")
    for a, b in APART:
        assert not look_alike(a, b), (a, b)


def test_symbols_alone_keep_names_apart() -> None:
    """A name whose letters are all gone once bare keeps its own form: two
    names of different digits or with different emoji are different."""
    assert not look_alike("7", "8")
    assert not look_alike("Ana 🌙", "Ana 🌞")
    assert not look_alike("Ana 🌙", "Ana")
    assert look_alike("Ana 🌙", "Aná 🌙")


def test_robot_names_with_accents() -> None:
    robots = [robot.display_name for robot in SEATABLE.values()]
    for name in ROBOT_TWINS:
        assert looks_like_a_robot(name, robots), repr(name)
    for name in ROBOT_APART:
        assert not looks_like_a_robot(name, robots), name


def test_service_refuses_twins_and_changes_nothing(app_client: TestClient) -> None:
    service = service_of(app_client)
    invite = service.lobby.create_table("Ana", 21).invite
    version = service.reads.version(invite)
    for twin in TWINS_OF_ANA:
        with pytest.raises(Conflict) as caught:
            service.lobby.join(invite, twin)
        assert caught.value.code == "name_taken"
    for name in ROBOT_TWINS:
        with pytest.raises(Invalid) as refused:
            service.lobby.join(invite, name)
        assert refused.value.code == "robot_name"
        with pytest.raises(Invalid):
            service.lobby.create_table(name, 21)
    assert service.reads.version(invite) == version
    service.lobby.join(invite, "Anabel")  # a name of its own still sits
    other = service.lobby.create_table("Jos\u00e9", 21).invite
    service.lobby.join(other, "Josep")


def test_api_refuses_twins(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    version = ana.table()["version"]
    for twin in ("An\u00e1", "\u00c5na", "Ana."):
        r = app_client.post(f"/api/tables/{ana.invite}/seats", json={"name": twin})
        assert r.status_code == 409, r.text
        assert r.json()["error"] == "name_taken" and "se le parece" in r.json()["message"]
    r = app_client.post("/api/tables", json={"name": "L\u00fana", "target": 21})
    assert r.status_code == 422 and r.json()["error"] == "robot_name"
    assert ana.table()["version"] == version
    join(app_client, ana.invite, "Anabel")
    assert [s["name"] for s in ana.table()["seats"]] == ["Ana", "Anabel"]


def test_a_robot_does_not_sit_beside_its_accented_twin(
    settings: Settings, clock: ManualClock
) -> None:
    """«Lúna» is refused as a name; a person named so before keeps the robot
    Luna from sitting beside her, as a «Luna» does."""
    app = create_app(settings, clock=clock, rng=random.Random(5), brain=first_legal)
    with TestClient(app) as client:
        ana = create(client, "Ana")
        join(client, ana.invite, "Beto")
    engine = create_engine(settings.sqlalchemy_url)
    with engine.begin() as conn:
        conn.execute(update(SeatRow).where(SeatRow.name == "Beto").values(name="L\u00fana"))
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
        assert r.status_code == 409 and r.json()["error"] == "name_taken", r.text
        assert ana.table()["version"] == version


@pytest.mark.parametrize(
    ("lang", "taken", "robot"),
    [
        (
            "es",
            "Ya hay alguien en la mesa con ese nombre o uno que se le parece",
            "Ese nombre es de robot",
        ),
        ("pt_BR", "Já tem alguém na mesa com esse nome ou um parecido", "Esse nome é de robô"),
        (
            "en",
            "Someone at the table already has that name or one that looks like it",
            "That name belongs to a robot",
        ),
    ],
)
def test_pages_say_why_in_each_language(
    site: TestClient, lang: str, taken: str, robot: str
) -> None:
    invite = page_table(site, "Ana")
    version = table_version(site, invite)
    visitor = TestClient(site.app)
    visitor.cookies.set("lang", lang)
    for twin in ("\u00c5na", "Ana."):
        r = visitor.post(f"/t/{invite}/join", data={"name": twin})
        assert r.status_code == 409 and taken in r.text, r.text[-600:]
    r = visitor.post(f"/t/{invite}/join", data={"name": "L\u00fana"})
    assert r.status_code == 422 and robot in r.text
    assert table_version(site, invite) == version
