"""The whole game to read (issue 25, `/t/{invite}/partida`), rendered from
real engine games: each round's deal (with the dealer's escoba when the four
cards made 15 or 30), its plays numbered as the replay's steps, the new deals
between them, and its points."""

from __future__ import annotations

import random
import re

from escoba.engine import GameState, Phase, RuleSet, new_game, shuffled_deck
from escoba.engine.round_steps import round_story
from escoba.names import Design
from escoba.web.base.settings import DEFAULT_LIMITS
from escoba.web.rendering.story import record_page
from escoba.web.rendering.templating import render_page
from escoba.web.table.story import GameStory, round_points

from .conftest import play_until, text_of


def game_story(state: GameState) -> GameStory:
    assert state.result is not None
    return GameStory(
        invite="abc123",
        game_number=1,
        names=("Ana", "Beto"),
        robots=frozenset({1}),
        players=state.players,
        rules=state.rules,
        rounds=tuple(
            (round_story(s, state.players, state.rules), s) for s in state.finished_rounds
        ),
        cut_short=None,
        result=state.result,
        totals=state.totals,
        points=round_points(state),
    )


def rendered(state: GameState) -> str:
    model = record_page(game_story(state), Design.FRENCH, "es", DEFAULT_LIMITS)
    return render_page("record.html", "es", DEFAULT_LIMITS, rec=model, design=Design.FRENCH)


def a_deal_that_takes_the_table() -> GameState:
    """A game to 15 whose first deal's four cards make 15 or 30: the dealer
    takes them, an escoba (two for 30)."""
    for seed in range(500):
        state = new_game(RuleSet(target=15), 2, shuffled_deck(random.Random(seed)))
        if state.round.table_take is not None:
            return state
    raise AssertionError("no deal took the table in 500 seeds")


def test_every_round_tells_its_deal_plays_deals_and_points() -> None:
    state = play_until(a_deal_that_takes_the_table(), lambda s: s.phase is Phase.GAME_OVER)
    html = rendered(state)
    sections = re.findall(r'<section class="record-round".*?</section>', html, re.S)
    assert len(sections) == len(state.finished_rounds) >= 1
    first = state.finished_rounds[0]
    take = first.table_take
    assert take is not None
    deal = re.search(r'<p class="record-deal">(.*?)</p>', sections[0], re.S)
    assert deal is not None
    mark = "¡ESCOBA DOBLE!" if take.escobas >= 2 else "¡ESCOBA!"
    assert text_of(deal.group(1)).endswith(f"— {mark}")
    assert "reparte y se lleva la mesa" in text_of(deal.group(1))
    for section, summary in zip(sections, state.finished_rounds, strict=True):
        numbers = re.findall(r'<li class="record-(?:play|claim)" value="(\d+)">', section)
        assert [int(n) for n in numbers] == list(range(1, len(summary.actions) + 1))
        # a deal after the first, between the plays, for each one dealt (2 players: 6 deals)
        assert section.count('<li class="record-deal">') == len(summary.deals) - 1 == 5
        assert text_of(section).count("Se reparten tres cartas a cada uno: ÚLTIMAS.") == 1
        assert "Cuenta de los restos: suman" in text_of(section) or not summary.leftover.cards
    # the game's points, round by round, and how it ended
    assert len(re.findall(r'data-total="(\d+)"', html)) == 2 * len(state.finished_rounds)
    assert "gana la partida!" in text_of(html)
    assert text_of(html).count("Jugaron: Ana contra Beto robot") == 1
