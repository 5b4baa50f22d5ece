"""The next player's answer to each candidate, by Carmen's judgement.

The playout (`policy.careful_playout`) is Carmen's rule made quick on the
sim, the next player's odds of each value counted from the cards still
unplayed; a real opponent weighs what she might leave to whom from what she
has seen.
The answer to the candidate is the step the search depends on most, so there
we use Carmen's judgement itself: from the table the candidate leaves, she
plays the card and capture that her judgement scores best among those of her
hand in the world. Later steps stay with the quick playout.

Her judgement of a play does not depend on the rest of her hand, so it is
worked out once per candidate and card (cards of one value and worth score
alike) and reused in every world. Her view of what she cannot see is
approximated as in `inference`: the cards hidden from both of us, plus the
searcher's own hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from escoba.bots.judge import Judge
from escoba.bots.knowledge import Knowledge
from escoba.bots.sim import RoundSim, SimMove
from escoba.bots.worth import W_ESCOBA
from escoba.engine.captures import index_groups
from escoba.engine.cards import FIFTEEN, VALUE

#: Carmen's best play (score, capture by table index) by table, card value,
#: card worth and whether a capture is compulsory.
BestPlays = dict[tuple[tuple[int, ...], int, float, bool], tuple[float, tuple[int, ...]]]


class CarmenReply:
    """`reply(sim, i)`: in `sim`, where candidate `i` has just been played,
    the next player answers by Carmen's rule, an open «LLEVAR EL 15»
    weighed as she weighs it (what it takes plus her best play after).
    Nothing happens when the candidate is a claim (the searcher plays on),
    ends the deal, or passes the turn to a partner."""

    def __init__(self, know: Knowledge, moves: Sequence[SimMove]) -> None:
        seat = know.seat
        n = know.players
        nxt = (seat + 1) % n
        self.judges: list[Judge | None] = []
        self.cache: list[BestPlays] = []
        base = know.base
        for claim, card, group in moves:
            judge = None
            if (
                not claim
                and base.plays_left > 1
                and know.hand_sizes[nxt] > 0
                and base.side[nxt] != base.side[seat]
            ):
                table = [c for c in know.table if c not in group]
                if not group:
                    table = sorted([*table, card])
                after = base.copy()
                if group:
                    after.add_captured(base.side[seat], [card, *group])
                after.table = table
                after.turn = nxt
                after.plays_left = base.plays_left - 1
                hand = [c for c in know.hand if c != card]
                sizes = list(know.hand_sizes)
                sizes[seat] -= 1
                judge = Judge(
                    Knowledge(
                        seat=nxt,
                        players=n,
                        hand=(),
                        table=tuple(table),
                        unseen=tuple(sorted({*know.unseen, *hand})),
                        hand_sizes=tuple(sizes),
                        deck_size=know.deck_size,
                        base=after,
                    )
                )
            self.judges.append(judge)
            self.cache.append({})

    def __call__(self, sim: RoundSim, i: int) -> None:
        if self.judges[i] is None or sim.plays_left == 0:
            return
        judge, cache = self.judgement(sim, i)
        hand = sorted(sim.hands[sim.turn])
        play_score, play = self._best_play(cache, judge, tuple(sim.table), hand)
        claim: list[int] | None = None
        if sim.claim_card >= 0 and sim.claim_seat == sim.turn:
            # as Carmen weighs a claim: what it takes plus her best play after
            cc = sim.claim_card
            rest = [c for c in sim.table if c != cc]
            vals = tuple([VALUE[c] for c in rest])
            gain = judge.gain
            for g in index_groups(FIFTEEN - VALUE[cc], vals):
                group = [rest[j] for j in g]
                left = tuple([c for j, c in enumerate(rest) if j not in g])
                score = gain[cc] + sum(gain[c] for c in group) + (0.0 if left else W_ESCOBA)
                follow_score, follow = self._best_play(cache, judge, left, hand)
                if score + follow_score > play_score + 1e-9:
                    play_score, play, claim = score + follow_score, follow, group
        if claim is not None:
            sim.claim(claim)
        sim.play(play[1], play[2])

    def judgement(self, sim: RoundSim, i: int) -> tuple[Judge, BestPlays]:
        """The judgement the next player answers candidate `i` with in
        `sim`, and its memo of best plays: one per candidate, for every
        world alike."""
        judge = self.judges[i]
        assert judge is not None
        return judge, self.cache[i]

    @staticmethod
    def _best_play(
        cache: BestPlays, judge: Judge, table: tuple[int, ...], hand: list[int]
    ) -> tuple[float, SimMove]:
        """Carmen's best play from `hand` on `table`, and its score (kept
        in `cache`, by table and card kind). Under compulsory capture, while
        some card of the hand can capture, only captures count."""
        vals = tuple([VALUE[c] for c in table])
        gain = judge.gain
        must = (
            judge.know.base.rules.compulsory_capture
            and bool(table)
            and any(index_groups(FIFTEEN - VALUE[c], vals) for c in hand)
        )
        best_score = -1e9
        best: SimMove = (False, hand[0], ())
        for card in hand:
            key = (table, VALUE[card], gain[card], must)
            found = cache.get(key)
            if found is None:
                found = (-1e9 if must else judge.play_score(card, [], list(table)), ())
                for g in index_groups(FIFTEEN - VALUE[card], vals) if table else ():
                    s = judge.play_score(card, [table[j] for j in g], list(table))
                    if s > found[0] + 1e-9:
                        found = (s, g)
                cache[key] = found
            if must and not found[1]:
                continue
            if found[0] > best_score + 1e-9:
                best_score = found[0]
                best = (False, card, tuple([table[j] for j in found[1]]))
        return best_score, best
