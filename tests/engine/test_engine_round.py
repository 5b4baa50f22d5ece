"""Golden positions for «A round» in RULES.md: the deal and its table take,
turns, LLEVAR EL 15, escobas, the deals of a round and the leftover."""

from __future__ import annotations

import dataclasses

import pytest
from engine_positions import all_cards_of, cs, dealt, deck_in_dealing_order, position, with_round

from escoba.engine import (
    CARDS,
    Card,
    Claim,
    EndReason,
    GameState,
    IllegalAction,
    Phase,
    Play,
    RuleSet,
    apply,
    deals_per_round,
    end_game,
    legal_actions,
    make_claim,
    make_play,
    new_game,
    start_next_round,
    to_record,
    verify,
)
from escoba.engine.cards import VALUE
from escoba.engine.events import CardPlayed, Dealt, FifteenClaimed, RoundEnded, TableTaken
from escoba.engine.seats import next_seat, seats_of_side, side_of
from escoba.engine.state import ClaimWindow, Leftover, RoundAction, TableTake
from escoba.words import say

# --------------------------------------------------------------------------
# A new game


def test_a_game_starts_with_the_creator_dealing_seat_0_unless_told() -> None:
    deck = deck_in_dealing_order(3, 0, "1D 2H 4S 5C")
    state = new_game(RuleSet(), 3, deck)
    assert (state.first_dealer, state.round.dealer, state.round.turn) == (0, 0, 1)
    state = new_game(RuleSet(), 3, deck, first_dealer=2)
    assert (state.first_dealer, state.round.dealer, state.round.turn) == (2, 2, 0)


@pytest.mark.parametrize(
    ("players", "first_dealer", "deck", "message"),
    [
        (5, 0, CARDS, "Escoba is played by 2, 3 or 4 players"),
        (1, 0, CARDS, "Escoba is played by 2, 3 or 4 players"),
        (3, 3, CARDS, "the dealer must be one of the seats"),
        (3, -1, CARDS, "the dealer must be one of the seats"),
        (2, 0, CARDS[:39], "a round needs the 40 cards, each once"),
        (2, 0, (*CARDS[:39], CARDS[0]), "a round needs the 40 cards, each once"),
    ],
)
def test_a_game_needs_its_players_a_dealer_among_them_and_the_whole_deck(
    players: int, first_dealer: int, deck: tuple[Card, ...], message: str
) -> None:
    with pytest.raises(ValueError) as err:
        new_game(RuleSet(), players, deck, first_dealer=first_dealer)
    assert str(err.value) == message


def test_a_target_is_one_of_the_four() -> None:
    with pytest.raises(ValueError) as err:
        RuleSet(target=20)
    assert str(err.value) == "target must be one of (15, 21, 30, 31), not 20"


def test_only_plays_and_claims_are_actions() -> None:
    with pytest.raises(IllegalAction) as err:
        verify(left_five(), 1, "5D")  # type: ignore[arg-type]
    assert _said(err.value) == (
        "unknown_action",
        "Esa jugada no existe.",
    )


# --------------------------------------------------------------------------
# Seats, sides and order


def test_partners_sit_opposite_with_four_and_each_player_is_a_side_otherwise() -> None:
    assert [seats_of_side(side, 4) for side in (0, 1)] == [(0, 2), (1, 3)]
    assert [seats_of_side(side, 3) for side in (0, 1, 2)] == [(0,), (1,), (2,)]
    assert [seats_of_side(side, 2) for side in (0, 1)] == [(0,), (1,)]
    assert [side_of(seat, 4) for seat in range(4)] == [0, 1, 0, 1]
    assert [side_of(seat, 3) for seat in range(3)] == [0, 1, 2]
    four = dealt(4, "1D 2H 4S 5C")
    assert (four.sides, [four.side_of(seat) for seat in range(4)]) == (2, [0, 1, 0, 1])
    three = dealt(3, "1D 2H 4S 5C")
    assert (three.sides, [three.side_of(seat) for seat in range(3)]) == (3, [0, 1, 2])


def test_play_goes_to_the_right_and_comes_round_again() -> None:
    assert [next_seat(seat, 3) for seat in range(3)] == [1, 2, 0]
    assert [next_seat(seat, 4) for seat in range(4)] == [1, 2, 3, 0]
    assert [next_seat(seat, 2) for seat in range(2)] == [1, 0]


def test_actions_read_as_the_command_line_says_them() -> None:
    assert str(make_play(cs("7D")[0])) == "7D to the table"
    assert str(make_play(cs("5D")[0], cs("6C 4S"))) == "5D takes 4S 6C"
    assert str(make_claim(cs("6C 4S"))) == "LLEVAR EL 15 with 4S 6C"


# --------------------------------------------------------------------------
# Dealing and the table of 15 / 30


def test_deal_gives_three_each_from_the_seat_after_the_dealer_then_four_to_the_table() -> None:
    state = dealt(3, "1D 2H 3S 10C", [{1: "5D 6D 7D", 2: "5H 6H 7H", 0: "5S 6S 7S"}], dealer=0)
    rs = state.round
    assert rs.hands == (cs("5S 6S 7S"), cs("5D 6D 7D"), cs("5H 6H 7H"))
    assert rs.table == cs("1D 2H 3S 10C")
    assert len(rs.deck) == 40 - 9 - 4
    assert rs.turn == 1
    assert rs.table_take is None and rs.escobas == (0, 0, 0)


@pytest.mark.parametrize(
    ("table", "thirty_is_double", "escobas"),
    [
        ("1D 2D 3D 9C", True, 1),  # 15
        ("10D 10H 5S 5C", True, 2),  # 30: ¡ESCOBA DOBLE!
        ("10D 10H 5S 5C", False, 1),  # variant: 30 counts as one
        ("1D 2D 3D 9C", False, 1),
    ],
)
def test_table_of_fifteen_or_thirty_goes_to_the_dealer(
    table: str, thirty_is_double: bool, escobas: int
) -> None:
    rules = RuleSet(thirty_is_double=thirty_is_double)
    state = dealt(2, table, dealer=1, rules=rules)
    rs = state.round
    assert rs.table == ()
    assert rs.captured[1] == tuple(sorted(cs(table)))
    assert rs.captured[0] == ()
    assert rs.escobas == (0, escobas)
    assert rs.last_capturer == 1
    assert rs.table_take is not None and rs.table_take.escobas == escobas
    assert rs.turn == 0  # the first player starts with an empty table
    assert to_record(state)["rounds"][0]["table_take"] == {
        "seat": 1,
        "cards": [str(c) for c in sorted(cs(table))],
        "escobas": escobas,
    }


@pytest.mark.parametrize("table", ["1D 2D 3D 8C", "1D 2D 3D 10C", "10D 10H 5S 4C", "10D 10H 9S 7C"])
def test_other_table_sums_stay_on_the_table(table: str) -> None:
    state = dealt(2, table)
    assert state.round.table == tuple(sorted(cs(table)))
    assert state.round.table_take is None
    assert state.round.escobas == (0, 0)
    assert state.round.last_capturer is None


def test_table_check_on_the_first_deal_of_every_round_only() -> None:
    # a later deal: the table reaches 30 as the hands run out, and stays put
    state = position(
        2, hands=("10S", ""), table="10D 10H", turn=0, deck="1D 2D 3D 1H 2H 3H", rest_to=1
    )
    after, events = apply(state, 0, make_play(cs("10S")[0]))
    assert any(isinstance(e, Dealt) for e in events)
    assert after.round.table == cs("10D 10H 10S")
    assert after.round.escobas == (0, 0)
    assert after.round.table_take is None
    assert after.round.deal_number == state.round.deal_number + 1
    # a new round's first deal is checked again: the new dealer takes it
    first = dealt(2, "1D 2H 4S 5C", dealer=0)
    assert first.round.table_take is None
    over = position(2, hands=("", "1C"), table="", turn=1, rest_to=0, last_capturer=0)
    over, _ = apply(over, 1, make_play(cs("1C")[0]))
    assert over.phase is Phase.ROUND_OVER
    second, _ = start_next_round(over, deck_in_dealing_order(2, 1, "1D 2D 3D 9C"))
    assert second.round.dealer == 1
    assert second.round.table_take is not None and second.round.table_take.seat == 1
    assert second.round.escobas == (0, 1)


def round_over() -> GameState:
    """2 players, dealer 0: seat 1 lays the round's last card."""
    over = position(2, hands=("", "1C"), table="", turn=1, rest_to=0, last_capturer=0)
    over, _ = apply(over, 1, make_play(cs("1C")[0]))
    assert over.phase is Phase.ROUND_OVER
    return over


@pytest.mark.parametrize(("thirty_is_double", "escobas"), [(True, 2), (False, 1)])
def test_the_next_round_keeps_the_tables_rules(thirty_is_double: bool, escobas: int) -> None:
    over = dataclasses.replace(round_over(), rules=RuleSet(thirty_is_double=thirty_is_double))
    second, events = start_next_round(over, deck_in_dealing_order(2, 1, "10D 10H 5S 5C"))
    assert events == [
        Dealt(number=1, last=False),
        TableTaken(seat=1, cards=cs("5S 5C 10D 10H"), escobas=escobas),
    ]
    assert second.rules == over.rules
    assert second.round.table_take is not None
    assert second.round.table_take.escobas == escobas
    assert second.round.escobas == (0, escobas)


def test_the_next_round_waits_for_the_end_of_this_one_and_never_follows_the_game() -> None:
    playing = left_five()
    with pytest.raises(IllegalAction) as err:
        start_next_round(playing, deck_in_dealing_order(2, 1, "1D 2H 4S 5C"))
    assert _said(err.value) == (
        "round_in_play",
        "La ronda todavía se está jugando.",
    )
    ended, _ = end_game(round_over(), EndReason.ABANDON, 0)
    with pytest.raises(IllegalAction) as err:
        start_next_round(ended, deck_in_dealing_order(2, 1, "1D 2H 4S 5C"))
    assert _said(err.value) == (
        "game_over",
        "La partida ya terminó.",
    )


# --------------------------------------------------------------------------
# Turns, deals of a round and ÚLTIMAS


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_number_of_deals_and_ultimas_only_on_the_last(players: int, deals: int) -> None:
    assert type(deals_per_round(players)) is int and deals_per_round(players) == deals
    state = dealt(players, "1D 2H 4S 5C", dealer=players - 1)
    seen_last = [state.round.is_last_deal]
    while state.phase is Phase.PLAYING:
        seat = state.round.turn
        state, events = apply(state, seat, legal_actions(state)[-1])
        if any(isinstance(e, Dealt) for e in events) and state.phase is Phase.PLAYING:
            seen_last.append(state.round.is_last_deal)
    assert seen_last == [False] * (deals - 1) + [True]
    summary = state.finished_rounds[-1]
    assert len(summary.deals) == deals
    assert [d.last for d in summary.deals] == [False] * (deals - 1) + [True]
    assert [bool(d.table) for d in summary.deals] == [True] + [False] * (deals - 1)


def test_play_goes_to_the_right_and_a_new_deal_starts_after_the_dealer() -> None:
    state = dealt(3, "1D 2H 4S 5C", dealer=1)
    order = []
    while state.phase is Phase.PLAYING and len(order) < 9:
        seat = state.round.turn
        order.append(seat)
        play = next(a for a in legal_actions(state) if isinstance(a, Play))
        state, _ = apply(state, seat, play)
    assert order == [2, 0, 1] * 3
    assert state.round.deal_number == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_new_deal_is_announced_with_its_number_and_the_last_as_ultimas(players: int) -> None:
    state = dealt(players, "1D 2H 4S 5C", dealer=0)
    announced = []
    while state.phase is Phase.PLAYING:
        seat = state.round.turn
        play = next(a for a in legal_actions(state) if isinstance(a, Play))
        state, events = apply(state, seat, play)
        announced += [e for e in events if isinstance(e, Dealt)]
    n = deals_per_round(players)
    assert announced == [Dealt(number=k, last=k == n) for k in range(2, n + 1)]


# --------------------------------------------------------------------------
# LLEVAR EL 15


def left_five() -> GameState:
    """Seat 1 (first to play, 2 players) holds 5D and the table is 4S 6C."""
    return position(
        2,
        hands=("3H 10C 1H", "5D 1C 2C"),
        table="4S 6C",
        turn=1,
        rest_to=0,
        last_capturer=0,
    )


def test_leaving_a_card_that_made_fifteen_opens_the_claim_for_the_next_player() -> None:
    state, events = apply(left_five(), 1, make_play(cs("5D")[0]))
    played = events[0]
    assert isinstance(played, CardPlayed) and played.fifteen_left
    assert state.round.claim is not None
    assert (state.round.claim.card, state.round.claim.seat) == (cs("5D")[0], 0)
    assert legal_actions(state)[0] == Claim(cs("4S 6C"))


def test_a_card_that_made_no_fifteen_opens_nothing() -> None:
    state, events = apply(left_five(), 1, make_play(cs("1C")[0]))
    played = events[0]
    assert isinstance(played, CardPlayed) and not played.fifteen_left
    assert state.round.claim is None
    assert not any(isinstance(a, Claim) for a in legal_actions(state))


def test_claim_that_empties_the_table_is_an_escoba_and_the_claimer_still_plays() -> None:
    state, _ = apply(left_five(), 1, make_play(cs("5D")[0]))
    state, events = apply(state, 0, make_claim(cs("6C 4S")))
    assert isinstance(events[0], FifteenClaimed) and events[0].escoba
    rs = state.round
    assert rs.table == ()
    assert rs.escobas == (1, 0)
    assert rs.captured[0][-3:] == cs("5D 4S 6C")
    assert rs.last_capturer == 0
    assert rs.history[-1].to_dict() == {
        "seat": 0,
        "type": "claim",
        "cards": ["5D", "4S", "6C"],
        "escoba": True,
    }
    # still seat 0's turn, with the whole hand, and only plays are left
    assert rs.turn == 0 and len(rs.hands[0]) == 3 and rs.claim is None
    actions = legal_actions(state)
    assert actions and all(isinstance(a, Play) for a in actions)
    state, _ = apply(state, 0, make_play(cs("3H")[0]))
    assert state.round.turn == 1


def test_a_claim_adds_to_the_claimers_escobas_and_keeps_the_dealers_table_take() -> None:
    take = TableTake(seat=1, cards=cs("1D 2D 3D 9C"), escobas=1)
    start = with_round(left_five(), escobas=(2, 1), table_take=take)
    state, _ = apply(start, 1, make_play(cs("5D")[0]))
    state, events = apply(state, 0, make_claim(cs("6C 4S")))
    assert events == [FifteenClaimed(seat=0, cards=cs("5D 4S 6C"), escoba=True)]
    assert state.round.escobas == (3, 1)
    assert state.round.table_take == take


def test_claim_that_leaves_cards_is_no_escoba() -> None:
    start = position(
        2, hands=("3H 10C 1H", "5D 1C 2C"), table="4S 6C 2D", turn=1, rest_to=0, last_capturer=0
    )
    state, _ = apply(start, 1, make_play(cs("5D")[0]))
    claims = [a for a in legal_actions(state) if isinstance(a, Claim)]
    assert claims == [Claim(cs("4S 6C"))]  # 2D+4S+... never reaches 10 with 5D's 15
    state, events = apply(state, 0, claims[0])
    assert isinstance(events[0], FifteenClaimed) and not events[0].escoba
    assert state.round.table == cs("2D")
    assert state.round.escobas == (0, 0)


def test_claim_lapses_once_the_next_player_plays() -> None:
    state, _ = apply(left_five(), 1, make_play(cs("5D")[0]))
    state, _ = apply(state, 0, make_play(cs("1H")[0]))  # 1H makes no 15 here
    assert state.round.claim is None
    assert cs("5D")[0] in state.round.table
    assert not any(isinstance(a, Claim) for a in legal_actions(state))
    with pytest.raises(IllegalAction) as err:
        verify(state, 1, make_claim(cs("4S 6C")))
    assert err.value.code == "no_fifteen"


def three_players_left_five() -> GameState:
    """3 players, dealer 0: seat 1 leaves 5D on 4S 6C; seat 2 is next."""
    start = position(
        3,
        hands=("3H 10C 1H", "5D 1C 2C", "9H 8C 2S"),
        table="4S 6C",
        turn=1,
        rest_to=0,
        last_capturer=0,
    )
    state, _ = apply(start, 1, make_play(cs("5D")[0]))
    return state


def test_only_the_next_player_may_claim() -> None:
    state = three_players_left_five()
    claim = make_claim(cs("4S 6C"))
    for seat in (1, 0):  # the player who left it, and the one two seats later
        with pytest.raises(IllegalAction) as err:
            apply(state, seat, claim)
        assert err.value.code == "not_your_turn"
    # seat 2 lets it go; seat 0, two seats after the leaver, cannot take it
    state, _ = apply(state, 2, make_play(cs("2S")[0]))  # 2S makes no 15 with 4S 5D 6C
    assert state.round.turn == 0
    assert not any(isinstance(a, Claim) for a in legal_actions(state))
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, claim)
    assert err.value.code == "no_fifteen"


def test_only_the_card_left_immediately_before_can_be_claimed() -> None:
    state = three_players_left_five()
    state, _ = apply(state, 2, make_play(cs("9H")[0]))  # 9H+6C made 15: a new window
    assert state.round.claim is not None and state.round.claim.card == cs("9H")[0]
    claims = [a for a in legal_actions(state) if isinstance(a, Claim)]
    assert claims == [Claim(cs("6C"))]  # with 9H; the 5D's 15 is gone
    with pytest.raises(IllegalAction) as err:
        apply(state, 0, make_claim(cs("4S 6C")))
    assert (err.value.code, err.value.params) == ("not_fifteen", {"sum": 19})


def test_claim_must_name_the_other_cards_and_make_fifteen() -> None:
    state, _ = apply(left_five(), 1, make_play(cs("5D")[0]))
    cases = [
        (
            make_claim(cs("5D 4S 6C")),
            "claim_includes_card",
            "La carta 5D ya va en el 15: elige las otras.",
        ),
        (make_claim(cs("4S")), "not_fifteen", "Esas cartas suman 9, no 15."),
        (make_claim(()), "empty_claim", "Elige las cartas de la mesa que suman 15."),
        (make_claim(cs("4S 6H")), "not_on_table", "Esa carta no está en la mesa: 6H."),
    ]
    for action, code, message in cases:
        with pytest.raises(IllegalAction) as err:
            apply(state, 0, action)
        assert _said(err.value) == (code, message)


def test_a_claim_window_of_another_seat_is_refused_even_in_a_state_the_engine_never_made() -> None:
    """A stored state is read back from the database: the engine still checks
    that the window it names is the seat's own."""
    state, _ = apply(left_five(), 1, make_play(cs("5D")[0]))
    assert state.round.claim == ClaimWindow(card=cs("5D")[0], seat=0)
    foreign = with_round(state, claim=ClaimWindow(card=cs("5D")[0], seat=1))
    with pytest.raises(IllegalAction) as err:
        apply(foreign, 0, make_claim(cs("4S 6C")))
    assert _said(err.value) == (
        "not_your_fifteen",
        "Solo el jugador siguiente puede llevar ese 15.",
    )


# --------------------------------------------------------------------------
# Escobas and the end of a round


def last_two_plays(seat1: str, seat0: str, table: str) -> GameState:
    """The last deal, 2 players, dealer 0: seat 1 and then the dealer each hold
    their last card; everything else was taken by seat 0 earlier."""
    return position(2, hands=(seat0, seat1), table=table, turn=1, rest_to=0, last_capturer=0)


def test_a_capture_that_empties_the_table_is_an_escoba() -> None:
    state = position(2, hands=("1H 2H", "5D 3S"), table="4S 6C", turn=1, rest_to=0, last_capturer=0)
    state, events = apply(state, 1, make_play(cs("5D")[0], cs("4S 6C")))
    assert isinstance(events[0], CardPlayed) and events[0].escoba
    assert state.round.escobas == (0, 1)
    assert state.round.table == ()


def test_a_capture_that_leaves_one_card_is_no_escoba() -> None:
    state = position(
        2, hands=("1H 2H", "5D 3S"), table="4S 6C 2D", turn=1, rest_to=0, last_capturer=0
    )
    state, events = apply(state, 1, make_play(cs("5D")[0], cs("4S 6C")))
    assert isinstance(events[0], CardPlayed) and not events[0].escoba
    assert state.round.table == cs("2D")
    assert state.round.escobas == (0, 0)
    assert not state.round.history[-1].escoba


def test_a_last_capture_that_leaves_one_card_is_no_escoba() -> None:
    state = last_two_plays(seat1="2D", seat0="5D", table="4S 6C")
    state, _ = apply(state, 1, make_play(cs("2D")[0]))  # 2+4+6 = 12: no 15
    state, _ = apply(state, 0, make_play(cs("5D")[0], cs("4S 6C")))
    summary = state.finished_rounds[-1]
    assert not summary.actions[-1].escoba
    assert summary.scores[0].escobas == 0
    assert summary.leftover == Leftover(seat=0, cards=cs("2D"))


def test_a_play_is_recorded_and_announced_as_it_was_made() -> None:
    take = TableTake(seat=0, cards=cs("1D 2D 3D 9C"), escobas=1)
    start = with_round(
        position(2, hands=("1H 2H", "5D 3S"), table="4S 6C", turn=1, rest_to=0, last_capturer=0),
        escobas=(1, 1),
        table_take=take,
    )
    start = dataclasses.replace(start, first_dealer=1)
    state, events = apply(start, 1, make_play(cs("5D")[0], cs("4S 6C")))
    sweep = CardPlayed(
        seat=1, card=cs("5D")[0], capture=cs("4S 6C"), escoba=True, fifteen_left=False
    )
    assert events == [sweep]
    assert state.round.history[-1] == RoundAction(1, "play", cs("5D")[0], cs("4S 6C"), True)
    assert state.round.escobas == (1, 2)
    assert (state.round.table_take, state.first_dealer) == (take, 1)
    state, events = apply(state, 0, make_play(cs("2H")[0]))
    left = CardPlayed(seat=0, card=cs("2H")[0], capture=(), escoba=False, fifteen_left=False)
    assert events == [left]
    assert state.round.history[-1] == RoundAction(0, "play", cs("2H")[0], (), False)
    assert state.round.escobas == (1, 2)


def test_escoba_on_the_very_last_play_of_the_round() -> None:
    state = last_two_plays(seat1="6C", seat0="5D", table="4S")
    state, _ = apply(state, 1, make_play(cs("6C")[0]))  # 6C+4S = 10: no 15
    state, _ = apply(state, 0, make_play(cs("5D")[0], cs("4S 6C")))
    assert state.phase is Phase.ROUND_OVER
    summary = state.finished_rounds[-1]
    assert summary.actions[-1].escoba
    assert summary.scores[0].escobas == 1
    assert summary.leftover.cards == ()


def test_leftover_goes_to_the_last_capturer_and_is_never_an_escoba() -> None:
    state = last_two_plays(seat1="5D", seat0="5H", table="2H 3H 4S 6C")
    state, _ = apply(state, 1, make_play(cs("5D")[0], cs("4S 6C")))
    state, _ = apply(state, 0, make_play(cs("5H")[0]))  # 5+2+3 = 10: stays
    assert state.phase is Phase.ROUND_OVER
    summary = state.finished_rounds[-1]
    assert summary.leftover.seat == 1
    assert summary.leftover.cards == cs("2H 3H 5H")
    assert sum(VALUE[c] for c in summary.leftover.cards) % 15 == 10
    assert state.round.escobas == (0, 0)
    assert summary.scores[1].escobas == 0
    assert summary.scores[1].cards == 3 + 3
    assert to_record(state)["rounds"][0]["leftover"] == {"seat": 1, "cards": ["2H", "3H", "5H"]}


def test_the_last_card_closes_the_round_even_when_it_was_left_on_a_fifteen() -> None:
    state = last_two_plays(seat1="5D", seat0="10H", table="2H 3H 4S 6C")
    state, _ = apply(state, 1, make_play(cs("5D")[0], cs("4S 6C")))
    state, events = apply(state, 0, make_play(cs("10H")[0]))  # 10+2+3 = 15, left
    assert isinstance(events[0], CardPlayed) and events[0].fifteen_left
    summary = state.finished_rounds[-1]
    assert events[-1] == RoundEnded(summary=summary)
    assert (summary.number, summary.dealer, summary.table_take) == (1, 0, None)
    rs = state.round
    assert state.phase is Phase.ROUND_OVER and rs.claim is None and legal_actions(state) == []
    assert rs.table == () and rs.deck == ()
    assert rs.captured[1][-3:] == cs("2H 3H 10H")  # the leftover, with the left card
    assert sorted(all_cards_of(state)) == list(range(40))


def leave_everything(state: tuple) -> GameState:
    """Play the round out with every player leaving the first card of the hand."""
    while state.phase is Phase.PLAYING:
        seat = state.round.turn
        state, _ = apply(state, seat, Play(min(state.round.hands[seat])))
    return state


def test_leftover_to_the_dealer_after_a_table_take_when_nobody_else_captured() -> None:
    state = dealt(2, "1D 2D 3D 9C", dealer=0)
    state = leave_everything(state)
    summary = state.finished_rounds[-1]
    assert summary.leftover.seat == 0
    assert len(summary.leftover.cards) == 36
    assert summary.scores[0].cards == 40 and summary.scores[1].cards == 0
    assert summary.scores[0].escobas == 1  # the table take only; the leftover adds none
    assert summary.table_take == TableTake(seat=0, cards=cs("1D 2D 3D 9C"), escobas=1)


def test_leftover_to_nobody_when_nobody_captured() -> None:
    state = leave_everything(dealt(3, "1D 2H 4S 5C", dealer=2))
    summary = state.finished_rounds[-1]
    assert summary.leftover.seat is None
    assert len(summary.leftover.cards) == 40
    assert sum(VALUE[c] for c in summary.leftover.cards) % 15 == 10
    assert all(s.cards == 0 and s.points == 0 for s in summary.scores)
    assert to_record(state)["rounds"][0]["leftover"] is None


def test_cards_are_conserved_through_a_hand_made_round() -> None:
    state = dealt(4, "1D 2H 4S 5C", dealer=3)
    while state.phase is Phase.PLAYING:
        assert sorted(all_cards_of(state)) == list(range(40))
        state, _ = apply(state, state.round.turn, legal_actions(state)[-1])
    summary = state.finished_rounds[-1]
    assert sum(s.cards for s in summary.scores) == 40 - (
        len(summary.leftover.cards) if summary.leftover.seat is None else 0
    )


def _said(err: IllegalAction) -> tuple[str, str]:
    """An engine refusal's code, and its words in Spanish (the catalog's)."""
    return err.code, say(err.code, "es", **err.params)
