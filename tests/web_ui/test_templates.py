"""The table page and its fragments rendered from real engine states."""

from __future__ import annotations

import json
import re
from dataclasses import replace

from escoba.engine import EndReason, GameState, Phase, Play, end_game, view
from escoba.engine.cards import NOTATION
from escoba.names import Design
from escoba.web.base.assets import vendor_url
from escoba.web.rendering.board import board_model
from escoba.web.rendering.templating import render_board, render_page, render_table
from escoba.web.table.pages import TableStatus

from .conftest import make_page, play_until, start, text_of, with_can

FORM_RE = re.compile(r"<form\b.*?</form>", re.S)


def assert_csp_friendly(html: str) -> None:
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script"
    assert not re.search(r"\son[a-z]+\s*=", html), "inline event handler"
    assert "style=" not in html
    assert "javascript:" not in html


def assert_forms_carry_version(html: str, version: int) -> None:
    for form in FORM_RE.findall(html):
        if any(
            a in form
            for a in ('action="/tables"', "/join", "/design", "/confirm", 'action="/lang"')
        ):
            continue
        assert f'name="version" value="{version}"' in form, form[:200]


def test_home_page() -> None:
    html = render_page("home.html", error=None, name=None, target=None)
    assert '<html lang="es">' in html
    assert vendor_url("htmx.min.js") in html and vendor_url("htmx-ext-sse.js") in html
    assert 'value="21" checked' in html and 'value="31"' in html
    assert "CREAR MESA" in html
    assert_csp_friendly(html)


def test_lobby_for_the_creator() -> None:
    page = make_page(None, seat=0, players=3)
    html = render_table(page, Design.FRENCH)
    assert "Enlace para invitar" in html and "/t/abc123" in html and "data-copy" in html
    assert "EMPEZAR" in html
    # Carmen already sits: only the other robots are offered
    assert 'name="robot" value="tito"' in html and 'name="robot" value="luna"' in html
    assert 'name="robot" value="carmen"' not in html
    assert "QUITAR" in html  # Carmen can be removed
    assert "Lugar libre" in html
    assert "LAS PAREJAS" not in html
    assert_forms_carry_version(html, 7)
    assert_csp_friendly(html)


def test_lobby_with_four_offers_las_parejas() -> None:
    page = make_page(None, seat=0, players=4, partner_position=2)
    html = render_table(page, Design.FRENCH)
    assert "LAS PAREJAS" in html
    assert 'name="position" value="1"' in html
    assert "Ana y Carmen robot contra Beto y Dani" in text_of(html)  # Carmen is a robot
    assert 'name="robot"' not in html  # no free seat


def test_lobby_for_a_visitor() -> None:
    page = make_page(None, seat=None, players=2)
    html = render_table(page, Design.FRENCH)
    assert 'action="/t/abc123/join"' in html and "Solo quiero mirar" in html
    assert 'action="/t/abc123/start"' not in html
    watching = render_table(page, Design.FRENCH, watching=True)
    assert "/join" not in watching
    assert "no escribir" in html  # spectators read the chat only


def test_board_on_my_turn_embeds_the_legal_groups() -> None:
    state = start(seed=5)
    seat = state.round.turn
    page = make_page(state, seat=seat)
    html = render_table(page, Design.FRENCH)
    v = view(state, seat)
    for card in v.hand:
        groups = sorted(
            [NOTATION[c] for c in a.capture]
            for a in v.legal
            if isinstance(a, Play) and a.card == card and a.capture
        )
        match = re.search(rf'data-card="{NOTATION[card]}"[^>]*data-groups=\'([^\']*)\'', html)
        assert match is not None
        assert sorted(json.loads(match.group(1).replace("&#34;", '"'))) == groups
    for card in v.table:
        assert 'class="card table-card' in html and f'data-card="{NOTATION[card]}"' in html
    assert "Tu turno" in html and "is-my-turn" in html
    assert "LLEVAR" in html and "DEJAR EN LA MESA" in html
    assert 'hx-disabled-elt="find button"' in html
    # the stream knows the version shown, so a reconnecting page catches up; it
    # brings the page's own board in each event (board=1), swapped as it comes
    assert f'sse-connect="/t/abc123/events?since={page.version}&amp;board=1"' in html
    assert 'sse-swap="board"' in html and 'data-view="es french tap"' in html
    # time:due: static/time.js; board:retry: escoba.js, a failed board fetch tried again;
    # sse:elsewhere: the browser's other tables waiting for it changed (its «Siguiente mesa»)
    assert 'hx-trigger="sse:update, sse:elsewhere, time:due, board:retry"' in html
    assert_forms_carry_version(html, 7)
    assert_csp_friendly(html)


def test_board_when_waiting() -> None:
    state = start(seed=5)
    other = 1 - state.round.turn
    html = render_table(make_page(state, seat=other), Design.FRENCH)
    assert f"Turno de {('Ana', 'Beto')[state.round.turn]}" in text_of(html)
    assert 'id="play-form"' not in html
    assert "disabled>" in html  # hand and table cards wait
    assert "ABANDONAR" in html and "SALIR DEL JUEGO" in html


def test_spectator_sees_no_hand_and_cannot_chat() -> None:
    state = start(seed=5)
    page = make_page(state, seat=None)
    html = render_table(page, Design.FRENCH)
    assert 'class="card hand-card' not in html
    assert "data-groups" not in html
    assert 'class="chat-form' not in html
    assert "&lt;b&gt;hola&lt;/b&gt; &amp; suerte" in html  # chat is escaped


def test_claim_window_shows_llevar_el_15() -> None:
    state = play_until(start(seed=2), lambda s: s.round.claim is not None, seed=11)
    seat = state.round.turn
    html = render_table(make_page(state, seat=seat), Design.FRENCH)
    assert "LLEVAR EL 15" in html and 'id="claim-form"' in html
    assert "is-claimable" in html
    other = render_table(make_page(state, seat=1 - seat), Design.FRENCH)
    assert 'id="claim-form"' not in other
    assert "is-claimable" in other


def _escoba_just_happened(s: GameState) -> bool:
    return s.phase is Phase.PLAYING and bool(s.round.history) and s.round.history[-1].escoba


def test_escoba_badge_next_to_the_name() -> None:
    state = play_until(start(seed=4), _escoba_just_happened, seed=7)
    who = state.round.history[-1].seat
    board = board_model(make_page(state, seat=0), Design.FRENCH)
    assert board is not None
    assert [s.flash for s in board.seats if s.seat == who] == ["¡ESCOBA!"]
    html = render_table(make_page(state, seat=0), Design.FRENCH)
    assert '<span class="escoba-badge">¡ESCOBA!</span>' in html


def test_ultimas_mark() -> None:
    state = play_until(start(seed=6), lambda s: s.round.is_last_deal, seed=2)
    html = render_table(make_page(state, seat=0), Design.FRENCH)
    assert "ÚLTIMAS" in html


def test_round_summary_per_side_in_the_viewers_design() -> None:
    state = play_until(start(seed=8), lambda s: s.phase is Phase.ROUND_OVER, seed=5)
    page = make_page(state, seat=0)
    html = render_table(page, Design.SPANISH)
    assert "Fin de la ronda 1" in html
    for word in ("Escobas", "Cartas", "Oros", "Sietes", "Siete de oros", "Puntos de la ronda"):
        assert word in html
    assert "SIGUIENTE RONDA" in html
    summary = state.finished_rounds[-1]
    board = board_model(page, Design.SPANISH)
    assert board is not None and board.summary is not None
    assert [r.points for r in board.summary.rows] == [s.points for s in summary.scores]
    assert [r.total for r in board.summary.rows] == list(summary.totals)
    french = render_table(page, Design.FRENCH)
    assert "Diamantes" in french and "Siete de diamantes" in french


def _rematch(html: str) -> str:
    block = re.search(r'<div class="rematch">.*?</div>\s*<div class="story">', html, re.S)
    assert block is not None
    return text_of(block.group(0))


def test_winner_screen_and_rematch() -> None:
    """Issue 25: the first press proposes the rematch (PROPONER REVANCHA);
    the others then see who proposed it and ACEPTAR REVANCHA; alone with
    robots it is played at once (JUGAR LA REVANCHA)."""
    state = play_until(start(seed=9), lambda s: s.phase is Phase.GAME_OVER, seed=9)
    page = make_page(state, seat=0)
    html = render_table(page, Design.FRENCH)
    assert page.status is TableStatus.FINISHED
    assert "la partida!" in html
    assert "ABANDONAR" not in html
    nobody = _rematch(html)
    assert "PROPONER REVANCHA" in nobody and "ACEPTAR" not in nobody and "propone" not in nobody

    beto_asked = tuple(replace(s, rematch_accepted=s.name == "Beto") for s in page.seats)
    asked = _rematch(render_table(replace(page, seats=beto_asked), Design.FRENCH))
    assert "Beto propone la revancha." in asked and "ACEPTAR REVANCHA" in asked
    assert "PROPONER" not in asked

    ana_asked = tuple(replace(s, rematch_accepted=s.name == "Ana") for s in page.seats)
    mine = with_can(
        replace(page, seats=ana_asked, you=ana_asked[0]), rematch_asked=True, rematch=False
    )
    proposed = _rematch(render_table(mine, Design.FRENCH))
    assert "Pediste la revancha: empieza cuando acepte Beto" in proposed
    assert "REVANCHA" not in proposed  # no button

    spectator = with_can(replace(page, seats=beto_asked, you=None), rematch=False, chat=False)
    watched = _rematch(render_table(spectator, Design.FRENCH))
    assert "Beto propone la revancha." in watched and "REVANCHA" not in watched

    pairs = render_table(with_can(page, pairs_choice=True), Design.FRENCH)
    assert "MANTENER" in pairs and "CAMBIAR" in pairs and 'value="keep"' in pairs
    assert "PROPONER REVANCHA: ¿las mismas parejas o cambiamos?" in _rematch(pairs)


def test_alone_with_robots_the_rematch_is_played_at_once() -> None:
    state = play_until(start(seed=9), lambda s: s.phase is Phase.GAME_OVER, seed=9)
    page = make_page(state, seat=0)
    robots = tuple(replace(s, is_robot=True, robot="tito") if s.position else s for s in page.seats)
    alone = _rematch(render_table(replace(page, seats=robots), Design.FRENCH))
    assert "JUGAR LA REVANCHA" in alone
    assert "PROPONER" not in alone and "ACEPTAR" not in alone


def test_abandon_result_has_no_rematch() -> None:
    state, _ = end_game(start(players=4, seed=3), EndReason.ABANDON, loser_seat=1)
    page = make_page(state, seat=0, players=4, can={"rematch_offered": False, "rematch": False})
    html = render_table(page, Design.FRENCH)
    assert "Beto abandonó la partida. Ana y Carmen robot ganan." in text_of(html)
    assert "Sin revancha" in html


def test_absence_button_with_confirm() -> None:
    state = start(seed=5)
    absent = state.round.turn
    page = make_page(state, seat=1 - absent, can={"absence": True, "absent_seat": absent})
    html = render_table(page, Design.FRENCH)
    assert "TERMINAR POR AUSENCIA" in html and "SÍ, TERMINAR" in html
    assert "ausente" in html


def test_expired_table() -> None:
    page = make_page(None, seat=0, status=TableStatus.EXPIRED)
    assert "La mesa expiró" in render_table(page, Design.FRENCH)


def test_board_fragment_is_a_fragment_with_the_chat_out_of_band() -> None:
    state = start(seed=5)
    html = render_board(make_page(state, seat=0), Design.SPANISH, error="Esa jugada ya no vale.")
    assert "<html" not in html and "<body" not in html
    assert html.lstrip().startswith('<div class="board')
    assert 'id="chat-log"' in html and 'hx-swap-oob="true"' in html
    assert '<p class="alert" role="alert">Esa jugada ya no vale.</p>' in html
    assert 'data-card-design="spanish"' in html
    assert_csp_friendly(html)


def test_recent_plays_read_in_spanish() -> None:
    state = play_until(start(seed=5), lambda s: len(s.round.history) >= 3, seed=1)
    board = board_model(make_page(state, seat=0), Design.SPANISH)
    assert board is not None and board.recent
    assert all(text_of(line).startswith(("Ana", "Beto")) for line in board.recent[:3])
