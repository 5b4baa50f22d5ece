"""What one seat (or a spectator) may know: the only thing bots, templates and
the API ever see. Another seat's hand and the deck never leave the engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from escoba.engine.actions import Action
from escoba.engine.cards import NOTATION, Card, cards_str
from escoba.engine.game import legal_actions
from escoba.engine.rules import RuleSet
from escoba.engine.seats import side_count, side_of
from escoba.engine.state import (
    GameState,
    Phase,
    Result,
    RoundAction,
    RoundSummary,
    TableTake,
)


@dataclass(frozen=True, slots=True)
class SeatView:
    """What every viewer sees of one seat: its cards in hand counted, its
    round so far, its part in the deal."""

    seat: int
    side: int
    hand_size: int
    captured: int  # cards this seat took this round
    escobas: int  # this round
    is_dealer: bool
    on_turn: bool


@dataclass(frozen=True, slots=True)
class View:
    """`seat` is None for a spectator, whose `hand` is empty."""

    seat: int | None
    rules: RuleSet
    players: int
    phase: Phase
    round_number: int
    dealer: int
    turn: int | None
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    seats: tuple[SeatView, ...]
    side_captured: tuple[int, ...]  # cards per side this round (partners pooled)
    side_escobas: tuple[int, ...]
    totals: tuple[int, ...]  # per side, after the finished rounds
    deck_size: int
    deal_number: int
    last_deal: bool  # ÚLTIMAS
    claimable: Card | None  # the card left on a 15, while its window is open
    claim_seat: int | None  # who may take it (the seat on turn)
    table_take: TableTake | None
    history: tuple[RoundAction, ...]  # the round's public plays, in order
    last_round: RoundSummary | None
    result: Result | None
    legal: tuple[Action, ...]  # this seat's legal actions (empty if not on turn)

    @property
    def sides(self) -> int:
        return side_count(self.players)

    @property
    def my_side(self) -> int | None:
        return None if self.seat is None else side_of(self.seat, self.players)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat

    @property
    def can_claim(self) -> bool:
        return self.my_turn and self.claimable is not None and self.claim_seat == self.seat

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form, for the API and the record of what clients got."""
        last = self.last_round
        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "phase": self.phase.value,
            "round": self.round_number,
            "dealer": self.dealer,
            "turn": self.turn,
            "hand": cards_str(self.hand),
            "table": cards_str(self.table),
            "seats": [
                {
                    "seat": s.seat,
                    "side": s.side,
                    "hand_size": s.hand_size,
                    "captured": s.captured,
                    "escobas": s.escobas,
                    "dealer": s.is_dealer,
                    "on_turn": s.on_turn,
                }
                for s in self.seats
            ],
            "side_captured": list(self.side_captured),
            "side_escobas": list(self.side_escobas),
            "totals": list(self.totals),
            "deck_size": self.deck_size,
            "deal": self.deal_number,
            "last_deal": self.last_deal,
            "claimable": None if self.claimable is None else NOTATION[self.claimable],
            "claim_seat": self.claim_seat,
            "table_take": None if self.table_take is None else self.table_take.to_dict(),
            "history": [a.to_dict() for a in self.history],
            "last_round": None if last is None else round_summary_dict(last),
            "result": None if self.result is None else self.result.to_dict(),
            "legal_actions": [a.to_dict() for a in self.legal],
        }


def round_summary_dict(summary: RoundSummary) -> dict[str, Any]:
    """The public summary of a finished round (no deals: those were private)."""
    return {
        "number": summary.number,
        "dealer": summary.dealer,
        "leftover": summary.leftover.to_dict(),
        # each side's points line by line too (they add up to its `points`)
        "sides": [s.to_dict() | {"lines": s.lines} for s in summary.scores],
        "totals": list(summary.totals),
    }


def view(state: GameState, seat: int | None) -> View:
    """What `seat` sees; `seat=None` is a spectator."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError("no such seat")
    rs = state.round
    players = state.players
    turn = state.turn
    n_sides = side_count(players)
    side_captured = [0] * n_sides
    side_escobas = [0] * n_sides
    for s in range(players):
        side_captured[side_of(s, players)] += len(rs.captured[s])
        side_escobas[side_of(s, players)] += rs.escobas[s]
    claim = rs.claim if state.phase is Phase.PLAYING else None
    legal: tuple[Action, ...] = ()
    if seat is not None and turn == seat:
        legal = tuple(legal_actions(state))
    return View(
        seat=seat,
        rules=state.rules,
        players=players,
        phase=state.phase,
        round_number=rs.number,
        dealer=rs.dealer,
        turn=turn,
        hand=tuple(sorted(rs.hands[seat])) if seat is not None else (),
        table=rs.table,
        seats=tuple(
            SeatView(
                seat=s,
                side=side_of(s, players),
                hand_size=len(rs.hands[s]),
                captured=len(rs.captured[s]),
                escobas=rs.escobas[s],
                is_dealer=s == rs.dealer,
                on_turn=s == turn,
            )
            for s in range(players)
        ),
        side_captured=tuple(side_captured),
        side_escobas=tuple(side_escobas),
        totals=state.totals,
        deck_size=len(rs.deck),
        deal_number=rs.deal_number,
        last_deal=rs.is_last_deal,
        claimable=None if claim is None else claim.card,
        claim_seat=None if claim is None else claim.seat,
        table_take=rs.table_take,
        history=rs.history,
        last_round=state.last_summary,
        result=state.result,
        legal=legal,
    )


def spectator_view(state: GameState) -> View:
    return view(state, None)
