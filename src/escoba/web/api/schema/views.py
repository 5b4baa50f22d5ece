"""What a client gets: the view of one seat (its hand, the table, what was
played, the legal actions), never a card the seat may not see. Each model
is made from the engine's own value by its `of`: the answer is the model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
)
from pydantic.json_schema import SkipJsonSchema

from escoba.engine import Action as EngineAction
from escoba.engine import Card as EngineCard
from escoba.engine import (
    EndReason,
    Phase,
    Play,
    Result,
    RoundSummary,
    RuleSet,
    SideScore,
    View,
    claim_cards,
)
from escoba.engine.cards import NOTATION, cards_str
from escoba.engine.state import RoundAction, TableTake
from escoba.engine.view import SeatView
from escoba.web.api.schema.cards import Card, Cards


class Out(BaseModel):
    """An answer's object: exactly these fields (`additionalProperties` is
    false), so that the published schema is the whole answer. An answer is
    written with `exclude_unset` (`api.routes.answer`): a field with a
    default is left out unless its `of` set it."""

    model_config = ConfigDict(extra="forbid")


def published_in_order(*names: str) -> Callable[[dict[str, Any]], None]:
    """A schema's `json_schema_extra` that lists its fields in `names`'
    order: for a model whose answers write them in another (its fields'
    order), where the published document was made before it answered."""

    def reorder(schema: dict[str, Any]) -> None:
        shown = schema["properties"]
        schema["properties"] = {name: shown[name] for name in names}
        if "required" in schema:
            required = set(schema["required"])
            schema["required"] = [name for name in names if name in required]

    return reorder


class RulesOut(Out):
    """The table's rules (shared/RECORD.md, «The rules of the game»)."""

    target: int = Field(description="Points to win.")
    thirty_is_double: bool = Field(description="A first table of 30 is two escobas.")
    compulsory_capture: bool = Field(description="A player who can make 15 must capture.")
    setenta: bool = Field(description="La setenta replaces «most sevens».")
    ties: Literal["nobody", "each"] = Field(
        description="Who scores a tie for the most: nobody (the site's) or each tied side."
    )

    @classmethod
    def of(cls, rules: RuleSet) -> RulesOut:
        """The engine's rules, field by field (the same names)."""
        return cls.model_validate(rules, from_attributes=True)


class SeatCountsOut(Out):
    """What everyone sees of one seat this round."""

    seat: int = Field(description="The engine seat, in play order from 0.")
    side: int = Field(description="Its side (partners share one with four players).")
    hand_size: int
    captured: int = Field(description="Cards this seat took this round.")
    escobas: int = Field(description="Its escobas this round.")
    dealer: bool
    on_turn: bool

    @classmethod
    def of(cls, seat: SeatView) -> SeatCountsOut:
        return cls(
            seat=seat.seat,
            side=seat.side,
            hand_size=seat.hand_size,
            captured=seat.captured,
            escobas=seat.escobas,
            dealer=seat.is_dealer,
            on_turn=seat.on_turn,
        )


class PlayOut(Out):
    """A card played: LLEVAR (`capture` holds the table cards it took) or
    DEJAR EN LA MESA (`capture` empty)."""

    type: Literal["play"]
    card: Card
    capture: Cards


class ClaimOut(Out):
    """LLEVAR EL 15: `cards` is every card taken, the left card first."""

    type: Literal["claim"]
    cards: Cards


Action = Annotated[PlayOut | ClaimOut, Field(discriminator="type")]


def action_out(action: EngineAction, left: EngineCard | None) -> PlayOut | ClaimOut:
    """A legal action as a command names it (a claim: every card it takes,
    `left`, the view's `claimable`, first)."""
    if isinstance(action, Play):
        return PlayOut(type="play", card=NOTATION[action.card], capture=cards_str(action.capture))
    assert left is not None
    return ClaimOut(type="claim", cards=cards_str(claim_cards(left, action)))


class PlayedOut(Out):
    """A play of this round, as the game record has it."""

    # the seat first, as the record writes it; published in the order the
    # fields had when they came after `PlayOut`'s
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra=published_in_order("type", "card", "capture", "seat", "escoba"),
    )

    seat: int
    type: Literal["play"]
    card: Card
    capture: Cards
    escoba: bool = Field(description="It emptied the table.")


class ClaimedOut(Out):
    """A claim of this round, as the game record has it."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra=published_in_order("type", "cards", "seat", "escoba")
    )

    seat: int
    type: Literal["claim"]
    cards: Cards
    escoba: bool = Field(description="It emptied the table.")


Played = Annotated[PlayedOut | ClaimedOut, Field(discriminator="type")]


def played_out(action: RoundAction) -> PlayedOut | ClaimedOut:
    """An action of the round as the record writes it (the seat first)."""
    if action.kind == "claim":
        return ClaimedOut(
            seat=action.seat, type="claim", cards=cards_str(action.cards), escoba=action.escoba
        )
    return PlayedOut(
        seat=action.seat,
        type="play",
        card=NOTATION[action.card],
        capture=cards_str(action.cards),
        escoba=action.escoba,
    )


class TableTakeOut(Out):
    """The first four table cards made 15 (one escoba) or 30 (two, unless
    the rules say one): the dealer took them."""

    seat: int
    cards: Cards
    escobas: int

    @classmethod
    def of(cls, take: TableTake) -> TableTakeOut:
        return cls(seat=take.seat, cards=cards_str(take.cards), escobas=take.escobas)


class LeftoverOut(Out):
    """The cards left on the table at the end of a round, and who took them
    (`seat` null: nobody captured in the round)."""

    seat: int | None
    cards: Cards


def _no_default(schema: dict[str, Any]) -> None:
    """A field that some answers leave out, never null: no `default` shown."""
    schema.pop("default", None)


class LinesOut(Out):
    """The points each line of the round's summary gave the side, as its
    page shows them («22 → 1»); they add up to the side's `points`. The last
    line is `sevens`, or `setenta` under la setenta: one of the two."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"oneOf": [{"required": ["sevens"]}, {"required": ["setenta"]}]},
    )

    escobas: int = Field(description="One point an escoba.")
    cards: int = Field(description="The most cards.")
    diamonds: int = Field(description="The most diamonds (oros).")
    seven_of_diamonds: int = Field(description="The 7 of diamonds (el siete de oros).")
    sevens: int | SkipJsonSchema[None] = Field(
        default=None,
        json_schema_extra=_no_default,
        description="The most sevens; absent under la setenta (its line is `setenta`).",
    )
    setenta: int | SkipJsonSchema[None] = Field(
        default=None,
        json_schema_extra=_no_default,
        description="The best setenta, under la setenta only (absent otherwise): it "
        "replaces «most sevens».",
    )


class SideScoreOut(Out):
    """One side's counts after the leftover went to its taker, and the
    round's points."""

    escobas: int
    cards: int
    diamonds: int
    sevens: int
    seven_of_diamonds: bool
    points: int
    setenta: int | None = Field(
        default=None,
        description="Under la setenta only (absent otherwise): the side's setenta, or null "
        "when «coja» (no card of some suit).",
    )
    lines: LinesOut = Field(description="The round's points line by line.")

    @classmethod
    def of(cls, score: SideScore) -> SideScoreOut:
        """`setenta` set under la setenta only (absent otherwise)."""
        setenta = {"setenta": score.setenta} if score.setenta_rule else {}
        return cls(
            escobas=score.escobas,
            cards=score.cards,
            diamonds=score.diamonds,
            sevens=score.sevens,
            seven_of_diamonds=score.seven_of_diamonds,
            points=score.points,
            **setenta,
            lines=LinesOut(**score.lines),
        )


class LastRoundOut(Out):
    """The public summary of the last finished round (no deals: those were
    private)."""

    number: int
    dealer: int
    leftover: LeftoverOut
    sides: list[SideScoreOut] = Field(description="By side index.")
    totals: list[int] = Field(description="The running totals by side after the round.")

    @classmethod
    def of(cls, summary: RoundSummary) -> LastRoundOut:
        leftover = summary.leftover
        return cls(
            number=summary.number,
            dealer=summary.dealer,
            leftover=LeftoverOut(seat=leftover.seat, cards=cards_str(leftover.cards)),
            sides=[SideScoreOut.of(s) for s in summary.scores],
            totals=list(summary.totals),
        )


class ResultOut(Out):
    """How the game ended."""

    winners: list[int] = Field(description="Side indices; empty when nobody won.")
    reason: EndReason
    loser_seat: int | None = Field(
        default=None, description="Who left or was absent (only with `abandon` and `absence`)."
    )

    @classmethod
    def of(cls, result: Result) -> ResultOut:
        """`loser_seat` set only when someone left or was absent."""
        if result.loser_seat is None:
            return cls(winners=list(result.winners), reason=result.reason)
        return cls(winners=list(result.winners), reason=result.reason, loser_seat=result.loser_seat)


class ViewOut(Out):
    """What one seat may know of the game (a spectator's: `seat` null, no
    hand): another seat's hand and the deck never appear here."""

    seat: int | None = Field(description="Your engine seat; null for a spectator.")
    rules: RulesOut
    players: int
    phase: Phase = Field(
        description="`playing`; `round_over`: the summary is up, waiting for SIGUIENTE "
        "RONDA; `game_over`."
    )
    round: int = Field(description="The round's number, from 1.")
    dealer: int
    turn: int | None = Field(description="The seat that must act; null between rounds.")
    hand: Cards = Field(description="Your cards, sorted; empty for a spectator.")
    table: Cards = Field(description="The face-up cards on the table, sorted.")
    seats: list[SeatCountsOut]
    side_captured: list[int] = Field(description="Cards taken this round, by side.")
    side_escobas: list[int] = Field(description="Escobas this round, by side.")
    totals: list[int] = Field(description="Points by side after the finished rounds.")
    deck_size: int = Field(description="Cards still to be dealt.")
    deal: int = Field(description="The number of the deal in play in this round, from 1.")
    last_deal: bool = Field(description="ÚLTIMAS: the deal in play is the round's last.")
    claimable: Card | None = Field(
        description="The chance of LLEVAR EL 15: the card the previous player left although "
        "it made 15, while `claim_seat` may still take it (before playing a card); else null."
    )
    claim_seat: int | None = Field(description="The seat that may take `claimable`.")
    table_take: TableTakeOut | None
    history: list[Played] = Field(description="This round's public actions, in order.")
    last_round: LastRoundOut | None
    result: ResultOut | None = Field(description="Null while the game goes on.")
    legal_actions: list[Action] = Field(
        description="Your legal actions, sorted (claims first); empty when it is not your "
        "turn. Each one is a valid `action` of `POST /actions` as it is."
    )

    @classmethod
    def of(cls, view: View) -> ViewOut:
        take, last, result, left = view.table_take, view.last_round, view.result, view.claimable
        return cls(
            seat=view.seat,
            rules=RulesOut.of(view.rules),
            players=view.players,
            phase=view.phase,
            round=view.round_number,
            dealer=view.dealer,
            turn=view.turn,
            hand=cards_str(view.hand),
            table=cards_str(view.table),
            seats=[SeatCountsOut.of(s) for s in view.seats],
            side_captured=list(view.side_captured),
            side_escobas=list(view.side_escobas),
            totals=list(view.totals),
            deck_size=view.deck_size,
            deal=view.deal_number,
            last_deal=view.last_deal,
            claimable=None if left is None else NOTATION[left],
            claim_seat=view.claim_seat,
            table_take=None if take is None else TableTakeOut.of(take),
            history=[played_out(a) for a in view.history],
            last_round=None if last is None else LastRoundOut.of(last),
            result=None if result is None else ResultOut.of(result),
            legal_actions=[action_out(a, left) for a in view.legal],
        )
