"""Random positions for robot tests, made with the engine itself."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from escoba.bots import get_robot
from escoba.bots.base import sim_move_of
from escoba.bots.knowledge import Knowledge, knowledge
from escoba.bots.reply import CarmenReply
from escoba.bots.sim import SimMove
from escoba.cheater import true_world
from escoba.engine import (
    SITE_RULES,
    GameState,
    Phase,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    shuffled_deck,
    view,
)
from escoba.engine.actions import Action, Claim
from escoba.engine.view import View
from escoba.tournament import deal_deck


def random_round_states(
    players: int, seed: int, rounds: int, rules: RuleSet | None = None
) -> Iterator[GameState]:
    """Every state of `rounds` random single-round games (random play) under
    `rules` (the site's by default)."""
    rng = random.Random(seed)
    for r in range(rounds):
        state = new_game(rules or RuleSet(), players, shuffled_deck(rng), first_dealer=r % players)
        while state.phase is Phase.PLAYING:
            yield state
            state, _ = apply(state, state.round.turn, rng.choice(legal_actions(state)))
        yield state


def carmen_rounds(seed: int, deals: int) -> Iterator[tuple[GameState, View, Action]]:
    """Every turn of `deals` two-player rounds of Carmen against herself, on
    the tournament's decks of `seed`: the state, the view of the seat on
    turn and Carmen's action, played once the caller is done with the turn."""
    carmen = get_robot("carmen")
    for deal in range(deals):
        state = new_game(SITE_RULES, 2, deal_deck(seed, deal), first_dealer=deal % 2)
        while state.phase is Phase.PLAYING:
            seat = state.round.turn
            v = view(state, seat)
            action = carmen.choose(v, random.Random(0))
            yield state, v, action
            state, _ = apply(state, seat, action)


def answers_as_carmen(
    reply_of: Callable[[Knowledge, Sequence[SimMove]], CarmenReply],
    seed: int,
    rounds: int,
    *,
    claims: bool,
) -> tuple[int, int]:
    """How often an answer model (`reply.CarmenReply` or one like it),
    played in the true world after each candidate of every position of
    `rounds` random two-player rounds, leaves the table Carmen's own answer
    leaves; and of how many answers. With `claims`, answers that begin with
    a «LLEVAR EL 15» count too (the claim and the play after it)."""
    carmen = get_robot("carmen")
    same = total = 0
    for state in random_round_states(2, seed=seed, rounds=rounds):
        if state.phase is not Phase.PLAYING:
            continue
        seat = state.round.turn
        v = view(state, seat)
        claim_card = -1 if v.claimable is None else int(v.claimable)
        moves = [sim_move_of(a, claim_card) for a in v.legal]
        reply = reply_of(knowledge(v), moves)
        for i, action in enumerate(v.legal):
            if reply.judges[i] is None:
                continue
            sim = true_world(state)
            sim.apply(moves[i])
            reply(sim, i)
            after, _ = apply(state, seat, action)
            answerer = after.round.turn
            if not claims and isinstance(
                carmen.choose(view(after, answerer), random.Random(0)), Claim
            ):
                continue
            while after.phase is Phase.PLAYING and after.round.turn == answerer:
                chosen = carmen.choose(view(after, answerer), random.Random(0))
                after, _ = apply(after, answerer, chosen)
            total += 1
            if after.phase is not Phase.PLAYING:
                same += sim.over
            else:
                same += sim.table == sorted(int(c) for c in after.round.table)
    return same, total
