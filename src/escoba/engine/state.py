"""Immutable game state: frozen values for a whole game, from the first deal
to the result. Nothing here changes a state; `escoba.engine.game` makes new
ones."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from escoba.engine.cards import NOTATION, Card, cards_str
from escoba.engine.rules import RuleSet
from escoba.engine.seats import side_count, side_of


class Phase(StrEnum):
    PLAYING = "playing"
    ROUND_OVER = "round_over"  # the summary is up; waiting for SIGUIENTE RONDA
    GAME_OVER = "game_over"


class EndReason(StrEnum):
    TARGET = "target"
    ABANDON = "abandon"
    ABSENCE = "absence"
    EXPIRED = "expired"


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal: 3 cards to each seat, and the 4 face-up cards on the first."""

    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    last: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": {str(s): cards_str(h) for s, h in enumerate(self.hands)},
            "table": cards_str(self.table),
            "last": self.last,
        }


@dataclass(frozen=True, slots=True)
class TableTake:
    seat: int
    cards: tuple[Card, ...]
    escobas: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "cards": cards_str(self.cards), "escobas": self.escobas}


@dataclass(frozen=True, slots=True)
class RoundAction:
    """One public step of a round, as the record and the views show it.
    `kind` is "play" or "claim"; for a claim, `cards` lists every card taken
    with the left card first, and `card` is that left card."""

    seat: int
    kind: str
    card: Card
    cards: tuple[Card, ...]  # play: the capture group; claim: all cards taken
    escoba: bool

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "claim":
            return {
                "seat": self.seat,
                "type": "claim",
                "cards": cards_str(self.cards),
                "escoba": self.escoba,
            }
        return {
            "seat": self.seat,
            "type": "play",
            "card": NOTATION[self.card],
            "capture": cards_str(self.cards),
            "escoba": self.escoba,
        }


@dataclass(frozen=True, slots=True)
class ClaimWindow:
    """The card a player just left although it made 15: only `seat` (the next
    player) may take that 15, on this turn, before playing a card."""

    card: Card
    seat: int


#: the round summary's lines by name, in `SideScore.line_points`' order
LINES: Final = ("escobas", "cards", "diamonds", "seven_of_diamonds", "sevens")
LINES_SETENTA: Final = (*LINES[:-1], "setenta")


@dataclass(frozen=True, slots=True)
class SideScore:
    escobas: int
    cards: int
    diamonds: int
    sevens: int
    seven_of_diamonds: bool
    points: int
    # the points item by item, for the round summary
    points_escobas: int = 0
    points_cards: int = 0
    points_diamonds: int = 0
    points_seven_of_diamonds: int = 0
    points_sevens: int = 0
    # la setenta (a house rule): `setenta_rule` is true when it replaced «most
    # sevens», and then `points_sevens` is the setenta line's; `setenta` is
    # the side's sum, None when the side is «coja» (missing a suit)
    setenta_rule: bool = False
    setenta: int | None = None

    @property
    def line_points(self) -> tuple[int, int, int, int, int]:
        """The points of each line of the round summary, in its order
        (escobas, cards, diamonds, the 7 of diamonds, sevens): they add up to
        `points`, so the summary shows what each line gave, not only counts."""
        return (
            self.points_escobas,
            self.points_cards,
            self.points_diamonds,
            self.points_seven_of_diamonds,
            self.points_sevens,
        )

    @property
    def lines(self) -> dict[str, int]:
        """`line_points` by name, as the API's round score carries them; the
        last line is «setenta» under la setenta, «sevens» otherwise (the
        names of the counts in `to_dict`)."""
        names = LINES_SETENTA if self.setenta_rule else LINES
        return dict(zip(names, self.line_points, strict=True))

    def to_dict(self) -> dict[str, Any]:
        return {
            "escobas": self.escobas,
            "cards": self.cards,
            "diamonds": self.diamonds,
            "sevens": self.sevens,
            "seven_of_diamonds": self.seven_of_diamonds,
            "points": self.points,
        } | ({"setenta": self.setenta} if self.setenta_rule else {})


@dataclass(frozen=True, slots=True)
class Leftover:
    seat: int | None  # None: nobody captured in the round, the cards go to nobody
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "cards": cards_str(self.cards)}


@dataclass(frozen=True, slots=True)
class RoundSummary:
    number: int
    dealer: int
    deals: tuple[Deal, ...]
    table_take: TableTake | None
    actions: tuple[RoundAction, ...]
    leftover: Leftover
    scores: tuple[SideScore, ...]  # per side
    totals: tuple[int, ...]  # per side, after this round


@dataclass(frozen=True, slots=True)
class Result:
    winners: tuple[int, ...]  # side indices; empty when nobody won
    reason: EndReason
    loser_seat: int | None = None  # who left or was absent

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winners": list(self.winners), "reason": self.reason.value}
        if self.loser_seat is not None:
            out["loser_seat"] = self.loser_seat
        return out


@dataclass(frozen=True, slots=True)
class RoundState:
    number: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]  # per seat
    table: tuple[Card, ...]
    deck: tuple[Card, ...]  # still to be dealt, in dealing order
    deals: tuple[Deal, ...]
    captured: tuple[tuple[Card, ...], ...]  # per seat
    escobas: tuple[int, ...]  # per seat
    turn: int
    last_capturer: int | None
    claim: ClaimWindow | None
    table_take: TableTake | None
    history: tuple[RoundAction, ...]

    @property
    def is_last_deal(self) -> bool:
        """ÚLTIMAS: the deal in play is the last one of the round."""
        return not self.deck

    @property
    def deal_number(self) -> int:
        return len(self.deals)


@dataclass(frozen=True, slots=True)
class GameState:
    rules: RuleSet
    players: int
    first_dealer: int
    phase: Phase
    round: RoundState
    totals: tuple[int, ...]  # per side, after the finished rounds
    finished_rounds: tuple[RoundSummary, ...]
    result: Result | None

    @property
    def sides(self) -> int:
        return side_count(self.players)

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.players)

    @property
    def turn(self) -> int | None:
        """The seat that must act, or None between rounds and after the game."""
        return self.round.turn if self.phase is Phase.PLAYING else None

    @property
    def last_summary(self) -> RoundSummary | None:
        return self.finished_rounds[-1] if self.finished_rounds else None
