"""Legal actions, verify / can / apply on illegal input, the compulsory
capture variant, and what a seat's view shows."""

from __future__ import annotations

import copy
import itertools
import json
import pickle
import random
from typing import Any

import pytest
from engine_positions import cs, position

from escoba.engine import (
    CARDS,
    Action,
    Claim,
    EndReason,
    GameState,
    IllegalAction,
    InputError,
    Phase,
    Play,
    RuleSet,
    action_from_dict,
    apply,
    can,
    claim_cards,
    claim_of,
    end_game,
    legal_actions,
    make_claim,
    make_play,
    new_game,
    shuffled_deck,
    spectator_view,
    verify,
    view,
)
from escoba.engine.cards import FIFTEEN, VALUE
from escoba.words import say


def brute_force_legal(state: GameState) -> list[Action]:
    """Every subset of the table, for the claim and for each hand card."""
    rs = state.round
    seat = rs.turn
    out: list[Action] = []

    def groups(card: int, table: tuple[int, ...]) -> list[tuple[int, ...]]:
        found = []
        for r in range(1, len(table) + 1):
            for combo in itertools.combinations(sorted(table), r):
                if VALUE[card] + sum(VALUE[c] for c in combo) == FIFTEEN:
                    found.append(combo)
        return found

    if rs.claim is not None and rs.claim.seat == seat:
        rest = tuple(c for c in rs.table if c != rs.claim.card)
        out.extend(make_claim([CARDS[c] for c in g]) for g in groups(rs.claim.card, rest))
    plays: list[Action] = []
    for card in rs.hands[seat]:
        plays.append(make_play(card))
        plays.extend(make_play(card, [CARDS[c] for c in g]) for g in groups(card, rs.table))
    if state.rules.compulsory_capture and any(isinstance(p, Play) and p.capture for p in plays):
        plays = [p for p in plays if isinstance(p, Play) and p.capture]
    out.extend(plays)
    return out


@pytest.mark.parametrize("compulsory", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_are_every_capture_group_and_leaving_and_nothing_else(
    players: int, compulsory: bool
) -> None:
    rng = random.Random(players * 10 + compulsory)
    rules = RuleSet(compulsory_capture=compulsory)
    checked = claims_seen = 0
    for _ in range(6):
        state = new_game(rules, players, shuffled_deck(rng))
        while state.phase is Phase.PLAYING:
            legal = legal_actions(state)
            if len(state.round.table) <= 12:
                expected = brute_force_legal(state)
                assert sorted(legal, key=lambda a: a.sort_key()) == legal  # sorted
                assert len(set(legal)) == len(legal)
                assert set(legal) == set(expected)
                checked += 1
                claims_seen += any(isinstance(a, Claim) for a in legal)
            seat = state.round.turn
            for action in legal:
                assert can(state, seat, action)
            state, _ = apply(state, seat, rng.choice(legal))
    assert checked > 100
    if not compulsory:
        assert claims_seen > 0


def test_what_is_not_listed_is_refused() -> None:
    """Every play of a hand card with any subset of the table is either in
    legal_actions or refused by `can`."""
    rng = random.Random(7)
    state = new_game(RuleSet(), 2, shuffled_deck(rng))
    for _ in range(8):
        seat = state.round.turn
        legal = set(legal_actions(state))
        table = state.round.table
        for card in state.round.hands[seat]:
            for r in range(len(table) + 1):
                for combo in itertools.combinations(table, r):
                    action = make_play(card, combo)
                    assert can(state, seat, action) == (action in legal)
        state, _ = apply(state, seat, rng.choice(sorted(legal, key=lambda a: a.sort_key())))


# --------------------------------------------------------------------------
# Illegal actions: a clear message, and nothing changes


def spot() -> GameState:
    """2 players, dealer 0; seat 1 on turn with 5D 1C 2C, table 4S 6C 3D."""
    return position(
        2, hands=("3H 10C 1H", "5D 1C 2C"), table="3D 4S 6C", turn=1, rest_to=0, last_capturer=0
    )


@pytest.mark.parametrize(
    ("seat", "action", "code", "message"),
    [
        (1, make_play(cs("5D")[0], cs("4S 3D")), "not_fifteen", "Esas cartas suman 12, no 15."),
        (1, make_play(cs("1C")[0], cs("6C 4S")), "not_fifteen", "Esas cartas suman 11, no 15."),
        (1, make_play(cs("2C")[0], cs("6C 3D")), "not_fifteen", "Esas cartas suman 11, no 15."),
        (1, make_play(cs("5D")[0], cs("4S")), "not_fifteen", "Esas cartas suman 9, no 15."),
        (0, make_play(cs("3H")[0]), "not_your_turn", "No es tu turno."),
        (1, make_play(cs("3H")[0]), "not_in_hand", "La carta 3H no está en tu mano."),
        (
            1,
            make_play(cs("5D")[0], cs("4H 6C")),
            "not_on_table",
            "Esa carta no está en la mesa: 4H.",
        ),
        (1, Play(cs("5D")[0], cs("4S 4S")), "repeated_card", "Elegiste la misma carta dos veces."),
        (1, make_claim(cs("4S 6C")), "no_fifteen", "No hay un 15 para llevar."),
        (7, make_play(cs("5D")[0]), "no_such_seat", "Ese asiento no está en la mesa."),
    ],
)
def test_illegal_actions_raise_a_clear_message_and_change_nothing(
    seat: int, action: Action, code: str, message: str
) -> None:
    state = spot()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, seat, action)
    # the engine gives a code and its values; the catalog says it in words
    assert _said(err.value) == (code, message)
    assert not can(state, seat, action)
    assert state == before


def test_refusals_name_what_is_wrong() -> None:
    state = spot()
    cases = [
        (2, make_play(cs("5D")[0]), "no_such_seat", "Ese asiento no está en la mesa."),
        (
            1,
            make_play(cs("5D")[0], cs("4H 6H")),
            "not_on_table",
            "Esas cartas no están en la mesa: 4H, 6H.",
        ),
    ]
    for seat, action, code, message in cases:
        with pytest.raises(IllegalAction) as err:
            apply(state, seat, action)
        assert _said(err.value) == (code, message)
    # the values are for programs too (the API's logs, `str()`): the seat asked for
    with pytest.raises(IllegalAction) as err:
        apply(state, 2, make_play(cs("5D")[0]))
    assert err.value.params == {"seat": 2}
    assert str(err.value) == "no_such_seat seat=2"


def test_no_play_between_rounds_or_after_the_game() -> None:
    over = position(2, hands=("", "1C"), table="", turn=1, rest_to=0, last_capturer=0)
    over, _ = apply(over, 1, make_play(cs("1C")[0]))
    with pytest.raises(IllegalAction) as err:
        verify(over, 0, make_play(cs("1C")[0]))
    assert _said(err.value) == (
        "round_over",
        "La ronda terminó: falta tocar SIGUIENTE RONDA.",
    )
    ended, _ = end_game(over, EndReason.ABANDON, 1)
    with pytest.raises(IllegalAction) as err:
        verify(ended, 0, make_play(cs("1C")[0]))
    assert _said(err.value) == (
        "game_over",
        "La partida ya terminó.",
    )


def test_thirteen_is_not_fifteen() -> None:
    state = position(2, hands=("", "5D 2C"), table="6C 2H 4S", turn=1, rest_to=0)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, 1, make_play(cs("5D")[0], cs("2H 6C")))
    assert (err.value.code, err.value.params) == ("not_fifteen", {"sum": 13})
    assert state == before
    state2, _ = apply(state, 1, make_play(cs("5D")[0], cs("6C 4S")))
    assert state == before and state2 != state


def test_no_action_after_the_round_is_over() -> None:
    state = position(2, hands=("", "1C"), table="", turn=1, rest_to=0, last_capturer=0)
    state, _ = apply(state, 1, make_play(cs("1C")[0]))
    assert state.phase is Phase.ROUND_OVER
    assert legal_actions(state) == []
    with pytest.raises(IllegalAction) as err:
        verify(state, 0, make_play(cs("1C")[0]))
    assert err.value.code == "round_over"
    assert "SIGUIENTE RONDA" in say(err.value.code, "es", **err.value.params)


def test_actions_parse_from_json_in_any_card_order() -> None:
    play = action_from_dict({"type": "play", "card": "5d", "capture": ["6C", "4S"]})
    assert play == make_play(cs("5D")[0], cs("4S 6C")) == Play(cs("5D")[0], cs("4S 6C"))
    claim = action_from_dict({"type": "claim", "group": ["6C", "4S"]})
    assert claim == Claim(cs("4S 6C"))
    bad_input = [
        ({"type": "jugar"}, "unknown_action_type"),
        ({"type": "play"}, "action_without_card"),
        ({"type": "play", "card": "7D", "capture": 1}, "capture_not_a_list"),
        ({"type": "claim"}, "claim_without_group"),
        ({"type": "play", "card": "7Z"}, "not_a_card"),
    ]
    for bad, code in bad_input:
        with pytest.raises(InputError) as err:  # a ValueError
            action_from_dict(bad)
        assert err.value.code == code


def test_an_illegal_action_is_a_code_and_values_whole_across_processes() -> None:
    """Robots think in worker processes: the error pickles with its values.
    `str()` is for logs; the words are the catalog's."""
    err = IllegalAction("not_in_hand", card="3H")
    again = pickle.loads(pickle.dumps(err))
    assert (again.code, again.params) == ("not_in_hand", {"card": "3H"})
    assert str(again) == "not_in_hand card='3H'"
    assert not hasattr(again, "message")  # no sentence on the error: escoba.words says it
    unread = InputError("not_a_card", text="7Z")
    assert str(unread) == "not_a_card text='7Z'" and isinstance(unread, ValueError)


def test_a_play_without_a_capture_leaves_its_card_and_a_claim_names_its_group() -> None:
    """A claim's other cards are its `group` here (the log's form); `cards`
    is the record's and the API's name for all of its cards, the left one
    first, and means nothing to this parser."""
    assert action_from_dict({"type": "play", "card": "7D"}) == Play(cs("7D")[0])
    assert action_from_dict({"type": "claim", "group": ["6C", "4S"]}) == Claim(cs("4S 6C"))
    with pytest.raises(InputError) as err:
        action_from_dict({"type": "claim", "cards": ["6C", "4S"]})
    assert err.value.code == "claim_without_group"


def test_a_claim_takes_the_left_card_then_its_group_read_back_in_any_order() -> None:
    """`claim_cards` spells what a claim takes (the history, the record,
    the API), `claim_of` reads it back whatever the order; without the left
    card it is refused, and nothing to claim is left for the rules to say."""
    left, claim = cs("5D")[0], make_claim(cs("6C 4S"))
    assert claim_cards(left, claim) == cs("5D 4S 6C")
    assert claim_of(left, cs("6C 5D 4S")) == claim == claim_of(left, claim_cards(left, claim))
    with pytest.raises(IllegalAction) as err:
        claim_of(left, cs("6C 4S"))
    assert (err.value.code, err.value.params) == ("claim_missing_card", {"card": "5D"})
    assert claim_of(None, cs("6C 4S")) == claim and claim_of(left, []) == make_claim([])


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "action_not_object"),
        ({"card": "7D"}, "unknown_action_type"),
        ({"type": "jugar"}, "unknown_action_type"),
        ({"type": "play"}, "action_without_card"),
        ({"type": "play", "card": 7}, "action_without_card"),
        ({"type": "play", "card": "7D", "capture": "8D"}, "capture_not_a_list"),
        ({"type": "play", "card": "7D", "capture": ["8D", 4]}, "capture_not_a_list"),
        ({"type": "claim"}, "claim_without_group"),
        ({"type": "claim", "group": "4S 6C"}, "claim_without_group"),
        ({"type": "claim", "group": ["4S", None]}, "claim_without_group"),
    ],
)
def test_a_malformed_action_is_refused_with_what_to_send(data: Any, code: str) -> None:
    with pytest.raises(InputError) as err:
        action_from_dict(data)
    assert err.value.code == code
    assert say(code, "es")  # the catalog says what to send


# --------------------------------------------------------------------------
# Compulsory capture (player-level: any card that can capture forces a capture)


def compulsory_spot(hand: str) -> GameState:
    return position(
        2,
        hands=("3H 10C 1H", hand),
        table="4S 6C",
        turn=1,
        rest_to=0,
        rules=RuleSet(compulsory_capture=True),
    )


def test_compulsory_capture_forbids_leaving_any_card_when_one_can_capture() -> None:
    state = compulsory_spot("5D 1C 2C")  # only 5D captures
    legal = legal_actions(state)
    assert legal == [make_play(cs("5D")[0], cs("4S 6C"))]
    for card in cs("5D 1C 2C"):  # not even the cards that capture nothing
        with pytest.raises(IllegalAction) as err:
            apply(state, 1, make_play(card))
        assert err.value.code == "must_capture"
        assert "obligatorio" in say(err.value.code, "es", **err.value.params)


def test_compulsory_capture_lets_a_player_leave_when_nothing_captures() -> None:
    state = compulsory_spot("1D 1C 2C")
    assert sorted(legal_actions(state), key=lambda a: a.sort_key()) == [
        make_play(c) for c in cs("1D 1C 2C")
    ]
    state, _ = apply(state, 1, make_play(cs("2C")[0]))
    assert state.round.table == cs("2C 4S 6C")


def test_without_the_variant_leaving_a_capturing_card_is_allowed() -> None:
    state = position(2, hands=("3H 10C 1H", "5D 1C 2C"), table="4S 6C", turn=1, rest_to=0)
    assert make_play(cs("1C")[0]) in legal_actions(state)
    assert make_play(cs("5D")[0]) in legal_actions(state)


# --------------------------------------------------------------------------
# Views


def card_strings(data: object) -> set[str]:
    """Every string in a JSON value."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(card_strings(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(card_strings(v) for v in data)) if data else set()
    return set()


def test_view_shows_the_own_hand_and_the_table_and_no_other_hand_or_the_deck() -> None:
    state = new_game(RuleSet(), 3, shuffled_deck(random.Random(11)))
    rs = state.round
    for seat in range(3):
        v = view(state, seat)
        assert v.hand == tuple(sorted(rs.hands[seat]))
        assert v.table == rs.table
        assert v.deck_size == len(rs.deck)
        assert [s.hand_size for s in v.seats] == [3, 3, 3]
        shown = card_strings(json.loads(json.dumps(v.to_dict())))
        hidden = {str(c) for c in rs.deck}
        for other in range(3):
            if other != seat:
                hidden |= {str(c) for c in rs.hands[other]}
        assert not shown & hidden
        assert bool(v.legal) == (seat == rs.turn)
    spectator = spectator_view(state)
    assert spectator.hand == () and spectator.legal == ()
    shown = card_strings(spectator.to_dict())
    assert not shown & {str(c) for h in rs.hands for c in h}
    with pytest.raises(ValueError):
        view(state, 3)


def test_view_shows_the_claim_to_the_seat_that_may_make_it() -> None:
    state = position(
        2, hands=("3H 10C 1H", "5D 1C 2C"), table="4S 6C", turn=1, rest_to=0, last_capturer=0
    )
    state, _ = apply(state, 1, make_play(cs("5D")[0]))
    mine = view(state, 0)
    assert mine.can_claim and mine.claimable == cs("5D")[0] and mine.claim_seat == 0
    assert Claim(cs("4S 6C")) in mine.legal
    assert not view(state, 1).can_claim


def _said(err: IllegalAction) -> tuple[str, str]:
    """An engine refusal's code, and its words in Spanish (the catalog's)."""
    return err.code, say(err.code, "es", **err.params)
