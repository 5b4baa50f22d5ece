"""The coach (issue 28, part 2): before a play, what it would leave (the
table's sum and whether the next player can sweep it with one card, and how
likely; the sevens and diamonds; the card left on a 15; at ÚLTIMAS who gets
what stays), from `escoba.analysis.coach`.

**Off by default, chosen per seat** (`seat_coaches`: a row is a seat that
turned it on), on the table page beside the seat's other choices.

**It advises** (issue 34, point 4): first the play it would make and why,
in one sentence (`escoba.analysis.advice`), then the facts of each option,
the ones that take before the ones that leave a card. Its game words link
to their paragraph of the rules page. What the board shows is a screen
model of its own (escoba.web.rendering.coach); this module keeps the
choice and who sees it.

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

from typing import cast

from sqlalchemy import Connection, Table, bindparam, delete, insert, select

from escoba.web.base.errors import Forbidden
from escoba.web.base.models import SeatCoachRow
from escoba.web.table.command_path import NOTE, CommandPath, Outcome
from escoba.web.table.pages import CoachStatus
from escoba.web.table.store import Credential, SeatRecord, TableRecord, TableTx, find_seat

_C = cast(Table, SeatCoachRow.__table__)
_ON = select(_C.c.seat_id).where(_C.c.seat_id.in_(bindparam("seats", expanding=True)))


def coach_status(conn: Connection, table: TableRecord, you: SeatRecord) -> CoachStatus:
    people = [s for s in table.seats if s.robot is None and s.id is not None]
    on = set(conn.scalars(_ON, {"seats": [s.id for s in people]})) if people else set()
    return CoachStatus(chosen=you.id in on, people=len(people), chosen_by=len(on))


class Coaching:
    """A seat's choice of the coach: a note on the one path (`path`)."""

    def __init__(self, path: CommandPath) -> None:
        self.path = path

    def choose_coach(self, invite: str, token: Credential, on: bool) -> Outcome:
        """Turn the coach on or off for the seat that holds `token`."""

        def command(tx: TableTx) -> None:
            seat = find_seat(tx.table.seats, token)
            if seat is None or seat.id is None:
                raise Forbidden("not_seated")
            tx.conn.execute(delete(_C).where(_C.c.seat_id == seat.id))
            if on:
                tx.conn.execute(insert(_C).values(seat_id=seat.id, since=self.path.clock.now()))

        return self.path.run(invite, token, None, command, NOTE)


#: the game's words in the coach's sentences, each linked to its paragraph
#: of the rules page: LLEVAR EL 15, ÚLTIMAS and ¡ESCOBA! stay Spanish in
#: every language; sweeping the table is the language's own verb
