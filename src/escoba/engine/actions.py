"""Moves as data: what a player can do on a turn, and what a round records.

`Play(card, capture)` plays a card from the hand: with a `capture` group it is
LLEVAR, with an empty one it is DEJAR EN LA MESA. `Claim(group)` is «LLEVAR EL
15»: it takes the card the previous player left plus `group`, other table cards
that make 15 with it. Both keep their card groups in canonical order so that
equal moves compare equal whatever order a client sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from escoba.engine.cards import NOTATION, Card, cards_str, parse_card, parse_cards
from escoba.engine.errors import InputError


@dataclass(frozen=True, slots=True)
class Play:
    card: Card
    capture: tuple[Card, ...] = ()

    @property
    def leaves(self) -> bool:
        return not self.capture

    def sort_key(self) -> tuple[int, int, tuple[int, ...]]:
        return (1, int(self.card), tuple(int(c) for c in self.capture))

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "card": NOTATION[self.card], "capture": cards_str(self.capture)}

    def __str__(self) -> str:
        """For logs and `escoba demo`: English, like the code."""
        if not self.capture:
            return f"{NOTATION[self.card]} to the table"
        return f"{NOTATION[self.card]} takes {' '.join(cards_str(self.capture))}"


@dataclass(frozen=True, slots=True)
class Claim:
    group: tuple[Card, ...]

    def sort_key(self) -> tuple[int, int, tuple[int, ...]]:
        return (0, 0, tuple(int(c) for c in self.group))

    def to_dict(self) -> dict[str, Any]:
        return {"type": "claim", "group": cards_str(self.group)}

    def __str__(self) -> str:
        return f"LLEVAR EL 15 with {' '.join(cards_str(self.group))}"


Action = Play | Claim


def make_play(card: Card, capture: tuple[Card, ...] | list[Card] = ()) -> Play:
    return Play(card, tuple(sorted(capture)))


def make_claim(group: tuple[Card, ...] | list[Card]) -> Claim:
    return Claim(tuple(sorted(group)))


def action_from_dict(data: dict[str, Any]) -> Action:
    """Parse `{"type": "play", "card": "7D", "capture": ["8D"]}` or
    `{"type": "claim", "group": ["4S", "6C"]}`; raises `InputError` (a
    ValueError with a code for `escoba.words`) on anything else."""
    if not isinstance(data, dict):
        raise InputError("action_not_object")
    kind = data.get("type")
    if kind == "play":
        card_text = data.get("card")
        if not isinstance(card_text, str):
            raise InputError("action_without_card")
        capture = data.get("capture", [])
        if not isinstance(capture, list) or not all(isinstance(c, str) for c in capture):
            raise InputError("capture_not_a_list")
        return make_play(parse_card(card_text), parse_cards(capture))
    if kind == "claim":
        group = data.get("group")
        if not isinstance(group, list) or not all(isinstance(c, str) for c in group):
            raise InputError("claim_without_group")
        return make_claim(parse_cards(group))
    raise InputError("unknown_action_type")
