"""«Aprender a jugar»: what a stage of the first lesson shows (escoba.lessons).

The board is the table's own (`board_model`, the same templates' classes
and the same page script), built from the stage's position as a page of a
table where you sit with Tito; around it, the stage's task, the verdict of
an answer in a sentence and the link to the rules page's paragraph. The
sentences are made here, in the viewer's language and deck design.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from markupsafe import Markup, escape

from escoba.bots import SEATABLE
from escoba.engine import SEVEN_OF_DIAMONDS, GameState, Play, parse_card, parse_cards, view
from escoba.i18n import translations
from escoba.lessons import STAGES, TITO, YOU, Stage, Verdict, summary_scores
from escoba.names import (
    Design,
    diamonds_word,
    seven_of_diamonds_name,
    the_card,
    the_cards,
)
from escoba.web.rendering.board import Board, RoundTable, round_table, who
from escoba.web.table.pages import Allowed, PageSeat, TablePage, TableStatus

#: the address of the lesson's pages
LESSON_PATH: Final = "/aprender"
TITO_KEY: Final = "tito"


@dataclass(frozen=True, slots=True)
class LessonPage:
    """One stage as `lesson/stage.html` shows it. `board`: the position
    (None for the question about a round's summary, which `summary`
    shows); `active`: the board takes a play (no right answer yet);
    `verdict`: the sentence said of the last answer, `right` or not."""

    number: int
    count: int
    stage: Stage
    title: str
    task: Markup
    board: Board | None
    summary: RoundTable | None
    active: bool
    verdict: Markup | None = None
    right: bool = False
    error: str | None = None
    reasons: tuple[Markup, ...] = ()

    @property
    def last(self) -> bool:
        return self.number == self.count

    @property
    def action(self) -> str:
        return f"{LESSON_PATH}/{self.number}"

    @property
    def next_url(self) -> str:
        return f"{LESSON_PATH}/{self.number + 1}"


def tito_shown(lang: str) -> Markup:
    """Tito's name as the pages show it, the robot mark after it."""
    return who(SEATABLE[TITO_KEY].display_name, True, lang)


def _played(stage: Stage) -> str:
    """The card of the stage's expected play."""
    right = stage.right[0]
    return str(right.card) if isinstance(right, Play) else str(stage.left)


def you_name(lang: str) -> str:
    return translations(lang).gettext("Tú")


def table_page(state: GameState, lang: str) -> TablePage:
    """The stage's position as a page of a table with you and Tito: what
    the board's model reads (nothing of it is stored)."""
    tito = SEATABLE[TITO_KEY]
    seats = (
        PageSeat(0, you_name(lang), False, None, YOU, True, True),
        PageSeat(1, tito.display_name, True, TITO_KEY, TITO, False, False),
    )
    return TablePage(
        invite="",
        status=TableStatus.PLAYING,
        target=state.rules.target,
        version=1,
        seats=seats,
        you=seats[0],
        view=view(state, YOU),
        names=(seats[0].name, seats[1].name),
        chat=(),
        game_number=1,
        can=Allowed(),  # a lesson's page: nothing but the play
        partner_position=None,
        rules=state.rules,
    )


# --------------------------------------------------------------------------
# The words


def stage_title(stage: Stage, lang: str) -> str:
    _ = translations(lang).gettext
    titles = {
        "fifteen": _("Haz 15"),
        "groups": _("Elige entre dos grupos"),
        "escoba": _("Barre la mesa"),
        "claim": "LLEVAR EL 15",  # the game's own words, Spanish in every language
        "leave": _("Deja la carta que menos regala"),
        "ultimas": _("ÚLTIMAS: lo que queda en la mesa"),
        "points": _("Lee los puntos de una ronda"),
    }
    return titles[stage.key]


def stage_titles(lang: str) -> tuple[str, ...]:
    return tuple(stage_title(stage, lang) for stage in STAGES)


def _card(text: object, design: Design, lang: str) -> str:
    return the_card(parse_card(str(text)), design, lang)


def _cards(texts: object, design: Design, lang: str) -> str:
    assert isinstance(texts, list)
    return the_cards(parse_cards(texts), design, lang)


def task_text(stage: Stage, design: Design, lang: str) -> Markup:
    """What the stage asks, in a sentence or two."""
    _ = translations(lang).gettext
    tito = tito_shown(lang)
    if stage.key == "fifteen":
        text = _(
            "Toca una carta de tu mano y las cartas de la mesa que suman 15 con ella; "
            "luego LLEVAR. Las figuras valen 8, 9 y 10."
        )
    elif stage.key == "groups":
        text = _(
            "Con %(card)s puedes hacer 15 de dos maneras. Elige las cartas de la mesa "
            "que más te convienen."
        ) % {"card": _card(_played(stage), design, lang)}
    elif stage.key == "escoba":
        text = _(
            "Llévate todas las cartas de la mesa de una vez: eso es una escoba, y vale un punto."
        )
    elif stage.key == "claim":
        return escape(
            _(
                "%(who)s dejó %(card)s en la mesa, aunque hacía 15 con otras cartas. "
                "Antes de jugar puedes llevarte ese 15: toca LLEVAR EL 15."
            )
        ) % {"who": tito, "card": _card(stage.left, design, lang)}
    elif stage.key == "leave":
        text = _(
            "Ninguna carta de tu mano hace 15. Deja en la mesa la carta que ponga "
            "más difícil una escoba al siguiente."
        )
    elif stage.key == "ultimas":
        return escape(
            _(
                "ÚLTIMAS: es la última carta de la ronda. Lo que quede en la mesa se lo "
                "lleva quien llevó cartas por última vez, y ahora es %(who)s. Juega tu carta."
            )
        ) % {"who": tito}
    else:
        text = _(
            "La ronda terminó: esto se llevó cada lado. ¿Cuántos puntos hiciste tú en esta ronda?"
        )
    return escape(text)


def verdict_text(verdict: Verdict, design: Design, lang: str) -> Markup:
    """The sentence said of an answer: what was right, or why it was wrong."""
    _ = translations(lang).gettext
    v = verdict.values
    tito = tito_shown(lang)

    def card(key: str) -> str:
        return _card(v[key], design, lang)

    def cards(key: str) -> str:
        return _cards(v[key], design, lang)

    code = verdict.code
    seven = the_card(SEVEN_OF_DIAMONDS, design, lang)
    texts = {
        "fifteen_right": lambda: (
            _("¡Bien! Con %(card)s te llevas %(cards)s: suman 15.")
            % {"card": card("card"), "cards": cards("cards")}
        ),
        "fifteen_missed": lambda: (
            _(
                "Dejaste %(card)s en la mesa sin llevarte nada. Busca la carta de tu mano que "
                "suma 15 con cartas de la mesa."
            )
            % {"card": card("card")}
        ),
        "groups_right": lambda: (
            _("¡Bien! Con %(cards)s te llevas más cartas y %(seven)s, que vale un punto.")
            % {"cards": cards("cards"), "seven": seven}
        ),
        "groups_fewer": lambda: (
            _(
                "Hiciste 15, pero con %(best)s te llevabas más cartas y %(seven)s, "
                "que vale un punto."
            )
            % {"best": cards("best_cards"), "seven": seven}
        ),
        "groups_missed": lambda: (
            _("Dejaste %(card)s en la mesa: con %(best)s podías hacer 15 de dos maneras.")
            % {"card": card("card"), "best": card("best")}
        ),
        "escoba_right": lambda: _("¡ESCOBA! Te llevaste toda la mesa: un punto para ti."),
        "escoba_partial": lambda: (
            _(
                "Hiciste 15, pero quedó %(left)s en la mesa: no es escoba. "
                "Busca la carta que suma 15 con toda la mesa."
            )
            % {"left": cards("left")}
        ),
        "escoba_missed": lambda: (
            _(
                "Dejaste %(card)s en la mesa sin llevarte nada. Suma toda la mesa: "
                "¿qué carta de tu mano la lleva a 15?"
            )
            % {"card": card("card")}
        ),
        "leave_right": lambda: (
            _("¡Bien! La mesa suma %(sum)s, más de 14: ninguna carta la barre de una vez.")
            % {"sum": v["sum"]}
        ),
        "leave_sweepable": lambda: (
            _(
                "La mesa queda en %(sum)s: el siguiente la barre con un %(value)s. "
                "Deja la carta que la deje en más de 14."
            )
            % {"sum": v["sum"], "value": v["value"]}
        ),
    }
    if code in texts:
        return escape(texts[code]())
    if code == "claim_right":
        text = _(
            "¡Bien! Te llevaste el 15 que dejó %(who)s, y con él toda la mesa: ¡ESCOBA! "
            "Después juegas una carta, como siempre."
        )
        return escape(text) % {"who": tito}
    if code == "claim_missed":
        text = _(
            "Jugaste %(card)s sin llevarte el 15: la ocasión se pierde en cuanto juegas "
            "una carta. Toca LLEVAR EL 15 primero."
        )
        return escape(text) % {"card": card("card")}
    if code == "ultimas_right":
        text = _(
            "¡Bien! Llevaste cartas después de %(who)s: lo que quedó en la mesa (%(left)s) "
            "también es tuyo. Eso no es escoba."
        )
        return escape(text) % {"who": tito, "left": cards("left")}
    if code == "ultimas_left":
        text = _(
            "%(who)s fue quien llevó por última vez: se queda con las %(n)s cartas de la mesa. "
            "Con %(card)s podías llevar 15 y quedarte tú con lo que sobra."
        )
        return escape(text) % {"who": tito, "n": v["n"], "card": card("card")}
    if code == "points_right":
        text = translations(lang).ngettext(
            "¡Bien! Hiciste %(num)s punto en esta ronda.",
            "¡Bien! Hiciste %(num)s puntos en esta ronda.",
            int(str(v["points"])),
        )
        return escape(text) % {"num": v["points"]}
    text = translations(lang).ngettext(
        "No es %(num)s punto. Cuenta línea por línea: escobas, más cartas, más %(diamonds)s, "
        "%(seven)s y más sietes.",
        "No son %(num)s puntos. Cuenta línea por línea: escobas, más cartas, más %(diamonds)s, "
        "%(seven)s y más sietes.",
        int(str(v["n"])),
    )
    return escape(text) % {"num": v["n"], "diamonds": diamonds_word(design, lang), "seven": seven}


def point_reasons(stage: Stage, design: Design, lang: str) -> tuple[Markup, ...]:
    """Why the round gave each side its points, line by line (the engine's
    scoring), said after the answer."""
    tr = translations(lang)
    mine, theirs = summary_scores(stage)[YOU], summary_scores(stage)[TITO]
    tito = tito_shown(lang)

    def whose(yours: int, his: int) -> Markup:
        if yours:
            text = tr.ngettext("%(num)s punto para ti", "%(num)s puntos para ti", yours)
            return escape(text) % {"num": yours}
        if his:
            text = tr.ngettext("%(num)s punto para %(who)s", "%(num)s puntos para %(who)s", his)
            return escape(text) % {"num": his, "who": tito}
        return escape(tr.gettext("nadie tiene más: para nadie"))

    def line(text: str, count: tuple[object, object], points: tuple[int, int]) -> Markup:
        return escape(text) % {
            "mine": count[0],
            "theirs": count[1],
            "whose": whose(*points),
            "diamonds": diamonds_word(design, lang),
            "seven": capitalized(seven_of_diamonds_name(design, lang)),
        }

    return (
        escape(tr.gettext("Escobas: tú %(mine)s, %(who)s %(theirs)s; un punto cada una."))
        % {"mine": mine.escobas, "theirs": theirs.escobas, "who": tito},
        line(
            tr.gettext("Más cartas: %(mine)s contra %(theirs)s, %(whose)s."),
            (mine.cards, theirs.cards),
            (mine.points_cards, theirs.points_cards),
        ),
        line(
            tr.gettext("Más %(diamonds)s: %(mine)s contra %(theirs)s, %(whose)s."),
            (mine.diamonds, theirs.diamonds),
            (mine.points_diamonds, theirs.points_diamonds),
        ),
        line(
            tr.gettext("Más sietes: %(mine)s contra %(theirs)s, %(whose)s."),
            (mine.sevens, theirs.sevens),
            (mine.points_sevens, theirs.points_sevens),
        ),
        line(
            tr.gettext("%(seven)s: %(whose)s."),
            ("", ""),
            (mine.points_seven_of_diamonds, theirs.points_seven_of_diamonds),
        ),
    )


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def lesson_summary(state: GameState, lang: str) -> RoundTable:
    """The finished round's table (counts and points), as the board shows it."""
    summary = state.last_summary
    assert summary is not None
    names = (escape(you_name(lang)), tito_shown(lang))
    return round_table(summary, state.players, state.rules, names, (), YOU, lang)
