"""The game record `escoba-record/1` (shared/RECORD.md): written from a game,
and replayed back into states by the engine itself, refusing any illegal step
or any figure that does not follow from the play."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from escoba.engine.actions import Action, Claim, make_claim, make_play
from escoba.engine.cards import CARDS, Card, CardNotationError, cards_str, parse_cards
from escoba.engine.errors import IllegalAction, InputError, RecordError
from escoba.engine.game import apply, end_game, new_game, start_next_round
from escoba.engine.rules import RuleSet
from escoba.engine.seats import side_of
from escoba.engine.state import (
    Deal,
    EndReason,
    GameState,
    Phase,
    RoundState,
    RoundSummary,
    TableTake,
)

FORMAT = "escoba-record/1"


def _round_dict(
    number: int,
    dealer: int,
    deals: Sequence[Deal],
    table_take: TableTake | None,
    actions: Sequence[Any],
    summary: RoundSummary | None,
    totals: Sequence[int],
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": number,
        "dealer": dealer,
        "deals": [d.to_dict() for d in deals],
        "table_take": None if table_take is None else table_take.to_dict(),
        "actions": [a.to_dict() for a in actions],
        "leftover": None,
        "score": None,
        "totals": list(totals),
        "finished": summary is not None,
    }
    if summary is not None:
        left = summary.leftover
        out["leftover"] = None if left.seat is None else left.to_dict()
        out["score"] = {"sides": [s.to_dict() for s in summary.scores]}
    return out


def to_record(state: GameState, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of a game so far (normally a finished one). A round cut short
    by leaving, absence or expiry is kept with `"finished": false`."""
    players = state.players
    names = list(names) if names is not None else [f"Jugador {s + 1}" for s in range(players)]
    rounds = [
        _round_dict(s.number, s.dealer, s.deals, s.table_take, s.actions, s, s.totals)
        for s in state.finished_rounds
    ]
    rs: RoundState = state.round
    if state.phase is Phase.PLAYING or (
        state.phase is Phase.GAME_OVER
        and (not state.finished_rounds or state.finished_rounds[-1].number != rs.number)
    ):
        rounds.append(
            _round_dict(
                rs.number, rs.dealer, rs.deals, rs.table_take, rs.history, None, state.totals
            )
        )
    return {
        "format": FORMAT,
        "target": state.rules.target,
        "rules": state.rules.to_dict(),
        "players": [
            {"seat": s, "name": names[s], "side": side_of(s, players)} for s in range(players)
        ],
        "rounds": rounds,
        "result": None if state.result is None else state.result.to_dict(),
    }


# --------------------------------------------------------------------------
# Replay


def _req(data: dict[str, Any], key: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise RecordError(f"missing field {key!r}")
    return data[key]


def _deck_from_deals(deals: list[Any], players: int, dealer: int) -> tuple[Card, ...]:
    """Rebuild the dealing order from the deals. Cards never dealt (a round cut
    short) are appended in card order: they were never seen, so any order is
    the same game."""
    if not isinstance(deals, list) or not deals:
        raise RecordError("a round needs its deals")
    order: list[Card] = []
    for i, deal in enumerate(deals):
        hands = _req(deal, "hands")
        if not isinstance(hands, dict):
            raise RecordError("deal hands must map seats to cards")
        for k in range(1, players + 1):
            seat = (dealer + k) % players
            cards = hands.get(str(seat))
            if not isinstance(cards, list) or len(cards) != 3:
                raise RecordError(f"deal {i + 1}: seat {seat} must receive 3 cards")
            order.extend(parse_cards(cards))
        table = deal.get("table", [])
        if i == 0:
            if not isinstance(table, list) or len(table) != 4:
                raise RecordError("the first deal puts 4 cards on the table")
            order.extend(parse_cards(table))
        elif table:
            raise RecordError("only the first deal puts cards on the table")
    if len(set(order)) != len(order):
        raise RecordError("a card was dealt twice")
    seen = set(order)
    order.extend(c for c in CARDS if c not in seen)
    return tuple(order)


def _action_of(data: dict[str, Any]) -> tuple[int, Action, bool]:
    seat = _req(data, "seat")
    if not isinstance(seat, int):
        raise RecordError("an action's seat must be a number")
    kind = _req(data, "type")
    if kind == "play":
        card = parse_cards([_req(data, "card")])[0]
        return seat, make_play(card, parse_cards(data.get("capture", []))), bool(data.get("escoba"))
    if kind == "claim":
        cards = parse_cards(_req(data, "cards"))
        if not cards:
            raise RecordError("a claim lists the cards it took")
        return seat, make_claim(cards[1:]), bool(data.get("escoba"))
    raise RecordError(f"unknown action type {kind!r}")


def replay_states(record: dict[str, Any]) -> Iterator[GameState]:
    """Every state of the recorded game, in order, checked step by step."""
    try:
        yield from _replay(record)
    except (CardNotationError, IllegalAction, TypeError, ValueError) as err:
        if isinstance(err, RecordError):
            raise
        detail = (
            f"{err.code} {err.params}" if isinstance(err, IllegalAction | InputError) else str(err)
        )
        raise RecordError(f"{type(err).__name__}: {detail}") from err


def _replay(record: dict[str, Any]) -> Iterator[GameState]:
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not an {FORMAT} record")
    named = record.get("rules", {})
    if not isinstance(named, dict):
        raise RecordError("rules must be an object")
    try:
        rules = RuleSet.from_dict({**named, "target": _req(record, "target")})
    except ValueError as exc:
        raise RecordError(f"bad rules: {exc}") from None
    players_list = _req(record, "players")
    if not isinstance(players_list, list):
        raise RecordError("players must be a list")
    players = len(players_list)
    rounds = _req(record, "rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("a record holds at least one round")
    state: GameState | None = None
    for i, rnd in enumerate(rounds):
        dealer = _req(rnd, "dealer")
        deck = _deck_from_deals(_req(rnd, "deals"), players, dealer)
        if state is None:
            state = new_game(rules, players, deck, first_dealer=dealer)
        else:
            if state.phase is not Phase.ROUND_OVER:
                raise RecordError(f"round {i + 1} starts before the game allows it")
            state, _ = start_next_round(state, deck)
            if state.round.dealer != dealer:
                raise RecordError(f"round {i + 1}: the deal passes to seat {state.round.dealer}")
        yield state
        _check_table_take(state, rnd.get("table_take"))
        for a in _req(rnd, "actions"):
            seat, action, escoba = _action_of(a)
            state, _ = apply(state, seat, action)
            recorded = state.round.history[-1]
            if isinstance(action, Claim) and recorded.card != parse_cards(a["cards"])[0]:
                raise RecordError(f"round {i + 1}: {a} does not take the card left before")
            if recorded.escoba != escoba:
                raise RecordError(f"round {i + 1}: the escoba flag of {a} is wrong")
            yield state
        if [d.to_dict() for d in state.round.deals] != rnd["deals"]:
            raise RecordError(f"round {i + 1}: the deals do not match the play")
        finished = rnd.get("finished", True)
        if finished:
            if state.phase is Phase.PLAYING:
                raise RecordError(f"round {i + 1} ends before its cards are played")
            _check_summary(state, rnd, i + 1)
        elif state.phase is not Phase.PLAYING:
            raise RecordError(f"round {i + 1} is marked unfinished but was played out")
    assert state is not None
    state = _check_result(state, record.get("result"))
    yield state


def _check_table_take(state: GameState, take: Any) -> None:
    actual = state.round.table_take
    if (actual.to_dict() if actual else None) != take:
        raise RecordError("the table take does not follow from the deal")


def _check_summary(state: GameState, rnd: dict[str, Any], number: int) -> None:
    summary = state.finished_rounds[-1]
    left = summary.leftover
    expected_left = None if left.seat is None else left.to_dict()
    if rnd.get("leftover") != expected_left:
        raise RecordError(f"round {number}: the leftover is wrong")
    score = _req(rnd, "score")
    if _req(score, "sides") != [s.to_dict() for s in summary.scores]:
        raise RecordError(f"round {number}: the score is wrong")
    if _req(rnd, "totals") != list(summary.totals):
        raise RecordError(f"round {number}: the totals are wrong")


def _check_result(state: GameState, result: Any) -> GameState:
    if result is None:
        if state.phase is Phase.GAME_OVER:
            raise RecordError("the game was won but the record has no result")
        return state
    reason = EndReason(_req(result, "reason"))
    if reason is EndReason.TARGET:
        if state.result is None:
            raise RecordError("the record claims a win on points that did not happen")
    else:
        if state.phase is Phase.GAME_OVER:
            raise RecordError("the game had already ended on points")
        loser = result.get("loser_seat")
        if reason is not EndReason.EXPIRED and loser is None:
            winners = list(_req(result, "winners"))
            loser = _loser_for(state, reason, winners)
        state, _ = end_game(state, reason, loser)
    assert state.result is not None
    if list(_req(result, "winners")) != list(state.result.winners):
        raise RecordError("the winners do not follow from the game")
    return state


def _loser_for(state: GameState, reason: EndReason, winners: list[int]) -> int:
    """A record without `loser_seat`: find a seat whose leaving gives these
    winners (any such seat is the same result)."""
    for seat in range(state.players):
        trial, _ = end_game(state, reason, seat)
        assert trial.result is not None
        if list(trial.result.winners) == winners:
            return seat
    raise RecordError("no player's leaving gives those winners")


def replay(record: dict[str, Any]) -> GameState:
    """The final state of a recorded game; raises RecordError if it is illegal."""
    final = None
    for state in replay_states(record):
        final = state
    assert final is not None
    return final


__all__ = ["FORMAT", "cards_str", "replay", "replay_states", "to_record"]
