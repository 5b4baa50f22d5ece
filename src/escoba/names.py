"""What a card is called on screen, in each deck design.

The rules only know values and suits (`escoba.engine.cards`); a viewer picks
the design they see. In the French design the diamonds are the oros, so the
`D` of the notation reads «diamantes» in one design and «oros» in the other.
Each language (`escoba.i18n`) has its own words for every design here, with
the article each noun takes, so that a message can say «la sota de copas».

The three designs (RULES.md, «Cards» and «Jota 8, reina 9»):

- French: Q = 8, J = 9, K = 10 («la reina de diamantes» is the 8D).
- Brazilian: the French faces swapped as many Brazilian tables play them,
  J = 8, Q = 9, K = 10 («la jota de oros» is the 8D, «la reina de oros» the
  9D). Its suits are named as Brazilians name them, ouros, copas, espadas and
  paus, which in Spanish are the oros, copas, espadas and bastos.
- Spanish: sota = 8, caballo = 9, rey = 10.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Design(StrEnum):
    """In the chooser's order: the French faces, the same swapped, the Spanish deck."""

    FRENCH = "french"
    BRAZILIAN = "brazilian"
    SPANISH = "spanish"


DEFAULT_DESIGN: Final = Design.FRENCH
DEFAULT_LANG: Final = "es"

#: Suit names by suit index (D H S C), per design, in Spanish.
SUIT_NAMES: Final[dict[Design, tuple[str, str, str, str]]] = {
    Design.FRENCH: ("diamantes", "corazones", "picas", "tréboles"),
    Design.SPANISH: ("oros", "copas", "espadas", "bastos"),
    Design.BRAZILIAN: ("oros", "copas", "espadas", "bastos"),
}


@dataclass(frozen=True, slots=True)
class Words:
    """How one language names the cards of one design."""

    suits: tuple[str, str, str, str]  # D H S C
    ranks: tuple[str, ...]  # by capture value, index 0 unused
    of: str  # «7 de diamantes», «7 of diamonds»
    articles: tuple[str, str]  # masculine, feminine (English: «the», «the»)
    feminine: frozenset[int]  # capture values whose noun is feminine
    diamonds: str
    seven_of_diamonds: str
    design_label: str


_ES_FRENCH_RANKS: Final = ("", "as", "2", "3", "4", "5", "6", "7", "reina", "jota", "rey")
_ES_BRAZILIAN_RANKS: Final = ("", "as", "2", "3", "4", "5", "6", "7", "jota", "reina", "rey")
_ES_SPANISH_RANKS: Final = (
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
)
_PT_SPANISH_RANKS: Final = (
    "",
    "ás",
    "dois",
    "três",
    "quatro",
    "cinco",
    "seis",
    "sete",
    "sota",
    "cavalo",
    "rei",
)
_EN_SPANISH_RANKS: Final = (
    "",
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "jack",
    "knight",
    "king",
)
_PT_SUITS: Final = ("ouros", "copas", "espadas", "paus")

#: Per language, per design. Brazilian players call diamonds «ouros» in both.
WORDS: Final[dict[str, dict[Design, Words]]] = {
    "es": {
        Design.FRENCH: Words(
            SUIT_NAMES[Design.FRENCH],
            _ES_FRENCH_RANKS,
            "de",
            ("el", "la"),
            frozenset({8, 9}),
            "diamantes",
            "siete de diamantes",
            "Francesa",
        ),
        Design.SPANISH: Words(
            SUIT_NAMES[Design.SPANISH],
            _ES_SPANISH_RANKS,
            "de",
            ("el", "la"),
            frozenset({8}),
            "oros",
            "siete de oros",
            "Española",
        ),
        Design.BRAZILIAN: Words(
            SUIT_NAMES[Design.BRAZILIAN],
            _ES_BRAZILIAN_RANKS,
            "de",
            ("el", "la"),
            frozenset({8, 9}),
            "oros",
            "siete de oros",
            "Brasileña",
        ),
    },
    "pt_BR": {
        Design.FRENCH: Words(
            _PT_SUITS,
            ("", "ás", "2", "3", "4", "5", "6", "7", "dama", "valete", "rei"),
            "de",
            ("o", "a"),
            frozenset({8}),
            "ouros",
            "sete de ouros",
            "Francês",
        ),
        Design.SPANISH: Words(
            _PT_SUITS,
            _PT_SPANISH_RANKS,
            "de",
            ("o", "a"),
            frozenset({8}),
            "ouros",
            "sete de ouros",
            "Espanhol",
        ),
        Design.BRAZILIAN: Words(
            _PT_SUITS,
            ("", "ás", "2", "3", "4", "5", "6", "7", "valete", "dama", "rei"),
            "de",
            ("o", "a"),
            frozenset({9}),
            "ouros",
            "sete de ouros",
            "Brasileiro",
        ),
    },
    "en": {
        Design.FRENCH: Words(
            ("diamonds", "hearts", "spades", "clubs"),
            ("", "ace", "2", "3", "4", "5", "6", "7", "queen", "jack", "king"),
            "of",
            ("the", "the"),
            frozenset(),
            "diamonds",
            "7 of diamonds",
            "French",
        ),
        Design.SPANISH: Words(
            ("coins", "cups", "swords", "clubs"),
            _EN_SPANISH_RANKS,
            "of",
            ("the", "the"),
            frozenset(),
            "coins",
            "seven of coins",
            "Spanish",
        ),
        Design.BRAZILIAN: Words(
            ("diamonds", "hearts", "spades", "clubs"),
            ("", "ace", "2", "3", "4", "5", "6", "7", "jack", "queen", "king"),
            "of",
            ("the", "the"),
            frozenset(),
            "diamonds",
            "7 of diamonds",
            "Brazilian",
        ),
    },
}


def words(design: Design = DEFAULT_DESIGN, lang: str = DEFAULT_LANG) -> Words:
    return WORDS.get(lang, WORDS[DEFAULT_LANG])[design]


#: What the card's corner shows, by capture value (index 0 unused).
_CORNER: Final[dict[Design, tuple[str, ...]]] = {
    Design.FRENCH: ("", "A", "2", "3", "4", "5", "6", "7", "Q", "J", "K"),
    Design.SPANISH: ("", "1", "2", "3", "4", "5", "6", "7", "S", "C", "R"),
    Design.BRAZILIAN: ("", "A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"),
}

DESIGN_LABELS: Final[dict[Design, str]] = {d: w.design_label for d, w in WORDS["es"].items()}


def parse_design(text: str | None) -> Design:
    """A design from a cookie; anything unknown is the default."""
    return chosen_design(text) or DEFAULT_DESIGN


def chosen_design(text: str | None) -> Design | None:
    """The design a form names, or None when it names none (a forged post)."""
    try:
        return Design(text) if text else None
    except ValueError:
        return None


def _value_suit(card: int) -> tuple[int, int]:
    if not 0 <= card < 40:
        raise ValueError(f"no such card: {card}")
    return card // 4 + 1, card % 4


def card_name(card: int, design: Design = DEFAULT_DESIGN, lang: str = DEFAULT_LANG) -> str:
    """«7 de diamantes», «rey de picas» (French); «siete de oros» (Spanish);
    «7 of diamonds», «dama de espadas» in the other languages."""
    value, suit = _value_suit(card)
    w = words(design, lang)
    return f"{w.ranks[value]} {w.of} {w.suits[suit]}"


def rank_label(card: int, design: Design = DEFAULT_DESIGN) -> str:
    """The short rank in the card's corner: A, 2..7, Q, J, K (French), J, Q,
    K (Brazilian) or 1..7, S, C, R (Spanish)."""
    value, _ = _value_suit(card)
    return _CORNER[design][value]


def is_face(card: int) -> bool:
    """The 8, 9 and 10 (Q/J/K, J/Q/K, sota/caballo/rey): the cards that carry
    a value mark."""
    return card // 4 + 1 >= 8


AND: Final[dict[str, str]] = {"es": "y", "pt_BR": "e", "en": "and"}


def and_list(items: list[str], lang: str = DEFAULT_LANG) -> str:
    """«a, b y c» («e», «and»)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {AND.get(lang, 'y')} {items[-1]}"


def cards_phrase(
    cards: tuple[int, ...] | list[int], design: Design = DEFAULT_DESIGN, lang: str = DEFAULT_LANG
) -> str:
    """«7 de diamantes, 3 de picas y 5 de corazones»."""
    return and_list([card_name(c, design, lang) for c in cards], lang)


def diamonds_word(design: Design = DEFAULT_DESIGN, lang: str = DEFAULT_LANG) -> str:
    return words(design, lang).diamonds


def seven_of_diamonds_name(design: Design = DEFAULT_DESIGN, lang: str = DEFAULT_LANG) -> str:
    return words(design, lang).seven_of_diamonds


def design_label(design: Design, lang: str = DEFAULT_LANG) -> str:
    return words(design, lang).design_label


def design_faces(design: Design, lang: str = DEFAULT_LANG) -> str:
    """What the design's faces are worth, in its own words, to tell the
    designs apart: «Reina 8, jota 9, rey 10», «Jota 8, reina 9, rey 10»,
    «Sota 8, caballo 9, rey 10»; «Valete 8, dama 9, rei 10»."""
    ranks = words(design, lang).ranks
    text = ", ".join(f"{ranks[value]} {value}" for value in (8, 9, 10))
    return text[:1].upper() + text[1:]


def the_card(card: int, design: Design = DEFAULT_DESIGN, lang: str = DEFAULT_LANG) -> str:
    """The name with its article: «el 7 de diamantes», «la reina de picas»,
    «la sota de copas», «el caballo de bastos»; «a dama de ouros»."""
    value, _ = _value_suit(card)
    w = words(design, lang)
    article = w.articles[1] if value in w.feminine else w.articles[0]
    return f"{article} {card_name(card, design, lang)}"


def the_cards(
    cards: tuple[int, ...] | list[int], design: Design = DEFAULT_DESIGN, lang: str = DEFAULT_LANG
) -> str:
    """Cards named with their articles, as a sentence says them: «el 4 de
    picas y el 6 de picas», «a dama de ouros e o 7 de paus», «the 4 of
    spades and the 6 of spades» (the play log: «lleva el 4 de picas…»)."""
    return and_list([the_card(c, design, lang) for c in cards], lang)
