"""The game's story on the board (issue 15, item 13), rendered from real
engine states: every round's points at the game's end, the series in the
game bar, and who a side of the series is with four players."""

from __future__ import annotations

import random
import re
from typing import Any

from escoba.engine import (
    GameState,
    Phase,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    shuffled_deck,
    start_next_round,
)
from escoba.names import Design
from escoba.web.rendering.templating import render_table
from escoba.web.table.pages import SeriesScore
from escoba.web.table.story import round_points, series_names, winners_of_games

from .conftest import make_page, play_until, start, text_of


def test_partners_with_the_same_wins_are_one_side_else_each_alone() -> None:
    series = SeriesScore(games=3, wins=((0, 2), (1, 1), (2, 2), (3, 1)))
    assert series_names(series, [[0, 2], [1, 3]]) == (((0, 2), 2), ((1, 3), 1))
    changed = SeriesScore(games=3, wins=((0, 2), (1, 1), (2, 1), (3, 2)))
    assert series_names(changed, [[0, 2], [1, 3]]) == (((0,), 2), ((2,), 1), ((1,), 1), ((3,), 2))
    assert series_names(SeriesScore(1, ((0, 1), (1, 0))), [[0], [1]]) == (((0,), 1), ((1,), 0))


def test_the_game_end_lists_every_round_with_its_points_and_totals() -> None:
    state = play_until(start(), lambda s: s.phase is Phase.GAME_OVER)
    assert state.result is not None
    page = make_page(state, seat=1, rounds=round_points(state))
    html = render_table(page, Design.FRENCH)
    table = html[html.index('class="summary-table rounds-table"') :]
    table = table[: table.index("</table>")]
    lines = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</tr>", table, re.S)
    assert len(lines) == len(state.finished_rounds) >= 1
    last = [int(n) for n in re.findall(r'data-total="(\d+)"', lines[-1])]
    assert last == list(state.totals)
    winner = state.result.winners[0]
    heads = re.findall(r'<th scope="col"[^>]*class="([^"]*)"', table)
    assert ["is-winner" in h for h in heads] == [s == winner for s in range(2)]
    assert "Descargar el registro de la partida" in html
    assert 'href="/t/abc123/registro"' in html


def test_the_game_end_says_the_outcome_first_then_the_story() -> None:
    """Issue 25, item 1: the winner and the rematch come before the game's
    story, and the last round's table is told once, in the story, under
    the points of every round."""
    state = play_until(start(), lambda s: s.phase is Phase.GAME_OVER)
    html = render_table(make_page(state, seat=1, rounds=round_points(state)), Design.FRENCH)
    order = [
        html.index('id="winner-title"'),
        html.index('class="rematch"'),
        html.index('class="summary-table rounds-table"'),
        html.index('id="summary-title"'),
        html.index('href="/t/abc123/registro"'),
    ]
    assert order == sorted(order)
    assert html.count('id="summary-title"') == 1
    assert html.index('class="panel winner"') < html.index('id="summary-title"')


def test_the_series_shows_in_the_bar_while_the_next_game_is_played() -> None:
    four = start(players=4)
    series = SeriesScore(games=2, wins=((0, 1), (1, 1), (2, 1), (3, 1)))
    page = make_page(four, seat=0, players=4, series=series, game_number=3)
    html = render_table(page, Design.FRENCH)
    bar = html[html.index('<span class="chip chip-series"') :]
    bar = text_of(bar[: bar.index("</span></span>") + 14])
    # seats 0+2 (Ana, Carmen) against 1+3 (Beto, Dani): one count a pair
    assert bar == "Serie: Ana y Carmen robot 1 – Beto y Dani 1"
    assert 'class="series-line"' not in html  # the full story waits for the end
    no_series = render_table(make_page(four, seat=0, players=4), Design.FRENCH)
    assert "chip-series" not in no_series


def _logged_game(
    number: int, seats: dict[str, int], seed: int
) -> tuple[list[tuple[str, int, dict[str, Any]]], GameState]:
    """A whole four-player game as the action log keeps it (start, actions,
    next rounds), and its final state."""
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    entries: list[tuple[str, int, dict[str, Any]]] = [
        (
            "start",
            number,
            {"target": 21, "players": 4, "deck": [int(c) for c in deck], "seats": seats},
        )
    ]
    state = new_game(RuleSet(target=21), 4, deck, 0)
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            deck = shuffled_deck(rng)
            state, _ = start_next_round(state, deck)
            entries.append(("next_round", number, {"deck": [int(c) for c in deck]}))
        else:
            seat = state.round.turn
            action = rng.choice(legal_actions(state))
            state, _ = apply(state, seat, action)
            entries.append(("action", number, {"seat": seat, "action": action.to_dict()}))
    return entries, state


def test_earlier_games_winners_are_replayed_from_the_log_by_lobby_position() -> None:
    # game 1: the creator's partner is position 2; game 2 (CAMBIAR): position 3
    first, one = _logged_game(1, {"0": 0, "1": 1, "2": 2, "3": 3}, seed=4)
    second, two = _logged_game(2, {"0": 0, "1": 1, "2": 3, "3": 2}, seed=5)
    won = winners_of_games([*first, ("rematch", 1, {}), *second])
    by_side_1 = {0: [0, 2], 1: [1, 3]}
    by_side_2 = {0: [0, 3], 1: [1, 2]}
    assert one.result is not None and two.result is not None
    assert won[1] == by_side_1[one.result.winners[0]]
    assert won[2] == by_side_2[two.result.winners[0]]
