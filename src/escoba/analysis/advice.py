"""The coach's advice (issue 34, point 4): which play it would make and why,
in one sentence, from the facts `escoba.analysis.coach` already gives for
every legal action of the seat on turn.

    options = [(a, coach_facts(view, a)) for a in capture_first(view.legal)]
    advice = advise(options, view.players)
    say_advice(advice, names, lang, design)
    # 'Yo llevaría el 15 con el 7 de picas: te llevas el 7 de diamantes, que
    #  vale un punto, y la mesa queda en 4, que nadie barre con una carta.'

Each option is weighed in rough points for the seat's side, from its facts
alone (no search: the seed's advice, «Consejos para quien empieza», in
numbers): what it takes (an escoba and the 7 of diamonds a point each, a
seven and a diamond a share of their lines, any card a share of the cards'
line), less what it hands the next player when they are on the other side
(a sweep, times the chance they can make it, from their plays when there
are any; LLEVAR EL 15 on the card it leaves; the 7 of diamonds within
their reach; a share of every card left on the table), and at the round's last
card the leftover, to whoever it goes. A claim (LLEVAR EL 15) takes cards
without spending one from the hand, so it weighs what it takes with
nothing to lose. Ties go to the capture, then to the engine's order.

The reasons are the facts that weighed: what the play takes (the escoba,
the 7 of diamonds, the sevens, the diamonds, the cards), then what it
leaves (the table's sum and who can sweep it, the card left on a 15, or at
the round's last card whose the leftover is). At most two, so that the
sentence stays one sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from escoba.analysis.coach import CoachFacts
from escoba.engine.actions import Action, Claim, Play
from escoba.engine.captures import capture_groups
from escoba.engine.cards import IS_DIAMOND, IS_SEVEN, SEVEN_OF_DIAMONDS, Card
from escoba.engine.seats import side_of
from escoba.names import (
    AND,
    DEFAULT_DESIGN,
    DEFAULT_LANG,
    Design,
    diamonds_word,
    the_card,
    the_cards,
)
from escoba.words import say

#: rough points a play's takings are worth to the side that takes them
ESCOBA = 1.0
SEVEN_OF_DIAMONDS_POINT = 1.0
SEVEN = 0.25
DIAMOND = 0.1
CARD = 0.04
#: the share of their worth the cards a play leaves on the table are likely to
#: go to the next player by a capture short of a sweep (0.3 agreed best with
#: Luna's search of the three tried, 0.3 on the whole table, 0.5 on the card
#: left alone, 0.3 with cards at 0.07: average costs 0.060, 0.070 and 0.075
#: points a play on 69 plays of three random rounds)
EXPOSED = 0.3
#: LLEVAR EL 15 opened for the next player: the cards it takes, and on top their
#: play after it, from a table of their choosing
CLAIM_LEFT = 0.5


def capture_first(actions: Iterable[Action]) -> list[Action]:
    """The actions in the order the coach tells them: LLEVAR EL 15 first,
    then the plays that take, then those that leave a card (each kind in
    the engine's order)."""

    def kind(action: Action) -> int:
        if isinstance(action, Claim):
            return 0
        assert isinstance(action, Play)
        return 1 if action.capture else 2

    return sorted(actions, key=kind)  # stable: the engine's order within each kind


@dataclass(frozen=True, slots=True)
class Advice:
    """The play the coach would make (`action`, with its `facts`), its
    rough worth in points for the seat's side (`score`) and the `reasons`
    that the sentence tells (codes of `escoba.words.coach`, without their
    ``coach_why_`` prefix: «escoba», «claim», «seven_of_diamonds», «sevens»,
    «diamonds», «cards», «no_sweep», «none_left», «sweep»,
    «partner_sweep», «claim_left», «leftover_mine», «leftover_partner»,
    «leftover_other», «leftover_nobody»). `single`: the card has no other
    capture to choose from (the sentence then names the 15, not its
    cards)."""

    action: Action
    facts: CoachFacts
    score: float
    reasons: tuple[str, ...]
    single: bool


def worth(cards: Iterable[Card]) -> float:
    """What cards taken are worth, roughly, in points."""
    total = 0.0
    for c in cards:
        total += CARD
        if c == SEVEN_OF_DIAMONDS:
            total += SEVEN_OF_DIAMONDS_POINT
        if IS_SEVEN[c]:
            total += SEVEN
        if IS_DIAMOND[c]:
            total += DIAMOND
    return total


def taken_of(facts: CoachFacts) -> tuple[Card, ...]:
    """Every card the move takes: a claim's all, a play's card with its capture."""
    move = facts.move
    if move.kind == "claim":
        return move.taken
    return (move.card, *move.taken) if move.taken else ()


def _same_side(a: int | None, b: int, players: int) -> bool:
    return a is not None and side_of(a, players) == side_of(b, players)


def score(facts: CoachFacts, players: int) -> float:
    """The option's rough worth for the seat's side (see the module)."""
    taken = taken_of(facts)
    gain = worth(taken) + (ESCOBA if facts.move.escoba else 0.0)
    loss = 0.0
    table = facts.table
    rival_next = facts.next_seat is not None and not _same_side(
        facts.next_seat, facts.seat, players
    )
    if rival_next and table:
        if facts.claim_left is not None:
            others = [c for c in table if c != facts.claim_left]
            groups = [(facts.claim_left, *g) for g in capture_groups(facts.claim_left, others)]
            best = max(groups, key=lambda g: (len(g) == len(table), worth(g)))
            loss += worth(best) + CLAIM_LEFT + (ESCOBA if len(best) == len(table) else 0.0)
        sweep = facts.sweep
        if sweep is not None and sweep.unseen:
            chance = sweep.chance if sweep.weighed is None else sweep.weighed
            loss += chance * (ESCOBA + worth(table))
        elif facts.seven_of_diamonds_chance is not None and facts.claim_left is None:
            loss += facts.seven_of_diamonds_chance * worth((SEVEN_OF_DIAMONDS,))
        loss += EXPOSED * worth(table)
    if facts.last_play and table:
        if facts.leftover_seat is None:
            pass
        elif _same_side(facts.leftover_seat, facts.seat, players):
            gain += worth(table)
        else:
            loss += worth(table)
    return gain - loss


def reasons_of(facts: CoachFacts, players: int) -> tuple[str, ...]:
    """What the sentence tells of `facts` (see `Advice`): what it takes,
    then what it leaves."""
    out: list[str] = []
    taken = taken_of(facts)
    if facts.move.escoba:
        out.append("escoba")
    elif facts.move.kind == "claim":
        out.append("claim")
    elif taken:
        if facts.takes_seven_of_diamonds:
            out.append("seven_of_diamonds")
        elif facts.takes_sevens:
            out.append("sevens")
        elif facts.takes_diamonds:
            out.append("diamonds")
        else:
            out.append("cards")
    table = facts.table
    if not table or facts.move.escoba:
        return tuple(out)
    if facts.last_play:
        taker = facts.leftover_seat
        if taker is None:
            out.append("leftover_nobody")
        elif taker == facts.seat:
            out.append("leftover_mine")
        elif _same_side(taker, facts.seat, players):
            out.append("leftover_partner")
        else:
            out.append("leftover_other")
    elif facts.next_seat is not None:
        sweep = facts.sweep
        if facts.claim_left is not None:
            out.append("claim_left")
        elif sweep is None:
            out.append("no_sweep")
        elif sweep.unseen == 0:
            out.append("none_left")
        elif _same_side(facts.next_seat, facts.seat, players):
            out.append("partner_sweep")
        else:
            out.append("sweep")
    return tuple(out)


def advise(options: Sequence[tuple[Action, CoachFacts]], players: int) -> Advice | None:
    """The play the coach would make among `options` (every legal action
    with its facts; None when there is none), with its reasons."""
    if not options:
        return None
    ranked = capture_first(a for a, _ in options)
    facts_of = dict(options)
    best = max(ranked, key=lambda a: (score(facts_of[a], players), -ranked.index(a)))
    facts = facts_of[best]
    single = True
    if isinstance(best, Play):
        same = [a for a in ranked if isinstance(a, Play) and a.card == best.card and a.capture]
        single = len(same) <= 1
    return Advice(best, facts, score(facts, players), reasons_of(facts, players), single)


def say_advice(
    advice: Advice,
    names: Sequence[str],
    lang: str = DEFAULT_LANG,
    design: Design = DEFAULT_DESIGN,
) -> str:
    """The advice in one sentence: «Yo llevaría el 15 con el 7 de picas:
    te llevas el 7 de diamantes, que vale un punto, y la mesa queda en 4,
    que nadie barre con una carta.»"""
    facts = advice.facts
    move = facts.move
    why = [_why(code, facts, names, lang, design) for code in advice.reasons]
    joined = f" {AND[lang]} ".join(why)
    if move.kind == "claim":
        return say(
            "coach_advice_claim", lang, cards=the_cards(move.taken, design, lang), why=joined
        )
    card = the_card(move.card, design, lang)
    if not move.taken:
        return say("coach_advice_leave", lang, card=card, why=joined)
    if advice.single:
        return say("coach_advice_take", lang, card=card, why=joined)
    cards = the_cards(move.taken, design, lang)
    return say("coach_advice_take_group", lang, card=card, cards=cards, why=joined)


def _why(code: str, facts: CoachFacts, names: Sequence[str], lang: str, design: Design) -> str:
    taken = taken_of(facts)
    values: dict[str, Any] = {"sum": facts.table_sum}  # Any: `say` takes them as keywords
    if code == "claim" or code == "cards":
        values["count"] = len(taken)
    elif code == "seven_of_diamonds":
        values["card"] = the_card(SEVEN_OF_DIAMONDS, design, lang)
    elif code == "sevens":
        values["count"] = facts.takes_sevens
    elif code == "diamonds":
        values["count"] = facts.takes_diamonds
        values["suit"] = diamonds_word(design, lang)
    elif code in ("sweep", "none_left", "partner_sweep") and facts.sweep is not None:
        sweep = facts.sweep  # the chance counted, as the option's facts say it
        values["value"] = sweep.value
        values["percent"] = round(100 * sweep.chance)
        if facts.next_seat is not None:
            values["name"] = names[facts.next_seat]
    elif code in ("leftover_partner", "leftover_other") and facts.leftover_seat is not None:
        values["name"] = names[facts.leftover_seat]
    return say(f"coach_why_{code}", lang, **values)
