"""What a card is called on screen, in each deck design.

The rules only know values and suits (`escoba.engine.cards`); a viewer picks
the design they see. In the French design the diamonds are the oros, so the
`D` of the notation reads «diamantes» in one design and «oros» in the other.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Design(StrEnum):
    FRENCH = "french"
    SPANISH = "spanish"


DEFAULT_DESIGN: Final = Design.FRENCH

#: Suit names by suit index (D H S C), per design.
SUIT_NAMES: Final[dict[Design, tuple[str, str, str, str]]] = {
    Design.FRENCH: ("diamantes", "corazones", "picas", "tréboles"),
    Design.SPANISH: ("oros", "copas", "espadas", "bastos"),
}

#: Rank names by capture value (index 0 unused), per design.
_RANK_NAMES: Final[dict[Design, tuple[str, ...]]] = {
    Design.FRENCH: ("", "as", "2", "3", "4", "5", "6", "7", "reina", "jota", "rey"),
    Design.SPANISH: (
        "",
        "as",
        "dos",
        "tres",
        "cuatro",
        "cinco",
        "seis",
        "siete",
        "sota",
        "caballo",
        "rey",
    ),
}

#: What the card's corner shows, by capture value (index 0 unused).
_CORNER: Final[dict[Design, tuple[str, ...]]] = {
    Design.FRENCH: ("", "A", "2", "3", "4", "5", "6", "7", "Q", "J", "K"),
    Design.SPANISH: ("", "1", "2", "3", "4", "5", "6", "7", "S", "C", "R"),
}

#: The game's words for the four scoring items that depend on the design.
_DIAMONDS_WORD: Final = {Design.FRENCH: "diamantes", Design.SPANISH: "oros"}
_SEVEN_OF_DIAMONDS: Final = {
    Design.FRENCH: "siete de diamantes",
    Design.SPANISH: "siete de oros",
}

DESIGN_LABELS: Final[dict[Design, str]] = {
    Design.FRENCH: "Francesa",
    Design.SPANISH: "Española",
}


def parse_design(text: str | None) -> Design:
    """A design from a cookie or form value; anything unknown is the default."""
    try:
        return Design(text) if text else DEFAULT_DESIGN
    except ValueError:
        return DEFAULT_DESIGN


def _value_suit(card: int) -> tuple[int, int]:
    if not 0 <= card < 40:
        raise ValueError(f"no such card: {card}")
    return card // 4 + 1, card % 4


def card_name(card: int, design: Design = DEFAULT_DESIGN) -> str:
    """«7 de diamantes», «rey de picas» (French); «siete de oros» (Spanish)."""
    value, suit = _value_suit(card)
    return f"{_RANK_NAMES[design][value]} de {SUIT_NAMES[design][suit]}"


def rank_label(card: int, design: Design = DEFAULT_DESIGN) -> str:
    """The short rank in the card's corner: A, 2..7, Q, J, K or 1..7, S, C, R."""
    value, _ = _value_suit(card)
    return _CORNER[design][value]


def suit_name(card: int, design: Design = DEFAULT_DESIGN) -> str:
    _, suit = _value_suit(card)
    return SUIT_NAMES[design][suit]


def is_face(card: int) -> bool:
    """Q/J/K (sota/caballo/rey): the cards that carry a value mark."""
    return card // 4 + 1 >= 8


def cards_phrase(cards: tuple[int, ...] | list[int], design: Design = DEFAULT_DESIGN) -> str:
    """«7 de diamantes, 3 de picas y 5 de corazones»."""
    names = [card_name(c, design) for c in cards]
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} y {names[-1]}"


def diamonds_word(design: Design = DEFAULT_DESIGN) -> str:
    return _DIAMONDS_WORD[design]


def seven_of_diamonds_name(design: Design = DEFAULT_DESIGN) -> str:
    return _SEVEN_OF_DIAMONDS[design]


def the_card(card: int, design: Design = DEFAULT_DESIGN) -> str:
    """The name with its article: «el 7 de diamantes», «la reina de picas»,
    «la sota de copas», «el caballo de bastos»."""
    value, _ = _value_suit(card)
    feminine = value == 8 or (design is Design.FRENCH and value == 9)
    return f"{'la' if feminine else 'el'} {card_name(card, design)}"
