"""Rounds for the analysis's tests: dealt from chosen cards, played by a
robot or by a script."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from escoba.analysis import LunaEvaluator
from escoba.bots import get_robot
from escoba.engine import (
    Action,
    GameState,
    Phase,
    RuleSet,
    apply,
    new_game,
    parse_cards,
    view,
)
from escoba.engine.cards import CARDS, Card
from escoba.engine.view import View

#: A light evaluator: the tests check behaviour, not the figures' last decimal.
QUICK = LunaEvaluator(worlds=48)
#: Fewer still, where only the analysis's shape is checked.
SMALL = LunaEvaluator(worlds=12)

Chooser = Callable[[GameState, View, random.Random], Action]


def deck_for(
    players: int, dealer: int, hands: dict[int, str], table: str, seed: int = 0
) -> tuple[Card, ...]:
    """A deck (in dealing order) whose first deal gives each seat of `hands`
    those cards («8S 1C 2H») and the table `table`; the rest shuffled."""
    chosen = {s: list(parse_cards(h.split())) for s, h in hands.items()}
    table_cards = list(parse_cards(table.split()))
    used = {c for h in chosen.values() for c in h} | set(table_cards)
    rest = [c for c in CARDS if c not in used]
    random.Random(seed).shuffle(rest)
    order: list[Card] = []
    for k in range(1, players + 1):
        seat = (dealer + k) % players
        hand = chosen.get(seat, [])
        order.extend(hand)
        order.extend(rest.pop() for _ in range(3 - len(hand)))
    order.extend(table_cards)
    order.extend(rest)
    return tuple(order)


def carmen(state: GameState, v: View, rng: random.Random) -> Action:
    return get_robot("carmen").choose(v, rng)


def robot(name: str) -> Chooser:
    player = get_robot(name)

    def choose(state: GameState, v: View, rng: random.Random) -> Action:
        return player.choose(v, rng)

    return choose


def play_round(
    state: GameState,
    chooser: Chooser = carmen,
    script: Sequence[tuple[int, Action]] = (),
    seed: int = 0,
) -> GameState:
    """The round of `state` played to its end: action k (from 0) is the
    scripted one where `script` names it, else `chooser`'s."""
    rng = random.Random(seed)
    scripted = dict(script)
    k = 0
    while state.phase is Phase.PLAYING:
        seat = state.round.turn
        v = view(state, seat)
        action = scripted.get(k) or chooser(state, v, rng)
        state, _ = apply(state, seat, action)
        k += 1
    return state


def random_round(players: int, seed: int, chooser: Chooser = carmen) -> GameState:
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    return play_round(new_game(RuleSet(), players, deck, first_dealer=seed % players), chooser)
