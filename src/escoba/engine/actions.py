"""Moves as data: what a player can do on a turn, and what a round records.

`Play(card, capture)` plays a card from the hand: with a `capture` group it is
LLEVAR, with an empty one it is DEJAR EN LA MESA. `Claim(group)` is «LLEVAR EL
15»: it takes the card the previous player left plus `group`, other table cards
that make 15 with it. Both keep their card groups in canonical order so that
equal moves compare equal whatever order a client sent.

A claim names the group only (the left card is the table's, not the
player's choice: the pages' form sends the group); wherever the cards a
claim takes are listed (the round's history and the record, the API's
legal actions and commands, the analysis) they are `claim_cards`: the left
card first, then the group, and `claim_of` reads them back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from escoba.engine.cards import NOTATION, Card, cards_str, parse_card, parse_cards
from escoba.engine.errors import IllegalAction, InputError


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


def claim_cards(left: Card, claim: Claim) -> tuple[Card, ...]:
    """Every card `claim` takes, `left` (the card left on a 15) first: a
    claim as every list of cards taken spells it."""
    return (left, *claim.group)


def claim_of(left: Card | None, cards: Sequence[Card]) -> Claim:
    """The claim that takes `cards` (spelt as `claim_cards` spells it, in
    any order), `left` being the card left on a 15 now (None: none). A
    claim of no card, or with no card left, is made as it is, for the rules
    to say why it cannot be; one without `left` is refused here
    (`claim_missing_card`)."""
    if left is None or not cards:
        return make_claim(list(cards))
    if left not in cards:
        raise IllegalAction("claim_missing_card", card=NOTATION[left])
    return make_claim([c for c in cards if c != left])


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
