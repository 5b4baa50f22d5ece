"""The coach's board on the table page (issue 30): the facts of the seat's
position and Luna's advice, worded for the viewer, with the game's words
linked to the rules page. A screen model: the table's coaching
(escoba.web.table.coaching) says whether a seat has its coach on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup, escape

from escoba.analysis import coach_facts, say_coach
from escoba.analysis.advice import advise, capture_first, say_advice
from escoba.engine.actions import Claim, Play
from escoba.engine.cards import NOTATION, Card
from escoba.i18n import translations
from escoba.names import Design, the_cards
from escoba.web.table.pages import CoachStatus, TablePage

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
