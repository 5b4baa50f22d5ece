"""Carmen, a solid club player: one move deep, with a careful eye on the
reply.

For each legal action she adds what it takes (cards, diamonds, sevens, the 7
of diamonds, the escoba; an item already decided for a side counts little)
and subtracts what the next player can expect to take from the table she
leaves: for each card value she works out, from the unseen cards and the size
of that player's hand, the chance they hold it, and what it would capture (a
sweep of a table that sums 5 to 14 above all). A card left on a 15 opens
«LLEVAR EL 15» to the next player: that counts against her too. A claim of her
own is weighed with the best play that follows it, so she claims when it pays.
With four players every tally is her pair's, so a capture by her partner is
hers as well.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from escoba.bots.base import legal_of
from escoba.bots.knowledge import Knowledge, knowledge
from escoba.bots.policy import W_CARD, W_DIAMOND, W_ESCOBA, W_SEVEN, W_SEVEN_D
from escoba.bots.sim import IS_DIAMOND, IS_SEVEN, SEVEN_D
from escoba.engine.actions import Action, Claim
from escoba.engine.captures import index_groups
from escoba.engine.cards import FIFTEEN, VALUE
from escoba.engine.view import View

DECIDED = 0.2  # weight of an item whose majority is already settled


def _decided(counts: Sequence[int], total: int, side: int) -> bool:
    remaining = total - sum(counts)
    mine = counts[side]
    other = max(c for s, c in enumerate(counts) if s != side)
    return mine > other + remaining or other > mine + remaining


class _Weights:
    """Card gains for this moment of the round: a tally that can no longer
    change hands is worth little."""

    def __init__(self, know: Knowledge) -> None:
        base = know.base
        side = base.side[know.seat]
        w_card = W_CARD * (DECIDED if _decided(base.cards, 40, side) else 1.0)
        w_dia = W_DIAMOND * (DECIDED if _decided(base.diamonds, 10, side) else 1.0)
        w_sev = W_SEVEN * (DECIDED if _decided(base.sevens, 4, side) else 1.0)
        self.gain = tuple(
            w_card
            + (w_dia if IS_DIAMOND[c] else 0.0)
            + (w_sev if IS_SEVEN[c] else 0.0)
            + (W_SEVEN_D if c == SEVEN_D else 0.0)
            for c in range(40)
        )


class Carmen:
    name = "carmen"
    display_name = "Carmen"

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        know = knowledge(view)
        ctx = _Context(know)
        best_score = -1e9
        best = legal[0]
        for action in legal:
            score = ctx.score(action)
            if score > best_score + 1e-9:
                best_score = score
                best = action
        return best


def carmen_judge(know: Knowledge, odds: Sequence[float] | None = None) -> Judge:
    """Carmen's judgement of a position: `.score(action)` in round points.
    `odds[x]`, when given, is the chance that the next player holds a card of
    value x (a searcher's better-informed guess, see `inference`); it replaces
    her uniform count while that player still holds cards of this deal."""
    return _Context(know, odds)


class _Context:
    def __init__(self, know: Knowledge, odds: Sequence[float] | None = None) -> None:
        self.know = know
        self.gain = _Weights(know).gain
        base = know.base
        n = know.players
        self.next_seat = (know.seat + 1) % n
        h = know.hand_sizes[self.next_seat]
        deck = know.deck_size
        plays_after_me = base.plays_left - 1
        if h == 0 and deck > 0:
            h = 3
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
                self._play_score(card, list(g), rest) for card, g in self._plays(rest, know.hand)
            )
            return gain + follow
        return self._play_score(int(action.card), [int(c) for c in action.capture], table)

    def play_score(self, card: int, capture: list[int], table: list[int]) -> float:
        """Her score of playing `card` (capturing `capture`, or leaving it)
        on `table`, for any card: the opponent model of `inference` asks it
        about cards the player might have held."""
        return self._play_score(card, capture, table)

    @staticmethod
    def _plays(table: list[int], hand: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
        vals = tuple(VALUE[c] for c in table)
        out: list[tuple[int, tuple[int, ...]]] = []
        for card in hand:
            out.append((card, ()))
            for g in index_groups(FIFTEEN - VALUE[card], vals) if table else ():
                out.append((card, tuple(table[i] for i in g)))
        return out

    def _play_score(self, card: int, capture: list[int], table: list[int]) -> float:
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
            rest = [c for c in table if c != claimable]
            vals = tuple(VALUE[c] for c in rest)
            best_rest = rest
            for g in index_groups(FIFTEEN - VALUE[claimable], vals):
                g_gain = gain[claimable] + sum(gain[rest[i]] for i in g)
                if len(g) == len(rest):
                    g_gain += W_ESCOBA
                if g_gain > claim_gain:
                    claim_gain = g_gain
                    best_rest = [c for i, c in enumerate(rest) if i not in g]
            table = best_rest
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
        options.sort(reverse=True)
        expected = 0.0
        none_better = 1.0
        for g_gain, p in options:
            expected += g_gain * p * none_better
            none_better *= 1.0 - p
        return claim_gain + expected


#: Carmen's judgement of one position (what `carmen_judge` returns).
Judge = _Context
