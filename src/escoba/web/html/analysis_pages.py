"""The analysis of finished rounds on the pages (issue 28): on a round's
replay, each step's verdict (its mark, its cost, what Luna would have
played, the hindsight labelled as such); at the end of a game, each
player's points given away round by round and their three costliest
plays, each a link to its step of the replay.

While the server still computes an analysis the block says so with its
progress, and asks again every 2 s (`hx-trigger="every 2s"`, htmx) until
it is done: the answer that carries the analysis carries no trigger, so
the asking stops.
"""

from __future__ import annotations

from dataclasses import dataclass

from babel.numbers import format_decimal

from escoba.analysis import game_summary, say_seat, say_step
from escoba.analysis.wording import points, say_mark
from escoba.i18n import LANGUAGES, translations
from escoba.names import Design
from escoba.web.table.analyses import AnalysisRead


def points_text(x: float, lang: str) -> str:
    """«1,5 puntos», "1 point": one decimal, the language's way."""
    tr = translations(lang)
    number = format_decimal(points(x), locale=lang if lang in LANGUAGES else "es")
    return tr.ngettext("%(num)s punto", "%(num)s puntos", 1 if points(x) == 1 else 2) % {
        "num": number
    }


def given_away_text(x: float, lang: str) -> str:
    """«regaló 1,5 puntos»."""
    tr = translations(lang)
    number = format_decimal(points(x), locale=lang if lang in LANGUAGES else "es")
    return tr.ngettext(
        "regaló %(num)s punto", "regaló %(num)s puntos", 1 if points(x) == 1 else 2
    ) % {"num": number}


@dataclass(frozen=True, slots=True)
class StepVerdict:
    """One step of the replay weighed: `mark` (imprecise, mistake, blunder
    or None) with its label, the sentences, and the hindsight's apart."""

    mark: str | None
    mark_label: str | None
    lines: tuple[str, ...]
    hindsight: str | None


@dataclass(frozen=True, slots=True)
class MarkedStep:
    step: int
    name: str
    mark: str
    mark_label: str
    cost: str  # «1,5 puntos»


@dataclass(frozen=True, slots=True)
class RoundAnalysisBlock:
    """The analysis block of a replay's page (`_analysis.html`)."""

    invite: str
    round: int
    step: int
    status: str
    done: int
    total: int
    verdict: StepVerdict | None  # None for the deal, the end, or while it runs
    marked: tuple[MarkedStep, ...]  # the round's marked steps, in order
    seats: tuple[str, ...]  # «Ana regaló 1,5 puntos en la ronda.»
    base: str = ""  # the game's pages' path: /t/{invite}, or /t/{invite}/partidas/{n}

    @property
    def url(self) -> str:
        return f"{self.base}/ronda/{self.round}/analisis?paso={self.step}"

    @property
    def running(self) -> bool:
        return self.status != "done"


def round_block(
    read: AnalysisRead, step: int, design: Design, lang: str, base: str | None = None
) -> RoundAnalysisBlock:
    """Step `step`'s block; `base` is the path of the game's pages (by
    default the game in play's, `/t/{invite}`)."""
    analysis = read.analysis
    verdict = None
    marked: tuple[MarkedStep, ...] = ()
    seats: tuple[str, ...] = ()
    if analysis is not None:
        robot = analysis.evaluator.display_name
        names = read.names
        found = next((s for s in analysis.steps if s.step == step), None)
        if found is not None:
            lines = say_step(found, names, lang, design, robot=robot)[1:]  # [0]: the play itself
            label = None
            if found.mark is not None and found.given_away > 0:
                label = lines.pop(0)  # say_step puts the mark's name first
            hindsight = lines.pop() if found.hindsight is not None else None
            verdict = StepVerdict(found.mark, label, tuple(lines), hindsight)
        marked = tuple(
            MarkedStep(
                s.step, names[s.seat], s.mark, say_mark(s.mark, lang), points_text(s.cost, lang)
            )
            for s in analysis.steps
            if s.mark is not None
        )
        seats = tuple(say_seat(s, names, lang) for s in analysis.seats)
    return RoundAnalysisBlock(
        invite=read.invite,
        round=read.round,
        step=step,
        status=read.status,
        done=read.done,
        total=read.total,
        verdict=verdict,
        marked=marked,
        seats=seats,
        base=f"/t/{read.invite}" if base is None else base,
    )


@dataclass(frozen=True, slots=True)
class CostlyPlay:
    round: int
    step: int
    cost: str  # «1,5 puntos»
    mark: str | None
    mark_label: str | None

    def href(self, base: str) -> str:
        """Its step of the replay, under `base` (the game's pages' path)."""
        return f"{base}/ronda/{self.round}?paso={self.step}#analisis"


@dataclass(frozen=True, slots=True)
class PlayerAnalysis:
    name: str
    seat: int
    given_away: tuple[tuple[int, str], ...]  # (round, «1,5»)
    total: str  # «regaló 3,2 puntos»
    costliest: tuple[CostlyPlay, ...]


@dataclass(frozen=True, slots=True)
class GameAnalysisBlock:
    """The end of a game's analysis block (`_game_analysis.html`)."""

    invite: str
    rounds: int  # finished rounds
    analysed: int  # of them, done
    done: int  # actions weighed, over every round
    total: int
    players: tuple[PlayerAnalysis, ...]
    base: str = ""  # the game's pages' path: /t/{invite}, or /t/{invite}/partidas/{n}

    @property
    def running(self) -> bool:
        return self.analysed < self.rounds

    @property
    def url(self) -> str:
        return f"{self.base}/analisis"


def game_block(
    invite: str, reads: tuple[AnalysisRead, ...], lang: str, base: str | None = None
) -> GameAnalysisBlock:
    done = [r.analysis for r in reads if r.analysis is not None]
    players: tuple[PlayerAnalysis, ...] = ()
    if done:
        names = reads[0].names
        players = tuple(
            PlayerAnalysis(
                name=names[s.seat],
                seat=s.seat,
                given_away=tuple((r, _decimal(p, lang)) for r, p in s.given_away),
                total=given_away_text(s.total, lang),
                costliest=tuple(
                    CostlyPlay(
                        c.round,
                        c.step,
                        points_text(c.given_away, lang),
                        c.mark,
                        None if c.mark is None else say_mark(c.mark, lang),
                    )
                    for c in s.costliest
                ),
            )
            for s in game_summary(done)
        )
    return GameAnalysisBlock(
        invite=invite,
        rounds=len(reads),
        analysed=len(done),
        done=sum(r.done for r in reads),
        total=sum(r.total for r in reads),
        players=players,
        base=f"/t/{invite}" if base is None else base,
    )


def _decimal(x: float, lang: str) -> str:
    return format_decimal(points(x), locale=lang if lang in LANGUAGES else "es")
