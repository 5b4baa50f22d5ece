"""What a seat knows, read from its view only: the cards it has seen this
round, the cards it has not (in other hands or the deck), each side's public
tallies, and worlds sampled consistently with all of that.

Every card that left a hand or the table this round is public: the round's
history names each played card and each captured group, and the dealer's
table take is shown to all. So the unseen cards are the 40 minus the own hand,
the table, the history and the table take; they sit in the other hands (whose
sizes the view shows) and in the deck (whose size it shows too).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb

from escoba.bots.sim import RoundSim
from escoba.engine.view import View

#: The bit length of each count of cards (`shuffle`).
_BITS = tuple(n.bit_length() for n in range(41))


def shuffle(cards: list[int], rng: random.Random) -> None:
    """`rng.shuffle(cards)`, to the same permutation by the same draws from
    `rng` (CPython's Fisher-Yates over `getrandbits`, the sizes' bit lengths
    looked up), at about half its cost: the search draws a few thousand
    deals per decision (tests/bots/test_bots_sim.py holds it to
    `random.Random.shuffle`). Another kind of source is left to its own
    `shuffle`."""
    if type(rng) is not random.Random or len(cards) >= len(_BITS):
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = _BITS[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def shuffle_tail(cards: list[int], k: int, rng: random.Random) -> None:
    """The first `k` steps of `shuffle`'s Fisher-Yates: the last `k` places
    of `cards` hold `k` cards drawn at random without replacement, in random
    order (as likely as the last `k` of a whole shuffle, for `k` draws
    instead of `len(cards) - 1`)."""
    getrandbits = rng.getrandbits
    n = len(cards)
    for i in range(n - 1, max(n - 1 - k, 0), -1):
        m = i + 1
        b = _BITS[m] if m < len(_BITS) else m.bit_length()
        j = getrandbits(b)
        while j >= m:
            j = getrandbits(b)
        cards[i], cards[j] = cards[j], cards[i]


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    players: int
    hand: tuple[int, ...]
    table: tuple[int, ...]
    unseen: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    base: RoundSim  # the public part of the round, other hands and deck empty

    def sample(self, rng: random.Random) -> RoundSim:
        """One world: the unseen cards dealt at random to the other hands and
        the deck, every public fact kept."""
        cards = list(self.unseen)
        shuffle(cards, rng)
        sim = self.base.copy()
        pos = 0
        for s in range(self.players):
            if s != self.seat:
                k = self.hand_sizes[s]
                sim.hands[s] = cards[pos : pos + k]
                pos += k
        sim.deck = cards[pos:]
        return sim


def seen_cards(v: View) -> set[int]:
    """Cards this seat has seen this round: own hand, table, the history and
    the table take."""
    seen = {int(c) for c in v.hand}
    seen.update(int(c) for c in v.table)
    for a in v.history:
        seen.add(int(a.card))
        seen.update(int(c) for c in a.cards)
    if v.table_take is not None:
        seen.update(int(c) for c in v.table_take.cards)
    return seen


def knowledge(v: View) -> Knowledge:
    """Everything a search robot needs from a view of its own turn."""
    if v.seat is None:
        raise ValueError("a spectator has no seat to play")
    players = v.players
    seen = seen_cards(v)
    unseen = tuple(c for c in range(40) if c not in seen)
    hand_sizes = tuple(s.hand_size for s in v.seats)
    if len(unseen) != sum(hand_sizes) - len(v.hand) + v.deck_size:
        raise ValueError("the view's counts do not add up to 40 cards")
    sim = RoundSim.empty(players, v.rules)
    sim.hands[v.seat] = [int(c) for c in v.hand]
    sim.table = sorted(int(c) for c in v.table)
    sim.dealer = v.dealer
    sim.turn = v.seat
    if v.table_take is not None:
        take_side = sim.side[v.table_take.seat]
        sim.add_captured(take_side, [int(c) for c in v.table_take.cards])
        sim.escobas[take_side] += v.table_take.escobas
        sim.last = v.table_take.seat
    for a in v.history:
        if a.cards:
            side = sim.side[a.seat]
            taken = [int(c) for c in a.cards]
            if a.kind == "play":
                taken.append(int(a.card))
            sim.add_captured(side, taken)
            if a.escoba:
                sim.escobas[side] += 1
            sim.last = a.seat
    if v.claimable is not None and v.claim_seat is not None:
        sim.claim_card = int(v.claimable)
        sim.claim_seat = v.claim_seat
    sim.plays_left = sum(hand_sizes) + v.deck_size
    return Knowledge(
        seat=v.seat,
        players=players,
        hand=tuple(int(c) for c in v.hand),
        table=tuple(sim.table),
        unseen=unseen,
        hand_sizes=hand_sizes,
        deck_size=v.deck_size,
        base=sim,
    )


def holds_chance(unseen: int, of_them: int, hand: int) -> float:
    """The chance that a hand of `hand` cards dealt from `unseen` cards, of
    which `of_them` are wanted, holds at least one of those."""
    hand = min(hand, unseen)
    if of_them <= 0 or hand <= 0:
        return 0.0
    return 1.0 - comb(unseen - of_them, hand) / comb(unseen, hand)
