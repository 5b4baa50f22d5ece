"""The coach (issue 28, part 2): before a play, what it would leave (the
table's sum and whether the next player can sweep it with one card, and how
likely; the sevens and diamonds; the card left on a 15; at ÚLTIMAS who gets
what stays), from `escoba.analysis.coach`.

**Off by default, chosen per seat** (`seat_coaches`: a row is a seat that
turned it on), on the table page beside the seat's other choices.

**Only where it gives nobody an edge**: it shows to a seat that turned it
on at a table whose other seats are all robots, or where every person at
the table turned it on; each of them then reads that it is on for
everyone. A person who turned it on alone reads that it waits for the
others (`CoachStatus`).

Choosing changes no version (a move made on the page before it is still
current), but it is published like a chat line, so every person's page
shows the new state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from sqlalchemy import Connection, Table, bindparam, delete, insert, select

from escoba.analysis import coach_facts, say_coach
from escoba.engine.actions import Claim, Play
from escoba.engine.cards import NOTATION, Card
from escoba.i18n import translations
from escoba.names import Design, the_cards
from escoba.web.base.errors import Forbidden
from escoba.web.base.models import SeatCoachRow
from escoba.web.table.command_path import CommandPath, Outcome
from escoba.web.table.pages import CoachStatus, TablePage
from escoba.web.table.store import Credential, SeatRecord, TableRecord, TableTx, find_seat

_C = cast(Table, SeatCoachRow.__table__)
_ON = select(_C.c.seat_id).where(_C.c.seat_id.in_(bindparam("seats", expanding=True)))


def coach_status(conn: Connection, table: TableRecord, you: SeatRecord) -> CoachStatus:
    people = [s for s in table.seats if s.robot is None and s.id is not None]
    on = set(conn.scalars(_ON, {"seats": [s.id for s in people]})) if people else set()
    return CoachStatus(chosen=you.id in on, people=len(people), chosen_by=len(on))


class Coaching(CommandPath):
    def choose_coach(self, invite: str, token: Credential, on: bool) -> Outcome:
        """Turn the coach on or off for the seat that holds `token`."""

        def command(tx: TableTx) -> None:
            seat = find_seat(tx.table.seats, token)
            if seat is None or seat.id is None:
                raise Forbidden("not_seated")
            tx.conn.execute(delete(_C).where(_C.c.seat_id == seat.id))
            if on:
                tx.conn.execute(insert(_C).values(seat_id=seat.id, since=self.clock.now()))

        return self._command(invite, token, None, command, game_action=False, bump_version=False)


@dataclass(frozen=True, slots=True)
class CoachOption:
    """The coach's words for one legal action of the seat on turn, keyed as
    escoba.js finds it: `kind` play or claim, the hand `card`, the table
    cards it takes (`capture`, notations joined by spaces)."""

    kind: str
    card: str
    capture: str
    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CoachBoard:
    status: CoachStatus
    options: tuple[CoachOption, ...]  # empty unless it shows, on the seat's turn


def coach_board(page: TablePage, design: Design, lang: str) -> CoachBoard | None:
    """What the board shows of the viewer's coach: its state, and while it
    is on and the viewer is on turn, the words for each legal action."""
    status = page.coach
    v = page.view
    if status is None or v is None or v.seat is None:
        return None
    options: list[CoachOption] = []
    if status.active and v.turn == v.seat:
        tr = translations(lang)
        for action in v.legal:
            lines = tuple(say_coach(coach_facts(v, action), page.names, lang, design))
            if isinstance(action, Claim):
                taken = the_cards(action.group, design, lang)
                title = tr.gettext("Si haces LLEVAR EL 15 con %(cards)s:") % {"cards": taken}
                options.append(CoachOption("claim", "", _notations(action.group), title, lines))
                continue
            assert isinstance(action, Play)
            if action.capture:
                taken = the_cards(action.capture, design, lang)
                title = tr.gettext("Si te llevas %(cards)s:") % {"cards": taken}
            else:
                title = tr.gettext("Si la dejas en la mesa:")
            options.append(
                CoachOption("play", NOTATION[action.card], _notations(action.capture), title, lines)
            )
    return CoachBoard(status, tuple(options))


def _notations(cards: tuple[Card, ...]) -> str:
    return " ".join(sorted(NOTATION[c] for c in cards))
