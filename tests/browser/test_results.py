"""The end of a round and of a game on a phone (issue 25, item 1), laid out
by bounding boxes after a whole game played through the pages against robots
(a game to 15, the shortest target of the house rules; la setenta with
three): at 360×640 and
390×844, with three players and four, in every language and with the
longest name a person may take, every cell of every results table is inside
its panel (nothing cut, nothing to scroll sideways), and at the game's end
the outcome is the first thing on the screen, in view without scrolling,
the story of the game after it. The README's screenshots of both screens
are taken here (three players, 390×844)."""

from __future__ import annotations

import contextlib
import random
import time

import pytest

from escoba.web.base.settings import DEFAULT_LIMITS

from .conftest import MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

from .api_seat import ApiSeat, play_until  # noqa: E402
from .helpers import add_robot, check_axe, shot, start_game, tap_play, wait_for_my_turn_or_end  # noqa: E402

#: the two phones upright the issue names
PHONES = {"360×640": (360, 640), "390×844": (390, 844)}
#: the language buttons' values, and the page's lang attribute each gives
LANGUAGES = {"es": "es", "pt_BR": "pt-BR", "en": "en"}
#: names as long as a name may be: one word that cannot wrap at a space, and
#: one of many words
LONGEST = DEFAULT_LIMITS.name_max_length
ONE_WORD = "Wolfeschlegelsteinhausenbergerdorff"[:LONGEST]
MANY_WORDS = "María de los Ángeles Rodríguez Ibáñez"[:LONGEST]


def _phone(browser: Browser) -> BrowserContext:
    """A phone upright, 390×844 (the README's screenshots)."""
    width, height = PHONES["390×844"]
    size = {"width": width, "height": height}
    return new_context(browser, size, has_touch=True, is_mobile=True, device_scale_factor=2)


def _create_table_to_15(page: Page, base: str, name: str, setenta: bool) -> None:
    """A new table to 15 points (a house rule: a short game), with la
    setenta (its line's longest words: «coja», «short a suit») or not."""
    page.goto(base + "/")
    page.fill("#name", name)
    page.locator("details.house-rules").evaluate("d => { d.open = true; }")
    page.locator('input[name="target"][value="15"]').check()
    if setenta:
        page.locator('input[name="setenta"]').check()
    page.get_by_role("button", name="CREAR MESA").click()
    expect(page.locator("#lobby-title")).to_be_visible()


def _choose_language(page: Page, lang: str) -> None:
    if page.locator("html").get_attribute("lang") != LANGUAGES[lang]:
        with page.expect_navigation():
            page.locator(f'.lang-btn[value="{lang}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", LANGUAGES[lang])
    expect(page.locator("#board .board")).to_be_visible()


#: every results table on the board (and the winner's words) whose shown
#: parts stick out of its panel's content box, or that scrolls sideways
#: inside it (sr-only text, clipped to a pixel on purpose, is not shown)
_CUT = """(results) => {
  const out = [];
  for (const table of document.querySelectorAll(results)) {
    const panel = table.closest('.panel');
    const p = panel.getBoundingClientRect(), s = getComputedStyle(panel);
    const left = p.left + parseFloat(s.borderLeftWidth) + parseFloat(s.paddingLeft);
    const right = p.right - parseFloat(s.borderRightWidth) - parseFloat(s.paddingRight);
    const shown = [table, ...table.querySelectorAll('*')].filter(
      e => !e.closest('.sr-only') && e.getClientRects().length);
    for (const e of shown) {
      const r = e.getBoundingClientRect();
      if (r.left < left - 0.5 || r.right > right + 0.5) {
        out.push(`${table.className}: <${e.tagName.toLowerCase()} class="${e.className}">`
          + ` «${e.textContent.trim().slice(0, 40)}» spans ${r.left.toFixed(1)}–`
          + `${r.right.toFixed(1)} in ${left.toFixed(1)}–${right.toFixed(1)}`);
      }
    }
    for (let e = table; e && e !== panel; e = e.parentElement) {
      if (e.scrollWidth > e.clientWidth + 1) {
        out.push(`${table.className}: <${e.tagName.toLowerCase()} class="${e.className}">`
          + ` scrolls: ${e.scrollWidth} px in ${e.clientWidth}`);
      }
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth) {
    out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  }
  return out;
}"""


def _fits(
    page: Page, label: str, results: str = "#board .summary-table, #board .winner-title"
) -> None:
    assert page.locator(results).count(), f"{label}: no results table"
    cut = page.evaluate(_CUT, results)
    assert cut == [], f"{label}:\n" + "\n".join(cut)


def _in_view(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, f"{selector} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (
        f"{selector} at {box} is not in the {size['width']}×{size['height']} screen"
    )
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], f"{selector} at {box}"
    return box


def _comes_in_view(page: Page, selector: str) -> None:
    """`selector` wholly in the screen once the swap that brought it has
    settled (the page scrolls to it then, not at the swap itself)."""
    with contextlib.suppress(PlaywrightTimeout):  # if not, _in_view says where it is
        page.wait_for_function(
            """s => {
              const box = document.querySelector(s)?.getBoundingClientRect();
              return !!box && box.top >= 0 && box.bottom <= window.innerHeight;
            }""",
            arg=selector,
            timeout=5_000,
        )
    _in_view(page, selector)


def _outcome_first(page: Page, label: str) -> None:
    """The winner and the rematch in view at the page's top; the story of the
    game (every round's points, the last round's table) below them."""
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => window.scrollY === 0")
    title = _in_view(page, "#winner-title")
    rematch = _in_view(page, ".winner .rematch .btn")
    for story in (".winner .rounds-table", ".winner .summary"):
        box = page.locator(story).bounding_box()
        assert box is not None, f"{label}: {story} is not shown"
        assert box["y"] >= title["y"] + title["height"], f"{label}: {story} above the winner"
        assert box["y"] >= rematch["y"] + rematch["height"], f"{label}: {story} above the rematch"
    # the last round's table is told once, in the story
    assert page.locator("#board .summary").count() == 1, label


@pytest.mark.parametrize(
    ("robots", "name"),
    [(("Carmen", "Luna"), ONE_WORD), (("Carmen", "Tito", "Luna"), MANY_WORDS)],
    ids=["3-players", "4-players"],
)
def test_the_results_fit_a_phone_and_the_outcome_comes_first(
    server: LiveServer, browser: Browser, robots: tuple[str, ...], name: str
) -> None:
    players = f"{len(robots) + 1} players"
    width, height = PHONES["390×844"]
    context = _phone(browser)
    try:
        page = context.new_page()
        _create_table_to_15(page, server.url, name, setenta=len(robots) == 2)
        for robot in robots:
            add_robot(page, robot)
        start_game(page)

        summaries = 0
        started = time.monotonic()
        while (state := wait_for_my_turn_or_end(page, 60_000)) != "over":
            assert time.monotonic() - started < 240, "the game took too long"
            if state == "turn":
                # a phone scrolled down to its hand, as a thumb leaves it
                page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
                tap_play(page)
                continue
            # the round's end, as the last play left the page: its heading in view
            _comes_in_view(page, "#summary-title")
            if summaries == 0:  # the first round's summary, in every size and language
                for size, (w, h) in PHONES.items():
                    page.set_viewport_size({"width": w, "height": h})
                    for lang in LANGUAGES:
                        _choose_language(page, lang)
                        _fits(page, f"round summary, {size}, {players}, {lang}")
                _choose_language(page, "es")
                page.set_viewport_size({"width": width, "height": height})
                if len(robots) == 2:
                    check_axe(page, f"round summary, {players}")
                    shot(page, "round-summary-phone", full_page=True)
            summaries += 1
            page.get_by_role("button", name="SIGUIENTE RONDA").tap()
            page.wait_for_function("() => !document.querySelector('#board .summary')")

        # the game's end, as the last play left the page: the winner in view
        expect(page.locator("#winner-title")).to_be_visible()
        _comes_in_view(page, "#winner-title")
        for size, (w, h) in PHONES.items():
            page.set_viewport_size({"width": w, "height": h})
            for lang in LANGUAGES:
                _choose_language(page, lang)
                label = f"game end, {size}, {players}, {lang}"
                _fits(page, label)
                _outcome_first(page, label)
        _choose_language(page, "es")
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => window.scrollTo(0, 0)")
        check_axe(page, f"game end, {players}")
        if len(robots) == 2:
            shot(page, "winner-phone")
            shot(page, "game-story-phone", full_page=True)
    finally:
        context.close()


def _two_people_to_the_end(base: str) -> tuple[ApiSeat, ApiSeat]:
    """Ana and Beto play a game to 15 through the API, to its end."""
    ana = ApiSeat.create(base, "Ana", rules={"target": 15})
    beto = ApiSeat.join(base, ana.invite, "Beto")
    ana.command("/start")
    play_until([ana, beto], random.Random(7), until="game")
    return ana, beto


def test_the_first_to_ask_proposes_the_rematch_and_the_other_accepts(
    server: LiveServer, browser: Browser
) -> None:
    """Issue 25: ACEPTAR REVANCHA was offered when nobody had proposed one.
    The first press is PROPONER REVANCHA; the other person's page then says
    who proposed it and offers ACEPTAR REVANCHA; when both have, the new game
    starts on both pages."""
    ana, beto = _two_people_to_the_end(server.url)
    contexts = [_phone(browser) for _ in range(2)]
    try:
        ana_page, beto_page = (c.new_page() for c in contexts)
        ana.open_here(ana_page)
        beto.open_here(beto_page)
        for page in (ana_page, beto_page):
            rematch = page.locator(".winner .rematch")
            expect(rematch.get_by_role("button")).to_have_text("PROPONER REVANCHA")
            expect(rematch).not_to_contain_text("propone")
            _in_view(page, ".winner .rematch .btn")

        ana_page.locator(".winner .rematch").get_by_role("button").tap()
        expect(ana_page.locator(".winner .rematch")).to_contain_text(
            "Pediste la revancha: empieza cuando acepte Beto."
        )
        expect(ana_page.locator(".winner .rematch button")).to_have_count(0)
        # Beto's page, live: who proposed it, and ACEPTAR REVANCHA
        rematch = beto_page.locator(".winner .rematch")
        expect(rematch.locator(".rematch-asked")).to_have_text("Ana propone la revancha.")
        expect(rematch.get_by_role("button")).to_have_text("ACEPTAR REVANCHA")
        check_axe(beto_page, "the rematch proposed")

        rematch.get_by_role("button").tap()
        for page in (ana_page, beto_page):
            expect(page.locator("#board .winner")).to_have_count(0)
            expect(page.locator("#board .game .seats")).to_be_visible()
        assert ana.table()["game_number"] == 2
    finally:
        for context in contexts:
            context.close()


def test_the_whole_game_reads_and_prints_from_its_end(server: LiveServer, browser: Browser) -> None:
    """Issue 25: «Descargar el registro» gave raw JSON where a player
    expects to read. The game's end links a page of the whole game (every
    round's plays and points) that fits a phone and prints black on white
    without the page's controls; the file is still there."""
    ana, _ = _two_people_to_the_end(server.url)
    context = _phone(browser)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/t/{ana.invite}?mirar=1")  # a watcher, as anyone with the link
        expect(page.locator("#winner-title")).to_be_visible()
        expect(page.locator(".story-links a[download]")).to_have_attribute(
            "href", f"/t/{ana.invite}/registro"
        )
        page.get_by_role("link", name="Leer la partida entera").tap()
        expect(page.locator("h1")).to_have_text("Partida 1, jugada a jugada")
        record = ana.http.get(f"/tables/{ana.invite}/record").json()
        rounds = len(record["rounds"])
        expect(page.locator(".rounds-table tbody tr")).to_have_count(rounds)
        expect(page.locator(".record-round")).to_have_count(rounds)
        expect(
            page.locator(".record-round").first.locator(".record-plays li").first
        ).to_be_visible()
        expect(page.locator(".record-round .summary-table")).to_have_count(rounds)
        _fits(page, "the whole game, 390×844", ".record .summary-table")
        expect(page.locator("#record-print")).to_be_visible()  # record.js shows it
        check_axe(page, "the whole game")
        shot(page, "game-record-phone")

        page.emulate_media(media="print")
        expect(page.locator(".site-header")).to_be_hidden()
        expect(page.locator(".record-actions")).to_be_hidden()
        colours = page.evaluate(
            """() => [...document.querySelectorAll(
                 '.record h1, .record-result, .record-plays li, .summary-table td')]
               .map(e => getComputedStyle(e).color)"""
        )
        assert set(colours) == {"rgb(0, 0, 0)"}, set(colours)
    finally:
        context.close()
