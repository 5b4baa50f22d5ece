"""Time on the table: what a table page tells one viewer about the clocks
that run there (lichess's correspondence clock, read from the page's own
`now`, so a test's `ManualClock` makes it exact). How long the seat on turn
has had it; for the other players, when TERMINAR POR AUSENCIA becomes
possible; for the seat on turn, a warning before it does; and for everyone
a warning in the last day before the table expires (`escoba expire`).
The page's script (static/time.js) keeps the moments current, and fetches
the board again at `next_change`: when a warning begins, or grows, or a
countdown comes to its end."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Final

from escoba.web.table.pages import TablePage

#: The seat on turn is warned from this share of the absence hours on (24 h
#: of 48), and more strongly from the second (40 h of 48: lichess rings at
#: 80 % of a correspondence clock).
WARN_FROM: Final = 1 / 2
URGENT_FROM: Final = 5 / 6
#: Everyone at the table is warned this long before it expires.
EXPIRY_WARNING: Final = timedelta(days=1)


class AbsenceWarning(StrEnum):
    SOON = "soon"  # play before the moment, or they may end the game
    URGENT = "urgent"  # the last sixth of the absence hours
    DUE = "due"  # the others may press TERMINAR POR AUSENCIA now


@dataclass(frozen=True, slots=True)
class TableTime:
    """What the page shows about time; each moment is None when not shown."""

    now: datetime
    turn_since: datetime | None  # «Turno de Juan · hace 5 h»
    absence_countdown: datetime | None  # for the other players, until the button comes
    absence_warning: AbsenceWarning | None  # for the seat on turn
    absence_at: datetime | None  # the warning's moment
    expires_at: datetime | None  # in the last day before it, while nobody plays
    expiry_due: bool  # past it: the next run of the expiry job ends the table
    next_change: datetime | None  # when this board next reads otherwise, by time alone


def table_time(page: TablePage) -> TableTime | None:
    """What `page` says about time to its viewer; None on a page made
    without a clock."""
    now = page.now
    if now is None:
        return None
    you = page.you.game_seat if page.you is not None else None
    turn = page.view.turn if page.view is not None else None
    countdown = warning = None
    changes: list[datetime] = []
    if page.absence_at is not None and page.turn_since is not None and you is not None:
        if you != turn:
            countdown = page.absence_at if now <= page.absence_at else None
            changes.append(page.absence_at)
        else:
            warning = absence_warning(page.turn_since, page.absence_at, now)
            whole = page.absence_at - page.turn_since
            changes += [page.turn_since + whole * share for share in (WARN_FROM, URGENT_FROM)]
            changes.append(page.absence_at)
    expires_at, due = None, False
    if page.expires_at is not None:
        due = now >= page.expires_at
        if not due and now >= page.expires_at - EXPIRY_WARNING:
            expires_at = page.expires_at
        changes += [page.expires_at - EXPIRY_WARNING, page.expires_at]
    return TableTime(
        now=now,
        turn_since=page.turn_since,
        absence_countdown=countdown,
        absence_warning=warning,
        absence_at=page.absence_at if warning is not None else None,
        expires_at=expires_at,
        expiry_due=due,
        next_change=min((m for m in changes if m >= now), default=None),
    )


def absence_warning(since: datetime, moment: datetime, now: datetime) -> AbsenceWarning | None:
    """The warning for the seat whose turn began at `since`, with TERMINAR
    POR AUSENCIA possible after `moment`: none in the first half of the
    time, then SOON, URGENT in the last sixth, DUE once it has passed."""
    if now > moment:
        return AbsenceWarning.DUE
    whole = moment - since
    idle = now - since
    if idle >= whole * URGENT_FROM:
        return AbsenceWarning.URGENT
    if idle >= whole * WARN_FROM:
        return AbsenceWarning.SOON
    return None
