"""The coach: what a play would leave, told before it is made, for those who
are learning. The seed's advice («Consejos para quien empieza»,
shared/seeds/000) at the moment it matters:

- a table left between 5 and 14 lets the next player sweep it with one
  card: the value that does it, and how likely they are to hold one;
- take the sevens and the diamonds when you can (the 7 of diamonds is a
  point by itself): what the play takes, and what it leaves on the table;
- a card left that made 15 with the table: the next player may LLEVAR EL
  15;
- at ÚLTIMAS, what stays on the table at the end goes to whoever captured
  last.

`coach_facts(view, action)` is a pure function of the seat's view and one
of its legal actions: it reads nothing the seat could not see. The chance
that the next player holds a card is counted from the cards this seat has
not seen (`knowledge`: the other hands and the deck) and the size of the
next player's hand; `weighed` is the same chance read from the plays that
player made this deal too (`inference.PosteriorSampler`, seeded by the view,
so the same view always gives the same figure), or None when they made none
since the deal. `wording.say_coach` puts the facts in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from escoba.analysis.model import Move
from escoba.analysis.rounds import move_of
from escoba.analysis.seeding import position_rng
from escoba.bots.inference import PosteriorSampler, observations
from escoba.bots.knowledge import Knowledge, holds_chance, knowledge
from escoba.engine.actions import Action, Claim
from escoba.engine.captures import can_capture, capture_groups, index_groups
from escoba.engine.cards import FIFTEEN, IS_DIAMOND, IS_SEVEN, SEVEN_OF_DIAMONDS, VALUE, Card
from escoba.engine.rules import HAND_SIZE
from escoba.engine.view import View


@dataclass(frozen=True, slots=True)
class Sweep:
    """The next player sweeps the table with one card of `value` (¡ESCOBA!):
    `unseen` such cards are out of this seat's sight, and the next player
    holds one with probability `chance` (by counting) or `weighed` (read
    from their plays this deal too; None without any)."""

    value: int
    unseen: int
    chance: float
    weighed: float | None


@dataclass(frozen=True, slots=True)
class CoachFacts:
    """What `move` by `seat` would leave. `table` is the table after it and
    `table_sum` its sum; `next_seat` who plays next (None after a claim,
    whose seat plays on, and after the round's last card). `sweep`: the
    next player can sweep that table with one card (a sum of 5 to 14).
    `claim_left`: the card the move leaves on a 15 (LLEVAR EL 15 for the
    next). `takes_*` count what the move takes, `leaves_*` what stays on the
    table after it; `seven_of_diamonds_chance`, when the 7 of diamonds is
    left there, the chance that the next player can take it (1 when the
    LLEVAR EL 15 the move opens can). At ÚLTIMAS
    (`last_deal`), `leftover_seat` is who gets what stays at the end if
    nobody captures again (None: nobody captured in the round);
    `last_play`: this is the round's last card, so it is settled."""

    seat: int
    move: Move
    table: tuple[Card, ...]
    table_sum: int
    next_seat: int | None
    sweep: Sweep | None
    claim_left: Card | None
    takes_sevens: int
    takes_diamonds: int
    takes_seven_of_diamonds: bool
    leaves_sevens: int
    leaves_diamonds: int
    leaves_seven_of_diamonds: bool
    seven_of_diamonds_chance: float | None
    last_deal: bool
    last_play: bool
    leftover_seat: int | None


def coach_facts(view: View, action: Action) -> CoachFacts:
    """The facts of `action`, one of `view.legal` (see the module)."""
    if view.seat is None or action not in view.legal:
        raise ValueError("the action is not one of the seat's legal actions")
    seat = view.seat
    know = knowledge(view)
    move = move_of(view, action)
    claim = isinstance(action, Claim)
    taken: tuple[Card, ...] = (
        move.taken if claim else ((move.card, *move.taken) if move.taken else ())
    )
    table = tuple(sorted(c for c in view.table if c not in taken))
    claim_left = None
    if not claim and not move.taken:
        if can_capture(move.card, view.table):
            claim_left = move.card
        table = tuple(sorted((*table, move.card)))
    plays_left = know.base.plays_left - (0 if claim else 1)
    next_seat = None if claim or plays_left == 0 else (seat + 1) % view.players
    hand = _next_hand(view, know, next_seat)
    table_sum = sum(VALUE[c] for c in table)
    sweep = None
    if next_seat is not None and table and 5 <= table_sum <= 14:
        sweep = _sweep(view, know, next_seat, hand, FIFTEEN - table_sum)
    seven_d_left = SEVEN_OF_DIAMONDS in table
    seven_d_chance = None
    if seven_d_left and next_seat is not None:
        # a card of value v takes it with other table cards summing to 8 - v
        rest = tuple(VALUE[c] for c in table if c != SEVEN_OF_DIAMONDS)
        need = FIFTEEN - VALUE[SEVEN_OF_DIAMONDS]
        takers = {
            v for v in range(1, 11) if v == need or (v < need and index_groups(need - v, rest))
        }
        wanted = sum(1 for c in know.unseen if VALUE[c] in takers)
        seven_d_chance = holds_chance(len(know.unseen), wanted, hand)
        if claim_left is not None:  # LLEVAR EL 15 takes it for sure, if a group of it can
            others = [c for c in table if c != claim_left]
            groups = [(claim_left, *g) for g in capture_groups(claim_left, others)]
            if any(SEVEN_OF_DIAMONDS in g for g in groups):
                seven_d_chance = 1.0
    last = seat if taken else (None if know.base.last < 0 else know.base.last)
    return CoachFacts(
        seat=seat,
        move=move,
        table=table,
        table_sum=table_sum,
        next_seat=next_seat,
        sweep=sweep,
        claim_left=claim_left,
        takes_sevens=sum(1 for c in taken if IS_SEVEN[c]),
        takes_diamonds=sum(1 for c in taken if IS_DIAMOND[c]),
        takes_seven_of_diamonds=SEVEN_OF_DIAMONDS in taken,
        leaves_sevens=sum(1 for c in table if IS_SEVEN[c]),
        leaves_diamonds=sum(1 for c in table if IS_DIAMOND[c]),
        leaves_seven_of_diamonds=seven_d_left,
        seven_of_diamonds_chance=seven_d_chance,
        last_deal=view.last_deal,
        last_play=plays_left == 0,
        leftover_seat=last,
    )


def _next_hand(view: View, know: Knowledge, next_seat: int | None) -> int:
    """The cards the next player will play from: their hand, or a new
    deal's three when this play ends the deal."""
    if next_seat is None:
        return 0
    size = view.seats[next_seat].hand_size
    if size == 0 and know.deck_size > 0:
        return HAND_SIZE
    return size


def _sweep(view: View, know: Knowledge, next_seat: int, hand: int, value: int) -> Sweep:
    unseen = sum(1 for c in know.unseen if VALUE[c] == value)
    chance = holds_chance(len(know.unseen), unseen, hand)
    weighed = None
    if view.seats[next_seat].hand_size > 0:  # the same hand as at their plays of this deal
        sampler = PosteriorSampler(know, observations(view, know), position_rng(view, "coach"))
        odds = sampler.value_odds(next_seat)
        if odds is not None:
            weighed = odds[value]
    return Sweep(value=value, unseen=unseen, chance=chance, weighed=weighed)
