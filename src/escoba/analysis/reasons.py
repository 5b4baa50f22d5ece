"""Why a play cost points: its costliest scoring lines, each explained by
a fact that differs between the play made and the best one, as the game's
words say it («Dejaste la mesa en 9: Luna la barría con un 6…», «Dejaste
el 7 de diamantes en la mesa», «Te llevaste 1 carta donde podías llevarte
3», «En ÚLTIMAS lo que queda es para Luna»).

    facts = play_facts(view, action)              # what a play takes and leaves
    reasons = explain(view, played, best, lines)  # Reason codes with values

`play_facts` is a pure function of the seat's view and one of its legal
actions (the coach could tell the same facts before a play). `explain`
takes the lines whose cost is largest (`lines.LineCost`, the step's cost
split by line) and, for each, the facts of the two plays that explain it;
a line with no such fact is told by its cost alone, so a play that gave
points away always has at least one reason. The reasons are codes of
`escoba.words` («analysis_reason_…») with their values as data (cards in
notation, seats, counts): `wording.say_reason` puts them in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from escoba.analysis.model import LineCost, Reason, ReasonValue, figure
from escoba.bots.knowledge import Knowledge, holds_chance, knowledge
from escoba.engine.actions import Action, Claim, claim_cards
from escoba.engine.captures import can_capture
from escoba.engine.cards import (
    FIFTEEN,
    IS_DIAMOND,
    IS_SEVEN,
    NOTATION,
    SEVEN_OF_DIAMONDS,
    VALUE,
    Card,
)
from escoba.engine.rules import HAND_SIZE
from escoba.engine.seats import side_of
from escoba.engine.view import View

#: The lines that explain a cost: at most this many, each at least this
#: share of the step's cost (the largest always).
MOST_LINES: Final = 2
SHARE: Final = 0.25


@dataclass(frozen=True, slots=True)
class PlayFacts:
    """What an action takes and leaves, from its seat's view. `taken`: the
    cards it takes (the card played among them); `table`: the table after
    it; `next_seat`: who plays next (None after a claim, whose seat plays
    on, and after the round's last card); `sweep_value` and `sweep_chance`:
    the one card value that sweeps that table and the chance the next
    player holds one (None when no single card sweeps it); `claim_left`:
    the card left on a 15 (LLEVAR EL 15 for the next); `leftover_seat`: at
    ÚLTIMAS, who gets what stays at the end if nobody captures again."""

    seat: int
    taken: tuple[Card, ...]
    table: tuple[Card, ...]
    escoba: bool
    next_seat: int | None
    sweep_value: int | None
    sweep_chance: float
    claim_left: Card | None
    last_deal: bool
    last_play: bool
    leftover_seat: int | None

    @property
    def table_sum(self) -> int:
        return sum(VALUE[c] for c in self.table)

    def count(self, which: Sequence[bool]) -> int:
        return sum(1 for c in self.taken if which[c])


def play_facts(view: View, action: Action, know: Knowledge | None = None) -> PlayFacts:
    """The facts of `action`, one of `view.legal` (see `PlayFacts`)."""
    if view.seat is None or action not in view.legal:
        raise ValueError("the action is not one of the seat's legal actions")
    seat = view.seat
    know = know or knowledge(view)
    claim = isinstance(action, Claim)
    claim_left = None
    if isinstance(action, Claim):
        assert view.claimable is not None
        taken: tuple[Card, ...] = claim_cards(view.claimable, action)
        table = tuple(sorted(c for c in view.table if c not in taken))
    else:
        taken = (action.card, *action.capture) if action.capture else ()
        table = tuple(sorted(c for c in view.table if c not in taken))
        if not taken:
            if can_capture(action.card, view.table):
                claim_left = action.card
            table = tuple(sorted((*table, action.card)))
    plays_left = know.base.plays_left - (0 if claim else 1)
    next_seat = None if claim or plays_left == 0 else (seat + 1) % view.players
    value = FIFTEEN - sum(VALUE[c] for c in table)
    sweep_value = None
    chance = 0.0
    if next_seat is not None and table and 1 <= value <= 10:
        sweep_value = value
        wanted = sum(1 for c in know.unseen if VALUE[c] == value)
        chance = holds_chance(len(know.unseen), wanted, _next_hand(view, know, next_seat))
    last = seat if taken else (None if know.base.last < 0 else know.base.last)
    return PlayFacts(
        seat=seat,
        taken=taken,
        table=table,
        escoba=bool(taken) and not table,
        next_seat=next_seat,
        sweep_value=sweep_value,
        sweep_chance=chance,
        claim_left=claim_left,
        last_deal=view.last_deal,
        last_play=plays_left == 0,
        leftover_seat=last,
    )


def _next_hand(view: View, know: Knowledge, next_seat: int) -> int:
    """The cards the next player will play from: their hand, or a new
    deal's three when this play ends the deal."""
    size = view.seats[next_seat].hand_size
    if size == 0 and know.deck_size > 0:
        return HAND_SIZE
    return size


def explain(
    view: View, played: Action, best: Action, lines: Sequence[LineCost]
) -> tuple[Reason, ...]:
    """Why `played` cost against `best` (see the module): the reasons of
    its costliest lines, the largest first; () when it cost nothing."""
    costly = sorted((x for x in lines if x.cost > 0), key=lambda x: -x.cost)
    if not costly or played == best:
        return ()
    total = sum(x.cost for x in costly)
    chosen = [costly[0], *(x for x in costly[1:MOST_LINES] if x.cost >= SHARE * total)]
    know = knowledge(view)
    mine = play_facts(view, played, know)
    theirs = play_facts(view, best, know)
    out: list[Reason] = []
    for line in chosen:
        said = {(r.code, r.values) for r in out}  # a fact told once, on its costliest line
        found = [
            r
            for r in _line_reasons(line.line, mine, theirs, view.players)
            if (r.code, r.values) not in said
        ]
        if not found and not any(r.line == line.line for r in out):
            found = [
                _reason(
                    "analysis_reason_line", line.line, of_line=line.line, cost=figure(line.cost)
                )
            ]
        out.extend(found)
    return tuple(out)


def _reason(code: str, line: str, **values: ReasonValue) -> Reason:
    return Reason(code, line, tuple(sorted(values.items())))


def _line_reasons(line: str, mine: PlayFacts, theirs: PlayFacts, players: int) -> list[Reason]:
    """The facts that tell the cost on `line`, the play's against the best's."""
    out: list[Reason] = []
    if line == "cards" and len(mine.taken) < len(theirs.taken):
        out.append(
            _reason("analysis_reason_cards", line, took=len(mine.taken), could=len(theirs.taken))
        )
    if line in ("escobas", "cards"):
        if theirs.escoba and not mine.escoba:
            out.append(_reason("analysis_reason_missed_escoba", line))
        elif _sweep_worse(mine, theirs) and mine.sweep_value is not None:
            assert mine.next_seat is not None
            out.append(
                _reason(
                    "analysis_reason_sweep",
                    line,
                    sum=mine.table_sum,
                    value=mine.sweep_value,
                    percent=round(100 * mine.sweep_chance),
                    seat=mine.next_seat,
                )
            )
        left = mine.claim_left
        if left is not None and mine.next_seat is not None and theirs.claim_left is None:
            out.append(
                _reason(
                    "analysis_reason_claim_left", line, card=NOTATION[left], seat=mine.next_seat
                )
            )
    if line == "diamonds" and mine.count(IS_DIAMOND) < theirs.count(IS_DIAMOND):
        took, could = mine.count(IS_DIAMOND), theirs.count(IS_DIAMOND)
        out.append(_reason("analysis_reason_diamonds", line, took=took, could=could))
    if line in ("sevens", "setenta"):
        if mine.count(IS_SEVEN) < theirs.count(IS_SEVEN):
            took, could = mine.count(IS_SEVEN), theirs.count(IS_SEVEN)
            out.append(_reason("analysis_reason_sevens", line, took=took, could=could))
        else:
            sevens = [c for c in mine.table if IS_SEVEN[c] and c not in theirs.table]
            if sevens and sevens[0] != SEVEN_OF_DIAMONDS:
                out.append(_reason("analysis_reason_left_card", line, card=NOTATION[sevens[0]]))
    if line == "seven_of_diamonds":
        if SEVEN_OF_DIAMONDS in mine.table and SEVEN_OF_DIAMONDS not in theirs.table:
            out.append(_reason("analysis_reason_left_card", line, card=NOTATION[SEVEN_OF_DIAMONDS]))
        elif SEVEN_OF_DIAMONDS in theirs.taken and SEVEN_OF_DIAMONDS not in mine.taken:
            out.append(
                _reason("analysis_reason_missed_card", line, card=NOTATION[SEVEN_OF_DIAMONDS])
            )
    if line == "leftover" and mine.last_deal:
        who = mine.leftover_seat
        theirs_ok = who != theirs.leftover_seat
        if who is not None and theirs_ok and side_of(who, players) != side_of(mine.seat, players):
            out.append(_reason("analysis_reason_leftover", line, seat=who))
    return out


def _sweep_worse(mine: PlayFacts, theirs: PlayFacts) -> bool:
    """The play leaves a table the next player sweeps more likely than the
    best's does (a chance of at least 5 %)."""
    return mine.sweep_chance >= 0.05 and mine.sweep_chance > theirs.sweep_chance + 0.05
