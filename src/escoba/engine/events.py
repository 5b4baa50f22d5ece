"""What an action caused, as public facts: every event may be shown to every
seat and spectator (no event carries a hand or the deck)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from escoba.engine.cards import NOTATION, Card, cards_str

if TYPE_CHECKING:
    from escoba.engine.state import Result, RoundSummary


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card played from a hand: captured a group, or left on the table."""

    kind: ClassVar[str] = "play"
    seat: int
    card: Card
    capture: tuple[Card, ...]
    escoba: bool
    fifteen_left: bool  # the card could have made 15: LLEVAR EL 15 opens

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "card": NOTATION[self.card],
            "capture": cards_str(self.capture),
            "escoba": self.escoba,
            "fifteen_left": self.fifteen_left,
        }


@dataclass(frozen=True, slots=True)
class FifteenClaimed(Event):
    kind: ClassVar[str] = "claim"
    seat: int
    cards: tuple[Card, ...]  # every card taken, the left card first
    escoba: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "cards": cards_str(self.cards),
            "escoba": self.escoba,
        }


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A new deal of 3 cards each (the cards themselves are private)."""

    kind: ClassVar[str] = "deal"
    number: int
    last: bool  # ÚLTIMAS

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "number": self.number, "last": self.last}


@dataclass(frozen=True, slots=True)
class TableTaken(Event):
    """The first four table cards made 15 (1 escoba) or 30 (¡ESCOBA DOBLE!)."""

    kind: ClassVar[str] = "table_take"
    seat: int
    cards: tuple[Card, ...]
    escobas: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "cards": cards_str(self.cards),
            "escobas": self.escobas,
        }


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    kind: ClassVar[str] = "round_end"
    summary: RoundSummary

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "round": self.summary.number}


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_end"
    result: Result

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "result": self.result.to_dict()}
