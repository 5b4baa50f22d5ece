"""The rules page over HTTP (issue 34, point 1): /reglas in each language,
with every anchor other pages link to, its cards in the viewer's deck, and
the links that lead to it."""

from __future__ import annotations

import random
import re

import pytest
from fastapi.testclient import TestClient

from escoba.engine.rules import SETENTA_WORTH
from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.settings import Settings
from escoba.web.rendering.rules_page import points

from ..conftest import first_legal

#: The anchors the other pages link to (the team's shared list): keep them.
ANCHORS = (
    "cartas",
    "turno",
    "escoba",
    "mesa-inicial",
    "llevar-el-15",
    "ultimas",
    "puntos",
    "mas-cartas",
    "oros",
    "sietes",
    "siete-de-oros",
    "setenta",
    "escobas",
    "ganar",
    "reglas-de-la-mesa",
    "ausencia",
    "abandonar",
    "caducidad",
    "revancha",
    "variantes",
    "captura-obligatoria",
    "treinta",
    "empates",
    "objetivo",
)

TITLES = {
    "es": "Cómo se juega a la escoba del 15",
    "pt_BR": "Como se joga a escoba do 15",
    "en": "How to play Escoba del 15",
}


def _ids(html: str) -> list[str]:
    return re.findall(r'\sid="([^"]+)"', html)


@pytest.mark.parametrize("lang", ["es", "pt_BR", "en"])
def test_the_rules_page_in_each_language(site: TestClient, lang: str) -> None:
    site.cookies.set("lang", lang)
    response = site.get("/reglas")
    assert response.status_code == 200
    html = response.text
    assert TITLES[lang] in html
    ids = _ids(html)
    assert [a for a in ANCHORS if a not in ids] == []
    assert len(ids) == len(set(ids)), "an id used twice"
    # the game's own words stay Spanish in every language
    for word in ("LLEVAR EL 15", "ÚLTIMAS", "¡ESCOBA DOBLE!"):
        assert word in html
    # every scoring line's points and la setenta's table, the engine's in
    # every language (tests/web_ui/test_rules_numbers.py compares them with RULES.md)
    said = {k: int(v) for k, v in re.findall(r'data-points="(\w+)">(\d+)<', html)}
    assert said == points()
    setenta = {int(v): int(w) for v, w in re.findall(r'data-setenta="(\d+)">(\d+)<', html)}
    assert setenta == SETENTA_WORTH
    # the numbers of the settings, not literals: 48 hours, 7 days by default
    assert 'data-hours="48"' in html and 'data-days="7"' in html
    # the worked round's summary, with a reason for each line linked to its rule
    assert 'href="/reglas#mas-cartas"' in html and 'href="/reglas#siete-de-oros"' in html


def test_the_settings_hours_and_days_are_quoted(settings: Settings, clock: ManualClock) -> None:
    """The absence's hours and the expiry's days come from the app's settings."""
    changed = settings.model_copy(update={"absence_hours": 24, "expiry_days": 3})
    app = create_app(changed, clock=clock, rng=random.Random(1), brain=first_legal)
    with TestClient(app) as client:
        html = client.get("/reglas").text
    assert 'data-hours="24"' in html and "24 horas" in html
    assert 'data-days="3"' in html and "3 días" in html


def test_the_deck_cookie_draws_the_cards(site: TestClient) -> None:
    french = site.get("/reglas").text
    assert 'data-card-design="french"' in french and 'data-card-design="spanish"' not in french
    assert "Reina 8, jota 9, rey 10" in french
    site.cookies.set("deck", "spanish")
    spanish = site.get("/reglas").text
    assert 'data-card-design="spanish"' in spanish and 'data-card-design="french"' not in spanish
    assert "Sota 8, caballo 9, rey 10" in spanish and "oros" in spanish
    # the cards drawn are the same cards: only their drawing changed
    cards = re.compile(r'data-card="(\w+)"')
    assert cards.findall(french) == cards.findall(spanish)


def test_the_page_chooses_the_deck(site: TestClient) -> None:
    response = site.post("/reglas/baraja", data={"design": "brazilian"}, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/reglas#cartas"
    assert 'data-card-design="brazilian"' in site.get("/reglas").text
    # an unknown design changes nothing
    response = site.post("/reglas/baraja", data={"design": "tarot"}, follow_redirects=False)
    assert response.status_code == 303
    assert 'data-card-design="brazilian"' in site.get("/reglas").text


def test_the_home_page_leads_to_the_rules(site: TestClient) -> None:
    assert 'href="/reglas"' in site.get("/").text


def test_the_table_rules_sentence_links_each_house_rule_to_its_paragraph() -> None:
    """The lobby's and the game's «Reglas de la casa, a 30 puntos: …»: each
    house rule's name leads to its paragraph, and the sentence reads the same
    as `say_rules`' without its tags."""
    from escoba.engine import RuleSet
    from escoba.web.rendering.score_lines import rules_sentence
    from escoba.words import say_rules

    every = RuleSet(
        target=30, setenta=True, ties="each", compulsory_capture=True, thirty_is_double=False
    )
    for lang in ("es", "pt_BR", "en"):
        for rules in (RuleSet(), RuleSet(target=15), RuleSet(setenta=True), every):
            html = str(rules_sentence(rules, lang))
            assert re.sub(r"<[^>]+>", "", html) == say_rules(rules, lang)
        links = re.findall(r'href="/reglas#([\w-]+)"', str(rules_sentence(every, lang)))
        assert links == ["setenta", "empates", "captura-obligatoria", "treinta"]
    assert re.findall(r'href="(/reglas[^"]*)"', str(rules_sentence(RuleSet()))) == ["/reglas"]
    assert re.findall(r'href="(/reglas[^"]*)"', str(rules_sentence(RuleSet(target=15)))) == [
        "/reglas#objetivo"
    ]


def test_the_lobby_links_its_house_rules_to_the_rules(site: TestClient) -> None:
    response = site.post("/tables", data={"name": "Ana", "setenta": "1"})
    lobby = site.get(response.url).text
    assert 'href="/reglas#setenta">la setenta.</a>' in lobby


def test_the_invitation_leads_to_the_rules(site: TestClient) -> None:
    response = site.post("/tables", data={"name": "Ana"})
    invite = response.url.path.rsplit("/", 1)[-1]
    site.cookies.clear()  # a newcomer, by the invitation link
    page = site.get(f"/t/{invite}").text
    assert re.search(r'<li class="invite-rules"><a class="rules-link" href="/reglas">', page)
