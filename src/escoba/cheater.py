"""The benchmark cheater, and the one door from a game state into the robots'
simulator. Both see every card, so neither may live in `escoba.bots`, whose
robots are given a seat's view and nothing else; the tournament (and tests
that check the simulator against the engine) use them from here.

The cheater is never seated: no table can name it, and it does not even have
a robot's `choose(view, rng)`, only `choose_seeing(state, seat, rng)`.
"""

from __future__ import annotations

import random
from typing import Any

from escoba.bots.base import legal_of, moves_of
from escoba.bots.endgame import known_world, solve
from escoba.bots.knowledge import knowledge
from escoba.bots.luna import PlayedOutLuna
from escoba.bots.sim import RoundSim
from escoba.engine.actions import Action
from escoba.engine.cards import VALUE
from escoba.engine.state import GameState, Phase
from escoba.engine.view import view


def true_world(state: GameState) -> RoundSim:
    """The round in play of an engine state as a sim, every card known: the
    other hands and the deck in its dealing order."""
    if state.phase is not Phase.PLAYING:
        raise ValueError("no round in play")
    rs = state.round
    sim = RoundSim.empty(state.players, state.rules)
    sim.hands = [[int(c) for c in h] for h in rs.hands]
    sim.table = sorted(int(c) for c in rs.table)
    sim.deck = [int(c) for c in rs.deck]
    sim.dealer = rs.dealer
    sim.turn = rs.turn
    for seat in range(state.players):
        side = sim.side[seat]
        sim.add_captured(side, [int(c) for c in rs.captured[seat]])
        sim.escobas[side] += rs.escobas[seat]
    sim.last = -1 if rs.last_capturer is None else rs.last_capturer
    if rs.claim is not None:
        sim.claim_card = int(rs.claim.card)
        sim.claim_seat = rs.claim.seat
    sim.plays_left = sum(len(h) for h in sim.hands) + len(sim.deck)
    return sim


class Cheater:
    """Benchmark only, never seated: Luna's search with the true hidden cards
    (the other hands and the deck order) instead of samples. The playouts are
    then all the same, so one world is enough; where Luna's judgement uses
    her guess of the next player's values, the cheater's uses the true ones.
    It measures how much Luna's uncertainty costs her: the ceiling of this
    kind of search. Knowing the deck, its playouts run to the round's end
    (`PlayedOutLuna`)."""

    name = "cheater"
    display_name = "Tramposo"
    omniscient = True

    def __init__(self, **settings: Any) -> None:
        """The same settings as `Luna` (her defaults unless given): her
        time and worlds; the rest of her search is hers, fixed."""
        self.luna = PlayedOutLuna(**settings)

    def choose_seeing(self, state: GameState, seat: int, rng: random.Random) -> Action:
        seat_view = view(state, seat)
        legal = legal_of(seat_view)
        if len(legal) == 1:
            return legal[0]
        luna = self.luna
        know = knowledge(seat_view)
        world = true_world(state)
        moves = moves_of(seat_view, legal)
        exact = solve(world, moves) if known_world(know) else None
        values = {VALUE[c] for c in state.round.hands[(seat + 1) % state.players]}
        odds = [1.0 if x in values else 0.0 for x in range(11)]
        return luna.weigh(
            know, legal, moves, lambda _rng: world, rng, odds=odds, exact=exact, one_world=True
        )
