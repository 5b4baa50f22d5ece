"""A lean, mutable round of Escoba for robot search.

The engine's states are frozen values that copy tuples on every step: right for
the game, too slow for a robot that plays a round out thousands of times per
decision. `RoundSim` keeps one round in plain lists of ints and changes them in
place; it follows the same rules as `escoba.engine.game` (deals, «LLEVAR EL
15», escobas, the leftover, scoring) and tests/bots checks it against the
engine on random games: same actions, same legal moves, same points.

A sim holds only the running tallies that scoring needs per side (cards,
diamonds, sevens, the 7 of diamonds, escobas, and under la setenta each
suit's best card), never the captured piles. It plays under its table's
rules: compulsory capture in the legal moves, la setenta and ties that give
each in the points, and `gain`, the price list the playout policies weigh
captures by.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence

from escoba.bots.worth import gains_for
from escoba.engine.captures import index_groups
from escoba.engine.cards import FIFTEEN, IS_DIAMOND, IS_SEVEN, SEVEN_OF_DIAMONDS, VALUE
from escoba.engine.rules import HAND_SIZE, SETENTA_WORTH, SITE_RULES, RuleSet
from escoba.engine.seats import side_count, side_of

SEVEN_D = int(SEVEN_OF_DIAMONDS)
#: La setenta's worth by card number.
SETENTA_OF: tuple[int, ...] = tuple(SETENTA_WORTH[VALUE[c]] for c in range(40))

#: A move in the sim: (claim?, card, group). For a play, `card` leaves the hand
#: and `group` is the capture (empty: the card stays on the table). For a claim
#: («LLEVAR EL 15»), `card` is the left card and `group` the other table cards.
SimMove = tuple[bool, int, tuple[int, ...]]


class RoundSim:
    __slots__ = (
        "best",
        "cards",
        "claim_card",
        "claim_seat",
        "dealer",
        "deck",
        "diamonds",
        "escobas",
        "gain",
        "hands",
        "last",
        "leftover",
        "leftover_best",
        "n",
        "nsides",
        "plays_left",
        "rules",
        "seven_d",
        "sevens",
        "side",
        "table",
        "turn",
    )

    n: int
    nsides: int
    side: tuple[int, ...]
    hands: list[list[int]]
    table: list[int]  # kept sorted: sorted cards have sorted values
    deck: list[int]  # still to be dealt, in dealing order
    dealer: int
    turn: int
    cards: list[int]  # per side
    diamonds: list[int]
    sevens: list[int]
    seven_d: int  # side holding the 7 of diamonds, -1 for none yet
    escobas: list[int]
    last: int  # last seat that captured, -1 for none
    claim_card: int  # the card left on a 15, -1 when no window is open
    claim_seat: int
    plays_left: int  # cards still to be played this round (hands + deck)
    rules: RuleSet
    gain: tuple[float, ...]  # what a captured card is worth under `rules`
    best: list[list[int]]  # per side, each suit's best setenta worth (la setenta only)
    leftover: list[int]  # at the round's end: the table the last capturer took (or nobody)
    leftover_best: list[int]  # under la setenta: the taker's `best` before the leftover

    @classmethod
    def empty(cls, players: int, rules: RuleSet = SITE_RULES) -> RoundSim:
        sim = cls.__new__(cls)
        sim.rules = rules
        sim.gain = gains_for(rules)
        nsides = side_count(players)
        sim.n = players
        sim.nsides = nsides
        sim.side = tuple(side_of(s, players) for s in range(players))
        sim.hands = [[] for _ in range(players)]
        sim.table = []
        sim.deck = []
        sim.dealer = 0
        sim.turn = 0
        sim.cards = [0] * nsides
        sim.diamonds = [0] * nsides
        sim.sevens = [0] * nsides
        sim.seven_d = -1
        sim.escobas = [0] * nsides
        sim.best = [[0, 0, 0, 0] for _ in range(nsides)] if rules.setenta else []
        sim.last = -1
        sim.claim_card = -1
        sim.claim_seat = -1
        sim.plays_left = 0
        sim.leftover = []
        sim.leftover_best = []
        return sim

    def add_captured(self, side: int, cards: Sequence[int]) -> None:
        self.cards[side] += len(cards)
        for c in cards:
            self._take(side, c)

    def copy(self) -> RoundSim:
        sim = RoundSim.__new__(RoundSim)
        sim.rules = self.rules
        sim.gain = self.gain
        sim.best = [b[:] for b in self.best]
        sim.n = self.n
        sim.nsides = self.nsides
        sim.side = self.side
        sim.hands = [h[:] for h in self.hands]
        sim.table = self.table[:]
        sim.deck = self.deck[:]
        sim.dealer = self.dealer
        sim.turn = self.turn
        sim.cards = self.cards[:]
        sim.diamonds = self.diamonds[:]
        sim.sevens = self.sevens[:]
        sim.seven_d = self.seven_d
        sim.escobas = self.escobas[:]
        sim.last = self.last
        sim.claim_card = self.claim_card
        sim.claim_seat = self.claim_seat
        sim.plays_left = self.plays_left
        sim.leftover = self.leftover
        sim.leftover_best = self.leftover_best
        return sim

    @property
    def over(self) -> bool:
        return self.plays_left == 0

    # ------------------------------------------------------------------
    # Moves

    def legal_moves(self) -> list[SimMove]:
        """Every legal move of the seat on turn, in the engine's order: claims
        first, then each hand card (ascending) left on the table and with each
        of its capture groups; under compulsory capture, no card is left on
        the table while some card of the hand can capture."""
        out: list[SimMove] = []
        seat = self.turn
        table = self.table
        if self.claim_card >= 0 and self.claim_seat == seat:
            cc = self.claim_card
            rest = [c for c in table if c != cc]
            vals = tuple([VALUE[c] for c in rest])
            for g in index_groups(FIFTEEN - VALUE[cc], vals):
                out.append((True, cc, tuple([rest[i] for i in g])))
        vals = tuple([VALUE[c] for c in table])
        for card in sorted(self.hands[seat]):
            out.append((False, card, ()))
            if table:
                for g in index_groups(FIFTEEN - VALUE[card], vals):
                    out.append((False, card, tuple([table[i] for i in g])))
        if self.rules.compulsory_capture and any(m[2] for m in out if not m[0]):
            out = [m for m in out if m[0] or m[2]]
        return out

    def apply(self, move: SimMove) -> None:
        if move[0]:
            self.claim(move[2])
        else:
            self.play(move[1], move[2])

    def claim(self, group: Sequence[int]) -> None:
        """«LLEVAR EL 15»: the seat on turn takes the left card and `group`."""
        seat = self.turn
        table = self.table
        cc = self.claim_card
        table.remove(cc)
        self._capture(seat, cc, group)

    def _capture(self, seat: int, card: int, group: Sequence[int]) -> None:
        """`seat` takes `card` and `group` (table cards) into its side's pile:
        the one capture of a play and of a claim."""
        table = self.table
        for c in group:
            table.remove(c)
        side = self.side[seat]
        self._take(side, card)
        for c in group:
            self._take(side, c)
        self.cards[side] += 1 + len(group)
        if not table:
            self.escobas[side] += 1
        self.last = seat
        self.claim_card = -1

    def _take(self, side: int, c: int) -> None:
        if IS_DIAMOND[c]:
            self.diamonds[side] += 1
            if c == SEVEN_D:
                self.seven_d = side
                self.sevens[side] += 1
        elif IS_SEVEN[c]:
            self.sevens[side] += 1
        if self.best:
            best = self.best[side]
            if SETENTA_OF[c] > best[c & 3]:
                best[c & 3] = SETENTA_OF[c]

    def play(self, card: int, group: Sequence[int]) -> None:
        """The seat on turn plays `card`, capturing `group` (or leaving it)."""
        seat = self.turn
        self.hands[seat].remove(card)
        table = self.table
        if group:
            self._capture(seat, card, group)
        else:
            if table and index_groups(FIFTEEN - VALUE[card], tuple([VALUE[c] for c in table])):
                self.claim_card = card
                self.claim_seat = (seat + 1) % self.n
            else:
                self.claim_card = -1
            insort(table, card)
        self.turn = (seat + 1) % self.n
        self.plays_left -= 1
        if self.plays_left == 0:
            self._finish()
        elif not any(self.hands):
            self._deal()

    def _deal(self) -> None:
        deck = self.deck
        n = self.n
        pos = 0
        for k in range(1, n + 1):
            self.hands[(self.dealer + k) % n] = deck[pos : pos + HAND_SIZE]
            pos += HAND_SIZE
        del deck[:pos]

    def _finish(self) -> None:
        """The leftover goes to the last capturer (never an escoba). It is
        remembered (`leftover`, and under la setenta the taker's suits'
        best before it), for the analysis that tells what ÚLTIMAS gave."""
        self.claim_card = -1
        self.leftover = self.table
        if self.last >= 0 and self.table:
            side = self.side[self.last]
            if self.best:
                self.leftover_best = self.best[side][:]
            for c in self.table:
                self._take(side, c)
            self.cards[side] += len(self.table)
        self.table = []

    # ------------------------------------------------------------------
    # Scoring

    def points(self) -> list[int]:
        """Each side's points for the round (call once the round is over)."""
        rules = self.rules
        if rules.setenta or rules.ties == "each":
            return self._house_points()
        nsides = self.nsides
        pts = self.escobas[:]
        top = _most(self.cards)
        if top >= 0:
            cards = self.cards
            under_ten = all(cards[s] < 10 for s in range(nsides) if s != top)
            pts[top] += 2 if under_ten else 1
        top = _most(self.diamonds)
        if top >= 0:
            pts[top] += 2 if self.diamonds[top] == 10 else 1
        top = _most(self.sevens)
        if top >= 0:
            pts[top] += 2 if self.sevens[top] == 4 else 1
        if self.seven_d >= 0:
            pts[self.seven_d] += 1
        return pts

    def _house_points(self) -> list[int]:
        """`points` under la setenta or ties that give each (the engine's
        `score_round`, on tallies)."""
        each = self.rules.ties == "each"
        nsides = self.nsides
        pts = self.escobas[:]
        cards = self.cards
        tops = _leaders(cards, each)
        for top in tops:
            under_ten = len(tops) == 1 and all(cards[s] < 10 for s in range(nsides) if s != top)
            pts[top] += 2 if under_ten else 1
        for top in _leaders(self.diamonds, each):
            pts[top] += 2 if self.diamonds[top] == 10 else 1
        if self.best:
            setentas = [0 if 0 in b else sum(b) for b in self.best]
            for top in _leaders(setentas, each):
                pts[top] += 1
        else:
            for top in _leaders(self.sevens, each):
                pts[top] += 2 if self.sevens[top] == 4 else 1
        if self.seven_d >= 0:
            pts[self.seven_d] += 1
        return pts


def _most(counts: list[int]) -> int:
    """The side with strictly more than every other, or -1 on a tie."""
    best = max(counts)
    if counts.count(best) != 1:
        return -1
    return counts.index(best)


def _leaders(counts: list[int], each: bool) -> list[int]:
    """The sides that score the most of an item (0: none of it, or «coja»):
    the one ahead, or on a tie nobody, or each tied side when `each`."""
    best = max(counts)
    if best == 0:
        return []
    leaders = [s for s, c in enumerate(counts) if c == best]
    return leaders if len(leaders) == 1 or each else []
