"""Cards: how the API writes a card (7D: the value, then the suit), and the
check that a string names one of the 40."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    BeforeValidator,
    Field,
)
from pydantic_core import PydanticCustomError

from escoba.engine.cards import NOTATION

#: The notation of RULES.md: value 1-10, then the suit (D H S C).
CARD_PATTERN = r"^(10|[1-9])[DHSC]$"
_CARD_NOTATIONS = frozenset(NOTATION)

Card = Annotated[
    str,
    Field(
        pattern=CARD_PATTERN,
        description="A card in the notation of RULES.md: `7D`, `10S`.",
        examples=["7D"],
    ),
]


def _card_in(value: Any) -> Any:
    """A card of a command: in the notation, exactly (the answers' own), or a
    422 `invalid` that says how a card is written, whatever is wrong with it."""
    if isinstance(value, str) and value not in _CARD_NOTATIONS:
        raise PydanticCustomError(
            "card", "«{text}» no es una carta (se escribe valor y palo: 7D, 10S)", {"text": value}
        )
    return value


CardIn = Annotated[Card, BeforeValidator(_card_in)]
Cards = Annotated[list[Card], Field(max_length=40)]
CardsIn = Annotated[list[CardIn], Field(max_length=40)]
