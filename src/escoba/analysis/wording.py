"""The analysis and the coach in the game's words, in the viewer's language
and deck design: sentences made of `escoba.words` codes, with the cards
named by `escoba.names` (with their articles: «el 7 de oros»).

    say_step(step, names, "es", robot="Luna", viewer=0)   # read by Ana, seat 0
    # ['Ana dejó el 2 de corazones en la mesa.', 'Error',
    #  'Costó 1,1 puntos, contando lo que ganaba el otro lado.',
    #  'Dejaste el 7 de diamantes en la mesa.',          ← its reasons, to her
    #                   (to anyone else: 'Ana dejó el 7 de diamantes en la mesa.')
    #  'Luna habría jugado la reina de picas y se llevaba el 7 de diamantes.',
    #  'Ana podía esperar 2,6 puntos en la ronda con esta jugada, y 3 con la de Luna.']
    say_reason(reason, names, "en")                    # one reason, to its player
    say_reason(reason, names, "en", about=1)           # of seat 1's play, by name

`names` are the players' names by seat (a page passes them; the command
line takes them from the record). Numbers are written the language's way
(«1,2», "1.2"); points are shown with one decimal, chances as whole
percentages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from escoba.analysis.coach import CoachFacts
from escoba.analysis.model import Mark, Move, Reason, SeatSummary, StepAnalysis
from escoba.engine.cards import SEVEN_OF_DIAMONDS, parse_card
from escoba.engine.seats import side_of
from escoba.names import (
    DEFAULT_DESIGN,
    DEFAULT_LANG,
    Design,
    and_list,
    diamonds_word,
    the_card,
    the_cards,
)
from escoba.words import say


def points(x: float) -> float:
    """A number of points as a sentence shows it: one decimal."""
    return round(x, 1) + 0.0


def percent(chance: float) -> int:
    return round(100 * chance)


def say_move(
    move: Move,
    who: str,
    lang: str = DEFAULT_LANG,
    design: Design = DEFAULT_DESIGN,
    *,
    best: bool = False,
) -> str:
    """What `who` did («Ana jugó el 7 de oros y se llevó el 8 de oros.»), or
    with `best`, what the robot `who` would have done («Luna habría jugado
    …»)."""
    prefix = "analysis_best" if best else "analysis_played"
    if move.kind == "claim":
        code = f"{prefix}_claim_escoba" if move.escoba else f"{prefix}_claim"
        return say(code, lang, cards=the_cards(move.taken, design, lang), name=who, robot=who)
    card = the_card(move.card, design, lang)
    if not move.taken:
        return say(f"{prefix}_leave", lang, card=card, name=who, robot=who)
    code = f"{prefix}_escoba" if move.escoba else f"{prefix}_take"
    return say(
        code, lang, card=card, cards=the_cards(move.taken, design, lang), name=who, robot=who
    )


def say_mark(mark: Mark, lang: str = DEFAULT_LANG) -> str:
    """«Imprecisa», «Error», «Error grave»."""
    return say(f"analysis_mark_{mark}", lang)


@dataclass(frozen=True, slots=True)
class StepWords:
    """A step's sentences, each in its place (see `say_step`): a page lays
    them out, the command line and `say_step` read them in order."""

    played: str
    mark: str | None  # «Error»: the mark's name, when it gave points away
    verdict: str | None  # its cost, or that it is the best, as good, or forced
    reasons: tuple[str, ...]  # why it cost (none when it did not)
    best: str | None  # what the robot would have played, when better
    exact: str | None
    expected: str | None  # the mover's side's expected points
    hindsight: str | None

    def sentences(self) -> list[str]:
        out = [self.played]
        for part in (self.mark, self.verdict):
            if part is not None:
                out.append(part)
        out.extend(self.reasons)
        for part in (self.best, self.exact, self.expected, self.hindsight):
            if part is not None:
                out.append(part)
        return out


def step_words(
    step: StepAnalysis,
    names: Sequence[str],
    lang: str = DEFAULT_LANG,
    design: Design = DEFAULT_DESIGN,
    *,
    robot: str = "Luna",
    viewer: int | None = None,
) -> StepWords:
    """`say_step`'s sentences, each in its place."""
    played = say_move(step.played, names[step.seat], lang, design)
    if step.method == "forced":
        forced = say("analysis_forced", lang)
        return StepWords(played, None, forced, (), None, None, None, None)
    mark = None
    reasons: tuple[str, ...] = ()
    if step.is_best:
        verdict = say("analysis_is_best", lang, robot=robot)
    elif step.given_away == 0:
        verdict = say("analysis_near_best", lang, robot=robot)
    else:
        if step.mark is not None:
            mark = say_mark(step.mark, lang)
        code = "analysis_cost_three" if len(step.played_points) == 3 else "analysis_cost"
        verdict = say(code, lang, cost=points(step.cost))
        # to the player who made the play, when it is they who read; else of them
        about = None if viewer == step.seat else step.seat
        reasons = tuple(say_reason(r, names, lang, design, about=about) for r in step.reasons)
    return StepWords(
        played=played,
        mark=mark,
        verdict=verdict,
        reasons=reasons,
        best=None if step.is_best else say_move(step.best, robot, lang, design, best=True),
        exact=say("analysis_exact", lang) if step.method == "exact" else None,
        expected=_expected(step, names, lang, robot),
        hindsight=None if step.hindsight is None else say_hindsight(step, lang, robot=robot),
    )


def say_step(
    step: StepAnalysis,
    names: Sequence[str],
    lang: str = DEFAULT_LANG,
    design: Design = DEFAULT_DESIGN,
    *,
    robot: str = "Luna",
    viewer: int | None = None,
) -> list[str]:
    """A step's sentences: what was played; its mark, its cost and why
    (`say_reason`, one sentence each), or that it was the best (or as good,
    or forced); what the robot would have played; the points the mover's
    own side could expect, named, with this play and the robot's; and its
    hindsight, which says whether the play made or the one suggested was
    best. `robot` names who weighed it: the analysis's
    `evaluator.display_name`. `viewer` is the seat that reads it: its own
    play's reasons speak to it («Dejaste…»); anyone else's, and any play
    read by nobody's seat (a spectator, the command line), are said of the
    player by name («Tito dejó…»)."""
    return step_words(step, names, lang, design, robot=robot, viewer=viewer).sentences()


def say_hindsight(step: StepAnalysis, lang: str = DEFAULT_LANG, *, robot: str = "Luna") -> str:
    """With every card known: the play made was the best, or the one the
    robot suggested was, or neither (and what the play made cost)."""
    hindsight = step.hindsight
    assert hindsight is not None
    if hindsight.cost <= 0 or hindsight.best == step.played:
        return say("analysis_hindsight_made_best", lang)
    code = "analysis_hindsight_suggested_best"
    if hindsight.best != step.best:
        code = "analysis_hindsight_other_best"
    return say(code, lang, robot=robot, cost=points(hindsight.cost))


def side_names(seat: int, names: Sequence[str]) -> list[str]:
    """The seat's side: its name, then its partner's at four."""
    players = len(names)
    side = side_of(seat, players)
    partners = [names[s] for s in range(players) if s != seat and side_of(s, players) == side]
    return [names[seat], *partners]


def _expected(step: StepAnalysis, names: Sequence[str], lang: str, robot: str) -> str:
    """The points the mover's own side could expect (named, never «su
    lado»): after the play made, and after the robot's when it differs."""
    side = side_names(step.seat, names)
    pair = "_pair" if len(side) > 1 else ""
    played = points(step.played_points[step.side])
    who = and_list(side, lang)
    if step.is_best:
        return say(f"analysis_expected{pair}", lang, side=who, played=played)
    best = points(step.best_points[step.side])
    return say(
        f"analysis_expected_both{pair}", lang, side=who, played=played, best=best, robot=robot
    )


def say_line(line: str, lang: str = DEFAULT_LANG, design: Design = DEFAULT_DESIGN) -> str:
    """A scoring line as a sentence names it: «las escobas», «las cartas de
    oros», «el siete de oros», «lo que queda en la mesa en ÚLTIMAS»."""
    if line == "seven_of_diamonds":
        return the_card(SEVEN_OF_DIAMONDS, design, lang)
    return say(f"analysis_line_{line}", lang, suit=diamonds_word(design, lang))


#: The reasons whose words speak to the player who made the play («Dejaste
#: …», «Te llevaste…», «Podías…»), each with its words about that player
#: for anyone else («Tito dejó…»). The others name nobody as «you».
ABOUT: Final = {
    code: code.replace("analysis_reason_", "analysis_about_", 1)
    for code in (
        "analysis_reason_sweep",
        "analysis_reason_missed_escoba",
        "analysis_reason_claim_left",
        "analysis_reason_cards",
        "analysis_reason_diamonds",
        "analysis_reason_sevens",
        "analysis_reason_left_card",
        "analysis_reason_missed_card",
    )
}


def say_reason(
    reason: Reason,
    names: Sequence[str],
    lang: str = DEFAULT_LANG,
    design: Design = DEFAULT_DESIGN,
    *,
    about: int | None = None,
) -> str:
    """One reason in words: its values named in the language and the deck
    (a card with its article, a seat by its name, a line by its words).
    Said to the player who made the play («Dejaste el 7 de diamantes en la
    mesa.»), or with `about`, the seat that made it, said of them by name
    to anyone else («Tito dejó el 7 de diamantes en la mesa.»)."""
    code = reason.code
    values: dict[str, object] = {}
    if about is not None and code in ABOUT:
        code = ABOUT[code]
        values["who"] = names[about]
    for key, value in reason.values:
        if key == "card":
            values["card"] = the_card(parse_card(str(value)), design, lang)
        elif key == "seat":
            values["name"] = names[int(value)]
        elif key == "of_line":
            values["line"] = say_line(str(value), lang, design)
        elif key == "cost":
            values["cost"] = points(float(value))
        else:
            values[key] = value
    if reason.code == "analysis_reason_diamonds":
        values["suit"] = diamonds_word(design, lang)
    return say(code, lang, limits=None, **values)


def say_seat(
    summary: SeatSummary,
    names: Sequence[str],
    lang: str = DEFAULT_LANG,
    steps: Sequence[StepAnalysis] = (),
) -> str:
    """«Ana regaló 1,5 puntos en la ronda.» or «Ana no regaló puntos en la
    ronda.» With the round's `steps`, when the seat's marked plays do not
    add up to what it gave away (plays that cost a little, above the noise,
    and got no mark), the sentence says how much each gave."""
    name = names[summary.seat]
    total = points(summary.given_away)
    if total <= 0:
        return say("analysis_seat_clean", lang, name=name)
    mine = [s for s in steps if s.seat == summary.seat]
    marked = points(sum(s.given_away for s in mine if s.mark is not None))
    if mine and marked != total:
        rest = points(total - marked)
        return say(
            "analysis_seat_given_away_unmarked",
            lang,
            name=name,
            cost=total,
            marked=marked,
            rest=rest,
        )
    return say("analysis_seat_given_away", lang, name=name, cost=total)


def say_coach(
    facts: CoachFacts,
    names: Sequence[str],
    lang: str = DEFAULT_LANG,
    design: Design = DEFAULT_DESIGN,
) -> list[str]:
    """The coach's sentences for the play of `facts`: what it takes, the
    table it leaves and whether the next player can sweep it, the card left
    on a 15, the sevens and diamonds it leaves, and at ÚLTIMAS who gets what
    stays. The 7 of diamonds is told in a sentence of its own, not counted
    again among the sevens and the diamonds."""
    out: list[str] = []
    suit = diamonds_word(design, lang)
    seven_d = the_card(SEVEN_OF_DIAMONDS, design, lang)
    # the 7 of diamonds is a seven and a diamond too: told once, on its own
    took = int(facts.takes_seven_of_diamonds)
    if took:
        out.append(say("coach_takes_seven_of_diamonds", lang, card=seven_d))
    if facts.takes_sevens - took:
        out.append(say("coach_takes_sevens", lang, count=facts.takes_sevens - took))
    if facts.takes_diamonds - took:
        out.append(say("coach_takes_diamonds", lang, count=facts.takes_diamonds - took, suit=suit))
    if facts.move.escoba:
        out.append(say("coach_escoba", lang))
    elif facts.table:
        out.append(say("coach_table_sum", lang, sum=facts.table_sum))
    if facts.next_seat is not None and facts.table:
        sweep = facts.sweep
        if sweep is None:
            out.append(say("coach_no_sweep", lang))
        elif sweep.unseen == 0:
            out.append(say("coach_sweep_none_left", lang, value=sweep.value))
        else:
            out.append(say("coach_sweep", lang, value=sweep.value, percent=percent(sweep.chance)))
        if facts.claim_left is not None:
            out.append(say("coach_claim_left", lang, card=the_card(facts.claim_left, design, lang)))
        left = int(facts.leaves_seven_of_diamonds)
        if facts.seven_of_diamonds_chance is not None:
            chance = percent(facts.seven_of_diamonds_chance)
            out.append(say("coach_leaves_seven_of_diamonds", lang, card=seven_d, percent=chance))
        if facts.leaves_sevens - left:
            out.append(say("coach_leaves_sevens", lang, count=facts.leaves_sevens - left))
        if facts.leaves_diamonds - left:
            count = facts.leaves_diamonds - left
            out.append(say("coach_leaves_diamonds", lang, count=count, suit=suit))
    if facts.last_deal and facts.table and (facts.last_play or facts.next_seat is not None):
        out.append(_leftover(facts, names, lang))
    return out


def _leftover(facts: CoachFacts, names: Sequence[str], lang: str) -> str:
    """ÚLTIMAS: whose the table's leftover is, if nobody captures again."""
    seat = facts.seat
    final = "_final" if facts.last_play else ""
    taker = facts.leftover_seat
    players = len(names)
    if taker is None:
        return say(f"coach_leftover_nobody{final}", lang)
    if taker == seat:
        return say(f"coach_leftover_mine{final}", lang)
    if side_of(taker, players) == side_of(seat, players):
        return say(f"coach_leftover_partner{final}", lang, name=names[taker])
    return say(f"coach_leftover_other{final}", lang, name=names[taker])
