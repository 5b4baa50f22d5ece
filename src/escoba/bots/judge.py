"""Carmen's judgement of a position, in round points: the scoring that
Carmen plays by, that Luna adds to her search, that the inference reads the
other players' plays with and that the reply model answers a candidate with.

For an action it adds what it takes (cards, diamonds, sevens, the 7 of
diamonds, the escoba; an item already decided for a side counts little) and
subtracts what the next player can expect to take from the table it leaves:
for each card value it works out, from the unseen cards and the size of that
player's hand, the chance they hold it, and what it would capture (a sweep of
a table that sums 5 to 14 above all). A card left on a 15 opens «LLEVAR EL
15» to the next player: that counts against it too. A claim is weighed with
the best play that follows it. With four players every tally is the pair's,
so a capture by a partner counts as one's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from escoba.bots.knowledge import Knowledge
from escoba.bots.worth import W_CARD, W_DIAMOND, W_ESCOBA, W_SEVEN, card_gains
from escoba.engine.actions import Action, Claim
from escoba.engine.captures import index_groups
from escoba.engine.cards import FIFTEEN, VALUE
from escoba.engine.rules import HAND_SIZE

DECIDED = 0.2  # weight of an item whose majority is already settled


def _decided(counts: Sequence[int], total: int, side: int) -> bool:
    remaining = total - sum(counts)
    mine = counts[side]
    other = max(c for s, c in enumerate(counts) if s != side)
    return mine > other + remaining or other > mine + remaining


def moment_gains(know: Knowledge) -> tuple[float, ...]:
    """Card gains for this moment of the round, under its rules: a tally that
    can no longer change hands is worth little."""
    base = know.base
    side = base.side[know.seat]
    setenta = base.rules.setenta
    # la setenta is seldom settled before the end: its weight stays whole
    sevens_decided = not setenta and _decided(base.sevens, 4, side)
    return card_gains(
        W_CARD * (DECIDED if _decided(base.cards, 40, side) else 1.0),
        W_DIAMOND * (DECIDED if _decided(base.diamonds, 10, side) else 1.0),
        W_SEVEN * (DECIDED if sevens_decided else 1.0),
        setenta=setenta,
    )


class Judge:
    """Carmen's judgement of one position, seen from `know.seat`:
    `.score(action)` in round points. `odds[x]`, when given, is the chance
    that the next player holds a card of value x (a searcher's better-informed
    guess, see `inference`); it replaces her uniform count while that player
    still holds cards of this deal."""

    def __init__(self, know: Knowledge, odds: Sequence[float] | None = None) -> None:
        self.know = know
        self.gain = moment_gains(know)
        base = know.base
        n = know.players
        self.next_seat = (know.seat + 1) % n
        h = know.hand_sizes[self.next_seat]
        deck = know.deck_size
        plays_after_me = base.plays_left - 1
        if h == 0 and deck > 0:
            h = HAND_SIZE
        self.reply_possible = plays_after_me > 0 and h > 0
        self.last_play = base.plays_left == 1
        # chance that the next player holds at least one card of each value
        unseen = know.unseen
        u = len(unseen)
        self.p_value = [0.0] * 11
        self.avg_gain = [0.0] * 11
        if self.reply_possible and u:
            hh = min(h, u)
            for x in range(1, 11):
                of_x = [c for c in unseen if VALUE[c] == x]
                if of_x:
                    self.p_value[x] = 1.0 - comb(u - len(of_x), hh) / comb(u, hh)
                    self.avg_gain[x] = sum(self.gain[c] for c in of_x) / len(of_x)
            if odds is not None and know.hand_sizes[self.next_seat] > 0:
                self.p_value = [odds[x] if self.avg_gain[x] else 0.0 for x in range(11)]

    def score(self, action: Action) -> float:
        know = self.know
        table = list(know.table)
        if isinstance(action, Claim):
            cc = know.base.claim_card
            taken = [cc, *(int(c) for c in action.group)]
            rest = [c for c in table if c not in taken]
            gain = sum(self.gain[c] for c in taken) + (W_ESCOBA if not rest else 0.0)
            follow = max(
                self.play_score(card, list(g), rest) for card, g in self._plays(rest, know.hand)
            )
            return gain + follow
        return self.play_score(int(action.card), [int(c) for c in action.capture], table)

    @staticmethod
    def _plays(table: list[int], hand: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
        vals = tuple(VALUE[c] for c in table)
        out: list[tuple[int, tuple[int, ...]]] = []
        for card in hand:
            out.append((card, ()))
            for g in index_groups(FIFTEEN - VALUE[card], vals) if table else ():
                out.append((card, tuple(table[i] for i in g)))
        return out

    def play_score(self, card: int, capture: list[int], table: list[int]) -> float:
        """The score of playing `card` (capturing `capture`, or leaving it)
        on `table`, for any card: the opponent model of `inference` and the
        reply model ask it about cards the player might hold."""
        gain = self.gain
        if capture:
            after = [c for c in table if c not in capture]
            score = gain[card] + sum(gain[c] for c in capture)
            if not after:
                score += W_ESCOBA
            elif self.last_play:
                score += sum(gain[c] for c in after)  # the leftover is ours
            return score - self._reply(after, None)
        vals = tuple(VALUE[c] for c in table)
        opens_claim = bool(table) and bool(index_groups(FIFTEEN - VALUE[card], vals))
        after = sorted([*table, card])
        return -self._reply(after, card if opens_claim else None)

    def _reply(self, table: list[int], claimable: int | None) -> float:
        """What the next player can expect to take from `table`."""
        if not self.reply_possible:
            return 0.0
        gain = self.gain
        claim_gain = 0.0
        if claimable is not None:
            claim_gain, table = claim_first(table, claimable, gain)
        if not table:
            return claim_gain
        vals = tuple(VALUE[c] for c in table)
        options: list[tuple[float, float]] = []
        for x in range(1, 11):
            p = self.p_value[x]
            if p <= 0.0:
                continue
            best = 0.0
            for g in index_groups(FIFTEEN - x, vals):
                g_gain = self.avg_gain[x] + sum(gain[table[i]] for i in g)
                if len(g) == len(table):
                    g_gain += W_ESCOBA
                best = max(best, g_gain)
            if best > 0.0:
                options.append((best, p))
        return claim_gain + expected_best(options)


def claim_first(
    table: Sequence[int], claimable: int, gain: Sequence[float]
) -> tuple[float, list[int]]:
    """The most a «LLEVAR EL 15» on the left card `claimable` takes from
    `table` (0.0 when it takes nothing), and the table it leaves."""
    rest = [c for c in table if c != claimable]
    claim_gain = 0.0
    best_rest = rest
    for g in index_groups(FIFTEEN - VALUE[claimable], tuple([VALUE[c] for c in rest])):
        g_gain = gain[claimable] + sum([gain[rest[i]] for i in g])
        if len(g) == len(rest):
            g_gain += W_ESCOBA
        if g_gain > claim_gain:
            claim_gain = g_gain
            best_rest = [c for i, c in enumerate(rest) if i not in g]
    return claim_gain, best_rest


def expected_best(options: list[tuple[float, float]]) -> float:
    """The expected worth of a player's best capture when each of `options`,
    (worth, chance), is open to them with its own chance: the most valuable
    counted first, each of the others only when none better is there. Sorts
    `options`."""
    options.sort(reverse=True)
    expected = 0.0
    none_better = 1.0
    for worth, p in options:
        expected += worth * p * none_better
        none_better *= 1.0 - p
    return expected
