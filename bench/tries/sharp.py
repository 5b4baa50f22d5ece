"""A sharper quick player for playouts: Carmen's rule (`policy.careful_move`)
with two things a strong player counts and she does not.

- **What a card is worth now.** Carmen prices a card by a fixed list (a card,
  a diamond, a seven: `worth.CARD_GAIN`, their worth at the start of a
  round). The worth of a card really is what it moves the round's points by:
  with two sides, half the difference between the points expected if this
  side takes it and if the other does, each majority scored exactly (ties
  to nobody, the doubles) with the cards not yet taken going either way at
  even odds (`swing`). A diamond when diamonds stand 5 to 1 is worth almost
  nothing; a seven when they stand 1 to 1 is worth more than at the start.
- **The leftover.** On the last deal the cards left on the table go to the
  last side that captured: a capture then also stakes a claim on what it
  leaves (`last` of its worth).

With three sides the worths stay the fixed list (the majorities of three are
not worth the work here). Everything else is `careful_move`: what a play
takes, less what the next player can expect to take from the table it
leaves, each value weighed by the chance they hold it, as judged from the
mover's seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from math import comb

from escoba.bots.policy import HOLDS, best_claim, best_weighed, options_of
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine.cards import IS_DIAMOND, IS_SEVEN, SEVEN_OF_DIAMONDS, VALUE
from escoba.engine.rules import HAND_SIZE

SEVEN_D = int(SEVEN_OF_DIAMONDS)
#: The diamond of each value (card numbers run value by value, diamonds first).
DIAMOND_OF: tuple[int, ...] = tuple(4 * (x - 1) if x else -1 for x in range(11))


def _item_points(mine: int, theirs: int, total: int, item: str) -> int:
    """This side's points less the other's for one majority at the round's
    end (site rules: most cards 2 when the other took fewer than 10; all ten
    diamonds or all four sevens 2)."""
    if mine == theirs:
        return 0
    sign = 1 if mine > theirs else -1
    top, low = (mine, theirs) if mine > theirs else (theirs, mine)
    if item == "cards":
        return sign * (2 if low < 10 else 1)
    return sign * (2 if top == total else 1)


@cache
def _expected(mine: int, theirs: int, total: int, item: str) -> float:
    """The expected `_item_points` when each card not yet taken goes to
    either side at even odds."""
    left = total - mine - theirs
    return (
        sum(
            comb(left, k) * _item_points(mine + k, theirs + left - k, total, item)
            for k in range(left + 1)
        )
        / 2**left
    )


@cache
def swing(mine: int, theirs: int, total: int, item: str) -> float:
    """What one more card of an item is worth to a side: half the difference
    between the points expected if it takes it and if the other side does."""
    if mine + theirs >= total:
        return 0.0
    return (_expected(mine + 1, theirs, total, item) - _expected(mine, theirs + 1, total, item)) / 2


#: Never emptied: `policy`'s caches name a price list by its id, so each
#: must live as long as the process.
_GAINS: dict[tuple[int, ...], tuple[float, ...]] = {}


def gains_now(sim: RoundSim, side: int) -> tuple[float, ...]:
    """Each card's worth to `side` (and, the game being even, to the other)
    at this moment of a two-sided round under the site's scoring."""
    other = 1 - side
    key = (
        sim.cards[side],
        sim.cards[other],
        sim.diamonds[side],
        sim.diamonds[other],
        sim.sevens[side],
        sim.sevens[other],
        sim.seven_d >= 0,
    )
    found = _GAINS.get(key)
    if found is None:
        card = swing(key[0], key[1], 40, "cards")
        diamond = swing(key[2], key[3], 10, "diamonds")
        seven = swing(key[4], key[5], 4, "sevens")
        found = _GAINS[key] = tuple(
            card
            + (diamond if IS_DIAMOND[c] else 0.0)
            + (seven if IS_SEVEN[c] else 0.0)
            + (1.0 if c == SEVEN_D else 0.0)
            for c in range(40)
        )
    return found


class Sharp:
    """`sharp(sim, count, worth)`: the move of the seat on turn, as
    `policy.careful_move` takes it (`count[x]`, `worth[x]`: the cards of
    value x still in hands or deck and their fixed worth), with the worths
    of this moment (`dynamic`) and the leftover's stake (`last`); `reply`
    scales what the next player is expected to take."""

    def __init__(self, reply: float = 1.0, last: float = 0.0, dynamic: float = 1.0) -> None:
        self.reply = reply
        self.last = last
        self.dynamic = dynamic

    def __call__(self, sim: RoundSim, count: Sequence[int], worth: Sequence[float]) -> SimMove:
        seat = sim.turn
        hand = sim.hands[seat]
        table = sim.table
        dynamic = self.dynamic and sim.nsides == 2 and not sim.rules.setenta
        gain = gains_now(sim, sim.side[seat]) if dynamic else sim.gain
        claim = best_claim(sim, gain)
        if claim is not None:
            return claim
        options, must, only = options_of(sim)
        if only is not None:
            return only
        plays_left = sim.plays_left
        odds: list[tuple[int, float, float]] = []
        if plays_left > 1:
            nxt = (seat + 1) % sim.n
            h = len(sim.hands[nxt]) or (HAND_SIZE if sim.deck else 0)
            u = plays_left - len(hand)
            if h and u:
                holds = HOLDS[u]
                hh = min(h, u)
                mine = [0] * 11
                for c in hand:
                    mine[VALUE[c]] += 1
                for x in range(1, 11):
                    k = count[x] - mine[x]
                    if k > 0:
                        if dynamic:
                            total = _unseen_worth(sim, x, k, hand, gain)
                        else:
                            total = worth[x] - sum([gain[c] for c in hand if VALUE[c] == x])
                        odds.append((x, holds[k][hh], total / k))
        stake = self.last if not sim.deck else 0.0
        return best_weighed(table, options, must, gain, odds, plays_left == 1, self.reply, stake)


def _unseen_worth(
    sim: RoundSim, x: int, k: int, hand: Sequence[int], gain: Sequence[float]
) -> float:
    """The summed worth of the `k` cards of value `x` the mover cannot see
    (in the other hands or the deck): each is a card, one of them may be the
    diamond, all are sevens when x is 7."""
    total = k * gain[4 * (x - 1) + 1]  # a plain card of that value (a heart)
    d = DIAMOND_OF[x]
    if d not in hand and d not in sim.table and _in_play(sim, d):
        total += gain[d] - gain[d + 1]
    return total


def _in_play(sim: RoundSim, card: int) -> bool:
    """Whether `card` is still in some hand or in the deck."""
    return card in sim.deck or any(card in h for h in sim.hands)
