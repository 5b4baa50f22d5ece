"""The coach advises (issue 34, point 4), through HTTP: on the seat's turn
its panel says first which play it would make and why (the sentence
`escoba.analysis.advice` gives for that seat's view, in the viewer's
language), then the facts of each option, the plays that take before the
ones that leave a card, the advised one marked; its game words link to the
rules page. And the board's buttons: no play button is the main one before
a card is picked (select.js gives that style to the one the card allows)."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from escoba.analysis import coach_facts
from escoba.analysis.advice import advise, capture_first, say_advice
from escoba.engine import view
from escoba.engine.actions import Claim, Play
from escoba.engine.cards import NOTATION
from escoba.names import Design
from escoba.web.rendering.coach import linked

from ..helpers import page_game_on_my_turn, service_of, text_of

OPTION = re.compile(
    r'class="coach-option" data-kind="(\w+)" data-card="(\w*)" data-capture="([\w ]*)"'
    r'( data-advised="true")?'
)


def _key(action: object) -> tuple[str, str, str]:
    if isinstance(action, Claim):
        return ("claim", "", " ".join(sorted(NOTATION[c] for c in action.group)))
    assert isinstance(action, Play)
    return ("play", NOTATION[action.card], " ".join(sorted(NOTATION[c] for c in action.capture)))


@pytest.mark.parametrize("lang", ["es", "pt_BR", "en"])
def test_the_panel_says_first_which_play_it_would_make_and_why(site: TestClient, lang: str) -> None:
    invite = page_game_on_my_turn(site)
    r = site.post(f"/t/{invite}/coach", data={"coach": "on"}, follow_redirects=False)
    assert r.status_code == 303
    site.cookies.set("lang", lang)
    page = site.get(f"/t/{invite}").text
    service = service_of(site)
    state = service.reads.game_state(invite)
    assert state is not None and state.turn is not None
    v = view(state, state.turn)
    names = service.pages.page(invite, None).names
    options = [(a, coach_facts(v, a)) for a in capture_first(v.legal)]
    advice = advise(options, v.players)
    assert advice is not None
    said = linked(say_advice(advice, names, lang, Design.FRENCH), lang)
    coach = page[page.index('id="coach"') :]
    # the advice, first: before the hint and every option's facts
    assert coach.index(str(said)) < coach.index('class="coach-option"')
    assert coach.index('id="coach-advice"') < coach.index('id="coach-hint"')
    first = {"es": "Yo ", "pt_BR": "Eu ", "en": "I would "}[lang]
    advice_text = text_of(coach[: coach.index("</p>")])
    assert first in advice_text and advice_text.endswith(".")
    # every option, the ones that take first; the advised one marked, once
    found = OPTION.findall(page)
    assert [(k, c, g) for k, c, g, _ in found] == [_key(a) for a, _ in options]
    takes = [bool(g) for _, _, g, _ in found]
    assert takes == sorted(takes, reverse=True)
    assert [(k, c, g) for k, c, g, mine in found if mine] == [_key(advice.action)]
    mark = {"es": "la que yo haría", "pt_BR": "a que eu faria", "en": "the one I would play"}
    assert text_of(page).count(mark[lang]) == 1


def test_the_buttons_wait_for_a_card_before_one_is_the_main(site: TestClient) -> None:
    invite = page_game_on_my_turn(site)
    page = site.get(f"/t/{invite}").text
    take = re.search(r'<button class="([^"]*)"[^>]*id="btn-take"', page)
    leave = re.search(r'<button class="([^"]*)"[^>]*id="btn-leave"', page)
    assert take and leave
    assert "btn-primary" not in take[1] and "btn-primary" not in leave[1]


@pytest.mark.parametrize(
    ("lang", "text", "words"),
    [
        (
            "es",
            "la mesa queda en 9: el siguiente la barre; en ÚLTIMAS <b>; ¡ESCOBA!",
            [("barre", "escoba"), ("ÚLTIMAS", "ultimas"), ("¡ESCOBA!", "escoba")],
        ),
        (
            "pt_BR",
            "o próximo varre a mesa; pode fazer LLEVAR EL 15",
            [("varre", "escoba"), ("LLEVAR EL 15", "llevar-el-15")],
        ),
        ("en", "the next player sweeps the table", [("sweeps", "escoba")]),
    ],
)
def test_the_coach_s_game_words_link_to_the_rules_page(
    lang: str, text: str, words: list[tuple[str, str]]
) -> None:
    markup = str(linked(text, lang))
    links = re.findall(r'<a class="rules-word" href="/reglas#([\w-]+)">([^<]+)</a>', markup)
    assert [(w, a) for a, w in links] == words
    assert "<b>" not in markup  # the text itself is escaped
    assert html.unescape(re.sub(r"<[^>]+>", "", markup)) == text
