"""The analysis of finished rounds on the pages (issue 28): on a round's
replay, each step's verdict (its mark, its cost and why, what Luna would
have played, the points the mover's side could expect, the hindsight
labelled as such) and the position the player saw before the play (their
hand, the table, LLEVAR EL 15 if it was offered), the card played and
Luna's marked on it (issue 34); at the end of a game, each player's points
given away round by round and their three costliest plays, each a link to
its step of the replay.

An analysis stored before the lines and reasons existed shows its verdict
without reasons, and says so (`StepVerdict.explained`).

While the server still computes an analysis the block says so with its
progress, and asks again every 2 s (`hx-trigger="every 2s"`, htmx) until
it is done: the answer that carries the analysis carries no trigger, so
the asking stops.
"""

from __future__ import annotations

from dataclasses import dataclass

from babel.numbers import format_decimal

from escoba.analysis import Move, game_summary, say_seat, step_words
from escoba.analysis.wording import points, say_mark
from escoba.engine.cards import Card
from escoba.engine.round_steps import RoundStep
from escoba.i18n import LANGUAGES, translations
from escoba.names import Design, the_card
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
    or None) with its label, the verdict (its cost, or that it is the
    best), the reasons it cost, the other sentences, and the hindsight's
    apart. `best` is the move the robot would have made (None when it is
    the play made); `explained`: False for an analysis stored before the
    reasons existed (the page says so)."""

    mark: str | None
    mark_label: str | None
    verdict: str | None
    reasons: tuple[str, ...]
    lines: tuple[str, ...]
    hindsight: str | None
    played: Move
    best: Move | None
    robot: str
    explained: bool


@dataclass(frozen=True, slots=True)
class PositionCard:
    """A card of the position before a play: `played` (the card played, or
    the card left that LLEVAR EL 15 took), `suggested` (the robot's),
    `taken` (on the table: the play took it), `suggested_take` (the
    robot's play would have)."""

    card: Card
    played: bool = False
    suggested: bool = False
    taken: bool = False
    suggested_take: bool = False


@dataclass(frozen=True, slots=True)
class Position:
    """What the player saw before the play: their hand, the table, and the
    card left on a 15 when LLEVAR EL 15 was offered (it lies on the table
    too); the play made and the robot's marked on them."""

    seat: int
    name: str  # the player's, as the page shows it
    hand: tuple[PositionCard, ...]
    table: tuple[PositionCard, ...]
    claimable: Card | None
    claim_played: bool  # the play made was LLEVAR EL 15
    claim_suggested: bool  # the robot's was
    robot: str | None  # who suggested (None while the analysis runs)
    claimable_name: str = ""  # «el 7 de picas», in the viewer's words


def _cards_of(move: Move | None) -> tuple[Card | None, tuple[Card, ...]]:
    """The card a move plays from the hand (None for a claim) and the table
    cards it takes."""
    if move is None:
        return None, ()
    if move.kind == "claim":
        return None, move.taken
    return move.card, move.taken


def position_of(
    step: RoundStep,
    verdict: StepVerdict | None,
    name: str,
    design: Design,
    lang: str,
) -> Position | None:
    """The position before a play or a claim (None for the deal and the
    end), with the robot's play marked once the analysis is done."""
    if step.kind not in ("play", "claim") or step.seat is None or not step.hand_before:
        return None
    played = Move(
        "claim" if step.kind == "claim" else "play",
        step.card if step.card is not None else step.taken[0],
        step.taken,
        False,
    )
    best = None if verdict is None else (verdict.best or verdict.played)
    mine_card, mine_taken = _cards_of(played)
    best_card, best_taken = _cards_of(best)
    hand = tuple(
        PositionCard(c, played=c == mine_card, suggested=best is not None and c == best_card)
        for c in step.hand_before
    )
    table = tuple(
        PositionCard(
            c,
            taken=c in mine_taken,
            suggested_take=c in best_taken,
        )
        for c in step.table_before
    )
    return Position(
        seat=step.seat,
        name=name,
        hand=hand,
        table=table,
        claimable=step.claimable,
        claim_played=played.kind == "claim",
        claim_suggested=best is not None and best.kind == "claim",
        robot=None if verdict is None else verdict.robot,
        claimable_name="" if step.claimable is None else the_card(step.claimable, design, lang),
    )


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
    # the position before the step, sent again (out of band) with the block
    # that brings the analysis, to mark the robot's play on it
    position: Position | None = None

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
            words = step_words(found, names, lang, design, robot=robot, viewer=read.viewer)
            rest = (words.best, words.exact, words.expected)
            verdict = StepVerdict(
                mark=found.mark if words.mark is not None else None,
                mark_label=words.mark,
                verdict=words.verdict,
                reasons=words.reasons,
                lines=tuple(x for x in rest if x is not None),
                hindsight=words.hindsight,
                played=found.played,
                best=None if found.is_best else found.best,
                robot=robot,
                # an older analysis says so where a reason would be: a costly play
                explained=found.explained or found.given_away == 0,
            )
        marked = tuple(
            MarkedStep(
                s.step, names[s.seat], s.mark, say_mark(s.mark, lang), points_text(s.cost, lang)
            )
            for s in analysis.steps
            if s.mark is not None
        )
        seats = tuple(say_seat(s, names, lang, analysis.steps) for s in analysis.seats)
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
