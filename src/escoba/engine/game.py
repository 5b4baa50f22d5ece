"""The rules in motion: starting rounds, legal actions, verify / can / apply,
and ending a game. Every function takes a state and returns a new one; chance
enters only as a shuffled deck handed in by the caller."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from escoba.engine.actions import Action, Claim, Play, claim_cards
from escoba.engine.captures import can_capture, capture_groups, groups_for_hand
from escoba.engine.cards import FIFTEEN, NOTATION, VALUE, Card, is_full_deck
from escoba.engine.errors import IllegalAction
from escoba.engine.events import (
    CardPlayed,
    Dealt,
    Event,
    FifteenClaimed,
    GameEnded,
    RoundEnded,
    TableTaken,
)
from escoba.engine.rules import HAND_SIZE, TABLE_SIZE, RuleSet
from escoba.engine.scoring import result_of_leaving, score_round, winner_on_points
from escoba.engine.seats import side_count
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
    TableTake,
)

# --------------------------------------------------------------------------
# Dealing


def deals_per_round(players: int) -> int:
    """6 deals with 2 players, 4 with 3, 3 with 4."""
    return (40 - TABLE_SIZE) // (HAND_SIZE * players)


def _deal(
    deck: tuple[Card, ...], players: int, dealer: int, with_table: bool
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]]:
    """Take 3 cards per seat from the top of `deck`, starting with the seat
    after the dealer, then (first deal) 4 for the table. Returns the hands by
    seat, the table cards and the rest of the deck."""
    hands: list[tuple[Card, ...]] = [()] * players
    pos = 0
    for k in range(1, players + 1):
        seat = (dealer + k) % players
        hands[seat] = deck[pos : pos + HAND_SIZE]
        pos += HAND_SIZE
    table: tuple[Card, ...] = ()
    if with_table:
        table = deck[pos : pos + TABLE_SIZE]
        pos += TABLE_SIZE
    return tuple(hands), table, deck[pos:]


def _start_round(
    rules: RuleSet, players: int, number: int, dealer: int, deck: Sequence[Card]
) -> tuple[RoundState, list[Event]]:
    if not is_full_deck(deck):
        raise ValueError("a round needs the 40 cards, each once")
    hands, table, rest = _deal(tuple(deck), players, dealer, with_table=True)
    deal = Deal(hands=hands, table=table, last=not rest)
    table = tuple(sorted(table))
    events: list[Event] = [Dealt(number=1, last=not rest)]
    captured: list[tuple[Card, ...]] = [()] * players
    escobas = [0] * players
    table_take = None
    last_capturer = None
    table_sum = sum(VALUE[c] for c in table)
    if table_sum in (FIFTEEN, 2 * FIFTEEN):
        n = 1 if table_sum == FIFTEEN or not rules.thirty_is_double else 2
        table_take = TableTake(seat=dealer, cards=table, escobas=n)
        captured[dealer] = table
        escobas[dealer] = n
        last_capturer = dealer
        events.append(TableTaken(seat=dealer, cards=table, escobas=n))
        table = ()
    state = RoundState(
        number=number,
        dealer=dealer,
        hands=hands,
        table=table,
        deck=rest,
        deals=(deal,),
        captured=tuple(captured),
        escobas=tuple(escobas),
        turn=(dealer + 1) % players,
        last_capturer=last_capturer,
        claim=None,
        table_take=table_take,
        history=(),
    )
    return state, events


def new_game(
    rules: RuleSet, players: int, deck: Sequence[Card], first_dealer: int = 0
) -> GameState:
    """A game whose first round has just been dealt from `deck` (shuffled by the
    caller). The table's creator deals first: seat `first_dealer`."""
    if players not in (2, 3, 4):
        raise ValueError("Escoba is played by 2, 3 or 4 players")
    if not 0 <= first_dealer < players:
        raise ValueError("the dealer must be one of the seats")
    round_state, _ = _start_round(rules, players, 1, first_dealer, deck)
    return GameState(
        rules=rules,
        players=players,
        first_dealer=first_dealer,
        phase=Phase.PLAYING,
        round=round_state,
        totals=(0,) * side_count(players),
        finished_rounds=(),
        result=None,
    )


def start_next_round(state: GameState, deck: Sequence[Card]) -> tuple[GameState, list[Event]]:
    """SIGUIENTE RONDA: deal the next round; the deal passes to the next seat."""
    if state.phase is not Phase.ROUND_OVER:
        if state.phase is Phase.GAME_OVER:
            raise IllegalAction("game_over")
        raise IllegalAction("round_in_play")
    number = state.round.number + 1
    dealer = (state.round.dealer + 1) % state.players
    round_state, events = _start_round(state.rules, state.players, number, dealer, deck)
    return replace(state, phase=Phase.PLAYING, round=round_state, result=None), events


# --------------------------------------------------------------------------
# Legal actions


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action of the seat on turn, sorted: claims of the 15 first,
    then each hand card with each of its capture groups and (unless capture is
    compulsory and possible) leaving it on the table."""
    if state.phase is not Phase.PLAYING:
        return []
    rs = state.round
    seat = rs.turn
    out: list[Action] = []
    claim = rs.claim
    if claim is not None and claim.seat == seat:
        rest = tuple(c for c in rs.table if c != claim.card)
        out.extend(Claim(g) for g in capture_groups(claim.card, rest))
    table = rs.table
    plays: list[Action] = []
    any_capture = False
    for card, groups in groups_for_hand(sorted(rs.hands[seat]), table):
        if groups:
            any_capture = True
        plays.append(Play(card, ()))
        plays.extend(Play(card, g) for g in groups)
    if state.rules.compulsory_capture and any_capture:
        plays = [p for p in plays if isinstance(p, Play) and p.capture]
    out.extend(plays)
    return out


# --------------------------------------------------------------------------
# Verify / can / apply


def _sum(cards: Sequence[Card]) -> int:
    return sum(VALUE[c] for c in cards)


def verify(state: GameState, seat: int, action: Action) -> None:
    """Raise `IllegalAction` (a code and its values: `escoba.words` says it
    in the player's language) if `seat` may not make `action` now. The one
    place that says why a move is illegal."""
    if state.phase is Phase.GAME_OVER:
        raise IllegalAction("game_over")
    if state.phase is Phase.ROUND_OVER:
        raise IllegalAction("round_over")
    rs = state.round
    if not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat", seat=seat)
    if seat != rs.turn:
        raise IllegalAction("not_your_turn")
    if isinstance(action, Claim):
        _verify_claim(state, seat, action)
    elif isinstance(action, Play):
        _verify_play(state, seat, action)
    else:  # pragma: no cover - typed away, kept for callers without mypy
        raise IllegalAction("unknown_action")


def _check_group(group: Sequence[Card], table: Sequence[Card]) -> None:
    if len(set(group)) != len(group):
        raise IllegalAction("repeated_card")
    missing = [c for c in group if c not in table]
    if missing:
        raise IllegalAction("not_on_table", cards=tuple(NOTATION[c] for c in missing))


def _verify_play(state: GameState, seat: int, action: Play) -> None:
    rs = state.round
    if action.card not in rs.hands[seat]:
        raise IllegalAction("not_in_hand", card=NOTATION[action.card])
    if action.capture:
        _check_group(action.capture, rs.table)
        if VALUE[action.card] + sum(VALUE[c] for c in action.capture) != FIFTEEN:
            raise IllegalAction("not_fifteen", sum=_sum((action.card, *action.capture)))
    elif state.rules.compulsory_capture and any(can_capture(c, rs.table) for c in rs.hands[seat]):
        raise IllegalAction("must_capture")


def _verify_claim(state: GameState, seat: int, action: Claim) -> None:
    rs = state.round
    claim = rs.claim
    if claim is None:
        raise IllegalAction("no_fifteen")
    if claim.seat != seat:  # never in a state the engine made; a stored one may say so
        raise IllegalAction("not_your_fifteen")
    if not action.group:
        raise IllegalAction("empty_claim")
    if claim.card in action.group:
        raise IllegalAction("claim_includes_card", card=NOTATION[claim.card])
    _check_group(action.group, rs.table)
    if VALUE[claim.card] + sum(VALUE[c] for c in action.group) != FIFTEEN:
        raise IllegalAction("not_fifteen", sum=_sum((claim.card, *action.group)))


def can(state: GameState, seat: int, action: Action) -> bool:
    try:
        verify(state, seat, action)
    except IllegalAction:
        return False
    return True


def apply(state: GameState, seat: int, action: Action) -> tuple[GameState, list[Event]]:
    """`seat` makes `action`: the new state and the events it caused. Raises
    `IllegalAction` (and changes nothing) when the move is not allowed."""
    verify(state, seat, action)
    if isinstance(action, Claim):
        return _apply_claim(state, seat, action)
    return _apply_play(state, seat, action)


def _apply_claim(state: GameState, seat: int, action: Claim) -> tuple[GameState, list[Event]]:
    rs = state.round
    assert rs.claim is not None
    taken = claim_cards(rs.claim.card, action)
    table = tuple(c for c in rs.table if c not in taken)
    escoba = not table
    captured = list(rs.captured)
    captured[seat] = captured[seat] + taken
    escobas = list(rs.escobas)
    if escoba:
        escobas[seat] += 1
    record = RoundAction(seat=seat, kind="claim", card=rs.claim.card, cards=taken, escoba=escoba)
    # every field spelt out: twice as fast as dataclasses.replace, on the hottest path
    new_round = RoundState(
        number=rs.number,
        dealer=rs.dealer,
        hands=rs.hands,
        table=table,
        deck=rs.deck,
        deals=rs.deals,
        captured=tuple(captured),
        escobas=tuple(escobas),
        turn=rs.turn,
        last_capturer=seat,
        claim=None,
        table_take=rs.table_take,
        history=(*rs.history, record),
    )
    events: list[Event] = [FifteenClaimed(seat=seat, cards=taken, escoba=escoba)]
    return _replace_round(state, new_round), events


def _apply_play(state: GameState, seat: int, action: Play) -> tuple[GameState, list[Event]]:
    rs = state.round
    players = state.players
    card = action.card
    capture = action.capture
    hands = list(rs.hands)
    hand = hands[seat]
    i = hand.index(card)
    hands[seat] = hand[:i] + hand[i + 1 :]
    captured = rs.captured
    escobas = rs.escobas
    last_capturer = rs.last_capturer
    claim = None
    fifteen_left = False
    if capture:
        table = tuple(c for c in rs.table if c not in capture)
        escoba = not table
        captured_l = list(captured)
        captured_l[seat] = captured_l[seat] + (card, *capture)
        captured = tuple(captured_l)
        if escoba:
            escobas_l = list(escobas)
            escobas_l[seat] += 1
            escobas = tuple(escobas_l)
        last_capturer = seat
    else:
        escoba = False
        fifteen_left = can_capture(card, rs.table)
        table = tuple(sorted((*rs.table, card)))
        if fifteen_left:
            claim = ClaimWindow(card=card, seat=(seat + 1) % players)
    record = RoundAction(seat=seat, kind="play", card=card, cards=capture, escoba=escoba)
    events: list[Event] = [
        CardPlayed(seat=seat, card=card, capture=capture, escoba=escoba, fifteen_left=fifteen_left)
    ]
    deck = rs.deck
    deals = rs.deals
    new_hands = tuple(hands)
    turn = (seat + 1) % players
    hands_empty = not any(new_hands)
    if hands_empty and deck:
        dealt, _, deck = _deal(deck, players, rs.dealer, with_table=False)
        new_hands = dealt
        deals = (*deals, Deal(hands=dealt, table=(), last=not deck))
        events.append(Dealt(number=len(deals), last=not deck))
    # every field spelt out: twice as fast as dataclasses.replace, on the hottest path
    new_round = RoundState(
        number=rs.number,
        dealer=rs.dealer,
        hands=new_hands,
        table=table,
        deck=deck,
        deals=deals,
        captured=captured,
        escobas=escobas,
        turn=turn,
        last_capturer=last_capturer,
        claim=claim,
        table_take=rs.table_take,
        history=(*rs.history, record),
    )
    # the round ends when the last card is down, not when ÚLTIMAS is dealt
    if not any(new_hands) and not deck:
        return _end_round(state, new_round, events)
    return _replace_round(state, new_round), events


def _replace_round(state: GameState, new_round: RoundState) -> GameState:
    # every field spelt out: twice as fast as dataclasses.replace, on the hottest path
    return GameState(
        rules=state.rules,
        players=state.players,
        first_dealer=state.first_dealer,
        phase=state.phase,
        round=new_round,
        totals=state.totals,
        finished_rounds=state.finished_rounds,
        result=state.result,
    )


def _end_round(
    state: GameState, rs: RoundState, events: list[Event]
) -> tuple[GameState, list[Event]]:
    """The last card is down: the leftover goes to the last capturer (never an
    escoba), the sides are scored and the totals decide the game."""
    players = state.players
    captured = list(rs.captured)
    leftover = Leftover(seat=rs.last_capturer, cards=rs.table)
    if rs.last_capturer is not None and rs.table:
        captured[rs.last_capturer] = captured[rs.last_capturer] + rs.table
    scores = score_round(captured, rs.escobas, players, state.rules)
    totals = tuple(t + s.points for t, s in zip(state.totals, scores, strict=True))
    summary = RoundSummary(
        number=rs.number,
        dealer=rs.dealer,
        deals=rs.deals,
        table_take=rs.table_take,
        actions=rs.history,
        leftover=leftover,
        scores=scores,
        totals=totals,
    )
    final_round = replace(rs, table=(), deck=(), captured=tuple(captured), claim=None)
    events.append(RoundEnded(summary=summary))
    winner = winner_on_points(totals, state.rules.target)
    result = None
    phase = Phase.ROUND_OVER
    if winner is not None:
        result = Result(winners=(winner,), reason=EndReason.TARGET)
        phase = Phase.GAME_OVER
        events.append(GameEnded(result=result))
    new = replace(
        state,
        phase=phase,
        round=final_round,
        totals=totals,
        finished_rounds=(*state.finished_rounds, summary),
        result=result,
    )
    return new, events


# --------------------------------------------------------------------------
# Ending a game off the board


def end_game(
    state: GameState, reason: EndReason, loser_seat: int | None = None
) -> tuple[GameState, list[Event]]:
    """Record a result the web decided on: ABANDONAR / SALIR DEL JUEGO
    (`abandon`) and TERMINAR POR AUSENCIA (`absence`) name the losing seat;
    `expired` ends with no winner. The engine only records; when is the web's."""
    if state.phase is Phase.GAME_OVER:
        raise IllegalAction("game_over")
    if reason is EndReason.TARGET:
        raise ValueError("a game ends on points only by playing")
    if reason is EndReason.EXPIRED:
        result = Result(winners=(), reason=reason)
    else:
        if loser_seat is None or not 0 <= loser_seat < state.players:
            raise ValueError("abandon and absence name the losing seat")
        result = result_of_leaving(loser_seat, state.totals, state.players, reason)
    return replace(state, phase=Phase.GAME_OVER, result=result), [GameEnded(result=result)]
