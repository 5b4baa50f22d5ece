"""The server's storage form of a state (deck included) gives back the very
same state, whole or in its two parts, at every step of random games."""

from __future__ import annotations

import json
import random

import pytest

from escoba import engine as eng
from escoba.engine.serialize import (
    live_state_to_dict,
    rounds_from_list,
    rounds_to_list,
    state_from_dict,
    state_from_parts,
    state_to_dict,
)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_state_survives_storage(players: int) -> None:
    rng = random.Random(players)
    state = eng.new_game(eng.RuleSet(target=15), players, eng.shuffled_deck(rng))
    steps = 0
    while state.phase is not eng.Phase.GAME_OVER:
        whole = json.loads(json.dumps(state_to_dict(state)))
        assert state_from_dict(whole) == state
        live = json.loads(json.dumps(live_state_to_dict(state)))
        rounds = json.loads(json.dumps(rounds_to_list(state.finished_rounds)))
        assert state_from_parts(live, rounds_from_list(rounds)) == state
        assert state_from_parts(whole, ()) == state  # the older one-part form
        if state.phase is eng.Phase.ROUND_OVER:
            state, _ = eng.start_next_round(state, eng.shuffled_deck(rng))
        else:
            state, _ = eng.apply(state, state.round.turn, rng.choice(eng.legal_actions(state)))
        steps += 1
    assert state_from_dict(state_to_dict(state)) == state
    assert steps > 30


def test_parts_that_do_not_match_are_refused() -> None:
    rng = random.Random(9)
    state = eng.new_game(eng.RuleSet(), 2, eng.shuffled_deck(rng))
    while state.phase is eng.Phase.PLAYING:
        state, _ = eng.apply(state, state.round.turn, rng.choice(eng.legal_actions(state)))
    with pytest.raises(ValueError):
        state_from_parts(live_state_to_dict(state), ())
    with pytest.raises(ValueError):
        state_from_dict({"v": 99})
