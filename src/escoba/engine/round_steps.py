"""A finished round told again, play by play («la repetición»): rebuilt by
the engine itself from the round's deals and actions, each step the public
facts of one moment — the card played, what it took, the table after it and
each seat's pile — and, for a play or a claim, the position its seat saw
before it (its hand, the table, LLEVAR EL 15 if it was offered): the
analysis of a step shows the choice it weighed.

Only a finished round is told: every card dealt in it was played, so nothing
in it was hidden from anyone at the table. The steps are replayed through
`new_game` and `apply`, so a round that does not follow the rules (a stored
round damaged) is refused with a `RecordError`, never told wrong.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from escoba.engine.actions import Action, claim_of, make_play
from escoba.engine.cards import Card
from escoba.engine.errors import IllegalAction, RecordError
from escoba.engine.game import apply, new_game
from escoba.engine.rules import RuleSet
from escoba.engine.state import GameState, Phase, RoundAction, RoundSummary, SideScore


@dataclass(frozen=True, slots=True)
class RoundStep:
    """One moment of a round. `kind` is "deal" (the first four cards on the
    table; `taken` holds them when the dealer took them as an escoba),
    "play" (a card from a hand: `taken` is the table cards it took, empty
    when it stayed on the table), "claim" (LLEVAR EL 15: `card` is the card
    left before, `taken` every card taken, it first) or "end" (the leftover:
    `taken` the cards that went to `seat`, or to nobody when `seat` is None)."""

    number: int  # 0 for the deal; the plays from 1; the end last
    kind: str
    seat: int | None
    card: Card | None
    taken: tuple[Card, ...]
    escobas: int  # escobas this step made: 1 (2 for ¡ESCOBA DOBLE!) or 0
    table_before: tuple[Card, ...]
    table: tuple[Card, ...]  # the table after this step
    piles: tuple[int, ...]  # cards taken so far, per seat
    seat_escobas: tuple[int, ...]  # escobas so far, per seat
    deal: int  # the deal in play after this step (1 for the first)
    new_deal: bool  # this step emptied the hands: the next deal was dealt
    last_deal: bool  # the deal in play is ÚLTIMAS
    # a play or a claim: the position its seat saw before it (a finished
    # round hides nothing: every card of that hand was played face up after)
    hand_before: tuple[Card, ...] = ()
    claimable: Card | None = None  # LLEVAR EL 15 offered to the seat: the card left


@dataclass(frozen=True, slots=True)
class RoundStory:
    number: int
    dealer: int
    players: int
    steps: tuple[RoundStep, ...]
    scores: tuple[SideScore, ...]
    totals: tuple[int, ...]


def _deck(summary: RoundSummary, players: int) -> tuple[Card, ...]:
    """The order the round was dealt in (as `web.play.round_deck`): a finished
    round dealt all 40 cards."""
    out: list[Card] = []
    for i, deal in enumerate(summary.deals):
        for k in range(1, players + 1):
            out.extend(deal.hands[(summary.dealer + k) % players])
        if i == 0:
            out.extend(deal.table)
    return tuple(out)


def recorded_action(recorded: RoundAction) -> Action:
    """The engine action a recorded step of a round was made with."""
    if recorded.kind == "claim":
        return claim_of(recorded.card, recorded.cards)
    return make_play(recorded.card, recorded.cards)


def round_states(
    summary: RoundSummary, players: int, rules: RuleSet
) -> Iterator[tuple[GameState, RoundAction | None]]:
    """A finished round replayed through the engine: the state after its
    deal (with `None`), then the state after each of its actions (with that
    action), checked against what was stored. The round is dealt as the first
    of a game, by its own dealer: the points before it change no card of its
    play (and its end is read, not its result). Raises `RecordError` when the
    round does not replay as stored, or is not finished."""
    try:
        yield from _states(summary, players, rules)
    except (IllegalAction, ValueError) as err:
        if isinstance(err, RecordError):
            raise
        raise RecordError(f"round {summary.number} does not replay: {err}") from err


def _states(
    summary: RoundSummary, players: int, rules: RuleSet
) -> Iterator[tuple[GameState, RoundAction | None]]:
    state: GameState = new_game(rules, players, _deck(summary, players), summary.dealer)
    yield state, None
    for recorded in summary.actions:
        state, _ = apply(state, recorded.seat, recorded_action(recorded))
        if state.round.history[-1] != recorded:
            raise RecordError(f"round {summary.number}: {recorded} does not replay as stored")
        yield state, recorded
    if state.phase is Phase.PLAYING:
        raise RecordError(f"round {summary.number} is not finished")
    end = state.finished_rounds[-1]
    if end.leftover != summary.leftover or end.scores != summary.scores:
        raise RecordError(f"round {summary.number}: the end does not replay as stored")


def round_story(summary: RoundSummary, players: int, rules: RuleSet) -> RoundStory:
    """Every step of a finished round, replayed through the engine."""
    states = round_states(summary, players, rules)
    state, _ = next(states)
    rs = state.round
    first = summary.deals[0]
    take = rs.table_take
    steps = [
        RoundStep(
            number=0,
            kind="deal",
            seat=summary.dealer,
            card=None,
            taken=take.cards if take is not None else (),
            escobas=take.escobas if take is not None else 0,
            table_before=tuple(sorted(first.table)),
            table=rs.table,
            piles=tuple(len(p) for p in rs.captured),
            seat_escobas=rs.escobas,
            deal=1,
            new_deal=False,
            last_deal=rs.is_last_deal,
        )
    ]
    for state, recorded in states:
        assert recorded is not None
        before = rs
        claim = before.claim
        after = rs = state.round
        ended = state.phase is not Phase.PLAYING
        table = summary.leftover.cards if ended else after.table
        piles = [len(p) for p in after.captured]
        if ended and summary.leftover.seat is not None:
            piles[summary.leftover.seat] -= len(summary.leftover.cards)
        steps.append(
            RoundStep(
                number=len(steps),
                kind=recorded.kind,
                seat=recorded.seat,
                card=recorded.card,
                taken=recorded.cards,
                escobas=1 if recorded.escoba else 0,
                table_before=before.table,
                table=table,
                piles=tuple(piles),
                seat_escobas=after.escobas,
                deal=after.deal_number,
                new_deal=after.deal_number != before.deal_number,
                last_deal=after.is_last_deal,
                hand_before=tuple(sorted(before.hands[recorded.seat])),
                claimable=claim.card if claim is not None and claim.seat == recorded.seat else None,
            )
        )
    last = steps[-1]
    steps.append(
        RoundStep(
            number=len(steps),
            kind="end",
            seat=summary.leftover.seat,
            card=None,
            taken=summary.leftover.cards,
            escobas=0,
            table_before=last.table,
            table=(),
            piles=tuple(len(p) for p in rs.captured),
            seat_escobas=rs.escobas,
            deal=last.deal,
            new_deal=False,
            last_deal=True,
        )
    )
    return RoundStory(
        number=summary.number,
        dealer=summary.dealer,
        players=players,
        steps=tuple(steps),
        scores=summary.scores,
        totals=summary.totals,
    )
