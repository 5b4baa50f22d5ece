"""The playout simulator and the view reader agree with the engine."""

from __future__ import annotations

import random

import pytest

from escoba.bots.base import action_of, sim_move_of
from escoba.bots.knowledge import knowledge, shuffle
from escoba.bots.policy import expected_points
from escoba.bots.sim import RoundSim
from escoba.cheater import true_world
from escoba.engine import Phase, RuleSet, apply, legal_actions, new_game, shuffled_deck, view
from playouts import informed_playout

from .helpers import random_round_states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sim_follows_the_engine_step_by_step(players: int) -> None:
    rng = random.Random(players)
    for r in range(60):
        state = new_game(RuleSet(), players, shuffled_deck(rng), first_dealer=r % players)
        sim = true_world(state)
        while state.phase is Phase.PLAYING:
            legal = legal_actions(state)
            claim_card = -1 if state.round.claim is None else int(state.round.claim.card)
            assert sim.legal_moves() == [sim_move_of(a, claim_card) for a in legal]
            assert [action_of(m) for m in sim.legal_moves()] == legal
            action = rng.choice(legal)
            sim.apply(sim_move_of(action, claim_card))
            state, _ = apply(state, state.round.turn, action)
            if state.phase is Phase.PLAYING:
                assert sim.turn == state.round.turn
                assert sim.table == sorted(int(c) for c in state.round.table)
                assert sim.hands == [list(map(int, h)) for h in state.round.hands]
        assert sim.over
        assert sim.points() == [s.points for s in state.finished_rounds[-1].scores]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_copies_are_independent(players: int) -> None:
    rng = random.Random(7)
    state = new_game(RuleSet(), players, shuffled_deck(rng))
    sim = true_world(state)
    twin = sim.copy()
    while not twin.over:
        twin.apply(rng.choice(twin.legal_moves()))
    assert sim.plays_left == 36
    assert sim.hands == [list(map(int, h)) for h in state.round.hands]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_knowledge_reads_exactly_the_public_facts(players: int) -> None:
    for state in random_round_states(players, seed=100 + players, rounds=15):
        if state.phase is not Phase.PLAYING:
            continue
        seat = state.round.turn
        know = knowledge(view(state, seat))
        truth = true_world(state)
        hidden = {int(c) for s, h in enumerate(state.round.hands) if s != seat for c in h}
        hidden |= {int(c) for c in state.round.deck}
        assert set(know.unseen) == hidden
        base = know.base
        for attr in ("cards", "diamonds", "sevens", "seven_d", "escobas", "last", "table"):
            assert getattr(base, attr) == getattr(truth, attr), attr
        assert (base.claim_card, base.plays_left) == (truth.claim_card, truth.plays_left)
        world = know.sample(random.Random(1))
        assert [len(h) for h in world.hands] == [len(h) for h in truth.hands]
        assert sorted(world.hands[seat]) == sorted(truth.hands[seat])
        others = {c for s, h in enumerate(world.hands) if s != seat for c in h}
        assert others | set(world.deck) == hidden
        assert len(world.deck) == len(truth.deck)


def test_informed_playout_stops_where_asked() -> None:
    rng = random.Random(3)
    state = new_game(RuleSet(), 2, shuffled_deck(rng))
    sim = true_world(state)
    stop = len(sim.deck)  # the end of the first deal
    informed_playout(sim, stop=stop)
    assert sim.plays_left == stop
    assert len(sim.hands[0]) == len(sim.hands[1]) == 3  # the next deal is dealt
    informed_playout(sim)
    assert sim.over


def test_expected_points_are_exact_once_decided_and_fair_when_level() -> None:
    sim = RoundSim.empty(2)
    sim.cards, sim.diamonds, sim.sevens = [25, 15], [6, 4], [3, 1]
    sim.seven_d, sim.escobas = 0, [1, 2]
    assert expected_points(sim) == [5.0, 2.0]
    assert sim.points() == [5, 2]
    level = RoundSim.empty(2)
    level.cards, level.diamonds, level.sevens = [10, 10], [3, 3], [1, 1]
    a, b = expected_points(level)
    assert a == b == 0.5 + 0.5 + 0.5 + 0.5
    ahead = RoundSim.empty(2)
    ahead.cards, ahead.diamonds, ahead.sevens = [16, 10], [4, 3], [2, 1]
    a, b = expected_points(ahead)
    assert 2.0 < a < 4.0 and 0.0 < b < 2.0 and a + b == 4.0


def test_the_worlds_shuffle_is_random_shuffle_draw_for_draw() -> None:
    """`knowledge.shuffle` (issue 35) gives `random.Random.shuffle`'s
    permutation by the same draws: the worlds of a seeded search are the
    same as before, and the source is left in the same state."""
    for seed in range(3_000):
        cards = list(range(seed % 41))
        mine, theirs = random.Random(seed), random.Random(seed)
        expected = cards[:]
        theirs.shuffle(expected)
        shuffle(cards, mine)
        assert cards == expected
        assert mine.getstate() == theirs.getstate()
