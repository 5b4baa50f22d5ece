"""Time and inviting in a real browser, against a real server process: chat
lines in the browser's own time zone and language; a countdown that reaches
its moment fetches the board again, so TERMINAR POR AUSENCIA shows without a
reload (the server runs with ESCOBA_ABSENCE_HOURS=0.006: 21.6 s); and the
share button: the Web Share API where there is one, else a copy to the
clipboard, else the link selected."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import httpx
import pytest

from .conftest import MISSING, ROOT, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, Page, expect
from sqlalchemy import create_engine, insert, select

from web.servers import Server

from .helpers import check_axe, create_table, open_seat, shot, start_game, tap_play

pytestmark = pytest.mark.browser

ABSENCE_HOURS = 0.006  # 21.6 seconds: warned at 10.8, strongly at 18
ENV = {
    "ESCOBA_NODE_MODULES": str(ROOT / "node_modules"),
    "ESCOBA_ROBOT_DELAY": "0",
    "ESCOBA_ABSENCE_HOURS": str(ABSENCE_HOURS),
}
BUENOS_AIRES = "America/Argentina/Buenos_Aires"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    from escoba.web.base.db import migrate

    tmp = tmp_path_factory.mktemp("time")
    url = f"sqlite:///{tmp / 'escoba.db'}"
    migrate(url)
    server = Server(url, ENV).start(tmp)
    yield server
    server.stop()


def add_old_chat_line(database_url: str, invite: str, text: str, days: int) -> datetime:
    """A chat line written `days` ago (straight into the database)."""
    from escoba.web.base.models import ChatRow, TableRow

    engine = create_engine(database_url)
    at = datetime.now(UTC).replace(microsecond=0) - timedelta(days=days)
    with engine.begin() as conn:
        table_id = conn.scalar(select(TableRow.id).where(TableRow.invite == invite))
        conn.execute(
            insert(ChatRow).values(
                table_id=table_id, position=0, name="Ana", text=text, created_at=at
            )
        )
    engine.dispose()
    return at


def chat_time(page: Page, text: str) -> tuple[str, datetime]:
    """What a chat line's time reads, and the instant it names."""
    line = page.locator(".chat-line", has_text=text)
    expect(line).to_be_visible()
    tag = line.locator("time")
    # time.js has written it: the server's UTC reading ends in «UTC»
    expect(tag).not_to_contain_text("UTC")
    at = datetime.fromisoformat((tag.get_attribute("datetime") or "").replace("Z", "+00:00"))
    return tag.inner_text(), at


def _ar_time(moment: datetime) -> str:
    """A time as es-AR writes it: «1:15 p. m.», «12:05 a. m.»."""
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'p' if moment.hour >= 12 else 'a'}. m."


def test_chat_lines_read_in_the_browser_s_time_zone_and_language(
    browser: Browser, live: Server
) -> None:
    ana = new_context(browser, locale="es-AR", timezone_id=BUENOS_AIRES)
    tokyo = new_context(browser, locale="en-US", timezone_id="Asia/Tokyo")
    try:
        page = ana.new_page()
        invite = create_table(page, live.base)
        before = add_old_chat_line(live.database_url, invite, "de hace días", days=3)
        page.reload()
        page.fill("#chat-text", "hola")
        page.get_by_role("button", name="ENVIAR").click()

        shown, at = chat_time(page, "hola")
        here = at.astimezone(ZoneInfo(BUENOS_AIRES))
        # today: the time alone, as Argentina writes it (the page is es-AR:
        # a 12-hour clock, «1:15 p. m.»)
        assert " ".join(shown.split()) == _ar_time(here)  # (its spaces: no-break)
        assert here.hour != at.hour  # not UTC's
        old, old_at = chat_time(page, "de hace días")
        assert old_at == before
        then = before.astimezone(ZoneInfo(BUENOS_AIRES))
        assert _ar_time(then) in " ".join(old.split()) and str(then.day) in old
        assert re.search(r"[a-z]{3}", old), old  # the month, in Spanish: «12 dic, 9:05»

        # a watcher in Tokyo reads the same line in English, in Tokyo's time
        watcher = tokyo.new_page()
        watcher.goto(f"{live.base}/t/{invite}?mirar=1")
        assert watcher.locator("html").get_attribute("lang") == "en"
        shown, _ = chat_time(watcher, "hola")
        there = at.astimezone(ZoneInfo("Asia/Tokyo"))
        match = re.fullmatch(r"(\d{1,2}):(\d{2})\s?([AP]M)", shown)
        assert match, shown
        assert (int(match[1]) % 12, int(match[2])) == (there.hour % 12, there.minute)
        assert match[3] == ("PM" if there.hour >= 12 else "AM")
        expect(watcher.locator(".watching-note")).to_contain_text("You are watching this table")
        check_axe(watcher, "watching")
    finally:
        ana.close()
        tokyo.close()


#: Every class list an absence warning has had on the page, as it happened.
RECORD_WARNINGS = """() => {
  window.escobaNotReloaded = true;
  window.escobaWarnings = [];
  const look = () => document.querySelectorAll('.absence-warning').forEach((el) => {
    if (!window.escobaWarnings.includes(el.className)) window.escobaWarnings.push(el.className);
  });
  new MutationObserver(look).observe(document.body, {childList: true, subtree: true});
  look();
}"""


def test_open_pages_learn_of_absence_as_it_comes_without_a_reload(
    browser: Browser, live: Server
) -> None:
    """Ana waits for Beto: her countdown ends in TERMINAR POR AUSENCIA. Beto's
    page warns him at half the time, more strongly at five sixths, and says
    when it has come. No live event comes at those moments: each page's own
    script fetches its board."""
    ana_context, beto_context = new_context(browser), new_context(browser)
    try:
        ana = ana_context.new_page()
        invite = create_table(ana, live.base)
        joined = httpx.post(f"{live.base}/api/tables/{invite}/seats", json={"name": "Beto"})
        assert joined.status_code == 201, joined.text
        beto = beto_context.new_page()
        open_seat(beto, live.base, invite, joined.json()["token"])
        ana.reload()
        start_game(ana)
        if ana.locator("#board .board").get_attribute("data-my-turn") == "true":
            tap_play(ana)  # now Beto is on turn, and stays there
        expect(beto.locator("#board .board")).to_have_attribute("data-my-turn", "true")
        beto.evaluate(RECORD_WARNINGS)
        ana.evaluate("() => { window.escobaNotReloaded = true; }")
        expect(ana.locator(".absence-countdown time[data-countdown]")).to_be_visible()
        assert "TERMINAR POR AUSENCIA" in ana.locator(".absence-countdown").inner_text()
        check_axe(ana, "countdown")
        shot(ana, "countdown-phone", full_page=True)

        expect(beto.locator(".absence-warning.is-due")).to_be_visible(timeout=40_000)
        expect(ana.locator("#confirm-absence")).to_be_visible(timeout=10_000)
        expect(ana.locator(".absence-countdown")).to_have_count(0)
        seen = beto.evaluate("() => window.escobaWarnings")
        assert seen == [
            "time-note absence-warning",
            "time-note absence-warning is-urgent",
            "time-note absence-warning is-due",
        ], seen
        for page in (ana, beto):
            assert page.evaluate("() => window.escobaNotReloaded === true")
        expect(beto.locator(".absence-warning")).to_contain_text("Ya pueden TERMINAR")
        check_axe(beto, "absence warning")
        shot(beto, "absence-warning-phone", full_page=True)

        ana.locator("#confirm-absence summary").click()
        ana.get_by_role("button", name="SÍ, TERMINAR").click()
        expect(ana.locator("#board .winner")).to_contain_text("Beto no jugó")
        expect(beto.locator("#board .winner")).to_contain_text("Beto no jugó")
    finally:
        ana_context.close()
        beto_context.close()


def test_moments_stay_current_while_the_page_is_open(browser: Browser, live: Server) -> None:
    """Every 30 s the script reads each moment again, against the server's
    clock (the board's data-now), in the page's language; the ticking is
    kept out of live regions."""
    context = new_context(browser)
    try:
        page = context.new_page()
        page.clock.install()  # the page's own clock, moved by the test
        create_table(page, live.base)
        page.evaluate(
            """() => {
              const now = Date.parse(document.querySelector('#board .board').dataset.now);
              const iso = (ms) => new Date(now + ms).toISOString().replace(/\\.\\d+Z$/, 'Z');
              document.querySelector('#chat-title').insertAdjacentHTML('afterend',
                `<p id="probe"><time data-ago datetime="${iso(-3 * 3600e3)}">hace 1 s</time>
                 <time data-countdown datetime="${iso(30 * 3600e3)}">ahora</time></p>`);
            }"""
        )
        page.clock.run_for(31_000)  # one tick
        expect(page.locator("#probe time[data-ago]")).to_have_text("hace 3 h")
        expect(page.locator("#probe time[data-countdown]")).to_have_text("dentro de 30 h")
        expect(page.locator("#probe time[data-ago]")).to_have_attribute("aria-live", "off")
        page.clock.run_for(2 * 3600_000)  # two hours on, tick by tick
        expect(page.locator("#probe time[data-ago]")).to_have_text("hace 5 h")
        expect(page.locator("#probe time[data-countdown]")).to_have_text("dentro de 28 h")
    finally:
        context.close()


@pytest.mark.parametrize("share", [False, True], ids=["copy", "web-share"])
def test_the_share_button(browser: Browser, live: Server, share: bool) -> None:
    context = new_context(browser)
    if share:
        context.add_init_script(
            "navigator.share = (data) => { window.escobaShared = data; return Promise.resolve(); };"
            "navigator.canShare = () => true;"
        )
    else:
        context.add_init_script(
            "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
        )
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live.base)
    try:
        page = context.new_page()
        invite = create_table(page, live.base)
        button = page.locator("#share-invite")
        expect(button).to_have_text("COMPARTIR" if share else "COPIAR")
        button.click()
        url = f"{live.base}/t/{invite}"
        if share:
            page.wait_for_function("() => !!window.escobaShared")
            assert page.evaluate("() => window.escobaShared") == {
                "title": "Escoba del 15",
                "text": "Ana te invita a jugar Escoba del 15, a 21 puntos.",
                "url": url,
            }
        else:
            expect(page.locator("#share-status")).to_have_text("¡Copiado!")
            check_axe(page, "copied")
            assert page.evaluate("() => navigator.clipboard.readText()") == url
    finally:
        context.close()


def test_a_refused_clipboard_leaves_the_link_selected(browser: Browser, live: Server) -> None:
    context = new_context(browser)
    context.add_init_script(
        "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
        "Object.defineProperty(navigator, 'clipboard', {value: {writeText: () =>"
        " Promise.reject(new DOMException('denied', 'NotAllowedError'))}});"
    )
    try:
        page = context.new_page()
        create_table(page, live.base)
        page.locator("#share-invite").click()
        expect(page.locator("#share-status")).to_contain_text("el enlace quedó seleccionado")
        selected = page.evaluate(
            """() => { const i = document.getElementById('invite-link');
                 return document.activeElement === i && i.selectionStart === 0
                   && i.selectionEnd === i.value.length && i.value.startsWith('http'); }"""
        )
        assert selected
    finally:
        context.close()


def test_the_invite_page_in_the_browser(browser: Browser, live: Server) -> None:
    """A newcomer opens the link, reads the invitation and sits down."""
    creator = new_context(browser)
    newcomer = new_context(browser)
    try:
        page = creator.new_page()
        invite = create_table(page, live.base)
        guest = newcomer.new_page()
        guest.goto(f"{live.base}/t/{invite}")
        expect(guest.locator("#join-title")).to_have_text("Ana te invita a jugar Escoba del 15")
        expect(guest.locator(".invite-steps li")).to_have_count(3)
        # only the creator can add a robot: the invitee is not told to
        lobby = guest.locator(".lobby-actions")
        expect(lobby).to_have_text(
            "Hacen falta al menos 2 jugadores: cuando te sientes, Ana podrá tocar EMPEZAR."
        )
        expect(guest.get_by_text("suma un robot")).to_have_count(0)
        check_axe(guest, "invite page")
        shot(guest, "invite-phone", full_page=True)
        guest.fill("#join-name", "Beto")
        guest.get_by_role("button", name="SENTARME").click()
        expect(guest.locator(".invite-page")).to_have_count(0)
        expect(guest.locator(".seat-slot.is-you")).to_contain_text("Beto")
        expect(page.locator(".seat-slot", has_text="Beto")).to_be_visible()
    finally:
        creator.close()
        newcomer.close()
