"""The playout policies: `careful_move` is Carmen's judgement on a sim, and
every policy (src's careful one, and the research's of bench/playouts.py)
plays only legal moves, under every rule set, to the end."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from escoba.bots import policy as policy_module
from escoba.bots.base import legal_of, moves_of
from escoba.bots.judge import Judge
from escoba.bots.knowledge import knowledge
from escoba.bots.policy import careful_move, careful_playout
from escoba.bots.sim import RoundSim, SimMove
from escoba.bots.worth import CARD_GAIN
from escoba.cheater import true_world
from escoba.engine import Phase, RuleSet, view
from escoba.engine.actions import Play
from escoba.engine.cards import VALUE
from playouts import (
    PLAYOUTS,
    careful_move_reference,
    careful_playout_reference,
    careful_then_probable,
    probable_move,
)

from .helpers import random_round_states


def _unplayed(sim: RoundSim) -> tuple[list[int], list[float]]:
    """The cards of each value still in hands or deck, and their worth at
    the sim's prices: counted here, apart from the policy's bookkeeping."""
    count = [0] * 11
    worth = [0.0] * 11
    for cards in (*sim.hands, sim.deck):
        for c in cards:
            count[VALUE[c]] += 1
            worth[VALUE[c]] += sim.gain[c]
    return count, worth


@pytest.mark.parametrize("players", [2, 3, 4])
def test_careful_move_makes_a_choice_that_carmens_judgement_scores_best(players: int) -> None:
    """Where nothing is decided yet (Carmen's prices are the sim's) and no
    «LLEVAR EL 15» is open, the careful move scores, by Carmen's own
    judgement of the seat's view, as much as her best play."""
    checked = 0
    for state in random_round_states(players, seed=40 + players, rounds=25):
        if state.phase is not Phase.PLAYING or state.round.claim is not None:
            continue
        seat = state.round.turn
        know = knowledge(view(state, seat))
        judge = Judge(know)
        if judge.gain != CARD_GAIN:
            continue
        legal = legal_of(view(state, seat))
        sim = true_world(state)
        count, worth = _unplayed(sim)
        move = careful_move(sim, count, worth)
        assert move in moves_of(view(state, seat), legal)
        chosen = legal[moves_of(view(state, seat), legal).index(move)]
        best = max(judge.score(a) for a in legal)
        assert isinstance(chosen, Play)
        assert judge.score(chosen) == pytest.approx(best, abs=1e-9)
        checked += 1
    assert checked > 100


RULE_SETS = [
    RuleSet(),
    RuleSet(setenta=True, ties="each"),
    RuleSet(compulsory_capture=True, setenta=True, thirty_is_double=False),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: "+".join(r.variants()) or "site")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_playout_policy_plays_legal_moves_to_the_end(rules: RuleSet, players: int) -> None:
    rng = random.Random(players)
    for state in random_round_states(players, seed=players, rounds=3, rules=rules):
        if state.phase is not Phase.PLAYING:
            continue
        sim = true_world(state)
        for policy in ("careful", "probable"):
            step = sim.copy()
            while not step.over:
                count, worth = _unplayed(step)
                if policy == "careful":
                    move = careful_move(step, count, worth)
                else:
                    move = probable_move(step, count)
                assert move in step.legal_moves()
                step.apply(move)
        for name, playout in PLAYOUTS.items():
            twin = sim.copy()
            playout(twin)
            assert twin.over, name
        twin = sim.copy()
        stop = max(0, twin.plays_left - rng.randint(1, 6))
        careful_playout(twin, stop=stop)
        assert twin.plays_left == stop


class _Recording(RoundSim):
    """A sim that keeps the moves applied to it."""

    __slots__ = ("made",)
    made: list[SimMove]

    def apply(self, move: SimMove) -> None:
        self.made.append(move)
        super().apply(move)


def _moves_of_playout(playout: Callable[..., None], sim: RoundSim, **kw: int) -> list[SimMove]:
    """The moves `playout` makes from `sim` (left as it was), in order."""
    twin = _Recording.__new__(_Recording)
    copy = sim.copy()
    for name in RoundSim.__slots__:
        setattr(twin, name, getattr(copy, name))
    twin.made = []
    playout(twin, **kw)
    return twin.made


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: "+".join(r.variants()) or "site")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_memoised_careful_playout_makes_the_reference_s_moves(
    rules: RuleSet, players: int
) -> None:
    """A differential test (issue 35): from every position of random rounds,
    the memoised `careful_playout` makes exactly the moves of the playout
    without a memo, and ends on the same points and tallies; each position
    is played out twice, so the second finds its moves in the memo (from
    this position and from the others of its round), and with a cut too
    (`stop`; `plies` careful plays then probable ones, bench/playouts.py's
    `careful_then_probable` over the memoised playout)."""
    rng = random.Random(35 + players)
    compared = 0
    policy_module._CAREFUL.clear()
    for state in random_round_states(players, seed=350 + players, rounds=6, rules=rules):
        if state.phase is not Phase.PLAYING:
            continue
        sim = true_world(state)
        reference = _moves_of_playout(careful_playout_reference, sim)
        for _ in range(2):
            assert _moves_of_playout(careful_playout, sim) == reference
        cut = {"stop": rng.randint(0, 3), "plies": rng.randint(1, 8)}
        assert _moves_of_playout(careful_then_probable, sim, **cut) == _moves_of_playout(
            careful_playout_reference, sim, **cut
        )
        stop = {"stop": cut["stop"]}
        assert _moves_of_playout(careful_playout, sim, **stop) == _moves_of_playout(
            careful_playout_reference, sim, **stop
        )
        a, b = sim.copy(), sim.copy()
        careful_playout(a)
        careful_playout_reference(b)
        assert (a.points(), a.cards, a.diamonds, a.sevens, a.escobas, a.seven_d, a.best) == (
            b.points(),
            b.cards,
            b.diamonds,
            b.sevens,
            b.escobas,
            b.seven_d,
            b.best,
        )
        compared += 1
    assert compared > 100


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: "+".join(r.variants()) or "site")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_careful_move_makes_the_reference_s_move(rules: RuleSet, players: int) -> None:
    """A differential test (issue 35): `careful_move` in one loop, the
    reply worked out only for the options that can come near the best,
    makes the move of `options_of` and `best_weighed`
    (bench/playouts.py's `careful_move_reference`) at every step of
    reference playouts from every position of random rounds, with the
    sim's own hands and with others dealt from the unseen cards."""
    rng = random.Random(350 + players)
    compared = 0
    for state in random_round_states(players, seed=3500 + players, rounds=6, rules=rules):
        if state.phase is not Phase.PLAYING:
            continue
        seat = state.round.turn
        worlds = [true_world(state), knowledge(view(state, seat)).sample(rng)]
        for sim in worlds:
            step = sim.copy()
            while not step.over:
                count, worth = _unplayed(step)
                move = careful_move_reference(step, count, worth)
                assert careful_move(step, count, worth) == move
                step.apply(move)
                compared += 1
    assert compared > 5_000
