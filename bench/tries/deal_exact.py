"""The second-to-last deal played as well as Carmen can be answered (a try
of issue 27).

In a two-player round, once the second-to-last deal is dealt, what Luna does
not know is the other hand: three cards or fewer of nine or fewer, a few
dozen hands. Here that deal is searched to its end over all of them: every
hand of the unseen cards, weighed 1 if Carmen's rule holding it would have
made each of her plays of the deal (`eps` if not, `exact_read`), dealt with
`splits` orders of the deck; Carmen answers by her rule exactly, with her
hand known to her and Luna's unseen (the deck and Luna's hand); and Luna
plays each of her moves of the deal as best she can *where she stands*: the
worlds in which her moves so far met the same answers (the same table and
tallies) form one of her information sets, and there she plays the move
whose total over them is highest (an expectimax over her information sets:
no strategy fusion). At the deal's end the last deal is played out by
Carmen's rule for both, as in Luna's playouts. Carmen's judgement is not
added: the search is exact over the hands. Elsewhere she is today's Luna.

What it measures: whether, where the hidden hand is small enough to be
searched whole, a better search than Luna's (one move of hers, Carmen's
answer, Carmen's rule after) chooses better.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from escoba.bots.base import action_of, legal_of, moves_of
from escoba.bots.endgame import known_world
from escoba.bots.inference import past_plays
from escoba.bots.judge import Judge
from escoba.bots.knowledge import Knowledge, knowledge
from escoba.bots.luna import side_value
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine.actions import Action
from escoba.engine.view import View
from research_luna import TunableLuna
from tries.exact_read import consistent
from tries.twostep import Key, _public

World = tuple[float, RoundSim]


class LunaDealExact(TunableLuna):
    def __init__(self, splits: int = 8, eps: float = 0.01, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.splits = splits
        self.eps = eps
        # the decision in hand: Luna's seat and side, Carmen's answers so far
        self.seat = -1
        self.side = -1
        self.answers: dict[tuple[Key, tuple[int, ...], tuple[int, ...]], SimMove] = {}

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = legal_of(view)
        know = knowledge(view)
        if len(legal) == 1 or know.players != 2 or know.deck_size != 6 or known_world(know):
            return super().choose(view, rng)
        worlds = self.worlds(view, know, rng)
        self.seat = know.seat
        self.side = know.base.side[know.seat]
        self.answers = {}
        totals = self.totals(worlds, moves_of(view, legal))
        return legal[max(range(len(legal)), key=totals.__getitem__)]

    def worlds(self, view: View, know: Knowledge, rng: random.Random) -> list[World]:
        """Every hand the other player may hold, weighed by her plays of
        this deal, each with `splits` orders of the deck."""
        other = 1 - know.seat
        plays = past_plays(view, know)
        out: list[World] = []
        for hand in combinations(know.unseen, know.hand_sizes[other]):
            w = 1.0
            for play in plays:
                if not consistent(play, hand):
                    w *= self.eps
            deck = [c for c in know.unseen if c not in hand]
            for _ in range(self.splits):
                sim = know.base.copy()
                sim.hands[other] = list(hand)
                rng.shuffle(deck)
                sim.deck = deck[:]
                out.append((w, sim))
        return out

    def totals(self, worlds: list[World], moves: Sequence[SimMove]) -> list[float]:
        """For each of Luna's `moves` in the information set `worlds`, the
        weighed total of what it makes, her later moves of the deal the
        best in their own information sets."""
        deck = len(worlds[0][1].deck)
        out = []
        for move in moves:
            total = 0.0
            sets: dict[Key, list[World]] = {}
            for w, world in worlds:
                if not w:
                    continue
                sim = world.copy()
                sim.apply(move)
                while not self.done(sim, deck) and sim.turn != self.seat:
                    sim.apply(self.answer(sim))
                if self.done(sim, deck):
                    self.rollout(sim)
                    total += w * side_value(sim, self.side)
                else:
                    sets.setdefault(_public(sim), []).append((w, sim))
            for group in sets.values():
                total += max(self.totals(group, group[0][1].legal_moves()))
            out.append(total)
        return out

    @staticmethod
    def done(sim: RoundSim, deck: int) -> bool:
        """Whether the deal is over (the last one dealt, or the round)."""
        return sim.over or len(sim.deck) != deck

    def answer(self, sim: RoundSim) -> SimMove:
        """Carmen's play in `sim`, by her rule: her hand known, Luna's hand
        and the deck unseen."""
        seat = sim.turn
        hand = tuple(sorted(sim.hands[seat]))
        mine = tuple(sorted(sim.hands[self.seat]))
        key = (_public(sim), hand, mine)
        found = self.answers.get(key)
        if found is None:
            know = Knowledge(
                seat=seat,
                players=sim.n,
                hand=hand,
                table=tuple(sim.table),
                unseen=tuple(sorted({*sim.deck, *mine})),
                hand_sizes=tuple(len(h) for h in sim.hands),
                deck_size=len(sim.deck),
                base=sim,
            )
            judge = Judge(know)
            best = -1e9
            for move in sim.legal_moves():
                score = judge.score(action_of(move))
                if score > best + 1e-9:
                    best, found = score, move
            assert found is not None
            self.answers[key] = found
        return found
