"""The playout policies of Luna's research (issues 16, 27, 35), kept for the
benchmarks and the tests that compare with them; Luna and the analysis play
their rounds out by `escoba.bots.policy.careful_playout` alone.

The quick ones are greedy players: the capture worth the most (the sim's
price list, `sim.gain`: `worth.CARD_GAIN` under the site's rules), and never
(if it can help it) a table that sums 5 to 14 for the next player, who could
then sweep it with one card — at a flat risk (`greedy_move`, the `plain`
playout), only when that player holds the card in the world
(`informed_move`), or by the chance they hold it as seen from the mover's
seat (`probable_move`, Luna's playout before 2026-12-01). `careful_deal`
plays Carmen's rule for the rest of the deal, then probably;
`careful_playout_reference` is the careful playout before its memo (issue
35), with `careful_move_reference`, Carmen's rule before its one loop (issue
35): the references of tests/bots/test_bots_policy.py's differential tests.
`PLAYOUTS` names them for `TunableLuna`'s `rollout` (research_luna.py).
Under compulsory capture a card is left only when none can capture.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from escoba.bots.policy import (
    HOLDS,
    best_claim,
    best_weighed,
    careful_playout,
    options_of,
    unplayed_of,
)
from escoba.bots.sim import RoundSim, SimMove
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


def greedy_move(sim: RoundSim, avoid_sweeps: bool = True) -> SimMove:
    """The best immediate move for the seat on turn by `CARD_GAIN`, counting
    the escoba, and (with `avoid_sweeps`) the flat risk `W_SWEEP_RISK` of
    leaving a sweepable table. A claim («LLEVAR EL 15») is a free capture:
    taken whenever open."""
    claim = best_claim(sim)
    if claim is not None:
        return claim
    risky = avoid_sweeps and sim.plays_left > 1
    return _weighed_move(sim, sim.hands[sim.turn], FLAT_RISK if risky else NO_RISK, 1.0, 0.0)


def _play_on(sim: RoundSim, stop: int, policy: Callable[[RoundSim], SimMove]) -> None:
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


def informed_move(sim: RoundSim) -> SimMove:
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
) -> SimMove:
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
    best: SimMove = (False, hand[0], ())
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


def probable_move(sim: RoundSim, unplayed: list[int]) -> SimMove:
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


def careful_move_reference(
    sim: RoundSim, unplayed: list[int], unplayed_gain: list[float]
) -> SimMove:
    """`policy.careful_move` as it was before issue 35 made it one loop:
    `options_of`, the next player's odds as a list, `best_weighed`."""
    if sim.claim_card >= 0:
        claim = best_claim(sim)
        if claim is not None:
            return claim
    options, must, only = options_of(sim)
    if only is not None:
        return only
    seat = sim.turn
    hand = sim.hands[seat]
    gain = sim.gain
    plays_left = sim.plays_left
    odds: list[tuple[int, float, float]] = []
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


def careful_playout_reference(sim: RoundSim, stop: int = 0, plies: int = 1_000) -> None:
    """`careful_playout` as it was before its memo (issue 35): every move
    worked out afresh. Kept for the differential tests and the benches."""
    count, worth = unplayed_of(sim)
    gain = sim.gain
    careful_until = sim.plays_left - plies
    while sim.plays_left > stop:
        if sim.plays_left > careful_until:
            move = careful_move_reference(sim, count, worth)
        else:
            move = probable_move(sim, count)
        if not move[0]:
            count[VALUE[move[1]]] -= 1
            worth[VALUE[move[1]]] -= gain[move[1]]
        sim.apply(move)


def careful_then_probable(sim: RoundSim, stop: int = 0, plies: int = 1_000) -> None:
    """Play the round on: the next `plies` plays (claims aside) by
    `careful_playout` (memoised), then by `probable_move`, until `stop`
    plays are left: `careful_playout_reference`'s moves."""
    careful_playout(sim, max(stop, sim.plays_left - plies))
    probable_playout(sim, stop)


def careful_deal_playout(sim: RoundSim, stop: int = 0) -> None:
    """`careful_playout` for the rest of the current deal, then probable."""
    in_hands = sum(len(h) for h in sim.hands)
    careful_then_probable(sim, stop, plies=in_hands)


#: The playout policies by name.
PLAYOUTS: Final = {
    "plain": playout,
    "informed": informed_playout,
    "probable": probable_playout,
    "careful": careful_playout,
    "careful_deal": careful_deal_playout,
    "careful_reference": careful_playout_reference,
}
