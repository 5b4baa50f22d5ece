"""The coach on the table page (issue 28, part 2): off by default, chosen
per seat; shown only where it gives nobody an edge (the other seats all
robots, or every person turned it on, which each of them reads); while on,
the board carries the coach's words for each legal action, the ones
`escoba.analysis` gives for that seat's view."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from escoba.analysis import coach_facts, say_coach
from escoba.engine.actions import Claim
from escoba.engine.cards import NOTATION
from escoba.names import Design
from escoba.web.rendering.coach import linked

from ..helpers import join, move_seat, page_game_on_my_turn, service_of, text_of


def coach_options(html: str) -> list[tuple[str, str, str]]:
    return re.findall(
        r'class="coach-option" data-kind="(\w+)" data-card="(\w*)" data-capture="([\w ]*)"', html
    )


def switch(client: TestClient, invite: str, value: str) -> None:
    r = client.post(f"/t/{invite}/coach", data={"coach": value}, follow_redirects=False)
    assert r.status_code == 303, r.text


def test_the_coach_is_off_until_chosen_then_says_what_each_play_leaves(
    site: TestClient,
) -> None:
    invite = page_game_on_my_turn(site)
    page = site.get(f"/t/{invite}").text
    assert 'id="coach-toggle"' in page and 'aria-pressed="false"' in page
    assert coach_options(page) == []
    switch(site, invite, "on")
    page = site.get(f"/t/{invite}").text
    assert "Encendido: en esta mesa solo juegas contra robots." in text_of(page)
    state = service_of(site).reads.game_state(invite)
    assert state is not None and state.turn is not None
    from escoba.engine import view

    v = view(state, state.turn)
    options = coach_options(page)
    assert len(options) == len(v.legal)
    design = Design.FRENCH
    for action in v.legal:
        if isinstance(action, Claim):
            continue
        key = ("play", NOTATION[action.card], " ".join(sorted(NOTATION[c] for c in action.capture)))
        assert key in options
        words = say_coach(coach_facts(v, action), state_names(site, invite), "es", design)
        block = page[page.index(f'data-card="{key[1]}" data-capture="{key[2]}"') :]
        block = block[: block.index("</div>")]
        for line in words:  # as written, with its game words linked to the rules
            assert str(linked(line, "es")) in block, (line, block)
    switch(site, invite, "off")
    assert coach_options(site.get(f"/t/{invite}").text) == []


def state_names(client: TestClient, invite: str) -> tuple[str, ...]:
    page = service_of(client).pages.page(invite, None)
    return page.names


def test_between_people_it_shows_only_once_every_person_turned_it_on(site: TestClient) -> None:
    from starlette.testclient import TestClient as Browser

    invite = page_game_table_of_two(site)
    beto_browser = Browser(site.app)
    beto = join(beto_browser, invite, "Beto")
    assert beto.token is not None
    move_seat(beto_browser, invite, beto.token)
    version = int(re.search(r'name="version" value="(\d+)"', site.get(f"/t/{invite}").text)[1])  # type: ignore[index]
    r = site.post(f"/t/{invite}/start", data={"version": version}, follow_redirects=False)
    assert r.status_code == 303
    switch(site, invite, "on")
    for browser in (site, beto_browser):
        assert coach_options(browser.get(f"/t/{invite}").text) == []
    assert "(1 de 2)" in text_of(site.get(f"/t/{invite}").text)
    assert "1 de 2 personas lo encendieron" in text_of(beto_browser.get(f"/t/{invite}").text)
    switch(beto_browser, invite, "on")
    pages = [b.get(f"/t/{invite}").text for b in (site, beto_browser)]
    for page in pages:
        assert "Encendido para todos: cada persona de la mesa lo encendió." in text_of(page)
    on_turn = [p for p in pages if 'data-my-turn="true"' in p]
    off_turn = [p for p in pages if 'data-my-turn="true"' not in p]
    assert len(on_turn) == 1 and coach_options(on_turn[0])
    assert coach_options(off_turn[0]) == []  # only before one's own play
    switch(beto_browser, invite, "off")
    assert all(coach_options(b.get(f"/t/{invite}").text) == [] for b in (site, beto_browser))


def page_game_table_of_two(client: TestClient) -> str:
    r = client.post("/tables", data={"name": "Ana", "target": "21"}, follow_redirects=False)
    assert r.status_code == 303
    invite: str = r.headers["location"].rsplit("/", 1)[1]
    return invite


def test_a_forged_or_seatless_choice_is_refused_and_keeps_nothing(site: TestClient) -> None:
    invite = page_game_on_my_turn(site)
    r = site.post(f"/t/{invite}/coach", data={"coach": "maybe"})
    assert r.status_code == 422
    from starlette.testclient import TestClient as Browser

    stranger = Browser(site.app)
    r = stranger.post(f"/t/{invite}/coach", data={"coach": "on"}, follow_redirects=False)
    assert r.status_code == 403
    assert 'aria-pressed="false"' in site.get(f"/t/{invite}").text


def test_the_devices_choice_is_where_its_next_seat_starts(site: TestClient) -> None:
    first = page_game_on_my_turn(site)
    switch(site, first, "on")
    second = page_game_on_my_turn(site)
    assert coach_options(site.get(f"/t/{second}").text), "the new seat starts with the coach on"
    switch(site, second, "off")
    third = page_game_on_my_turn(site)
    assert coach_options(site.get(f"/t/{third}").text) == []
    assert coach_options(site.get(f"/t/{first}").text)  # each seat keeps its own
