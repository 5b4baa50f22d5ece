"""The policy that plays rounds out in Luna's search and the analysis, and
the estimate of a round not played to its end.

`careful_playout`, Luna's since 2026-12-01, is Carmen's rule on the sim
(`careful_move`): what a play takes, by the sim's price list (`sim.gain`:
`worth.CARD_GAIN` under the site's rules), less what the next player can
expect to take from the table it leaves, each card value weighed by the
chance that player holds it as seen from the mover's seat (nobody peeks).
Under compulsory capture a card is left only when none can capture. The
quicker greedy playouts of her research are bench/playouts.py's.
`expected_points` scores a round cut short.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, erf
from typing import Final

from escoba.bots.judge import claim_first, expected_best
from escoba.bots.sim import RoundSim, SimMove
from escoba.bots.worth import W_ESCOBA
from escoba.engine.captures import index_groups
from escoba.engine.cards import FIFTEEN, VALUE
from escoba.engine.rules import HAND_SIZE


def best_claim(sim: RoundSim, gain: Sequence[float] | None = None) -> SimMove | None:
    """The most valuable «LLEVAR EL 15» open to the seat on turn, if any, by
    `gain` (the sim's price list by default)."""
    cc = sim.claim_card
    if cc < 0 or sim.claim_seat != sim.turn:
        return None
    rest = [c for c in sim.table if c != cc]
    groups = index_groups(FIFTEEN - VALUE[cc], tuple([VALUE[c] for c in rest]))
    if not groups:
        return None
    best_score = -1e9
    best: SimMove | None = None
    if gain is None:
        gain = sim.gain
    for g in groups:
        score = gain[cc] + sum(gain[rest[i]] for i in g)
        if len(g) == len(rest):
            score += W_ESCOBA
        if score > best_score:
            best_score = score
            best = (True, cc, tuple([rest[i] for i in g]))
    return best


#: HOLDS[u][k][h]: the chance that a hand of h cards drawn from u unknown
#: cards, k of them of some value, holds at least one card of that value.
HOLDS: Final[tuple[tuple[tuple[float, ...], ...], ...]] = tuple(
    tuple(
        tuple(
            1.0 - comb(u - k, h) / comb(u, h) if 0 <= k <= u and h <= u else 0.0
            for h in range(HAND_SIZE + 1)
        )
        for k in range(5)
    )
    for u in range(41)
)


def careful_move(sim: RoundSim, unplayed: list[int], unplayed_gain: list[float]) -> SimMove:
    """Carmen's rule on a sim (`judge.Judge.play_score`, from the mover's
    seat, with the sim's price list): what a play takes, less what the next
    player can expect to take from the table it leaves, each card value
    weighed by the chance that player holds it and by the capture it would
    make, sweeps above all. Three times slower than the quick
    `probable_move` (bench/playouts.py), and a far closer picture of a
    careful player: it makes Carmen's choice in nine positions of ten,
    where `probable_move` makes it in eight.
    `unplayed[x]` counts the cards of value x still in hands or deck,
    `unplayed_gain[x]` sums their worth."""
    if sim.claim_card >= 0:
        claim = best_claim(sim)
        if claim is not None:
            return claim
    options, must, only = options_of(sim)
    if only is not None:
        return only  # one move only: nothing to weigh
    seat = sim.turn
    hand = sim.hands[seat]
    gain = sim.gain
    plays_left = sim.plays_left
    odds: list[tuple[int, float, float]] = []  # (value, chance held, mean worth)
    if plays_left > 1:
        nxt = (seat + 1) % sim.n
        h = len(sim.hands[nxt]) or (HAND_SIZE if sim.deck else 0)
        u = plays_left - len(hand)
        if h and u:
            holds = HOLDS[u]
            hh = min(h, u)
            mine = [0] * 11
            mine_gain = [0.0] * 11
            for c in hand:
                mine[VALUE[c]] += 1
                mine_gain[VALUE[c]] += gain[c]
            for x in range(1, 11):
                k = unplayed[x] - mine[x]
                if k > 0:
                    odds.append((x, holds[k][hh], (unplayed_gain[x] - mine_gain[x]) / k))
    return best_weighed(sim.table, options, must, gain, odds, plays_left == 1)


#: The mover's cards in hand order, each with the groups of places on the
#: table it takes (`engine.captures.index_groups`).
Options = list[tuple[int, Sequence[tuple[int, ...]]]]


def options_of(sim: RoundSim) -> tuple[Options, bool, SimMove | None]:
    """The options of the seat on turn; whether a take is compulsory (a
    house rule) and one is open; and the move, when there is only one (a
    last card that takes one way, or nothing)."""
    hand = sim.hands[sim.turn]
    table = sim.table
    vals = tuple([VALUE[c] for c in table])
    options: Options = [
        (card, index_groups(FIFTEEN - VALUE[card], vals) if table else ()) for card in hand
    ]
    must = sim.rules.compulsory_capture and any(groups for _, groups in options)
    if len(hand) == 1 and (not options[0][1] or (must and len(options[0][1]) == 1)):
        card, groups = options[0]
        return options, must, (False, card, tuple([table[i] for i in groups[0]]) if groups else ())
    return options, must, None


def best_weighed(
    table: Sequence[int],
    options: Options,
    must: bool,
    gain: Sequence[float],
    odds: Sequence[tuple[int, float, float]],
    last_play: bool,
    reply: float = 1.0,
    stake: float = 0.0,
) -> SimMove:
    """Carmen's rule's choice among `options` on `table`: what a play takes
    by `gain` (a sweep's escoba above all; on the round's last play, the
    table left too), less `reply` times what the next player is expected to
    take from the table it leaves (`expected_reply` with `odds`); `stake`:
    the share of a table left before the last deal counted as the mover's
    (0: none, Carmen's rule)."""
    best_score = -1e9
    best: SimMove = (False, options[0][0], ())
    for card, groups in options:
        if not must:
            score = -reply * expected_reply(
                tuple(sorted([*table, card])), card if groups else -1, odds, gain
            )
            if score > best_score + 1e-9:
                best_score = score
                best = (False, card, ())
        for g in groups:
            score = gain[card]
            left = list(table)
            for i in reversed(g):
                score += gain[left.pop(i)]
            if not left:
                score += W_ESCOBA
            elif last_play:
                score += sum([gain[c] for c in left])
            else:
                if stake:
                    score += stake * sum([gain[c] for c in left])
                if odds:
                    score -= reply * expected_reply(tuple(left), -1, odds, gain)
            if score > best_score + 1e-9:
                best_score = score
                best = (False, card, tuple([table[i] for i in g]))
    return best


#: (table, the price list's id) → for each card value x, the most a card of
#: value x takes from that table (its cards' worth, plus the escoba when it
#: sweeps), or 0.0: nothing. A price list is named by its id, so it must live
#: as long as the process (those of `worth` do).
_TAKES: dict[tuple[tuple[int, ...], int], tuple[float, ...]] = {}
_TAKES_LIMIT = 100_000


def _takes(table: tuple[int, ...], gain: Sequence[float]) -> tuple[float, ...]:
    """`_TAKES` of `table` under `gain`, a price list that lives as long as
    the process (`worth.gains_for`'s)."""
    key = (table, id(gain))
    found = _TAKES.get(key)
    if found is None:
        vals = tuple([VALUE[c] for c in table])
        n = len(table)
        out = [0.0] * 11
        # no group of the table sums past its total: a card of value x
        # takes nothing below 15 - total
        for x in range(max(1, FIFTEEN - sum(vals)), 11):
            for g in index_groups(FIFTEEN - x, vals):
                worth = sum([gain[table[i]] for i in g]) + (W_ESCOBA if len(g) == n else 0.0)
                if worth > out[x]:
                    out[x] = worth
        if len(_TAKES) >= _TAKES_LIMIT:
            _TAKES.clear()
        found = _TAKES[key] = tuple(out)
    return found


#: (table, left card, the price list's id) → `judge.claim_first` of them,
#: the table it leaves as a tuple.
_CLAIMS: dict[tuple[tuple[int, ...], int, int], tuple[float, tuple[int, ...]]] = {}


def expected_reply(
    table: tuple[int, ...],
    claimable: int,
    odds: Sequence[tuple[int, float, float]],
    gain: Sequence[float],
) -> float:
    """What the next player can expect to take from `table` (`Judge._reply`):
    a claim on `claimable` (-1: none) first, then the best capture of each
    value they may hold, the most valuable counted first."""
    if not odds:
        return 0.0
    prices = id(gain)
    claim_gain = 0.0
    if claimable >= 0:
        key = (table, claimable, prices)
        claimed = _CLAIMS.get(key)
        if claimed is None:
            first, rest = claim_first(table, claimable, gain)
            if len(_CLAIMS) >= _TAKES_LIMIT:
                _CLAIMS.clear()
            claimed = _CLAIMS[key] = (first, tuple(rest))
        claim_gain, table = claimed
        if not table:
            return claim_gain
    takes = _TAKES.get((table, prices)) or _takes(table, gain)
    return claim_gain + expected_best([(avg + t, p) for x, p, avg in odds if (t := takes[x]) > 0.0])


def unplayed_of(sim: RoundSim) -> tuple[list[int], list[float]]:
    """The count and the summed worth of the cards of each value still in
    hands or deck."""
    count = [0] * 11
    worth = [0.0] * 11
    gain = sim.gain
    for cards in (*sim.hands, sim.deck):
        for c in cards:
            count[VALUE[c]] += 1
            worth[VALUE[c]] += gain[c]
    return count, worth


#: (the price list's id, compulsory capture) → (the mover's hand in order,
#: the table, the card that may be claimed (-1: none), the cards still in
#: hands or deck as a bit set, the next player's hand size) → `careful_move`
#: there. Those are all the move depends on: the counts and worths of the
#: cards unplayed are a function of the bit set, the plays left its size.
#: A search replays the same positions in world after world and candidate
#: after candidate: half to two thirds of the moves of a round's analysis
#: are found here, nearly all from the same decision (issue 35), so a small
#: memo, emptied when full, loses nothing measurable (25,000 moves, about
#: 12 MB).
_CAREFUL: dict[
    tuple[int, bool], dict[tuple[tuple[int, ...], tuple[int, ...], int, int, int], SimMove]
]
_CAREFUL = {}
_CAREFUL_LIMIT = 25_000


def careful_playout(sim: RoundSim, stop: int = 0) -> None:
    """Play the round on, every seat by `careful_move`, until `stop` plays
    are left (0: to its end). The moves are memoised (`_CAREFUL`): the same
    moves as without the memo (bench/playouts.py keeps that playout, the
    reference of a differential test), at a fraction of the work."""
    count, worth = unplayed_of(sim)
    gain = sim.gain
    memo = _CAREFUL.get((id(gain), sim.rules.compulsory_capture))
    if memo is None:
        memo = _CAREFUL[(id(gain), sim.rules.compulsory_capture)] = {}
    unplayed = 0
    for cards in (*sim.hands, sim.deck):
        for c in cards:
            unplayed |= 1 << c
    hands = sim.hands
    n = sim.n
    while sim.plays_left > stop:
        turn = sim.turn
        nxt_hand = len(hands[(turn + 1) % n]) or (HAND_SIZE if sim.deck else 0)
        claim = sim.claim_card if sim.claim_seat == turn else -1
        key = (tuple(hands[turn]), tuple(sim.table), claim, unplayed, nxt_hand)
        move = memo.get(key)
        if move is None:
            move = careful_move(sim, count, worth)
            if len(memo) >= _CAREFUL_LIMIT:
                memo.clear()
            memo[key] = move
        if not move[0]:
            card = move[1]
            count[VALUE[card]] -= 1
            worth[VALUE[card]] -= gain[card]
            unplayed &= ~(1 << card)
        sim.apply(move)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + erf(x * 0.7071067811865476))


def _majority(counts: list[int], total: int, side: int) -> float:
    """The chance that `side` ends with strictly the most of an item of
    `total` cards, by a normal estimate: the unclaimed cards move the lead by
    about one each, so its spread grows like their square root."""
    left = total - sum(counts)
    lead = counts[side] - max(c for s, c in enumerate(counts) if s != side)
    if left == 0 or abs(lead) > left:
        return 1.0 if lead > 0 else 0.0
    return _phi(lead / (left**0.5))


def expected_points(sim: RoundSim) -> list[float]:
    """Each side's expected round points from a position not yet played out:
    escobas as they stand, the 7 of diamonds if taken (else a fair share),
    and each majority by `_majority`. The double points (all ten diamonds,
    all four sevens, the other sides under ten cards) are left out: rare, and
    near the end of a round the majorities are decided anyway."""
    nsides = sim.nsides
    out = [float(e) for e in sim.escobas]
    for s in range(nsides):
        out[s] += _majority(sim.cards, 40, s)
        out[s] += _majority(sim.diamonds, 10, s)
        out[s] += _majority(sim.sevens, 4, s)
        if sim.seven_d == s:
            out[s] += 1.0
        elif sim.seven_d < 0:
            out[s] += 1.0 / nsides
    return out
