"""Luna's search: common samples, and a budget it keeps by its clock."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from escoba.bots.knowledge import knowledge
from escoba.bots.luna import Luna, search
from escoba.bots.sim import RoundSim
from escoba.engine import Phase, view

from .helpers import random_round_states


class FakeClock:
    """Each reading moves time on by `step` seconds."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


def a_position(players: int = 2) -> tuple[object, int]:
    for state in random_round_states(players, seed=9, rounds=3):
        if state.phase is Phase.PLAYING and len(view(state, state.round.turn).legal) >= 4:
            return state, state.round.turn
    raise AssertionError("no position with choices")


def test_search_stops_when_the_clock_says_the_budget_is_spent() -> None:
    state, seat = a_position()
    know = knowledge(view(state, seat))  # type: ignore[arg-type]
    moves = know.base.copy().legal_moves()
    sampled = 0

    def sample(rng: random.Random) -> RoundSim:
        nonlocal sampled
        sampled += 1
        return know.sample(rng)

    # one reading at the start (1 s), then one before each world after the
    # first (min_worlds=1): before world k it reads k + 1 s, k s elapsed, so
    # the budget of 5 s is spent before world 5: worlds 0..4 were searched
    clock = FakeClock(step=1.0)
    _, totals, worlds = search(
        sample, moves, 0, random.Random(1), clock=clock, budget=5.0, min_worlds=1, max_worlds=1000
    )
    assert worlds == sampled == 5
    assert len(totals) == len(moves)


def test_search_does_min_worlds_even_without_time() -> None:
    state, seat = a_position()
    know = knowledge(view(state, seat))  # type: ignore[arg-type]
    moves = know.base.copy().legal_moves()
    _, _, worlds = search(
        know.sample,
        moves,
        0,
        random.Random(1),
        clock=FakeClock(step=100.0),
        budget=0.01,
        min_worlds=3,
        max_worlds=50,
    )
    assert worlds == 3


def test_search_stops_at_max_worlds_with_time_to_spare() -> None:
    state, seat = a_position()
    know = knowledge(view(state, seat))  # type: ignore[arg-type]
    moves = know.base.copy().legal_moves()
    _, _, worlds = search(
        know.sample,
        moves,
        0,
        random.Random(1),
        clock=FakeClock(step=0.0),
        budget=1.0,
        min_worlds=1,
        max_worlds=7,
    )
    assert worlds == 7


def test_luna_reads_her_injected_clock() -> None:
    state, seat = a_position()
    clock = FakeClock(step=1.0)
    luna = Luna(budget=3.0, min_worlds=1, max_worlds=100, clock=clock, limit=None)
    v = view(state, seat)  # type: ignore[arg-type]
    assert luna.choose(v, random.Random(2)) in v.legal
    # the start, then a check before worlds 1, 2 and 3: the last finds 3 s spent
    assert clock.readings == 4


class WorldClock:
    """Time that passes only while worlds are sampled and played: `pace`
    seconds a world (binary fractions, so the sums are exact)."""

    def __init__(self, pace: float) -> None:
        self.now = 0.0
        self.pace = pace

    def __call__(self) -> float:
        return self.now

    def sampler(self, sample: Callable[[random.Random], RoundSim]) -> Callable[..., RoundSim]:
        def timed(rng: random.Random) -> RoundSim:
            self.now += self.pace
            return sample(rng)

        return timed


def _timed_search(pace: float, min_worlds: int, limit: float | None) -> tuple[int, float]:
    """The worlds a search with a 0.15 s budget plays when each world takes
    `pace` seconds, and the time it has spent."""
    state, seat = a_position()
    know = knowledge(view(state, seat))  # type: ignore[arg-type]
    clock = WorldClock(pace)
    _, _, worlds = search(
        clock.sampler(know.sample),
        know.base.copy().legal_moves(),
        0,
        random.Random(1),
        clock=clock,
        budget=0.15,
        min_worlds=min_worlds,
        max_worlds=64,
        limit=limit,
    )
    return worlds, clock.now


def test_search_begins_no_world_that_would_end_past_the_budget() -> None:
    """Worlds of 1/16 s against a budget of 0.15 s: the third ends at 0.1875
    s, so a search that only looks at the clock before each world ran a
    whole world over; at the pace of the worlds done, it stops after two."""
    worlds, spent = _timed_search(pace=0.0625, min_worlds=1, limit=None)
    assert worlds == 2
    assert spent <= 0.15


def test_a_limit_ends_a_slow_decision_short_of_min_worlds() -> None:
    """On a slow machine a world takes 1/8 s: six worlds (`min_worlds`) would
    take 0.75 s. With a limit of 0.5 s the search plays only the four that
    end within it; without one, the six."""
    worlds, spent = _timed_search(pace=0.125, min_worlds=6, limit=0.5)
    assert worlds == 4
    assert spent <= 0.5
    assert _timed_search(pace=0.125, min_worlds=6, limit=None)[0] == 6


def test_luna_keeps_her_limit_by_default() -> None:
    """Luna's own decisions keep the limit: with her clock moving 0.125 s a
    reading (one reading a world), she stops after four worlds at 0.5 s, not
    at her six `min_worlds`."""
    state, seat = a_position()
    clock = FakeClock(step=0.125)
    luna = Luna(budget=0.15, min_worlds=6, max_worlds=64, clock=clock, limit=0.5)
    v = view(state, seat)  # type: ignore[arg-type]
    assert luna.choose(v, random.Random(2)) in v.legal
    # the start, then a reading before worlds 1..4: before the fifth,
    # 0.5 s are spent and the fifth would end at 0.625 s
    assert clock.readings == 5
    assert Luna().limit is not None and Luna().limit <= 0.5


def test_common_samples_every_candidate_sees_the_same_worlds() -> None:
    """With one world, all candidates are scored in that same world: a move
    list holding one move twice scores it twice alike."""
    state, seat = a_position()
    know = knowledge(view(state, seat))  # type: ignore[arg-type]
    moves = know.base.copy().legal_moves()
    doubled = [moves[0], moves[1], moves[0]]
    _, totals, _ = search(
        know.sample,
        doubled,
        0,
        random.Random(5),
        clock=FakeClock(0.0),
        budget=1.0,
        min_worlds=20,
        max_worlds=20,
    )
    assert totals[0] == totals[2]


def test_luna_takes_a_sweep_when_it_is_there() -> None:
    """A sanity check of strength: with an escoba on offer at the end of the
    round's first deal, Luna takes it in most positions."""
    luna = Luna(budget=0.0, min_worlds=8, max_worlds=8, limit=None)
    offered = taken = 0
    for state in random_round_states(2, seed=21, rounds=40):
        if state.phase is not Phase.PLAYING:
            continue
        seat = state.round.turn
        v = view(state, seat)
        sweeps = [
            a for a in v.legal if getattr(a, "capture", ()) and len(a.capture) == len(v.table)
        ]  # type: ignore[union-attr]
        if sweeps and v.claimable is None:
            offered += 1
            if luna.choose(v, random.Random(0)) in sweeps:
                taken += 1
    assert offered >= 10
    assert taken >= 0.8 * offered


def test_luna_counts_her_budget_from_the_start_of_the_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What she spends before her search (reading the view, weighing the
    other players' plays) is part of the decision's time: when that alone
    took 0.2 s of a 0.15 s budget, she plays one world and stops."""
    import escoba.bots.luna as luna_module

    state, seat = a_position()
    clock = FakeClock(step=0.0)
    real = luna_module.knowledge

    def slow_knowledge(v: object) -> object:
        clock.now += 0.2
        return real(v)  # type: ignore[arg-type]

    monkeypatch.setattr(luna_module, "knowledge", slow_knowledge)
    luna = Luna(budget=0.15, min_worlds=1, max_worlds=64, clock=clock, limit=None)
    v = view(state, seat)  # type: ignore[arg-type]
    assert luna.choose(v, random.Random(2)) in v.legal
    assert clock.readings == 2  # her start, then one look before the second world
