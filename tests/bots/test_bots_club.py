"""The club player: Carmen's judgement chosen by a softmax, a human-like
opponent for benchmarks (never seated)."""

from __future__ import annotations

import random

import pytest

from escoba.bots import ROBOTS, SEATABLE, get_robot
from escoba.bots.club import TEMPERATURE, Club, draw, softmax_weights
from escoba.engine import Phase, RuleSet, apply, can, legal_actions, new_game, shuffled_deck, view
from escoba.engine.view import View

from .helpers import random_round_states


def views(players: int, seed: int, rounds: int) -> list[View]:
    """Views of the seat on turn with a real choice, from random games."""
    out = []
    for state in random_round_states(players, seed=seed, rounds=rounds):
        if state.phase is Phase.PLAYING:
            v = view(state, state.round.turn)
            if len(v.legal) > 1:
                out.append(v)
    return out


def test_the_club_player_is_for_benchmarks_only() -> None:
    assert "club" in ROBOTS and "club" not in SEATABLE
    club = get_robot("club")
    assert isinstance(club, Club) and club.temperature == TEMPERATURE
    with pytest.raises(ValueError):
        Club(-0.1)
    with pytest.raises(ValueError):
        Club(float("nan"))


def test_softmax_weights_favour_close_alternatives() -> None:
    w = softmax_weights([1.0, 0.9, 0.0], 0.2)
    assert w[0] == 1.0
    assert w[1] == pytest.approx(2.718281828 ** (-0.5))
    assert w[2] == pytest.approx(2.718281828 ** (-5))
    assert softmax_weights([0.5, 1.0, 1.0], 0.0) == [0.0, 1.0, 0.0]  # Carmen's tie-break
    rng = random.Random(4)
    draws = [draw([1.0, 0.0, 3.0], rng) for _ in range(4000)]
    assert 1 not in draws
    assert 0.70 < draws.count(2) / len(draws) < 0.80


def test_it_plays_legal_actions_and_replays_from_a_seeded_source() -> None:
    club = Club()
    for players in (2, 3, 4):
        for v in views(players, seed=players * 7, rounds=3):
            first = club.choose(v, random.Random(99))
            assert first in v.legal
            assert club.choose(v, random.Random(99)) == first


def test_it_differs_from_carmen_sometimes_and_at_temperature_zero_never() -> None:
    carmen = get_robot("carmen")
    club, cold = Club(), Club(0.0)
    rng = random.Random(5)
    positions = views(2, seed=12, rounds=12)
    differ = 0
    for v in positions:
        mine = carmen.choose(v, rng)
        assert cold.choose(v, rng) == mine
        differ += club.choose(v, rng) != mine
    assert len(positions) > 100
    assert 0 < differ < len(positions) / 2


def test_its_slips_are_mostly_close_ones() -> None:
    """Where it leaves Carmen's choice, the action it takes is worth little
    less by her judgement: far less than a random other action would lose."""
    club = Club()
    rng = random.Random(8)
    slips, blunders = [], []
    for v in views(2, seed=21, rounds=20):
        legal, scores = club.scores(v)
        best = max(scores)
        chosen = club.choose(v, rng)
        gap = best - scores[legal.index(chosen)]
        if gap > 1e-9:
            slips.append(gap)
            blunders.extend(best - s for s in scores if s < best - 1e-9)
    assert slips
    assert sum(slips) / len(slips) < 0.5 * sum(blunders) / len(blunders)


def test_it_plays_legally_under_the_house_rules() -> None:
    """Compulsory capture leaves some hands nothing to lay down; la setenta,
    ties that give each and a single escoba for 30 change the scoring."""
    rules = RuleSet(compulsory_capture=True, setenta=True, ties="each", thirty_is_double=False)
    club = Club()
    for players in (2, 3, 4):
        rng = random.Random(players)
        for r in range(3):
            state = new_game(rules, players, shuffled_deck(rng), first_dealer=r % players)
            while state.phase is Phase.PLAYING:
                seat = state.round.turn
                assert can(state, seat, club.choose(view(state, seat), rng))
                state, _ = apply(state, seat, rng.choice(legal_actions(state)))
