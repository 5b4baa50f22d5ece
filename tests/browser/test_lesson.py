"""«Aprender a jugar» played in Chromium on a phone (390×844), in each
language: from the home page, every stage through its own page by the
table's own taps (raise a card, tap the table's, tap the card again;
DEJAR EN LA MESA; LLEVAR EL 15), a wrong play said wrong and tried again,
each right one said right in the page's language, the round's points read,
and the first game against Tito started with the coach on. One browser
context a language, the stages in sequence; the README's picture of a
stage is taken on the way (docs/screenshots/lesson-phone.png)."""

from __future__ import annotations

import html
import re

import pytest

from .conftest import MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

from escoba.engine import Claim, Play, legal_actions
from escoba.lessons import STAGES, Stage, answer_of, judge, judge_answer, position
from escoba.names import Design
from escoba.web.rendering.lesson import verdict_text

from .helpers import check_axe, shot

pytestmark = pytest.mark.browser

LANGUAGES = [("es", "es"), ("pt_BR", "pt-BR"), ("en", "en")]


def plain(markup: object) -> str:
    """A sentence of the page as a person reads it: no tags, spaces as one."""
    text = html.unescape(re.sub(r"<[^>]+>", "", str(markup)))
    return re.sub(r"\s+", " ", text).strip()


def verdict_of(stage: Stage, action: Play | Claim, lang: str) -> str:
    return plain(verdict_text(judge(stage, action), Design.FRENCH, lang))


def play(page: Page, action: Play | Claim) -> None:
    """The action by the table's taps; the page comes back with the verdict."""
    with page.expect_navigation():
        if isinstance(action, Claim):
            page.locator("#btn-claim").tap()
            return
        card = page.locator(f'#hand .hand-card[data-card="{action.card}"]')
        if card.get_attribute("aria-pressed") != "true":  # not raised already
            card.tap()
        expect(card).to_have_attribute("aria-pressed", "true")
        if not action.capture:
            page.locator("#btn-leave").tap()
            return
        for taken in action.capture:
            page.locator(f'#table-cards .table-card[data-card="{taken}"]').tap()
        card.tap()  # the raised card again: LLEVAR


@pytest.mark.parametrize(("lang", "html_lang"), LANGUAGES)
def test_the_lesson_is_played_stage_by_stage_on_a_phone(
    server: LiveServer, browser: Browser, lang: str, html_lang: str
) -> None:
    context = new_context(browser)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        with page.expect_navigation():
            page.locator(f'.lang-btn[value="{lang}"]').click()
        expect(page.locator("html")).to_have_attribute("lang", html_lang)
        with page.expect_navigation():
            page.locator("#home-learn").tap()
        with page.expect_navigation():
            page.locator("#lesson-start").tap()
        for number, stage in enumerate(STAGES, 1):
            expect(page).to_have_url(f"{server.url}/aprender/{number}")
            if stage.question is None:
                _play_stage(page, lang, number, stage)
            else:
                _read_the_points(page, lang, stage)
            if number < len(STAGES):
                with page.expect_navigation():
                    page.locator("#lesson-next").tap()
        # the lesson's end: a first game against Tito, the coach on
        page.locator("#lesson-name").fill("Ana")
        with page.expect_navigation():
            page.locator("#lesson-play-tito").tap()
        expect(page).to_have_url(re.compile(r"/t/[\w-]+$"))
        expect(page.locator("#board .seat", has_text="Tito")).to_be_visible()
        expect(page.locator("#coach")).to_be_attached()
        expect(page.locator("#coach-switch, .coach-switch").first).to_be_attached()
    finally:
        context.close()


def _play_stage(page: Page, lang: str, number: int, stage: Stage) -> None:
    verdict = page.locator("#lesson-verdict")
    if number == 1:
        # a wrong play first: said why, the same position again to try
        wrong = next(a for a in stage_actions(stage) if a not in stage.right)
        play(page, wrong)
        expect(verdict).to_have_class(re.compile(r"\bis-wrong\b"))
        expect(verdict).to_contain_text(verdict_of(stage, wrong, lang))
        expect(page.locator("#lesson-next")).to_have_count(0)
        expect(page.locator("#hand .hand-card")).to_have_count(len(stage.hand))
    if number == 2 and lang == "es":
        # the README's picture: the 5 raised, both its groups lit on the table
        page.locator('#hand .hand-card[data-card="5C"]').tap()
        expect(page.locator("#table-cards .table-card.can-take")).to_have_count(3)
        shot(page, "lesson-phone")
        check_axe(page, "a lesson's stage")
    right = stage.right[0]
    play(page, right)
    expect(verdict).to_have_class(re.compile(r"\bis-right\b"))
    expect(verdict).to_contain_text(verdict_of(stage, right, lang))
    expect(page.locator("#lesson-next")).to_be_visible()


def _read_the_points(page: Page, lang: str, stage: Stage) -> None:
    answer = answer_of(stage)
    with page.expect_navigation():
        page.locator(f'.lesson-answer[value="{answer}"]').tap()
    verdict = page.locator("#lesson-verdict")
    expect(verdict).to_have_class(re.compile(r"\bis-right\b"))
    text = plain(verdict_text(judge_answer(stage, answer), Design.FRENCH, lang))
    expect(verdict).to_contain_text(text)
    expect(page.locator(".lesson-reasons li")).to_have_count(5)
    if lang == "es":
        check_axe(page, "the lesson's last stage, answered")


def stage_actions(stage: Stage) -> list[Play | Claim]:
    return list(legal_actions(position(stage)))
