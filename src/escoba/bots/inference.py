"""Reading the other players' hands from their plays in the current deal.

Uniform worlds treat every unseen card alike, but the plays of this deal say
more: a player who left a table that a card would have swept probably lacks
that card, one who let the 7 of diamonds lie probably could not take it. We
score that with an opponent model, Carmen's judgement, softened: a player
picks each action with probability proportional to `exp(beta * score)`. Then
the likelihood of the plays seen this deal, given a guess of a player's hand,
is a product over their plays, each the observed action's weight over the sum
of the weights of every action the guessed hand offered then.

The hand a player held at an earlier play of this deal is their present
(hidden) hand plus the cards they have played since, so the likelihood is a
function of the present hand alone. For each past play we precompute, for
every card the player might hold, the summed weight of its actions (`E[c]`
below, relative to the observed action's weight); the likelihood of a guessed
hand is then the product over plays of `1 / (known + sum of E[c] over the
guess)`, a handful of additions per guess.

`PosteriorSampler` draws a pool of uniform deals of the unseen cards,
weighs each by that likelihood, and samples worlds from the pool by weight
(sampling-importance-resampling), dealing the rest of the unseen cards to the
deck afresh each time: the search then spends its playouts on the hands the
plays point at. Only public facts enter (the plays, the table, the tallies):
the hidden cards are never read.

Carmen's judgement is taken from the acting player's side of the table at the
moment of the play, rebuilt from the view: the table before the play (undoing
the deal's later plays), the tallies then, the hand sizes then. Her estimate
of the reply uses the cards unseen by that player; we approximate those by
the cards unseen by both (their own hidden hand is counted as unseen too),
which moves her numbers only slightly.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from escoba.bots.judge import Judge
from escoba.bots.knowledge import Knowledge, shuffle, shuffle_tail
from escoba.bots.sim import RoundSim
from escoba.engine.captures import index_groups
from escoba.engine.cards import FIFTEEN, VALUE
from escoba.engine.rules import HAND_SIZE
from escoba.engine.view import View

#: Sharpness of the opponent model: score differences are in round points,
#: so at 6 an action worse by 0.25 points is ~4.5 times less likely.
BETA = 25.0
#: Uniform deals weighed per decision.
POOL = 256


@dataclass(frozen=True, slots=True)
class Observation:
    """One past play of `seat` in this deal. `known` is the summed relative
    weight of the actions of the cards the seat has played since (and this
    one); `weight[c]` that of card `c`, for every card they may hold now."""

    seat: int
    known: float
    weight: dict[int, float]


def _public_sim(v: View, upto: int) -> RoundSim:
    """The public tallies before `v.history[upto]`."""
    sim = RoundSim.empty(v.players, v.rules)
    if v.table_take is not None:
        side = sim.side[v.table_take.seat]
        sim.add_captured(side, [int(c) for c in v.table_take.cards])
    for a in v.history[:upto]:
        if a.cards:
            taken = [int(c) for c in a.cards]
            if a.kind == "play":
                taken.append(int(a.card))
            sim.add_captured(sim.side[a.seat], taken)
    return sim


def tables_before_plays(v: View) -> dict[int, list[int]]:
    """The table (sorted) before each play of the current deal, by index in
    `v.history`: the present table with the deal's steps undone, last first."""
    hist = v.history
    plays_needed = sum(HAND_SIZE - s.hand_size for s in v.seats)
    table = [int(c) for c in v.table]
    tables: dict[int, list[int]] = {}
    i = len(hist)
    done = 0
    while done < plays_needed and i > 0:
        i -= 1
        a = hist[i]
        if a.kind == "play":
            done += 1
            if a.cards:
                table.extend(int(c) for c in a.cards)
            else:
                table.remove(int(a.card))
            tables[i] = sorted(table)
        else:
            table.extend(int(c) for c in a.cards)
    return tables


@dataclass(frozen=True, slots=True)
class PastPlay:
    """A play of another seat in this deal, as that seat saw it: its
    knowledge then (`know`, with the cards of its own hand counted unseen,
    as they are by us), the cards it has played since (`own`), and the play
    (`card`, capturing `capture` from `know.table`)."""

    know: Knowledge
    own: tuple[int, ...]
    card: int
    capture: tuple[int, ...]


def past_plays(v: View, know: Knowledge) -> list[PastPlay]:
    """The plays of the other seats in the current deal, in order."""
    hist = v.history
    tables = tables_before_plays(v)
    unseen_now = set(know.unseen)
    mine = {int(c) for c in v.hand}
    out: list[PastPlay] = []
    for idx in sorted(tables):
        a = hist[idx]
        seat = a.seat
        if seat == know.seat:
            continue
        later = hist[idx:]
        played_since = [x for x in later if x.kind == "play"]
        sim = _public_sim(v, idx)
        sim.table = tables[idx]
        sim.turn = seat
        sim.dealer = v.dealer
        sim.plays_left = know.base.plays_left + len(played_since)
        sizes = list(know.hand_sizes)
        for x in played_since:
            sizes[x.seat] += 1
        unseen = unseen_now | mine | {int(x.card) for x in played_since if x.seat != seat}
        past = Knowledge(
            seat=seat,
            players=v.players,
            hand=(),
            table=tuple(tables[idx]),
            unseen=tuple(sorted(unseen)),
            hand_sizes=tuple(sizes),
            deck_size=v.deck_size,
            base=sim,
        )
        own = tuple(int(x.card) for x in played_since if x.seat == seat)
        out.append(PastPlay(past, own, int(a.card), tuple(int(c) for c in a.cards)))
    return out


def observations(v: View, know: Knowledge, beta: float = BETA) -> list[Observation]:
    """The plays of the other seats in the current deal, as likelihood terms
    over their present hands."""
    unseen_now = list(know.unseen)
    out: list[Observation] = []
    for p in past_plays(v, know):
        judge = Judge(p.know)
        table = list(p.know.table)
        observed = judge.play_score(p.card, list(p.capture), table)
        rel = _relative_weights(judge, table, observed, beta, [*p.own, *unseen_now])
        known = sum(rel[c] for c in p.own)
        out.append(Observation(p.know.seat, known, {c: rel[c] for c in unseen_now}))
    return out


def _relative_weights(
    judge: Judge, table: list[int], observed: float, beta: float, cards: list[int]
) -> dict[int, float]:
    """For each card, the summed weight `exp(beta * (score - observed))` of
    the actions it offered on `table`."""
    vals = tuple(VALUE[c] for c in table)
    by_kind: dict[tuple[int, float], float] = {}
    out: dict[int, float] = {}
    for card in cards:
        # cards of one value and one worth score alike: work each out once
        key = (VALUE[card], judge.gain[card])
        total = by_kind.get(key)
        if total is None:
            total = math.exp(min(50.0, beta * (judge.play_score(card, [], table) - observed)))
            for g in index_groups(FIFTEEN - VALUE[card], vals) if table else ():
                s = judge.play_score(card, [table[j] for j in g], table)
                total += math.exp(min(50.0, beta * (s - observed)))
            by_kind[key] = total
        out[card] = total
    return out


class PosteriorSampler:
    """Worlds drawn in proportion to the likelihood of the plays observed
    this deal (see the module's docstring). With no observation it is the
    uniform `Knowledge.sample`."""

    def __init__(
        self,
        know: Knowledge,
        obs: list[Observation],
        rng: random.Random,
        pool: int = POOL,
        hands_only: bool = False,
    ) -> None:
        """`hands_only`: the deck's order is never read (a search that stops
        at the end of the current deal): the pool draws the hidden hands
        alone (the last cards of a shuffle cut short, as likely as a whole
        shuffle's first), and a world's deck is the rest of the unseen
        cards in their order, unshuffled; else each deal is a whole shuffle
        (`knowledge.shuffle`) and each world's deck is shuffled afresh."""
        self.know = know
        self.hands_only = hands_only
        self.obs = obs
        self.hidden = [s for s in range(know.players) if s != know.seat]
        self.deals: list[list[list[int]]] = []
        self.cum: list[float] = []
        if not self.evidence():
            return
        unseen = list(know.unseen)
        sizes = know.hand_sizes
        # `weighed` with each seat's observations found once for the whole
        # pool (a subclass's own `weighed` is called as it is)
        own = type(self).weighed is not PosteriorSampler.weighed
        terms = [[(o.known, o.weight) for o in obs if o.seat == s] for s in self.hidden]
        total = 0.0
        drawn = sum(sizes[s] for s in self.hidden)
        first = len(unseen) - drawn if hands_only else 0
        if hands_only and not own:
            self._hands_pool(unseen, drawn, terms, pool, rng)
            return
        for _ in range(pool):
            if hands_only:
                shuffle_tail(unseen, drawn, rng)
            else:
                shuffle(unseen, rng)
            hands: list[list[int]] = []
            pos = first
            w = 1.0
            for s, seen in zip(self.hidden, terms, strict=True):
                hand = unseen[pos : pos + sizes[s]]
                pos += sizes[s]
                hands.append(hand)
                if own:
                    w = self.weighed(w, s, hand)
                    continue
                for known, wt in seen:
                    w /= known + sum([wt[c] for c in hand])
            total += w
            self.deals.append(hands)
            self.cum.append(total)

    def _hands_pool(
        self,
        unseen: list[int],
        drawn: int,
        terms: list[list[tuple[float, dict[int, float]]]],
        pool: int,
        rng: random.Random,
    ) -> None:
        """The pool of `hands_only` (`__init__`'s loop, the same deals and
        weights): `shuffle_tail` inline, each seat's slice of the drawn
        cards and its observations' weights by card number found once."""
        n = len(unseen)
        steps = [(i, i + 1, (i + 1).bit_length()) for i in range(n - 1, max(n - 1 - drawn, 0), -1)]
        slices = []
        pos = n - drawn
        for s, seen in zip(self.hidden, terms, strict=True):
            size = self.know.hand_sizes[s]
            by_card = []
            for known, weight in seen:
                table = [0.0] * 40
                for c, x in weight.items():
                    table[c] = x
                by_card.append((known, table.__getitem__))
            slices.append((pos, pos + size, by_card))
            pos += size
        getrandbits = rng.getrandbits
        deals = self.deals
        cum = self.cum
        total = 0.0
        for _ in range(pool):
            for i, m, b in steps:
                j = getrandbits(b)
                while j >= m:
                    j = getrandbits(b)
                unseen[i], unseen[j] = unseen[j], unseen[i]
            hands = []
            w = 1.0
            for a, e, by_card in slices:
                hand = unseen[a:e]
                hands.append(hand)
                for known, weight_of in by_card:
                    w /= known + sum(map(weight_of, hand))
            total += w
            deals.append(hands)
            cum.append(total)

    def evidence(self) -> bool:
        """Whether any play weighs the worlds (else they are uniform)."""
        return bool(self.obs)

    def weighed(self, w: float, seat: int, hand: list[int]) -> float:
        """`w` times the likelihood of `seat`'s plays of this deal, were
        `hand` its hand now."""
        for o in self.obs:
            if o.seat == seat:
                wt = o.weight
                w /= o.known + sum(wt[c] for c in hand)
        return w

    def sample(self, rng: random.Random) -> RoundSim:
        know = self.know
        if not self.deals:
            if not self.hands_only:
                return know.sample(rng)
            cards = list(know.unseen)
            drawn = sum(know.hand_sizes[s] for s in self.hidden)
            shuffle_tail(cards, drawn, rng)
            sim = know.base.copy()
            pos = len(cards) - drawn
            for s in self.hidden:
                k = know.hand_sizes[s]
                sim.hands[s] = cards[pos : pos + k]
                pos += k
            sim.deck = cards[: len(cards) - drawn]
            return sim
        (hands,) = rng.choices(self.deals, cum_weights=self.cum)
        sim = know.base.copy()
        held: set[int] = set()
        for s, hand in zip(self.hidden, hands, strict=True):
            sim.hands[s] = hand[:]
            held.update(hand)
        deck = [c for c in know.unseen if c not in held]
        if not self.hands_only:
            shuffle(deck, rng)
        sim.deck = deck
        return sim

    def value_odds(self, seat: int) -> list[float] | None:
        """For each value 1..10 (index 0 unused), the posterior chance that
        `seat` holds at least one card of it; None without observations."""
        if not self.deals:
            return None
        k = self.hidden.index(seat)
        odds = [0.0] * 11
        prev = 0.0
        for hands, cum in zip(self.deals, self.cum, strict=True):
            w = cum - prev
            prev = cum
            for x in {VALUE[c] for c in hands[k]}:
                odds[x] += w
        return [o / prev for o in odds]
