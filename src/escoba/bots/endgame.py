"""The end of a round played exactly, once no card is hidden from the seat.

With two sides, once the deck is empty and only one other player still holds
cards, the cards that seat has not seen are exactly that player's hand: the
world is known. The rest of the round (at most the last deal) is then a small
game of perfect information, and minimax with alpha-beta pruning finds each
move's exact worth: the round's point difference between the two sides if
both play on perfectly. A search that samples worlds and plays them out with a
quick policy only estimates that; Luna keeps her search to choose among the
moves that are exactly best (against a fallible opponent some are better
than others), and never plays one that is worse.

The solver counts the positions it visits and gives up past `max_nodes` (the
caller then decides as before): a last deal takes a few dozen positions
usually and 10,000 at most in 2,528 of random games, so the limit is only a
bound on the worst case.
"""

from __future__ import annotations

from collections.abc import Sequence

from escoba.bots.knowledge import Knowledge
from escoba.bots.sim import RoundSim, SimMove

MAX_NODES = 20_000


class _OutOfNodes(Exception):
    pass


def known_world(know: Knowledge) -> bool:
    """True when the seat can see the whole rest of the round: two sides,
    the deck empty, and at most one other player holding cards."""
    if know.base.nsides != 2 or know.deck_size != 0:
        return False
    others = [s for s in range(know.players) if s != know.seat and know.hand_sizes[s] > 0]
    return len(others) <= 1


def solve(
    world: RoundSim, moves: Sequence[SimMove], max_nodes: int = MAX_NODES
) -> list[int] | None:
    """The worth of each of `moves` in `world` for the side on turn: its
    points minus the other side's at the end of the round, with perfect play
    on both sides after the move — exact for the best moves; for the others,
    a bound between their worth and the best (a move shown to be worse is
    not searched further). None past `max_nodes`."""
    nodes = [0]
    out = [0] * len(moves)
    best = -1_000
    # captures first, the biggest first: a good move early cuts the others short
    for i in sorted(range(len(moves)), key=lambda i: -len(moves[i][2])):
        try:
            # points are whole: above best - 1, the worth is exact
            out[i] = _after(world, moves[i], best - 1, 1_000, nodes, max_nodes)
        except _OutOfNodes:
            return None
        best = max(best, out[i])
    return out


def _after(
    sim: RoundSim, move: SimMove, alpha: int, beta: int, nodes: list[int], limit: int
) -> int:
    """The worth of `move` for the side that plays it (negamax: the other
    side's worth, negated, when the turn passes to it; the same side's after
    a claim, whose seat plays on)."""
    mover = sim.side[sim.turn]
    child = sim.copy()
    child.apply(move)
    if child.side[child.turn] == mover:
        return _worth(child, alpha, beta, nodes, limit)
    return -_worth(child, -beta, -alpha, nodes, limit)


def _worth(sim: RoundSim, alpha: int, beta: int, nodes: list[int], limit: int) -> int:
    """The round's point difference for the side on turn under perfect play:
    exact inside (alpha, beta), a bound outside it."""
    mover = sim.side[sim.turn]
    if sim.plays_left == 0:
        pts = sim.points()
        return pts[mover] - pts[1 - mover]
    nodes[0] += 1
    if nodes[0] > limit:
        raise _OutOfNodes
    best = -1_000
    for move in sorted(sim.legal_moves(), key=lambda m: -len(m[2])):
        best = max(best, _after(sim, move, alpha, beta, nodes, limit))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best
