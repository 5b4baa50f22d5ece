"""The policies that play rounds out in a robot's search, and the estimate
of a round not played to its end.

The quick ones are greedy players: the capture worth the most (the sim's
price list, `sim.gain`: `worth.CARD_GAIN` under the site's rules), and never
(if it can help it) a table that sums 5 to 14 for the next player, who could
then sweep it with one card — at a flat risk (`greedy_move`), only when that
player holds the card in the world (`informed_move`), or by the chance they
hold it as seen from the mover's seat (`probable_move`). The careful one,
Luna's since 2026-12-01, is Carmen's rule on the sim (`careful_move`): it
weighs every capture the next player could make, not only sweeps, at about
four times the cost. Under compulsory capture a card is left only when none
can capture.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb, erf
from typing import Final

from escoba.bots.judge import claim_first, expected_best
from escoba.bots.sim import Move, RoundSim
from escoba.bots.worth import W_ESCOBA
from escoba.engine.captures import index_groups
from escoba.engine.cards import FIFTEEN, VALUE
from escoba.engine.rules import HAND_SIZE

#: What leaving a table of 5..14 costs: the next player sweeps it with the one
#: value that makes 15, if they hold it.
W_SWEEP_RISK: Final = 0.7
#: No table sum is at risk: a last play, or a policy that does not look.
NO_RISK: Final[tuple[float, ...]] = (0.0,) * 16
#: Every table sum of 5..14 at the flat `W_SWEEP_RISK`.
FLAT_RISK: Final[tuple[float, ...]] = tuple(
    W_SWEEP_RISK if 5 <= s <= 14 else 0.0 for s in range(16)
)


def greedy_move(sim: RoundSim, avoid_sweeps: bool = True) -> Move:
    """The best immediate move for the seat on turn by `CARD_GAIN`, counting
    the escoba, and (with `avoid_sweeps`) the flat risk `W_SWEEP_RISK` of
    leaving a sweepable table. A claim («LLEVAR EL 15») is a free capture:
    taken whenever open."""
    claim = best_claim(sim)
    if claim is not None:
        return claim
    risky = avoid_sweeps and sim.plays_left > 1
    return _weighed_move(sim, sim.hands[sim.turn], FLAT_RISK if risky else NO_RISK, 1.0, 0.0)


def best_claim(sim: RoundSim, gain: Sequence[float] | None = None) -> Move | None:
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
    best: Move | None = None
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


def _play_on(sim: RoundSim, stop: int, policy: Callable[[RoundSim], Move]) -> None:
    """Play the round on, every seat by `policy`, until `stop` plays are left
    (0: to its end)."""
    while sim.plays_left > stop:
        sim.apply(policy(sim))


def playout(sim: RoundSim, stop: int = 0) -> None:
    """Play the round on by `greedy_move` until `stop` plays are left."""
    _play_on(sim, stop, greedy_move)


def _next_hand(sim: RoundSim, seat: int) -> list[int]:
    """The hand the next seat will play from after `seat` plays a card: its
    present hand, or, when this play ends the deal, its cards of the next deal
    (known in a sampled world)."""
    n = sim.n
    nxt = (seat + 1) % n
    hand = sim.hands[nxt]
    if hand or len(sim.hands[seat]) != 1 or any(sim.hands[s] for s in range(n) if s != seat):
        return hand
    k = (nxt - sim.dealer - 1) % n
    return sim.deck[HAND_SIZE * k : HAND_SIZE * k + HAND_SIZE]


def informed_move(sim: RoundSim) -> Move:
    """Like `greedy_move`, but a sweep risk counts only when the next player
    really holds (in this world) the card that sweeps, and then at its full
    worth: the escoba and the cards. Rollouts in a sampled world may use the
    world's cards: that world is what is being scored."""
    claim = best_claim(sim)
    if claim is not None:
        return claim
    seat = sim.turn
    threat = [0.0] * 16
    if sim.plays_left > 1:
        for c in _next_hand(sim, seat):
            threat[FIFTEEN - VALUE[c]] = 1.0
    return _weighed_move(sim, sim.hands[seat], threat, W_ESCOBA, 0.15)


def _weighed_move(
    sim: RoundSim, hand: list[int], risk: Sequence[float], per_sweep: float, per_card: float
) -> Move:
    """The best play of `hand` on the sim's table by `sim.gain`, counting the
    escoba, where leaving a table of sum s (5..14) with k cards costs
    `risk[s]` times what the next player's sweep would take:
    `per_sweep + per_card * k`. Under compulsory capture a card is left only
    when no card of the hand can capture."""
    gain = sim.gain
    table = sim.table
    must_capture = sim.rules.compulsory_capture
    vals = tuple([VALUE[c] for c in table])
    tsum = sum(vals)
    ntable = len(table)
    best_score = -1e9
    best: Move = (False, hand[0], ())
    captured = False
    for card in hand:
        v = VALUE[card]
        if ntable:
            groups = index_groups(FIFTEEN - v, vals)
            if groups:
                captured = True
                rest = tsum + v - FIFTEEN
                for g in groups:
                    score = gain[card]
                    for i in g:
                        score += gain[table[i]]
                    if len(g) == ntable:
                        score += W_ESCOBA
                    elif 5 <= rest <= 14:
                        score -= risk[rest] * (per_sweep + per_card * (ntable - len(g)))
                    if score > best_score or (must_capture and not best[2]):
                        best_score = score
                        best = (False, card, tuple([table[i] for i in g]))
        if must_capture and captured:
            continue
        score = -0.5 * gain[card]
        s = tsum + v
        if 5 <= s <= 14:
            score -= risk[s] * (per_sweep + per_card * (ntable + 1))
        if score > best_score:
            best_score = score
            best = (False, card, ())
    return best


def informed_playout(sim: RoundSim, stop: int = 0) -> None:
    """Play the round on by `informed_move` until `stop` plays are left."""
    _play_on(sim, stop, informed_move)


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


def probable_move(sim: RoundSim, unplayed: list[int]) -> Move:
    """Like `informed_move`, but the sweep risk is weighed by the chance,
    from the mover's side of the table, that the next player holds the
    sweeping value: the cards the mover cannot see are the other hands and
    the deck. Nobody peeks, as in a real game, so a playout neither counts on
    a lucky reply that a careful player would never leave nor credits the
    searcher with later plays that only a seer would find. `unplayed[x]`
    counts the cards of value x still in hands or deck."""
    claim = best_claim(sim)
    if claim is not None:
        return claim
    seat = sim.turn
    hand = sim.hands[seat]
    risk = [0.0] * 16
    if sim.plays_left > 1:
        nxt = (seat + 1) % sim.n
        h = len(sim.hands[nxt]) or (HAND_SIZE if sim.deck else 0)
        u = sim.plays_left - len(hand)
        if h and u:
            holds = HOLDS[u]
            mine = [0] * 11
            for c in hand:
                mine[VALUE[c]] += 1
            for x in range(1, 11):
                k = unplayed[x] - mine[x]
                if k > 0:
                    risk[FIFTEEN - x] = holds[k][min(h, u)]
    return _weighed_move(sim, hand, risk, W_ESCOBA, 0.15)


def probable_playout(sim: RoundSim, stop: int = 0) -> None:
    """Play the round on, every seat by `probable_move`, until `stop` plays
    are left (0: to its end)."""
    unplayed = [0] * 11
    for hand in sim.hands:
        for c in hand:
            unplayed[VALUE[c]] += 1
    for c in sim.deck:
        unplayed[VALUE[c]] += 1
    while sim.plays_left > stop:
        move = probable_move(sim, unplayed)
        if not move[0]:
            unplayed[VALUE[move[1]]] -= 1
        sim.apply(move)


def careful_move(sim: RoundSim, unplayed: list[int], unplayed_gain: list[float]) -> Move:
    """Carmen's rule on a sim (`judge.Judge.play_score`, from the mover's
    seat, with the sim's price list): what a play takes, less what the next
    player can expect to take from the table it leaves, each card value
    weighed by the chance that player holds it and by the capture it would
    make, sweeps above all. Three times slower than `probable_move`, and a
    far closer picture of a careful player: it makes Carmen's choice in
    nine positions of ten, where `probable_move` makes it in eight.
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


def options_of(sim: RoundSim) -> tuple[Options, bool, Move | None]:
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
) -> Move:
    """Carmen's rule's choice among `options` on `table`: what a play takes
    by `gain` (a sweep's escoba above all; on the round's last play, the
    table left too), less `reply` times what the next player is expected to
    take from the table it leaves (`expected_reply` with `odds`); `stake`:
    the share of a table left before the last deal counted as the mover's
    (0: none, Carmen's rule)."""
    best_score = -1e9
    best: Move = (False, options[0][0], ())
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


def careful_playout_reference(sim: RoundSim, stop: int = 0, plies: int = 1_000) -> None:
    """`careful_playout` as it was before its memo (issue 35): every move
    worked out afresh. Kept for the differential tests and the benches."""
    count, worth = unplayed_of(sim)
    gain = sim.gain
    careful_until = sim.plays_left - plies
    while sim.plays_left > stop:
        if sim.plays_left > careful_until:
            move = careful_move(sim, count, worth)
        else:
            move = probable_move(sim, count)
        if not move[0]:
            count[VALUE[move[1]]] -= 1
            worth[VALUE[move[1]]] -= gain[move[1]]
        sim.apply(move)


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
_CAREFUL: dict[tuple[int, bool], dict[tuple[tuple[int, ...], tuple[int, ...], int, int, int], Move]]
_CAREFUL = {}
_CAREFUL_LIMIT = 25_000


def careful_playout(sim: RoundSim, stop: int = 0, plies: int = 1_000) -> None:
    """Play the round on: the next `plies` plays (claims aside) by
    `careful_move`, then by `probable_move`, until `stop` plays are left.
    The careful moves are memoised (`_CAREFUL`): the same moves as
    `careful_playout_reference`, at a fraction of the work."""
    count, worth = unplayed_of(sim)
    gain = sim.gain
    memo = _CAREFUL.get((id(gain), sim.rules.compulsory_capture))
    if memo is None:
        memo = _CAREFUL[(id(gain), sim.rules.compulsory_capture)] = {}
    unplayed = 0
    for cards in (*sim.hands, sim.deck):
        for c in cards:
            unplayed |= 1 << c
    careful_until = sim.plays_left - plies
    hands = sim.hands
    n = sim.n
    while sim.plays_left > stop:
        if sim.plays_left > careful_until:
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
        else:
            move = probable_move(sim, count)
        if not move[0]:
            card = move[1]
            count[VALUE[card]] -= 1
            worth[VALUE[card]] -= gain[card]
            unplayed &= ~(1 << card)
        sim.apply(move)


def careful_deal_playout(sim: RoundSim, stop: int = 0) -> None:
    """`careful_playout` for the rest of the current deal, then probable."""
    in_hands = sum(len(h) for h in sim.hands)
    careful_playout(sim, stop, plies=in_hands)


#: The playout policies by name.
PLAYOUTS: Final = {
    "plain": playout,
    "informed": informed_playout,
    "probable": probable_playout,
    "careful": careful_playout,
    "careful_deal": careful_deal_playout,
    "careful_reference": careful_playout_reference,
}


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
