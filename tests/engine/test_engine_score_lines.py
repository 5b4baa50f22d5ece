"""The round summary's lines add up (issue 15, item 5): each side's points
item by item — escobas, cards, diamonds, the 7 of diamonds, sevens — are the
engine's, and they sum to the round's points, for any round (RULES.md
«Scoring a round»)."""

from __future__ import annotations

import random

from engine_positions import random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from escoba.engine import CARDS, Phase
from escoba.engine.cards import IS_DIAMOND, SEVEN_OF_DIAMONDS, VALUE
from escoba.engine.scoring import score_round
from escoba.engine.seats import side_count, side_of
from escoba.engine.serialize import state_from_dict, state_to_dict
from escoba.engine.state import SideScore

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def lines(score: SideScore) -> dict[str, int]:
    return {
        "escobas": score.points_escobas,
        "cards": score.points_cards,
        "diamonds": score.points_diamonds,
        "seven_of_diamonds": score.points_seven_of_diamonds,
        "sevens": score.points_sevens,
    }


@st.composite
def rounds(draw: st.DrawFn) -> tuple[list[list[int]], list[int], int]:
    """A round's end: the 40 cards shared among the seats' piles at random
    (a few may go to nobody, as a table nobody took), and each seat's escobas."""
    players = draw(st.sampled_from([2, 3, 4]))
    owners = draw(st.lists(st.integers(-1, players - 1), min_size=40, max_size=40))
    piles: list[list[int]] = [[] for _ in range(players)]
    for card, owner in zip(CARDS, owners, strict=True):
        if owner >= 0:
            piles[owner].append(card)
    escobas = draw(st.lists(st.integers(0, 6), min_size=players, max_size=players))
    return piles, escobas, players


@SETTINGS
@given(rounds())
def test_the_lines_add_up_to_the_rounds_points(
    round_end: tuple[list[list[int]], list[int], int],
) -> None:
    piles, escobas, players = round_end
    scores = score_round([[CARDS[c] for c in p] for p in piles], escobas, players)
    assert len(scores) == side_count(players)
    for score in scores:
        assert sum(lines(score).values()) == score.points
        assert score.line_points == tuple(lines(score).values())
    # each line as RULES.md says, side by side
    sides = range(len(scores))
    for item, count in (("cards", "cards"), ("diamonds", "diamonds"), ("sevens", "sevens")):
        counts = [getattr(s, count) for s in scores]
        given_to = [s for s in sides if lines(scores[s])[item]]
        if counts.count(max(counts)) > 1:
            assert given_to == []  # a tie for the most gives the item to nobody
        else:
            assert given_to == [counts.index(max(counts))]
    pooled_escobas = [0] * len(scores)
    for seat, n in enumerate(escobas):
        pooled_escobas[side_of(seat, players)] += n
    assert [s.points_escobas for s in scores] == pooled_escobas
    has_seven = [any(c == SEVEN_OF_DIAMONDS for c in p) for p in piles]
    with_seven = {side_of(seat, players) for seat in range(players) if has_seven[seat]}
    assert [s.points_seven_of_diamonds for s in scores] == [int(s in with_seven) for s in sides]
    for score in scores:
        assert score.points_diamonds == (
            0 if not score.points_diamonds else 2 if score.diamonds == 10 else 1
        )
        assert score.points_sevens == (
            0 if not score.points_sevens else 2 if score.sevens == 4 else 1
        )


def test_the_lines_of_played_rounds_add_up_and_survive_storage() -> None:
    rng = random.Random(2026)
    checked = 0
    for _ in range(12):
        seed, players = rng.randrange(2**32), rng.choice([2, 3, 4])
        for before, seat, _, after, _ in random_game(seed, players, target=31):
            if seat is not None or before.phase is not Phase.ROUND_OVER:
                continue
            summary = before.finished_rounds[-1]
            previous = (
                before.finished_rounds[-2].totals if len(before.finished_rounds) > 1 else None
            )
            for side, score in enumerate(summary.scores):
                assert sum(score.line_points) == score.points
                gained = summary.totals[side] - (previous[side] if previous else 0)
                assert gained == score.points
            stored = state_from_dict(state_to_dict(before)).finished_rounds[-1]
            assert [s.line_points for s in stored.scores] == [s.line_points for s in summary.scores]
            checked += 1
            del after
    assert checked >= 12


def test_every_card_counts_once() -> None:
    """The pools the lines count: all diamonds and sevens are somebody's."""
    scores = score_round([CARDS[:20], CARDS[20:]], (0, 0), 2)
    assert sum(s.diamonds for s in scores) == sum(1 for c in CARDS if IS_DIAMOND[c])
    assert sum(s.sevens for s in scores) == sum(1 for c in CARDS if VALUE[c] == 7)
