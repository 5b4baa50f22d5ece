"""What a captured card is worth, in round points: the one price list of every
robot, the playout policy and Carmen's judgement.

A round is worth about 10 points shared by the sides: 1 for most cards (of 40),
1 for most diamonds (of 10), 1 for most sevens (of 4), 1 for the 7 of
diamonds, and the escobas. A captured card is therefore worth roughly its
share of the items it counts for: `card_gains` below, `CARD_GAIN` at the
weights of a round not yet decided.

Under la setenta (a house rule) «most sevens» is gone: its one point goes to
the side whose best card of each suit sums highest, so a seven is worth less
than under «most sevens» (no double for all four), a six and an ace count
too, and the rest hardly: `SETENTA_GAIN`. `gains_for(rules)` is the price
list of a table's rules.
"""

from __future__ import annotations

from typing import Final

from escoba.engine.cards import IS_DIAMOND, IS_SEVEN, SEVEN_OF_DIAMONDS, VALUE
from escoba.engine.rules import RuleSet

W_CARD: Final = 0.12
W_DIAMOND: Final = 0.2
W_SEVEN: Final = 0.4
W_SEVEN_D: Final = 1.0
W_ESCOBA: Final = 1.0
#: La setenta's point shared out by capture value, as a fraction of
#: `W_SEVEN`'s scale: the sevens decide it most often (21 against 18), then
#: the sixes and the aces; a 5 or less rarely matters.
SETENTA_GAIN: Final[dict[int, float]] = {7: 0.3, 6: 0.12, 1: 0.06, 5: 0.03}


def card_gains(
    w_card: float = W_CARD,
    w_diamond: float = W_DIAMOND,
    w_seven: float = W_SEVEN,
    setenta: bool = False,
) -> tuple[float, ...]:
    """Each card's worth (by card number) when a card, a diamond and a seven
    are worth these; the 7 of diamonds always adds `W_SEVEN_D`. Under la
    setenta the sevens' share is `SETENTA_GAIN` scaled by `w_seven`."""
    scale = w_seven / W_SEVEN
    return tuple(
        w_card
        + (w_diamond if IS_DIAMOND[c] else 0.0)
        + (
            scale * SETENTA_GAIN.get(VALUE[c], 0.0)
            if setenta
            else (w_seven if IS_SEVEN[c] else 0.0)
        )
        + (W_SEVEN_D if c == SEVEN_OF_DIAMONDS else 0.0)
        for c in range(40)
    )


CARD_GAIN: Final[tuple[float, ...]] = card_gains()
SETENTA_CARD_GAIN: Final[tuple[float, ...]] = card_gains(setenta=True)


def gains_for(rules: RuleSet) -> tuple[float, ...]:
    """The price list of a table's rules (ties and the other variants do not
    change what a card is worth)."""
    return SETENTA_CARD_GAIN if rules.setenta else CARD_GAIN
