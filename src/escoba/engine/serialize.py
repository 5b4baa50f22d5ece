"""A whole `GameState` as JSON-ready data and back, deck included: for the
server's own storage only. It holds every hidden card, so it must never be sent
to a client (clients get `view`s)."""

from __future__ import annotations

from typing import Any

from escoba.engine.cards import CARDS, Card
from escoba.engine.rules import RuleSet
from escoba.engine.state import (
    ClaimWindow,
    Deal,
    EndReason,
    GameState,
    Leftover,
    Phase,
    Result,
    RoundAction,
    RoundState,
    RoundSummary,
    SideScore,
    TableTake,
)


def _c(cards: tuple[Card, ...]) -> list[int]:
    return [int(c) for c in cards]


def _cards(data: list[int]) -> tuple[Card, ...]:
    return tuple(CARDS[i] for i in data)


def _deal(d: Deal) -> dict[str, Any]:
    return {"hands": [_c(h) for h in d.hands], "table": _c(d.table), "last": d.last}


def _deal_from(d: dict[str, Any]) -> Deal:
    return Deal(
        hands=tuple(_cards(h) for h in d["hands"]), table=_cards(d["table"]), last=d["last"]
    )


def _take(t: TableTake | None) -> dict[str, Any] | None:
    return None if t is None else {"seat": t.seat, "cards": _c(t.cards), "escobas": t.escobas}


def _take_from(d: dict[str, Any] | None) -> TableTake | None:
    if d is None:
        return None
    return TableTake(seat=d["seat"], cards=_cards(d["cards"]), escobas=d["escobas"])


def _action(a: RoundAction) -> list[Any]:
    return [a.seat, a.kind, int(a.card), _c(a.cards), a.escoba]


def _action_from(d: list[Any]) -> RoundAction:
    return RoundAction(seat=d[0], kind=d[1], card=CARDS[d[2]], cards=_cards(d[3]), escoba=d[4])


def _score(s: SideScore) -> list[Any]:
    return [
        s.escobas,
        s.cards,
        s.diamonds,
        s.sevens,
        s.seven_of_diamonds,
        s.points,
        s.points_escobas,
        s.points_cards,
        s.points_diamonds,
        s.points_seven_of_diamonds,
        s.points_sevens,
        s.setenta_rule,
        s.setenta,
    ]


def _score_from(d: list[Any]) -> SideScore:
    return SideScore(*d)


def _summary(s: RoundSummary) -> dict[str, Any]:
    return {
        "number": s.number,
        "dealer": s.dealer,
        "deals": [_deal(d) for d in s.deals],
        "table_take": _take(s.table_take),
        "actions": [_action(a) for a in s.actions],
        "leftover": {"seat": s.leftover.seat, "cards": _c(s.leftover.cards)},
        "scores": [_score(x) for x in s.scores],
        "totals": list(s.totals),
    }


def _summary_from(d: dict[str, Any]) -> RoundSummary:
    return RoundSummary(
        number=d["number"],
        dealer=d["dealer"],
        deals=tuple(_deal_from(x) for x in d["deals"]),
        table_take=_take_from(d["table_take"]),
        actions=tuple(_action_from(x) for x in d["actions"]),
        leftover=Leftover(seat=d["leftover"]["seat"], cards=_cards(d["leftover"]["cards"])),
        scores=tuple(_score_from(x) for x in d["scores"]),
        totals=tuple(d["totals"]),
    )


def _round(r: RoundState) -> dict[str, Any]:
    return {
        "number": r.number,
        "dealer": r.dealer,
        "hands": [_c(h) for h in r.hands],
        "table": _c(r.table),
        "deck": _c(r.deck),
        "deals": [_deal(d) for d in r.deals],
        "captured": [_c(c) for c in r.captured],
        "escobas": list(r.escobas),
        "turn": r.turn,
        "last_capturer": r.last_capturer,
        "claim": None if r.claim is None else [int(r.claim.card), r.claim.seat],
        "table_take": _take(r.table_take),
        "history": [_action(a) for a in r.history],
    }


def _round_from(d: dict[str, Any]) -> RoundState:
    claim = d["claim"]
    return RoundState(
        number=d["number"],
        dealer=d["dealer"],
        hands=tuple(_cards(h) for h in d["hands"]),
        table=_cards(d["table"]),
        deck=_cards(d["deck"]),
        deals=tuple(_deal_from(x) for x in d["deals"]),
        captured=tuple(_cards(c) for c in d["captured"]),
        escobas=tuple(d["escobas"]),
        turn=d["turn"],
        last_capturer=d["last_capturer"],
        claim=None if claim is None else ClaimWindow(card=CARDS[claim[0]], seat=claim[1]),
        table_take=_take_from(d["table_take"]),
        history=tuple(_action_from(x) for x in d["history"]),
    )


def _result(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "winners": list(result.winners),
        "reason": result.reason.value,
        "loser_seat": result.loser_seat,
    }


def _state(data: dict[str, Any], rounds: tuple[RoundSummary, ...]) -> GameState:
    res = data["result"]
    return GameState(
        rules=RuleSet.from_dict(data["rules"]),
        players=data["players"],
        first_dealer=data["first_dealer"],
        phase=Phase(data["phase"]),
        round=_round_from(data["round"]),
        totals=tuple(data["totals"]),
        finished_rounds=rounds,
        result=None
        if res is None
        else Result(
            winners=tuple(res["winners"]),
            reason=EndReason(res["reason"]),
            loser_seat=res["loser_seat"],
        ),
    )


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The whole state in one value (format 1)."""
    data = live_state_to_dict(state)
    del data["rounds"]
    data["v"] = 1
    data["finished_rounds"] = rounds_to_list(state.finished_rounds)
    return data


def state_from_dict(data: dict[str, Any]) -> GameState:
    if data.get("v") != 1:
        raise ValueError("unknown state format")
    return _state(data, rounds_from_list(data["finished_rounds"]))


# ---------------------------------------------------------------------------
# The server's storage in two parts: the finished rounds only change when a
# round ends, so they live apart from the state a move rewrites.

STORED_VERSION = 2


def rounds_to_list(rounds: tuple[RoundSummary, ...]) -> list[dict[str, Any]]:
    """The finished rounds of a game (stored apart from the rest)."""
    return [_summary(s) for s in rounds]


def rounds_from_list(data: list[dict[str, Any]]) -> tuple[RoundSummary, ...]:
    return tuple(_summary_from(s) for s in data)


def live_state_to_dict(state: GameState) -> dict[str, Any]:
    """Everything of `state` but its finished rounds, which it only counts:
    `state_from_parts` puts them back."""
    return {
        "v": STORED_VERSION,
        "rules": state.rules.to_dict(),
        "players": state.players,
        "first_dealer": state.first_dealer,
        "phase": state.phase.value,
        "round": _round(state.round),
        "totals": list(state.totals),
        "rounds": len(state.finished_rounds),
        "result": _result(state.result),
    }


def stored_rounds_count(data: dict[str, Any]) -> int:
    """How many finished rounds a stored live state goes with."""
    if data.get("v") == 1:
        return len(data["finished_rounds"])
    return int(data["rounds"])


def state_from_parts(data: dict[str, Any], rounds: tuple[RoundSummary, ...]) -> GameState:
    """The whole state from `live_state_to_dict` and its finished rounds (a
    whole state of format 1 is read as it is)."""
    if data.get("v") == 1:
        return state_from_dict(data)
    if data.get("v") != STORED_VERSION:
        raise ValueError("unknown state format")
    if len(rounds) != data["rounds"]:
        raise ValueError("the finished rounds do not match the state")
    return _state(data, rounds)
