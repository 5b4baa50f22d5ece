"""The robots under the house rules (RULES.md, *Variants*): the playout
simulator plays and scores as the engine does under every rule set, every
robot plays only legal actions under them, and the price list follows the
scoring (under la setenta a seven is not worth what «most sevens» pays)."""

from __future__ import annotations

import random

import pytest

from escoba.bots import ROBOTS, get_robot
from escoba.bots.base import action_of, sim_move_of
from escoba.bots.luna import Luna
from escoba.bots.simple import Tito
from escoba.bots.worth import CARD_GAIN, gains_for
from escoba.cheater import true_world
from escoba.engine import (
    Phase,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    parse_cards,
    shuffled_deck,
    view,
)

from .helpers import random_round_states

RULE_SETS = [
    RuleSet(setenta=True),
    RuleSet(ties="each"),
    RuleSet(setenta=True, ties="each"),
    RuleSet(compulsory_capture=True),
    RuleSet(compulsory_capture=True, setenta=True, ties="each", thirty_is_double=False),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: "+".join(r.variants()))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_sim_plays_and_scores_as_the_engine_under_house_rules(
    rules: RuleSet, players: int
) -> None:
    rng = random.Random(players * 31 + len(rules.variants()))
    for r in range(25):
        state = new_game(rules, players, shuffled_deck(rng), first_dealer=r % players)
        sim = true_world(state)
        while state.phase is Phase.PLAYING:
            legal = legal_actions(state)
            claim_card = -1 if state.round.claim is None else int(state.round.claim.card)
            assert [action_of(m) for m in sim.legal_moves()] == legal
            action = rng.choice(legal)
            sim.apply(sim_move_of(action, claim_card))
            state, _ = apply(state, state.round.turn, action)
        assert sim.over
        assert sim.points() == [s.points for s in state.finished_rounds[-1].scores]


def _robot(name: str) -> object:
    return (
        Luna(budget=0.0, min_worlds=2, max_worlds=2, limit=None)
        if name == "luna"
        else get_robot(name)
    )


@pytest.mark.parametrize("name", sorted(ROBOTS))
def test_every_robot_plays_legal_actions_under_compulsory_capture_and_la_setenta(
    name: str,
) -> None:
    rules = RuleSet(compulsory_capture=True, setenta=True, ties="each")
    robot = _robot(name)
    rng = random.Random(4)
    seen_forced = 0
    for players in (2, 4):
        for state in random_round_states(players, seed=players, rounds=4, rules=rules):
            if state.phase is not Phase.PLAYING:
                continue
            legal = legal_actions(state)
            action = robot.choose(view(state, state.round.turn), rng)  # type: ignore[attr-defined]
            assert action in legal
            seen_forced += any(getattr(a, "capture", ()) for a in legal) and all(
                getattr(a, "capture", True) for a in legal
            )
    assert seen_forced  # positions where a card had to capture were met


def test_tito_who_misses_a_capture_still_captures_when_he_must() -> None:
    """Tito sometimes does not see a capture; under compulsory capture he has
    no card to lay instead (this used to raise on an empty choice)."""
    rules = RuleSet(compulsory_capture=True)
    tito = Tito()
    tito.sees_capture = 0.0  # he never sees it
    met = 0
    for state in random_round_states(2, seed=9, rounds=10, rules=rules):
        if state.phase is not Phase.PLAYING:
            continue
        legal = legal_actions(state)
        if all(getattr(a, "capture", True) for a in legal):
            met += 1
            assert tito.choose(view(state, state.round.turn), random.Random(met)) in legal
    assert met


def test_under_la_setenta_the_price_list_follows_the_setenta() -> None:
    setenta = gains_for(RuleSet(setenta=True))
    assert gains_for(RuleSet()) == CARD_GAIN
    seven, six, ace, king = (int(c) for c in parse_cards(["7H", "6H", "1H", "10H"]))
    # «most sevens» pays more per seven than la setenta's single point does
    assert setenta[seven] < CARD_GAIN[seven]
    # a six and an ace help la setenta; a king of the same suit does not
    assert setenta[six] > CARD_GAIN[six] and setenta[ace] > CARD_GAIN[ace]
    assert setenta[seven] > setenta[six] > setenta[ace] > setenta[king] == CARD_GAIN[king]
