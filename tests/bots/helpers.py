"""Random positions for robot tests, made with the engine itself."""

from __future__ import annotations

import random
from collections.abc import Iterator

from escoba.engine import GameState, Phase, RuleSet, apply, legal_actions, new_game, shuffled_deck


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
