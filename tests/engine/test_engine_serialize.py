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
from escoba.engine.state import Deal, Result, RoundAction, SideScore


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


# --------------------------------------------------------------------------
# The JSON forms that records, views and the API share (escoba-record/1)


def test_actions_and_rules_have_one_json_form_each() -> None:
    c = eng.parse_cards
    assert eng.make_play(c(["5D"])[0], c(["6C", "4S"])).to_dict() == {
        "type": "play",
        "card": "5D",
        "capture": ["4S", "6C"],
    }
    assert eng.make_claim(c(["6C", "4S"])).to_dict() == {"type": "claim", "group": ["4S", "6C"]}
    rules = eng.RuleSet(
        target=31, thirty_is_double=False, compulsory_capture=True, setenta=True, ties="each"
    )
    assert rules.to_dict() == {
        "target": 31,
        "thirty_is_double": False,
        "compulsory_capture": True,
        "setenta": True,
        "ties": "each",
    }
    assert eng.RuleSet.from_dict(rules.to_dict()) == rules
    assert eng.RuleSet.from_dict({}) == eng.RuleSet() == eng.SITE_RULES
    assert eng.SITE_RULES.to_dict() == {
        "target": 21,
        "thirty_is_double": True,
        "compulsory_capture": False,
        "setenta": False,
        "ties": "nobody",
    }


def test_the_records_parts_have_one_json_form_each() -> None:
    c = eng.parse_cards
    deal = Deal(hands=(c(["1D", "2D", "3D"]), c(["1H", "2H", "3H"])), table=c(["4S"]), last=True)
    assert deal.to_dict() == {
        "hands": {"0": ["1D", "2D", "3D"], "1": ["1H", "2H", "3H"]},
        "table": ["4S"],
        "last": True,
    }
    play = RoundAction(seat=1, kind="play", card=c(["5D"])[0], cards=c(["4S", "6C"]), escoba=True)
    assert play.to_dict() == {
        "seat": 1,
        "type": "play",
        "card": "5D",
        "capture": ["4S", "6C"],
        "escoba": True,
    }
    five = c(["5D"])[0]
    claim = RoundAction(seat=0, kind="claim", card=five, cards=c(["5D", "10C"]), escoba=False)
    assert claim.to_dict() == {"seat": 0, "type": "claim", "cards": ["5D", "10C"], "escoba": False}
    score = SideScore(escobas=2, cards=25, diamonds=6, sevens=3, seven_of_diamonds=True, points=7)
    assert score.to_dict() == {
        "escobas": 2,
        "cards": 25,
        "diamonds": 6,
        "sevens": 3,
        "seven_of_diamonds": True,
        "points": 7,
    }
    left = Result(winners=(0, 2), reason=eng.EndReason.ABANDON, loser_seat=1)
    assert left.to_dict() == {"winners": [0, 2], "reason": "abandon", "loser_seat": 1}
    won = Result(winners=(1,), reason=eng.EndReason.TARGET)
    assert won.to_dict() == {"winners": [1], "reason": "target"}
