"""The one robot interface: a robot gets its seat's view (exactly what the
person in that seat would see, legal actions included in `view.legal`) and a
random source, and returns one of those legal actions. It never receives the
game state, another hand or the deck.

    robot = get_robot("luna")
    action = robot.choose(view, rng)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from escoba.bots.sim import SimMove
from escoba.engine.actions import Action, Claim, Play
from escoba.engine.cards import CARDS
from escoba.engine.view import View


@runtime_checkable
class Robot(Protocol):
    """`name` is the registry key ("luna"); `display_name` what players read."""

    name: str
    display_name: str

    def choose(self, view: View, rng: random.Random) -> Action:
        """One of `view.legal`; the view must be of this robot's turn."""
        ...


class NotMyTurn(ValueError):
    """A robot was asked to act on a view with no legal actions."""


def legal_of(view: View) -> tuple[Action, ...]:
    if not view.legal:
        raise NotMyTurn("the robot was asked to play out of turn")
    return view.legal


def sim_move_of(action: Action, claim_card: int) -> SimMove:
    """An engine action as a sim move (`claim_card`: the view's claimable)."""
    if isinstance(action, Claim):
        return (True, claim_card, tuple(int(c) for c in action.group))
    return (False, int(action.card), tuple(int(c) for c in action.capture))


def moves_of(view: View, legal: Sequence[Action]) -> list[SimMove]:
    """The view's `legal` actions as sim moves."""
    claim_card = -1 if view.claimable is None else int(view.claimable)
    return [sim_move_of(a, claim_card) for a in legal]


def action_of(move: SimMove) -> Action:
    """A sim move as an engine action (groups are already in card order)."""
    claim, card, group = move
    cards = tuple(CARDS[c] for c in group)
    if claim:
        return Claim(cards)
    return Play(CARDS[card], cards)
