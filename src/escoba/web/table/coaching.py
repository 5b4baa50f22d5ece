"""The coach (issue 28, part 2): before a play, what it would leave (the
table's sum and whether the next player can sweep it with one card, and how
likely; the sevens and diamonds; the card left on a 15; at ÚLTIMAS who gets
what stays), from `escoba.analysis.coach`.

**Off by default, chosen per seat** (`seat_coaches`: a row is a seat that
turned it on), on the table page beside the seat's other choices.

**It advises** (issue 34, point 4): first the play it would make and why,
in one sentence (`escoba.analysis.advice`), then the facts of each option,
the ones that take before the ones that leave a card. Its game words link
to their paragraph of the rules page (`linked`).

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

import re
from dataclasses import dataclass
from typing import cast

from markupsafe import Markup, escape
from sqlalchemy import Connection, Table, bindparam, delete, insert, select

from escoba.analysis import coach_facts, say_coach
from escoba.analysis.advice import advise, capture_first, say_advice
from escoba.engine.actions import Claim, Play
from escoba.engine.cards import NOTATION, Card
from escoba.i18n import translations
from escoba.names import Design, the_cards
from escoba.web.base.errors import Forbidden
from escoba.web.base.models import SeatCoachRow
from escoba.web.table.command_path import NOTE, CommandPath, Outcome
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

        return self._command(invite, token, None, command, NOTE)


#: the game's words in the coach's sentences, each linked to its paragraph
#: of the rules page: LLEVAR EL 15, ÚLTIMAS and ¡ESCOBA! stay Spanish in
#: every language; sweeping the table is the language's own verb
_RULES_PAGE = "/reglas"
_SWEEP = {"es": r"barr(?:e|en|es|ería|erla|er)", "pt_BR": r"varr\w*", "en": r"sweep\w*"}
_GAME_WORDS = (
    (r"LLEVAR EL 15", "llevar-el-15"),
    (r"ÚLTIMAS", "ultimas"),
    (r"¡?ESCOBA!?", "escoba"),
)


def _words_pattern(lang: str) -> re.Pattern[str]:
    sweep = _SWEEP.get(lang, _SWEEP["es"] if lang.startswith("es") else _SWEEP["en"])
    parts = [f"(?P<w{i}>{p})" for i, (p, _) in enumerate(_GAME_WORDS)]
    parts.append(rf"(?P<sweep>\b{sweep}\b)")
    return re.compile("|".join(parts))


def linked(text: str, lang: str) -> Markup:
    """`text`, escaped, with its game words linked to the rules page:
    «barre» and ¡ESCOBA! to #escoba, LLEVAR EL 15 to #llevar-el-15, ÚLTIMAS
    to #ultimas."""
    out: list[str] = []
    at = 0
    for m in _words_pattern(lang).finditer(text):
        name = m.lastgroup or ""
        anchor = "escoba" if name == "sweep" else _GAME_WORDS[int(name[1:])][1]
        out.append(escape(text[at : m.start()]))
        out.append(
            Markup('<a class="rules-word" href="{}#{}">{}</a>').format(
                _RULES_PAGE, anchor, m.group(0)
            )
        )
        at = m.end()
    out.append(escape(text[at:]))
    return Markup("").join(out)


@dataclass(frozen=True, slots=True)
class CoachOption:
    """The coach's words for one legal action of the seat on turn, keyed as
    escoba.js finds it: `kind` play or claim, the hand `card`, the table
    cards it takes (`capture`, notations joined by spaces)."""

    kind: str
    card: str
    capture: str
    title: Markup
    lines: tuple[Markup, ...]
    advised: bool = False  # the play the coach would make


@dataclass(frozen=True, slots=True)
class CoachBoard:
    status: CoachStatus
    options: tuple[CoachOption, ...]  # empty unless it shows, on the seat's turn
    advice: Markup | None = None  # which play it would make and why, first


def coach_board(page: TablePage, design: Design, lang: str) -> CoachBoard | None:
    """What the board shows of the viewer's coach: its state, and while it
    is on and the viewer is on turn, the words for each legal action."""
    status = page.coach
    v = page.view
    if status is None or v is None or v.seat is None:
        return None
    options: list[CoachOption] = []
    advice = None
    if status.active and v.turn == v.seat:
        tr = translations(lang)
        facts = [(action, coach_facts(v, action)) for action in capture_first(v.legal)]
        best = advise(facts, v.players)
        if best is not None:
            advice = linked(say_advice(best, page.names, lang, design), lang)
        for action, f in facts:
            said = say_coach(f, page.names, lang, design)
            lines = tuple(linked(line, lang) for line in said)
            mine = best is not None and action == best.action
            if isinstance(action, Claim):
                taken = the_cards(action.group, design, lang)
                said_title = tr.gettext("Si haces LLEVAR EL 15 con %(cards)s:") % {"cards": taken}
                title = linked(said_title, lang)
                group = _notations(action.group)
                options.append(CoachOption("claim", "", group, title, lines, mine))
                continue
            assert isinstance(action, Play)
            if action.capture:
                taken = the_cards(action.capture, design, lang)
                title = escape(tr.gettext("Si te llevas %(cards)s:") % {"cards": taken})
            else:
                title = escape(tr.gettext("Si la dejas en la mesa:"))
            card, capture = NOTATION[action.card], _notations(action.capture)
            options.append(CoachOption("play", card, capture, title, lines, mine))
    return CoachBoard(status, tuple(options), advice)


def _notations(cards: tuple[Card, ...]) -> str:
    return " ".join(sorted(NOTATION[c] for c in cards))
