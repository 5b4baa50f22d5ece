"""The analysis and the coach in the game's words, in the viewer's language
and deck design: sentences made of `escoba.words` codes, with the cards
named by `escoba.names` (with their articles: «el 7 de oros»).

    say_step(step, names, "es", robot="Luna")
    # ['Ana dejó el 3 de picas en la mesa.', 'Error', 'Costó 1,2 puntos.',
    #  'Luna habría jugado la reina de picas y se llevaba el 7 de diamantes.', …]

`names` are the players' names by seat (a page passes them; the command
line takes them from the record). Numbers are written the language's way
(«1,2», "1.2"); points are shown with one decimal, chances as whole
percentages.
"""

from __future__ import annotations

from collections.abc import Sequence

from escoba.analysis.coach import CoachFacts
from escoba.analysis.model import Mark, Move, SeatSummary, StepAnalysis
from escoba.engine.cards import SEVEN_OF_DIAMONDS
from escoba.engine.seats import side_of
from escoba.names import DEFAULT_DESIGN, DEFAULT_LANG, Design, diamonds_word, the_card, the_cards
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


def say_step(
    step: StepAnalysis,
    names: Sequence[str],
    lang: str = DEFAULT_LANG,
    design: Design = DEFAULT_DESIGN,
    *,
    robot: str = "Luna",
) -> list[str]:
    """A step's sentences: what was played; its mark and cost, or that it
    was the best (or as good, or forced); what the robot would have played;
    the points each side could expect; and its hindsight, labelled so.
    `robot` names who weighed it: the analysis's `evaluator.display_name`."""
    out = [say_move(step.played, names[step.seat], lang, design)]
    if step.method == "forced":
        return [*out, say("analysis_forced", lang)]
    if step.is_best:
        out.append(say("analysis_is_best", lang, robot=robot))
    elif step.given_away == 0:
        out.append(say("analysis_near_best", lang, robot=robot))
    else:
        if step.mark is not None:
            out.append(say_mark(step.mark, lang))
        out.append(say("analysis_cost", lang, cost=points(step.cost)))
    if not step.is_best:
        out.append(say_move(step.best, robot, lang, design, best=True))
    if step.method == "exact":
        out.append(say("analysis_exact", lang))
    out.append(_expected(step, lang))
    hindsight = step.hindsight
    if hindsight is not None:
        if hindsight.cost > 0:
            out.append(say("analysis_hindsight_cost", lang, cost=points(hindsight.cost)))
        else:
            out.append(say("analysis_hindsight_best", lang))
    return out


def _expected(step: StepAnalysis, lang: str) -> str:
    """The points the side could expect after the play made."""
    pts = step.played_points
    mine = pts[step.side]
    others = (sum(pts) - mine) / (len(pts) - 1)
    code = "analysis_expected_three" if len(pts) == 3 else "analysis_expected"
    return say(code, lang, mine=points(mine), others=points(others))


def say_seat(summary: SeatSummary, names: Sequence[str], lang: str = DEFAULT_LANG) -> str:
    """«Ana regaló 1,5 puntos en la ronda.» or «Ana no regaló puntos en la ronda.»"""
    name = names[summary.seat]
    if points(summary.given_away) <= 0:
        return say("analysis_seat_clean", lang, name=name)
    return say("analysis_seat_given_away", lang, name=name, cost=points(summary.given_away))


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
