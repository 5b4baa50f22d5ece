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

from bisect import insort
from collections.abc import Sequence
from math import comb, erf
from typing import Any, Final

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
    `unplayed_gain[x]` sums their worth.

    It is `options_of` and `best_weighed` (Carmen's rule, `reply` 1 and no
    `stake`) in one loop, the next player's odds kept by card value and
    each table's takes listed by the values that take something
    (`_positive_takes`): the same move, every figure summed in the same
    order, at about half the cost (issue 35; bench/playouts.py's
    `careful_move_reference` is the two functions, and a differential test
    holds this one to it)."""
    if sim.claim_card >= 0:
        claim = best_claim(sim)
        if claim is not None:
            return claim
    seat = sim.turn
    hand = sim.hands[seat]
    table = sim.table
    gain = sim.gain
    if table:
        vals = tuple([VALUE[c] for c in table])
        options = [(card, index_groups(FIFTEEN - VALUE[card], vals)) for card in hand]
    else:
        options = [(card, ()) for card in hand]
    must = sim.rules.compulsory_capture and any([groups for _, groups in options])
    if len(hand) == 1:
        card, groups = options[0]
        if not groups:
            return (False, card, ())
        if must and len(groups) == 1:
            return (False, card, tuple([table[i] for i in groups[0]]))
    plays_left = sim.plays_left
    # odds[x]: (the chance the next player holds a card of value x, the mean
    # worth of those cards), or None: none unplayed outside the mover's hand
    odds: list[tuple[float, float] | None] | None = None
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
            odds = [None] * 11
            for x in range(1, 11):
                k = unplayed[x] - mine[x]
                if k > 0:
                    odds[x] = (holds[k][hh], (unplayed_gain[x] - mine_gain[x]) / k)
            if not any(odds):
                odds = None
    last_play = plays_left == 1
    # every option in order: [score, move, the table left for the reply
    # (None: the score is final), the card open to a claim]
    scored: list[_Option] = []
    for card, groups in options:
        if not must:
            if odds is None:
                scored.append([-0.0, (False, card, ()), None, -1])
            else:
                laid = list(table)
                insort(laid, card)
                scored.append([0.0, (False, card, ()), tuple(laid), card if groups else -1])
        for g in groups:
            score = gain[card]
            left = list(table)
            for i in reversed(g):
                score += gain[left.pop(i)]
            taken = tuple([table[i] for i in g])
            if not left:
                scored.append([score + W_ESCOBA, (False, card, taken), None, -1])
            elif last_play:
                scored.append(
                    [score + sum([gain[c] for c in left]), (False, card, taken), None, -1]
                )
            elif odds is not None:
                scored.append([score, (False, card, taken), tuple(left), -1])
            else:
                scored.append([score, (False, card, taken), None, -1])
    if odds is not None:
        # The reply is worked out best bound first, and not at all for an
        # option that cannot come near the best: its score (its take less
        # the reply, never more than the take) is below another's by more
        # than the rule's tolerances add up to, so it never becomes the best
        # choice in the loop below, nor changes which option does.
        top = max([o[0] for o in scored if o[2] is None], default=-1e9)
        for o in sorted([o for o in scored if o[2] is not None], key=_bound, reverse=True):
            if o[0] < top - _FAR:
                o[0] = -1e9
            else:
                o[0] -= _reply(o[2], o[3], odds, gain, id(gain))
                if o[0] > top:
                    top = o[0]
    best_score = -1e9
    best: SimMove = (False, options[0][0], ())
    for score, move, _, _ in scored:
        if score > best_score + 1e-9:
            best_score = score
            best = move
    return best


#: An option of `careful_move`: [score (a bound while the reply is not yet
#: taken off), move, the table the reply is weighed on (None: the score is
#: final), the card open to a claim on it (-1: none)].
_Option = list[Any]


def _bound(option: _Option) -> float:
    return float(option[0])


#: How far below another option's score an option's bound must be for
#: `careful_move` to leave it out: far more than the 1e-9 by which a later
#: option must beat an earlier one, times any number of options.
_FAR = 1e-6


def _claimed(
    table: tuple[int, ...], claimable: int, gain: Sequence[float], prices: int
) -> tuple[float, tuple[int, ...]]:
    """The next player's claim on `claimable` first (`claim_first`): what it
    gains and the table it leaves, kept by table and prices (`_CLAIMS`)."""
    key = (table, claimable, prices)
    claimed = _CLAIMS.get(key)
    if claimed is None:
        first, rest = claim_first(table, claimable, gain)
        if len(_CLAIMS) >= _TAKES_LIMIT:
            _CLAIMS.clear()
        claimed = _CLAIMS[key] = (first, tuple(rest))
    return claimed


def _reply(
    table: tuple[int, ...],
    claimable: int,
    odds: list[tuple[float, float] | None],
    gain: Sequence[float],
    prices: int,
) -> float:
    """`expected_reply` with the odds by card value (`careful_move`'s): the
    same figure."""
    claim_gain = 0.0
    if claimable >= 0:
        claim_gain, table = _claimed(table, claimable, gain, prices)
        if not table:
            return claim_gain
    takes = _POSITIVE.get((table, prices))
    if takes is None:
        takes = _positive_takes(table, gain)
    options = [(o[1] + t, o[0]) for x, t in takes if (o := odds[x]) is not None]
    # judge.expected_best, inline
    options.sort(reverse=True)
    expected = 0.0
    none_better = 1.0
    for worth, p in options:
        expected += worth * p * none_better
        none_better *= 1.0 - p
    return claim_gain + expected


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


#: (table, the price list's id) → `_TAKES` of the table as (value, take)
#: pairs, the values that take something only, in ascending order.
_POSITIVE: dict[tuple[tuple[int, ...], int], tuple[tuple[int, float], ...]] = {}


def _positive_takes(table: tuple[int, ...], gain: Sequence[float]) -> tuple[tuple[int, float], ...]:
    """`_POSITIVE`'s entry for `table` under `gain`."""
    takes = _TAKES.get((table, id(gain))) or _takes(table, gain)
    if len(_POSITIVE) >= _TAKES_LIMIT:
        _POSITIVE.clear()
    found = _POSITIVE[(table, id(gain))] = tuple([(x, t) for x, t in enumerate(takes) if t > 0.0])
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
        claim_gain, table = _claimed(table, claimable, gain, prices)
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
