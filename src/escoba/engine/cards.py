"""Cards, the deck and the card notation of RULES.md (`7D`, `10S`).

A card is a small int (0..39) so that the hot paths of robot search stay cheap,
wrapped in `Card`, an `int` subclass whose 40 instances are made once and
reused: `str(card)` is its notation and `card.value` its capture value.
Cards are numbered value-major (`(value - 1) * 4 + suit`), so sorting cards
sorts them by capture value: `capture_groups` relies on that.
Display names (French or Spanish design) live in `escoba.names`, not here:
the rules only know values and suits.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final

from escoba.engine.errors import InputError

#: Suit letters in card-number order: diamonds (oros), hearts (copas),
#: spades (espadas), clubs (bastos).
SUITS: Final = ("D", "H", "S", "C")
DIAMONDS: Final = 0
FIFTEEN: Final = 15


class Card(int):
    """One of the 40 cards; `int(card) == (value - 1) * 4 + suit index`."""

    __slots__ = ()

    @property
    def value(self) -> int:
        """Capture value: A=1, 2..7, Q (sota)=8, J (caballo)=9, K (rey)=10."""
        return VALUE[self]

    @property
    def suit(self) -> str:
        return SUITS[self % 4]

    @property
    def is_diamond(self) -> bool:
        return self % 4 == DIAMONDS

    @property
    def is_seven(self) -> bool:
        return VALUE[self] == 7

    def __str__(self) -> str:
        return NOTATION[self]

    def __repr__(self) -> str:
        return NOTATION[self]


#: `VALUE[card]` is the card's capture value; a tuple index is the fastest
#: lookup Python has, and robot search does millions of them.
VALUE: Final[tuple[int, ...]] = tuple(i // 4 + 1 for i in range(40))
IS_DIAMOND: Final[tuple[bool, ...]] = tuple(i % 4 == DIAMONDS for i in range(40))
IS_SEVEN: Final[tuple[bool, ...]] = tuple(VALUE[i] == 7 for i in range(40))
NOTATION: Final[tuple[str, ...]] = tuple(f"{i // 4 + 1}{SUITS[i % 4]}" for i in range(40))
CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(40))
_BY_NOTATION: Final[dict[str, Card]] = {NOTATION[i]: CARDS[i] for i in range(40)}
SEVEN_OF_DIAMONDS: Final = CARDS[(7 - 1) * 4 + DIAMONDS]


class CardNotationError(InputError):
    """Raised for a string that is not a card of RULES.md's notation
    (code `not_a_card`, with the `text` given)."""


def parse_card(text: str) -> Card:
    """`"7D"` → the siete de oros. Accepts lower case and surrounding spaces."""
    card = _BY_NOTATION.get(text.strip().upper())
    if card is None:
        raise CardNotationError("not_a_card", text=text)
    return card


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts)


def card(value: int) -> Card:
    """The card whose int is `value`, as the shared instance."""
    return CARDS[value]


def cards_str(cards: Iterable[int]) -> list[str]:
    return [NOTATION[c] for c in cards]


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Canonical order: by card number (value, then suit D H S C)."""
    return tuple(sorted(cards))


def new_deck() -> list[Card]:
    return list(CARDS)


def shuffled_deck(rng: random.Random) -> tuple[Card, ...]:
    """A shuffled deck from an injected source: the server passes
    `random.SystemRandom()` (a CSPRNG), tests and simulations a seeded one."""
    deck = new_deck()
    rng.shuffle(deck)
    return tuple(deck)


def is_full_deck(cards: Sequence[int]) -> bool:
    return len(cards) == 40 and set(cards) == set(range(40))
