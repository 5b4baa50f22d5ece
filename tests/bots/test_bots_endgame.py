"""The exact end of a round: the solver against plain minimax, and Luna never
playing a move that is exactly worse once she sees the whole rest."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from escoba.bots.base import legal_of, sim_move_of
from escoba.bots.endgame import known_world, solve
from escoba.bots.knowledge import Knowledge, knowledge
from escoba.bots.luna import Luna
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine import Phase, view
from escoba.engine.actions import Action
from escoba.engine.view import View

from .helpers import random_round_states


def minimax(sim: RoundSim, side: int) -> int:
    """The round's point difference for `side` under perfect play, by brute
    force: every line played to the end, nothing pruned."""
    if sim.plays_left == 0:
        pts = sim.points()
        return pts[side] - pts[1 - side]
    values = []
    for move in sim.legal_moves():
        child = sim.copy()
        child.apply(move)
        values.append(minimax(child, side))
    return max(values) if sim.side[sim.turn] == side else min(values)


def known_positions(players: int, count: int) -> Iterator[tuple[View, Knowledge, list[SimMove]]]:
    """Positions of random games where the seat on turn sees the whole rest
    of the round, with a choice to make."""
    found = 0
    for state in random_round_states(players, seed=17, rounds=200):
        if state.phase is not Phase.PLAYING:
            continue
        v = view(state, state.round.turn)
        know = knowledge(v)
        if not known_world(know) or len(v.legal) < 2:
            continue
        claim = -1 if v.claimable is None else int(v.claimable)
        yield v, know, [sim_move_of(a, claim) for a in legal_of(v)]
        found += 1
        if found == count:
            return
    raise AssertionError("too few positions")


def exact_values(know: Knowledge, moves: list[SimMove]) -> list[int]:
    world = know.sample(random.Random(0))
    side = know.base.side[know.seat]
    out = []
    for move in moves:
        child = world.copy()
        child.apply(move)
        out.append(minimax(child, side))
    return out


def test_the_world_is_known_only_when_no_card_can_be_elsewhere() -> None:
    seen = {True: 0, False: 0}
    for state in random_round_states(2, seed=5, rounds=20):
        if state.phase is not Phase.PLAYING:
            continue
        know = knowledge(view(state, state.round.turn))
        assert known_world(know) == (know.deck_size == 0)
        seen[known_world(know)] += 1
        if known_world(know):  # the unseen cards are exactly the other hand
            other = state.round.hands[1 - state.round.turn]
            assert sorted(know.unseen) == sorted(int(c) for c in other)
    assert seen[True] and seen[False]
    # four players (pairs), the deck empty: three other hands share the unseen
    for state in random_round_states(4, seed=5, rounds=20):
        if state.phase is Phase.PLAYING and not state.round.deck:
            know = knowledge(view(state, state.round.turn))
            others = sum(1 for s, h in enumerate(state.round.hands) if h and s != know.seat)
            assert known_world(know) == (others <= 1)


@pytest.mark.parametrize("players", [2, 4])
def test_the_solver_agrees_with_plain_minimax(players: int) -> None:
    for _v, know, moves in known_positions(players, 40 if players == 2 else 10):
        got = solve(know.sample(random.Random(0)), moves)
        assert got is not None
        want = exact_values(know, moves)
        best = max(want)
        assert max(got) == best
        # the exactly best moves are exactly those the solver calls best
        assert [g == best for g in got] == [w == best for w in want]
        # a worse move is cut short: what it gets is a bound, between its worth and the best
        assert all(w <= g < best for g, w in zip(got, want, strict=True) if w != best)


def test_luna_never_plays_an_exactly_worse_move_at_the_end() -> None:
    luna = Luna(budget=0.01, max_worlds=4)
    for v, know, moves in known_positions(2, 40):
        want = exact_values(know, moves)
        chosen: Action = luna.choose(v, random.Random(3))
        claim = -1 if v.claimable is None else int(v.claimable)
        assert want[moves.index(sim_move_of(chosen, claim))] == max(want)


def test_the_solver_gives_up_past_its_node_limit() -> None:
    _v, know, moves = next(known_positions(2, 1))
    world = know.sample(random.Random(0))
    assert solve(world, moves, max_nodes=0) is None
