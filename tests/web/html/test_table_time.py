"""Time on the table page, read against the app's clock (a `ManualClock`, so
every reading is exact): whose turn and since when, when TERMINAR POR
AUSENCIA becomes possible (for the others) and a warning before it does
(for the seat on turn), a warning in the last day before the table
expires, and each chat line's instant."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from datetime import timedelta

from fastapi.testclient import TestClient

from escoba.web.base.clock import ManualClock

from ..helpers import page_table, service_of, version_of

HX = {"HX-Request": "true"}


def text_of(markup: str) -> str:
    """What a page reads as, tags dropped (the sentences here have no tag
    between two words)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def iso(clock: ManualClock, **later: float) -> str:
    return (clock.now() + timedelta(**later)).isoformat().replace("+00:00", "Z")


@dataclass
class Game:
    invite: str
    on_turn: TestClient  # the seat on turn after the start
    waiting: TestClient
    on_turn_name: str

    def page(self, who: TestClient, lang: str = "es") -> str:
        who.cookies.set("lang", lang)
        r = who.get(f"/t/{self.invite}")
        assert r.status_code == 200, r.text[:300]
        return r.text


def two_people(site: TestClient) -> Game:
    """Ana and Beto, each in their own browser, at a game just started."""
    ana = site
    invite = page_table(ana, "Ana")
    beto = TestClient(site.app)
    assert beto.post(f"/t/{invite}/join", data={"name": "Beto"}).status_code == 200
    version = version_of(ana.get(f"/t/{invite}").text)
    assert ana.post(f"/t/{invite}/start", data={"version": version}).status_code == 200
    ana_turn = 'data-my-turn="true"' in ana.get(f"/t/{invite}").text
    if ana_turn:
        return Game(invite, ana, beto, "Ana")
    return Game(invite, beto, ana, "Beto")


def test_the_board_says_whose_turn_it_is_and_since_when(
    site: TestClient, clock: ManualClock
) -> None:
    game = two_people(site)
    began = iso(clock)
    clock.advance(hours=5)
    waiting = game.page(game.waiting)
    assert f"Turno de {game.on_turn_name} · hace 5 h" in text_of(waiting)
    assert f'<time datetime="{began}" data-ago>hace 5 h</time>' in waiting
    # the seat on turn reads «¡Tu turno!» alone (warned apart, from half the time)
    banner = re.search(r'<p class="turn-banner.*?</p>', game.page(game.on_turn), re.S)
    assert banner and text_of(banner.group(0)) == "¡Tu turno!"
    # in the viewer's language, and in the board a refresh brings
    assert f"{game.on_turn_name}'s turn · 5 hr. ago" in text_of(game.page(game.waiting, "en"))
    fragment = game.waiting.get(f"/t/{game.invite}/board", headers=HX).text
    assert "há 5 h" not in fragment and "5 hr. ago" in fragment
    game.waiting.cookies.set("lang", "pt_BR")
    assert "há 5 h" in game.waiting.get(f"/t/{game.invite}/board", headers=HX).text
    # the board says what time the server had, for the page's script
    assert f'data-now="{iso(clock)}"' in waiting


def test_the_others_see_when_terminar_por_ausencia_comes_and_then_the_button(
    site: TestClient, clock: ManualClock
) -> None:
    game = two_people(site)
    moment = iso(clock, hours=48)
    clock.advance(hours=40)
    waiting = game.page(game.waiting)
    assert "TERMINAR POR AUSENCIA disponible dentro de 8 h" in text_of(waiting)
    assert f'<time datetime="{moment}" data-countdown>dentro de 8 h</time>' in waiting
    assert 'id="confirm-absence"' not in waiting
    # never to the seat on turn, who is warned instead
    assert "disponible" not in text_of(game.page(game.on_turn))
    clock.advance(hours=8)  # the moment itself: not yet
    assert "disponible dentro de" in text_of(game.page(game.waiting))
    clock.advance(seconds=1)
    waiting = game.page(game.waiting)
    assert "disponible" not in text_of(waiting) and "data-countdown" not in waiting
    assert 'id="confirm-absence"' in waiting


def test_the_seat_on_turn_is_warned_from_half_the_time_and_more_strongly_at_the_end(
    site: TestClient, clock: ManualClock
) -> None:
    game = two_people(site)
    moment = iso(clock, hours=48)
    clock.advance(hours=23, minutes=59)
    assert "absence-warning" not in game.page(game.on_turn)
    clock.advance(minutes=1)  # 24 h of 48
    page = game.page(game.on_turn)
    assert (
        "Juega antes de 3/1/26, 12:00 UTC (dentro de 24 h): después podrán TERMINAR POR AUSENCIA."
    ) in text_of(page)
    assert f'<time datetime="{moment}" data-clock>3/1/26, 12:00 UTC</time>' in page
    assert f'<time datetime="{moment}" data-countdown>dentro de 24 h</time>' in page
    assert "is-urgent" not in page
    assert "Play before 1/3/26, 12:00 PM UTC (in 24 hr.)" in text_of(game.page(game.on_turn, "en"))
    clock.advance(hours=15, minutes=59)
    assert "is-urgent" not in game.page(game.on_turn)
    clock.advance(minutes=1)  # 40 h of 48
    page = game.page(game.on_turn)
    assert "absence-warning is-urgent" in page
    # the same (UTC) day now: the time alone
    assert "¡Queda poco! Si no juegas antes de 12:00 UTC (dentro de 8 h)" in text_of(page)
    assert "tu lado perderá la partida" in text_of(page)
    # the others are not warned: they see the countdown
    assert "absence-warning" not in game.page(game.waiting)
    clock.advance(hours=9)
    page = game.page(game.on_turn)
    assert "Ya pueden TERMINAR POR AUSENCIA: si juegas ahora, la partida sigue." in text_of(page)
    assert 'id="confirm-absence"' not in page


def play_a_card(who: TestClient, invite: str) -> None:
    """One legal play by the seat on turn, through the play form."""
    page = who.get(f"/t/{invite}").text
    cards = re.findall(
        r'class="card hand-card" data-card="(\w+)"[^>]*data-groups=\'([^\']*)\''
        r' data-can-leave="(\w+)"',
        page,
    )
    assert cards, page[:500]
    leave = next((card for card, _, can_leave in cards if can_leave == "true"), None)
    if leave is not None:
        form = {"card": leave, "mode": "leave"}
    else:
        card, groups, _ = cards[0]
        taken = json.loads(html.unescape(groups))[0]
        form = {"card": card, "capture": " ".join(taken), "mode": "capture"}
    played = who.post(f"/t/{invite}/play", data={"version": version_of(page), **form}, headers=HX)
    assert 'class="alert"' not in played.text, played.text[:500]


def test_a_turn_played_starts_the_clocks_again(site: TestClient, clock: ManualClock) -> None:
    game = two_people(site)
    clock.advance(hours=30)
    play_a_card(game.on_turn, game.invite)
    clock.advance(hours=2)
    # now the other one is on turn, since two hours ago
    page = game.page(game.on_turn)
    assert "Turno de " + ("Beto" if game.on_turn_name == "Ana" else "Ana") + " · hace 2 h" in (
        text_of(page)
    )
    assert "TERMINAR POR AUSENCIA disponible dentro de 2 d" in text_of(page)  # 46 h
    assert "absence-warning" not in page


def test_the_expiry_warning_comes_in_the_last_day_only(
    site: TestClient, clock: ManualClock
) -> None:
    invite = page_table(site, "Ana")  # a lobby expires as a game does
    clock.advance(days=5, hours=23, minutes=59)
    page = site.get(f"/t/{invite}").text
    assert "expiry-warning" not in page and "la mesa vence" not in text_of(page)
    clock.advance(hours=1, minutes=1)  # 23 hours left
    page = site.get(f"/t/{invite}").text
    assert "Si nadie juega, la mesa vence dentro de 23 h" in text_of(page)
    assert f'<time datetime="{iso(clock, hours=23)}" data-countdown>' in page
    site.cookies.set("lang", "en")
    assert "If nobody plays, the table expires in 23 hr." in text_of(site.get(f"/t/{invite}").text)
    site.cookies.set("lang", "es")
    # past the moment, until the expiry job's next run: no countdown left
    clock.advance(hours=24)
    page = site.get(f"/t/{invite}").text
    assert "Pasaron 7 días sin jugadas: la mesa vence en cualquier momento." in text_of(page)
    assert "data-countdown" not in page
    assert service_of(site).jobs.expire() == 1
    page = site.get(f"/t/{invite}").text
    assert "La mesa expiró" in page and "expiry-warning" not in page


def test_a_game_action_puts_the_expiry_off(site: TestClient, clock: ManualClock) -> None:
    game = two_people(site)
    clock.advance(days=6, hours=12)
    page = game.page(game.waiting)
    assert "Si nadie juega, la mesa vence dentro de 12 h" in text_of(page)
    # a chat line is no game action; a play is
    game.waiting.post(f"/t/{game.invite}/chat", data={"text": "¿sigues ahí?"})
    assert "la mesa vence dentro de 12 h" in text_of(game.page(game.waiting))
    play_a_card(game.on_turn, game.invite)
    assert "la mesa vence" not in text_of(game.page(game.waiting))


def test_chat_lines_carry_their_instant_read_in_utc_until_the_script_comes(
    site: TestClient, clock: ManualClock
) -> None:
    invite = page_table(site, "Ana")
    said_at = iso(clock)
    assert site.post(f"/t/{invite}/chat", data={"text": "hola"}).status_code == 200
    page = site.get(f"/t/{invite}").text
    assert f'<time datetime="{said_at}" data-clock>12:00 UTC</time>' in page
    site.cookies.set("lang", "en")
    assert f'<time datetime="{said_at}" data-clock>12:00\u202fPM UTC</time>' in (
        site.get(f"/t/{invite}").text
    )
    clock.advance(days=1)  # an older line shows its date too
    assert f'<time datetime="{said_at}" data-clock>1/1/26, 12:00\u202fPM UTC</time>' in (
        site.get(f"/t/{invite}").text
    )
    site.cookies.set("lang", "es")
    fragment = site.get(f"/t/{invite}/board", headers=HX).text
    assert f'<time datetime="{said_at}" data-clock>1/1/26, 12:00 UTC</time>' in fragment


def test_the_board_names_its_next_change_by_time_for_the_page_s_script(
    site: TestClient, clock: ManualClock
) -> None:
    """time.js fetches the board again at that moment: when a warning begins
    or grows, or TERMINAR POR AUSENCIA becomes possible (then the expiry's)."""

    def next_change(who: TestClient) -> str | None:
        found = re.search(r'data-next-change="([^"]+)"', game.page(who))
        return found.group(1) if found else None

    game = two_people(site)
    assert next_change(game.waiting) == iso(clock, hours=48)
    assert next_change(game.on_turn) == iso(clock, hours=24)
    clock.advance(hours=30)
    assert next_change(game.on_turn) == iso(clock, hours=10)  # 40 h: the strong warning
    clock.advance(hours=11)
    assert next_change(game.on_turn) == iso(clock, hours=7)  # 48 h: TERMINAR POR AUSENCIA
    clock.advance(hours=8)
    # then only the expiry's: the last day begins 6 days after the last play
    assert next_change(game.on_turn) == iso(clock, hours=6 * 24 - 49)
    assert next_change(game.waiting) == iso(clock, hours=6 * 24 - 49)
    lobby = page_table(site, "Carla")
    page = site.get(f"/t/{lobby}").text
    assert f'data-next-change="{iso(clock, days=6)}"' in page


def test_a_spectator_reads_whose_turn_and_the_expiry_but_no_absence_clock(
    site: TestClient, clock: ManualClock
) -> None:
    game = two_people(site)
    visitor = TestClient(site.app)
    clock.advance(hours=30)
    text = text_of(game.page(visitor))
    assert f"Turno de {game.on_turn_name} · hace 30 h" in text
    assert "TERMINAR POR AUSENCIA" not in text and "Juega antes" not in text
    clock.advance(days=5, hours=12)
    text = text_of(game.page(visitor))
    assert "Si nadie juega, la mesa vence dentro de 6 h" in text
    assert "TERMINAR POR AUSENCIA" not in text
