"""Hand-made positions and random playouts for the engine tests.

Positions are built the two ways a reader can check by eye: a deck in dealing
order handed to `new_game` (see `game._deal`), or a dealt state whose round is
rewritten with `dataclasses.replace` for a precise mid-round spot.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from escoba.engine import (
    CARDS,
    Action,
    Card,
    GameState,
    Phase,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    parse_cards,
    shuffled_deck,
    start_next_round,
)
from escoba.engine.events import Event


def cs(text: str) -> tuple[Card, ...]:
    """`cs("7D 3C")` → the cards, in the order written."""
    return parse_cards(text.split())


def deck_in_dealing_order(
    players: int,
    dealer: int,
    table: str,
    deals: Sequence[Mapping[int, str]] = (),
) -> tuple[Card, ...]:
    """A 40-card deck whose deals give each named seat the named cards and put
    `table` face up on the first deal. Seats and deals not named get the unused
    cards in card order."""
    wanted: list[list[Card] | None] = []
    table_cards = list(cs(table))
    assert len(table_cards) == 4
    n_deals = (40 - 4) // (3 * players)
    for d in range(n_deals):
        given = deals[d] if d < len(deals) else {}
        for k in range(1, players + 1):
            seat = (dealer + k) % players
            wanted.append(list(cs(given[seat])) if seat in given else None)
        if d == 0:
            wanted.append(table_cards)
    used = {c for slot in wanted if slot is not None for c in slot}
    assert len(used) == sum(len(s) for s in wanted if s is not None), "a card is named twice"
    spare = iter(c for c in CARDS if c not in used)
    order: list[Card] = []
    for slot in wanted:
        if slot is None:
            order.extend(next(spare) for _ in range(3))
        else:
            order.extend(slot)
    assert len(order) == 40
    return tuple(order)


def dealt(
    players: int,
    table: str,
    deals: Sequence[Mapping[int, str]] = (),
    dealer: int = 0,
    rules: RuleSet | None = None,
) -> GameState:
    deck = deck_in_dealing_order(players, dealer, table, deals)
    return new_game(rules or RuleSet(), players, deck, first_dealer=dealer)


def with_round(state: GameState, **changes: Any) -> GameState:
    """The state with some fields of its round replaced (hands and piles per
    seat may be given as strings of notation)."""
    fixed: dict[str, Any] = {}
    for key, value in changes.items():
        if key in ("hands", "captured") and value and isinstance(value[0], str):
            value = tuple(cs(v) for v in value)
        elif key in ("table", "deck") and isinstance(value, str):
            value = cs(value)
        fixed[key] = value
    return dataclasses.replace(state, round=dataclasses.replace(state.round, **fixed))


def all_cards_of(state: GameState) -> list[Card]:
    """Every card the round still holds: hands, table, deck and piles."""
    rs = state.round
    out: list[Card] = [*rs.table, *rs.deck]
    for hand in rs.hands:
        out.extend(hand)
    for pile in rs.captured:
        out.extend(pile)
    return out


def random_game(
    seed: int, players: int, target: int = 15, max_rounds: int = 200
) -> Iterator[tuple[GameState, int | None, Action | None, GameState, list[Event]]]:
    """A whole game between random players: yields (before, seat, action, after,
    events) for every step; a new round is a step with `seat=None`."""
    rng = random.Random(seed)
    rules = RuleSet(target=target)
    state = new_game(rules, players, shuffled_deck(rng), first_dealer=rng.randrange(players))
    rounds = 1
    while state.phase is not Phase.GAME_OVER and rounds <= max_rounds:
        if state.phase is Phase.ROUND_OVER:
            after, events = start_next_round(state, shuffled_deck(rng))
            rounds += 1
            yield state, None, None, after, events
            state = after
            continue
        seat = state.round.turn
        action = rng.choice(legal_actions(state))
        after, events = apply(state, seat, action)
        yield state, seat, action, after, events
        state = after


def play_random_game(seed: int, players: int, target: int = 15) -> GameState:
    final: GameState | None = None
    for _, _, _, after, _ in random_game(seed, players, target):
        final = after
    assert final is not None
    return final


def position(
    players: int,
    *,
    hands: Sequence[str],
    table: str,
    turn: int,
    dealer: int = 0,
    deck: str = "",
    piles: Mapping[int, str] | None = None,
    rest_to: int | None = None,
    escobas: Sequence[int] | None = None,
    last_capturer: int | None = None,
    rules: RuleSet | None = None,
    totals: Sequence[int] | None = None,
) -> GameState:
    """A precise mid-round spot. Cards not named anywhere go to the pile of
    `rest_to` (as if taken earlier), so that the 40 cards stay accounted for;
    with `rest_to=None` they must all be named."""
    base = dealt(players, "1D 1H 1S 2C", dealer=dealer, rules=rules)
    hands_c = [cs(h) for h in hands]
    table_c = tuple(sorted(cs(table)))
    deck_c = cs(deck)
    piles_c = [cs((piles or {}).get(s, "")) for s in range(players)]
    named = [*table_c, *deck_c, *(c for h in hands_c for c in h), *(c for p in piles_c for c in p)]
    assert len(set(named)) == len(named), "a card is named twice"
    rest = tuple(c for c in CARDS if c not in set(named))
    if rest_to is not None:
        piles_c[rest_to] = piles_c[rest_to] + rest
    else:
        assert not rest, f"cards not placed: {rest}"
    state = with_round(
        base,
        hands=tuple(hands_c),
        table=table_c,
        deck=deck_c,
        captured=tuple(piles_c),
        escobas=tuple(escobas or (0,) * players),
        turn=turn,
        last_capturer=last_capturer,
        table_take=None,
    )
    if totals is not None:
        state = dataclasses.replace(state, totals=tuple(totals))
    return state
