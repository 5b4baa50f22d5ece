"""A round's points split by scoring line, as a playout scores them: what
lets the analysis say on which line a play's cost falls.

    LINES = ("escobas", "cards", "diamonds", "sevens", "seven_of_diamonds", "leftover")
    line_points(sim)     # per side, per line: they add up to `sim.points()`

The lines are RULES.md's scoring lines (under la setenta the fourth is
«setenta», `sevens_line(rules)`), counted on the piles *without* the
leftover, plus `leftover`: what the table left at the end of the round
(ÚLTIMAS) added to the last capturer's side, every line at once. So a cost
that comes from handing the leftover to the other side shows on its own
line, and the six lines of a side always add up to its points.

A round not played to its end (a playout cut short) is scored as
`policy.expected_points` scores it, line by line; its leftover line is 0.
"""

from __future__ import annotations

from typing import Final

from escoba.bots.policy import _majority
from escoba.bots.sim import SEVEN_D, RoundSim, _leaders, _most
from escoba.engine.cards import IS_DIAMOND, IS_SEVEN
from escoba.engine.rules import RuleSet

#: The scoring lines, in the order a round's summary lists them; index 3 is
#: «setenta» instead of «sevens» under la setenta (`sevens_line`).
LINES: Final = ("escobas", "cards", "diamonds", "sevens", "seven_of_diamonds", "leftover")
LINE_NAMES: Final = (*LINES, "setenta")
SEVENS = 3
LEFTOVER = 5


def sevens_line(rules: RuleSet) -> str:
    return "setenta" if rules.setenta else "sevens"


def line_names(rules: RuleSet) -> tuple[str, ...]:
    """The lines of a round under `rules`, in `LINES`' order."""
    return tuple(sevens_line(rules) if i == SEVENS else name for i, name in enumerate(LINES))


def line_points(sim: RoundSim) -> list[list[float]]:
    """Each side's points by line (`LINES`' order); they add up to the
    side's `sim.points()` when the round is over, else to
    `policy.expected_points(sim)`. (Called once per playout of an
    analysis: kept lean.)"""
    if not sim.over:
        return _expected(sim)
    left = sim.leftover
    seven_d = sim.seven_d
    if not left or sim.last < 0:
        return _scored(sim, sim.cards, sim.diamonds, sim.sevens, seven_d, sim.best)
    side = sim.side[sim.last]
    cards = sim.cards[:]
    diamonds = sim.diamonds[:]
    sevens = sim.sevens[:]
    cards[side] -= len(left)
    for c in left:
        if IS_DIAMOND[c]:
            diamonds[side] -= 1
        if IS_SEVEN[c]:
            sevens[side] -= 1
        if c == SEVEN_D:
            seven_d = -1
    best = sim.best
    if best:
        best = best[:]
        best[side] = sim.leftover_best
    lines = _scored(sim, cards, diamonds, sevens, seven_d, best)
    total = sim.points()
    for s, side_lines in enumerate(lines):
        side_lines[LEFTOVER] = total[s] - sum(side_lines)
    return lines


def _scored(
    sim: RoundSim,
    cards: list[int],
    diamonds: list[int],
    sevens: list[int],
    seven_d: int,
    best: list[list[int]],
) -> list[list[float]]:
    """`RoundSim.points` line by line, on the tallies given."""
    nsides = sim.nsides
    rules = sim.rules
    out = [[float(e), 0.0, 0.0, 0.0, 0.0, 0.0] for e in sim.escobas]
    if not (rules.setenta or rules.ties == "each"):
        top = _most(cards)
        if top >= 0:
            under_ten = all(cards[s] < 10 for s in range(nsides) if s != top)
            out[top][1] = 2.0 if under_ten else 1.0
        top = _most(diamonds)
        if top >= 0:
            out[top][2] = 2.0 if diamonds[top] == 10 else 1.0
        top = _most(sevens)
        if top >= 0:
            out[top][SEVENS] = 2.0 if sevens[top] == 4 else 1.0
    else:
        each = rules.ties == "each"
        tops = _leaders(cards, each)
        for top in tops:
            under_ten = len(tops) == 1 and all(cards[s] < 10 for s in range(nsides) if s != top)
            out[top][1] += 2 if under_ten else 1
        for top in _leaders(diamonds, each):
            out[top][2] += 2 if diamonds[top] == 10 else 1
        if best:
            setentas = [0 if 0 in b else sum(b) for b in best]
            for top in _leaders(setentas, each):
                out[top][SEVENS] += 1
        else:
            for top in _leaders(sevens, each):
                out[top][SEVENS] += 2 if sevens[top] == 4 else 1
    if seven_d >= 0:
        out[seven_d][4] += 1
    return out


def _expected(sim: RoundSim) -> list[list[float]]:
    """`policy.expected_points` line by line."""
    nsides = sim.nsides
    out = []
    for s in range(nsides):
        seven = 1.0 if sim.seven_d == s else 1.0 / nsides if sim.seven_d < 0 else 0.0
        out.append(
            [
                float(sim.escobas[s]),
                _majority(sim.cards, 40, s),
                _majority(sim.diamonds, 10, s),
                _majority(sim.sevens, 4, s),
                seven,
                0.0,
            ]
        )
    return out
