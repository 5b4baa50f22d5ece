"""The game's story through HTTP (issue 15, item 13): the points of every
round and the series at the game's end, the record as a download, and the
replay of a finished round for players and watchers, never showing a card
that was hidden at that step; bad input gets a clear page, never a 500."""

from __future__ import annotations

import json
import random
import re

import pytest
from fastapi.testclient import TestClient
from markupsafe import Markup

from escoba import engine as eng
from escoba.engine.cards import NOTATION
from escoba.engine.round_steps import round_story
from escoba.engine.state import RoundAction
from escoba.names import Design, card_name
from escoba.web.rendering.board import describe_action as describe
from escoba.web.table.page_building import PageBuilding
from escoba.web.table.story import StoryReads

from ..helpers import (
    Player,
    cards_in,
    create,
    move_seat,
    play_until_over,
    server_state,
    service_of,
    text_of,
)


def describe_action(action: RoundAction, names: tuple[str, ...]) -> str:
    """A play in the play log's words (names plain, as text_of reads them)."""
    return str(describe(action, tuple(Markup(n) for n in names), Design.FRENCH))


def seat_page(client: TestClient, player: Player) -> None:
    """This client's browser holds `player`'s seat."""
    assert player.token is not None
    move_seat(client, player.invite, player.token)


def game_against_a_robot(client: TestClient, seed: int = 2) -> Player:
    ana = create(client, "Ana")
    ana.command("/robots", robot="tito")
    ana.command("/start")
    return ana


def finished_game(client: TestClient, seed: int = 2) -> Player:
    ana = game_against_a_robot(client)
    play_until_over([ana], random.Random(seed))
    return ana


def until_round_over(ana: Player, rng: random.Random) -> None:
    """Ana plays (the robot answers at once) until the first round ends."""
    for _ in range(200):
        table = ana.table()
        if table["view"]["phase"] != "playing":
            return
        legal = table["view"]["legal_actions"]
        if legal:
            ana.act(rng.choice(legal))
    raise AssertionError("the round did not end")


def step_html(client: TestClient, invite: str, number: int, step: int) -> str:
    r = client.get(f"/t/{invite}/ronda/{number}?paso={step}")
    assert r.status_code == 200, r.text
    return r.text


def replay_block(html: str) -> str:
    """The step itself (not the page's header): what the replay shows."""
    start = html.index('class="replay-step"')
    return html[start : html.index("Volver a la mesa", start)]


def over_and_watched(client: TestClient) -> tuple[Player, eng.GameState, TestClient]:
    """A game against a robot played to its end, its state, and a watcher."""
    ana = finished_game(client)
    state = server_state(client, ana.invite)
    assert state is not None and state.result is not None
    return ana, state, TestClient(client.app)


def test_the_game_end_shows_every_round_s_points_and_the_record_downloads(
    app_client: TestClient,
) -> None:
    ana, state, watcher = over_and_watched(app_client)
    assert state.result is not None
    page = watcher.get(f"/t/{ana.invite}").text
    table = page[page.index('class="summary-table rounds-table"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</tr>", table, re.S)
    assert len(rows) == len(state.finished_rounds)
    for row, summary in zip(rows, state.finished_rounds, strict=True):
        cells = [
            (int(p), int(t)) for p, t in re.findall(r'data-points="(\d+)" data-total="(\d+)"', row)
        ]
        points = [s.points for s in summary.scores]
        assert cells == list(zip(points, summary.totals, strict=True))
        shown = [(int(p), int(t)) for p, t in re.findall(r"\+(\d+)<.*?<b[^>]*>(\d+)</b>", row)]
        assert shown == cells  # «+3 → 16»: the round's points, then the total
        assert f"/t/{ana.invite}/ronda/{summary.number}" in row
    winner = state.result.winners[0]
    assert table.count("is-winner") >= 1 + len(rows)  # its head and every cell
    assert 'class="tag tag-winner"' in table
    assert ["Ana", "Tito"][winner] in re.sub(r"<[^>]+>", "", table.split("tag-winner")[0])[-200:]

    assert f'href="/t/{ana.invite}/registro"' in page
    r = watcher.get(f"/t/{ana.invite}/registro")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    assert r.headers["content-disposition"] == 'attachment; filename="escoba-partida-1.json"'
    record = json.loads(r.text)
    assert record["format"] == "escoba-record/1"
    assert record == ana.get("/record")
    assert eng.replay(record).totals == state.totals


def test_the_record_is_not_given_while_the_game_is_on(app_client: TestClient) -> None:
    ana = game_against_a_robot(app_client)
    r = app_client.get(f"/t/{ana.invite}/registro")
    assert r.status_code == 409
    assert "El registro se descarga cuando la partida termina." in r.text
    assert "application/json" not in r.headers["content-type"]
    assert app_client.get("/t/nosuchtable123/registro").status_code == 404


def test_a_finished_round_replays_play_by_play_for_players_and_watchers(
    app_client: TestClient,
) -> None:
    ana = game_against_a_robot(app_client)
    until_round_over(ana, random.Random(4))
    state = server_state(app_client, ana.invite)
    assert state is not None
    summary = state.finished_rounds[0]
    seated = TestClient(app_client.app)
    seat_page(seated, ana)
    board = seated.get(f"/t/{ana.invite}").text
    assert f'href="/t/{ana.invite}/ronda/1"' in board  # from the round's summary
    r = seated.get(f"/t/{ana.invite}/repeticion", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/t/{ana.invite}/ronda/1"

    watcher = TestClient(app_client.app)
    last = len(summary.actions) + 1
    for client in (seated, watcher):
        first = step_html(client, ana.invite, 1, 0)
        assert "El reparto" in first and 'aria-disabled="true">ANTERIOR' in first
        end = step_html(client, ana.invite, 1, last)
        assert "Fin de la ronda" in end and 'aria-disabled="true">SIGUIENTE' in end
    # each step: the card played and what it took, then the table after it
    for i, action in enumerate(summary.actions, start=1):
        block = replay_block(step_html(watcher, ana.invite, 1, i))
        played = re.search(r'class="replay-played".*?data-card="([^"]+)"', block, re.S)
        assert played is not None
        assert played.group(1) == NOTATION[action.card]
        taken = re.search(r'class="replay-taken"(.*?)</figure>', block, re.S)
        taken_cards = re.findall(r'data-card="([^"]+)"', taken.group(1)) if taken else []
        assert taken_cards == [NOTATION[c] for c in action.cards]
        assert block.count("¡ESCOBA!") == (1 if action.escoba else 0)  # said once


def test_an_early_step_shows_no_card_that_was_still_in_a_hand(app_client: TestClient) -> None:
    ana = game_against_a_robot(app_client)
    until_round_over(ana, random.Random(6))
    state = server_state(app_client, ana.invite)
    assert state is not None
    summary = state.finished_rounds[0]
    first = summary.deals[0]
    dealt_table = {NOTATION[c] for c in first.table}
    story = round_story(summary, state.players, state.rules)
    for step in range(0, 4):
        html = step_html(app_client, ana.invite, 1, step)
        played = {NOTATION[a.card] for a in summary.actions[:step]}
        seen = dealt_table | played
        for a in summary.actions[:step]:
            seen |= {NOTATION[c] for c in a.cards}
        # issue 34: a play's step shows the hand its player chose from (the
        # position its analysis weighed), and no other hand
        seen |= {NOTATION[c] for c in story.steps[step].hand_before}
        # (the drawings' path data aside: only their titles name cards)
        assert cards_in(re.sub(r"<svg.*?</svg>", "", replay_block(html), flags=re.S)) <= seen
        # no name of a card still in a hand, in any words of the page
        unseen = {c for c in eng.CARDS if NOTATION[c] not in seen}
        names_in_page = [card_name(c, lang="es") for c in unseen if card_name(c, lang="es") in html]
        assert not names_in_page, names_in_page


@pytest.mark.parametrize(
    "path",
    [
        "/ronda/1",  # no round finished yet
        "/ronda/0",
        "/ronda/99",
        "/ronda/uno",
        "/ronda/-1",
        "/ronda/1?paso=999",
        "/ronda/1?paso=-1",
        "/ronda/1?paso=abc",
        "/repeticion",
    ],
)
def test_bad_replay_input_is_a_clear_404(app_client: TestClient, path: str) -> None:
    ana = game_against_a_robot(app_client)
    r = app_client.get(f"/t/{ana.invite}{path}", follow_redirects=False)
    assert r.status_code == 404, r.text
    assert "text/html" in r.headers["content-type"]
    assert "No hay repetición" in r.text
    assert f'href="/t/{ana.invite}"' in r.text


def test_a_step_out_of_range_of_a_finished_round_is_a_404(app_client: TestClient) -> None:
    ana = game_against_a_robot(app_client)
    until_round_over(ana, random.Random(4))
    for query in ("?paso=999", "?paso=x", "?paso=1%C2%B2"):
        r = app_client.get(f"/t/{ana.invite}/ronda/1{query}")
        assert r.status_code == 404
        assert "Esa jugada no está en la repetición de la ronda." in r.text
    assert app_client.get(f"/t/{ana.invite}/ronda/2").status_code == 404
    assert app_client.get("/t/nosuchtable123/ronda/1").status_code == 404
    assert app_client.get("/t/nosuchtable123/repeticion").status_code == 404


def test_a_rematch_keeps_the_series_score(app_client: TestClient) -> None:
    ana = finished_game(app_client, seed=2)
    first = server_state(app_client, ana.invite)
    assert first is not None and first.result is not None
    ana_won = first.result.winners == (0,)
    ana.command("/rematch")
    table = ana.table()
    assert table["status"] == "playing" and table["game_number"] == 2
    seated = TestClient(app_client.app)
    seat_page(seated, ana)
    page = seated.get(f"/t/{ana.invite}").text
    bar = page[page.index('class="chip chip-series"') :]
    bar = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", bar[: bar.index("</span></span>")]))
    expected = f"Ana {int(ana_won)} – Tito robot {int(not ana_won)}"
    assert "Serie:" in bar and expected in bar

    play_until_over([ana], random.Random(9))
    second = server_state(app_client, ana.invite)
    assert second is not None and second.result is not None
    wins = {0: int(ana_won), 1: int(not ana_won)}
    wins[second.result.winners[0]] += 1
    end = TestClient(app_client.app).get(f"/t/{ana.invite}").text
    line = end[end.index('class="series-line"') :]
    line = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", line[: line.index("</p>")]))
    assert f"Ana {wins[0]} – Tito robot {wins[1]}" in line


def test_the_series_replays_earlier_games_from_the_log(app_client: TestClient) -> None:
    """The series is read from the action log (nothing new is stored): a
    process that never saw the earlier game tells the same series."""
    ana = finished_game(app_client, seed=2)
    first = server_state(app_client, ana.invite)
    assert first is not None and first.result is not None
    ana.command("/rematch")
    service = service_of(app_client)
    # as a process that never saw the earlier games
    story = StoryReads(service.db, service.store, service.history)
    fresh = PageBuilding(service.db, service.store, service.clock, service.settings, story)
    page = fresh.page(ana.invite, None)
    # Ana sits at lobby position 0 and engine seat 0; Tito at 1 and 1
    won = first.result.winners[0]
    assert page.series is not None
    assert page.series.games == 1
    assert page.series.wins == ((0, int(won == 0)), (1, int(won == 1)))


def test_an_escoba_is_said_once_in_its_step(app_client: TestClient) -> None:
    """The step's sentence says ¡ESCOBA! (the play log's words): no second
    mark beside it."""
    for seed in range(3, 40):
        ana = game_against_a_robot(app_client)
        until_round_over(ana, random.Random(seed))
        state = server_state(app_client, ana.invite)
        assert state is not None
        actions = state.finished_rounds[0].actions
        sweeps = [i for i, action in enumerate(actions, start=1) if action.escoba]
        if sweeps:
            break
    else:
        raise AssertionError("no first round with an escoba in 37 games")
    for i in sweeps:
        block = replay_block(step_html(app_client, ana.invite, 1, i))
        assert block.count("¡ESCOBA!") == 1, block


# --------------------------------------------------------------------------
# The game told whole (issue 25): a page to read and print


def record_sections(html: str) -> list[str]:
    return re.findall(r'<section class="record-round".*?</section>', html, re.S)


def test_the_whole_game_reads_round_by_round_with_every_play_and_its_points(
    app_client: TestClient,
) -> None:
    ana, state, watcher = over_and_watched(app_client)
    assert state.result is not None
    end = watcher.get(f"/t/{ana.invite}").text
    assert f'href="/t/{ana.invite}/partida"' in end  # linked from the game's end
    r = watcher.get(f"/t/{ana.invite}/partida")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    page = r.text
    assert "Partida 1, jugada a jugada" in text_of(page)
    assert "Jugaron: Ana contra Tito robot" in text_of(page)
    winner = ["Ana", "Tito robot"][state.result.winners[0]]
    assert f"{winner} gana la partida!" in text_of(page)
    sections = record_sections(page)
    assert len(sections) == len(state.finished_rounds)
    for section, summary in zip(sections, state.finished_rounds, strict=True):
        assert f"Ronda {summary.number}" in text_of(section)
        plays = re.findall(r'<li class="record-(?:play|claim)" value="(\d+)">', section)
        assert [int(n) for n in plays] == list(range(1, len(summary.actions) + 1))
        first = summary.actions[0]
        assert text_of(describe_action(first, ("Ana", "Tito robot"))) in text_of(section)
        totals = re.search(r'<tr class="row-total">.*?</tr>', section, re.S)
        assert totals is not None
        assert [int(n) for n in re.findall(r"<td>(\d+)</td>", totals.group(0))] == list(
            summary.totals
        )
        assert f'href="/t/{ana.invite}/ronda/{summary.number}"' in section
    assert f'href="/t/{ana.invite}/registro"' in page  # the file, beside it


def test_the_whole_game_is_read_only_once_it_is_over(app_client: TestClient) -> None:
    ana = game_against_a_robot(app_client)
    r = app_client.get(f"/t/{ana.invite}/partida")
    assert r.status_code == 409
    assert "La partida entera se puede leer cuando termina." in r.text
    assert app_client.get("/t/nosuchtable123/partida").status_code == 404


def test_a_round_cut_short_tells_its_plays_and_no_card_still_in_a_hand(
    app_client: TestClient,
) -> None:
    ana = game_against_a_robot(app_client)
    rng = random.Random(8)
    for _ in range(7):  # Ana plays (the robot answers) a few times, then leaves
        legal = ana.table()["view"]["legal_actions"]
        ana.act(rng.choice(legal))
    ana.command("/abandon")
    state = server_state(app_client, ana.invite)
    assert state is not None and state.result is not None and not state.finished_rounds
    page = TestClient(app_client.app).get(f"/t/{ana.invite}/partida").text
    (section,) = record_sections(page)
    assert "Ronda 1, sin terminar" in text_of(section)
    assert "sus puntos no se contaron" in text_of(section)
    history = state.round.history
    plays = re.findall(r'<li class="record-(?:play|claim)"', section)
    assert len(plays) == len(history) >= 7
    # each deal after the first, where it came (the hands emptied)
    deals = re.findall(r'<li class="record-deal"', section)
    assert len(deals) == len(state.round.deals) - 1 >= 1
    seen = set(state.round.deals[0].table)
    for action in history:
        seen |= {action.card, *action.cards}
    hidden = [c for hand in state.round.hands for c in hand if c not in seen]
    assert hidden
    named = [card_name(c, lang="es") for c in hidden if card_name(c, lang="es") in section]
    assert not named, named
