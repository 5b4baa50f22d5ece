"""The last deal played exactly by a quick player (issue 27): in a
two-player round the last deal hides nothing (the deck is empty, the cards
a player has not seen are the other hand), so a real player can, and Luna
does, play it exactly. Carmen's rule plays it with one look ahead. These
quick players are Carmen's rule until the last deal, then:

- `end_minimax`: a move the endgame solver shows exactly best against
  perfect play (Carmen's own choice when it is one of them);
- `end_reply`: the best answer to Carmen's rule, which plays the other seat
  (a search over the mover's moves, the other side's replies by
  `careful_move`), ties to Carmen's choice.

As players on the sim (`bench/bench_policies.py`, 4,000 deal pairs) they
are +0.223 and +0.308 over Carmen's rule. `LunaEndplay` credits Luna's own
seat in her playouts with `end_reply`'s play of the last deal: against
today's Luna on the same 500 deals, −0.001 ± 0.051 (bench/RESULTS-bots.md,
«Issue 27, the other directions»). Not kept.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from escoba.bots.endgame import solve
from escoba.bots.knowledge import Knowledge
from escoba.bots.luna import side_value
from escoba.bots.policy import careful_move, unplayed_of
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine.actions import Action
from escoba.engine.cards import VALUE
from research_luna import TunableLuna


def _last_deal(sim: RoundSim) -> bool:
    return sim.n == 2 and sim.nsides == 2 and not sim.deck


def end_minimax(sim: RoundSim, count: list[int], worth: list[float]) -> SimMove:
    carmen = careful_move(sim, count, worth)
    if not _last_deal(sim):
        return carmen
    moves = sim.legal_moves()
    worths = solve(sim, moves)
    if worths is None:
        return carmen
    top = max(worths)
    best = [m for m, w in zip(moves, worths, strict=True) if w == top]
    return carmen if carmen in best else best[0]


def _best_line(
    sim: RoundSim, side: int, first: SimMove | None = None
) -> tuple[float, list[SimMove]]:
    """`side`'s best value from `sim` (a last deal) against Carmen's rule,
    and its moves on the way, in order (her replies are determined); of
    equal moves the first found, `first` tried first."""
    if sim.over:
        return side_value(sim, side), []
    if sim.side[sim.turn] != side:
        count, worth = unplayed_of(sim)
        child = sim.copy()
        child.apply(careful_move(child, count, worth))
        return _best_line(child, side)
    moves = sim.legal_moves()
    if first is not None:
        moves = [first, *(m for m in moves if m != first)]
    best_value, best_line = -1e9, []
    for move in moves:
        child = sim.copy()
        child.apply(move)
        value, line = _best_line(child, side)
        if value > best_value:
            best_value, best_line = value, [move, *line]
    return best_value, best_line


def end_reply(sim: RoundSim, count: list[int], worth: list[float]) -> SimMove:
    carmen = careful_move(sim, count, worth)
    if not _last_deal(sim):
        return carmen
    return _best_line(sim, sim.side[sim.turn], first=carmen)[1][0]


def endplay_playout(sim: RoundSim, stop: int = 0, *, side: int) -> None:
    """`careful_playout`, but `side` plays the last deal of a two-player
    round as the best answer to Carmen's rule, which the other side plays:
    what Luna can do there, where nothing is hidden. The best line is found
    once, at the side's first move of that deal, and followed."""
    count, worth = unplayed_of(sim)
    gain = sim.gain
    line: list[SimMove] | None = None
    while sim.plays_left > stop:
        if _last_deal(sim) and sim.side[sim.turn] == side:
            if line is None:
                line = _best_line(sim, side)[1]
            move = line.pop(0)
        else:
            move = careful_move(sim, count, worth)
        if not move[0]:
            count[VALUE[move[1]]] -= 1
            worth[VALUE[move[1]]] -= gain[move[1]]
        sim.apply(move)


class LunaEndplay(TunableLuna):
    """Luna, whose playouts credit her own seat with the last deal played as
    she can play it: the best answer to Carmen's rule (`endplay_playout`),
    in decisions made while the deck holds `deck_at_most` cards or fewer
    (the others' playouts are Luna's own)."""

    def __init__(self, deck_at_most: int = 40, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.deck_at_most = deck_at_most
        self.careful = self.rollout

    def weigh(self, know: Knowledge, *args: Any, **kwargs: Any) -> Action:
        if know.deck_size <= self.deck_at_most:
            self.rollout = partial(endplay_playout, side=know.base.side[know.seat])
        else:
            self.rollout = self.careful
        return super().weigh(know, *args, **kwargs)
