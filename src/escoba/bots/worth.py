"""What a captured card is worth, in round points: the one price list of every
robot, the fast playout policy and Carmen's judgement.

A round is worth about 10 points shared by the sides: 1 for most cards (of 40),
1 for most diamonds (of 10), 1 for most sevens (of 4), 1 for the 7 of
diamonds, and the escobas. A captured card is therefore worth roughly its
share of the items it counts for: `card_gains` below, `CARD_GAIN` at the
weights of a round not yet decided.
"""

from __future__ import annotations

from typing import Final

from escoba.engine.cards import IS_DIAMOND, IS_SEVEN, SEVEN_OF_DIAMONDS

W_CARD: Final = 0.12
W_DIAMOND: Final = 0.2
W_SEVEN: Final = 0.4
W_SEVEN_D: Final = 1.0
W_ESCOBA: Final = 1.0


def card_gains(
    w_card: float = W_CARD, w_diamond: float = W_DIAMOND, w_seven: float = W_SEVEN
) -> tuple[float, ...]:
    """Each card's worth (by card number) when a card, a diamond and a seven
    are worth these; the 7 of diamonds always adds `W_SEVEN_D`."""
    return tuple(
        w_card
        + (w_diamond if IS_DIAMOND[c] else 0.0)
        + (w_seven if IS_SEVEN[c] else 0.0)
        + (W_SEVEN_D if c == SEVEN_OF_DIAMONDS else 0.0)
        for c in range(40)
    )


CARD_GAIN: Final[tuple[float, ...]] = card_gains()
