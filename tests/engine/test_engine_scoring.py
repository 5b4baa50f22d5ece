"""Golden tests for «Scoring a round», «Winning» and the results of leaving,
absence and expiry (RULES.md)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from engine_positions import cs, deck_in_dealing_order, position

from escoba.engine import (
    CARDS,
    EndReason,
    GameState,
    IllegalAction,
    Phase,
    RuleSet,
    apply,
    end_game,
    legal_actions,
    make_play,
    new_game,
    replay,
    shuffled_deck,
    start_next_round,
    to_record,
)
from escoba.engine.events import GameEnded, RoundEnded
from escoba.engine.scoring import score_round, winner_on_points
from escoba.engine.state import SideScore
from escoba.words import say

ALL = "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H"
ALL_B = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1C 2C 3C 4C 5C 6C 7C 8C 9C 10C"


def scores(*piles: str, escobas: tuple[int, ...] | None = None) -> tuple[SideScore, ...]:
    return score_round([cs(p) for p in piles], escobas or (0,) * len(piles), len(piles))


def test_all_four_sevens_with_the_seven_of_diamonds_are_three_points() -> None:
    a, b = scores("7D 7H 7S 7C 1H", "1D 2D")
    assert (a.sevens, a.points_sevens, a.points_seven_of_diamonds) == (4, 2, 1)
    assert a.seven_of_diamonds and not b.seven_of_diamonds
    assert a.points_sevens + a.points_seven_of_diamonds == 3
    assert b.points_diamonds == 1  # 2 diamonds against 1


def test_three_sevens_are_one_point_and_the_seven_of_diamonds_does_not_need_a_majority() -> None:
    a, b = scores("7H 7S 7C", "7D")
    assert (a.points_sevens, b.points_sevens) == (1, 0)
    assert (a.points_seven_of_diamonds, b.points_seven_of_diamonds) == (0, 1)


@pytest.mark.parametrize(
    ("piles", "item"),
    [
        (("1D 2H 3S", "4D 5H 6S"), "points_cards"),  # 3 cards each
        (("1D 2H", "4D 5H"), "points_diamonds"),  # 1 diamond each
        (("7H 7S", "7C 7D"), "points_sevens"),  # 2 sevens each
        (("1H 7H", "1S 7S", "1C 7C"), "points_sevens"),  # three sides tied
    ],
)
def test_a_tie_for_the_most_gives_the_item_to_nobody(piles: tuple[str, ...], item: str) -> None:
    assert all(getattr(s, item) == 0 for s in scores(*piles))


def test_three_sides_tie_between_two_leaders_gives_nobody_the_cards() -> None:
    a, b, c = scores("1D 2D 3D", "1H 2H 3H", "1S")
    assert a.points_cards == b.points_cards == c.points_cards == 0


def test_two_points_for_cards_when_every_other_side_took_fewer_than_ten() -> None:
    rest = " ".join(ALL_B.split()[:11])  # 31 = 20 + 11 cards against 9
    a, b = scores(f"{ALL} {rest}", " ".join(ALL_B.split()[11:]))
    assert (a.cards, b.cards) == (31, 9)
    assert a.points_cards == 2
    # with three players, one other side at 10 makes it one point
    piles = ALL.split() + ALL_B.split()
    a, b, c = scores(" ".join(piles[:21]), " ".join(piles[21:30]), " ".join(piles[30:]))
    assert (a.cards, b.cards, c.cards) == (21, 9, 10)
    assert a.points_cards == 1
    a, b, c = scores(" ".join(piles[:22]), " ".join(piles[22:31]), " ".join(piles[31:]))
    assert (a.cards, b.cards, c.cards) == (22, 9, 9)
    assert a.points_cards == 2


def test_two_points_for_all_ten_diamonds() -> None:
    a, b = scores(ALL.split(" 1H")[0], "1H 2H")
    assert (a.diamonds, a.points_diamonds, b.points_diamonds) == (10, 2, 0)
    a, _ = scores("1D 2D 3D 4D 5D 6D 7D 8D 9D", "10D")
    assert a.points_diamonds == 1


def test_points_add_up_item_by_item() -> None:
    a, b = scores("7D 7H 7S 1D 2D 3H", "4C 5C", escobas=(2, 1))
    # escobas 2, cards 2 (the other side has fewer than 10), diamonds, 7D, sevens
    assert a.points == 2 + 2 + 1 + 1 + 1
    assert b.points == 1
    assert a.escobas == a.points_escobas == 2


def test_pairs_pool_captures_and_escobas_with_four_players() -> None:
    # seats 0 and 2 against 1 and 3
    piles = ["7D 1D", "1H 2H 3H", "7H 7S 2D", "3S"]
    got = score_round([cs(p) for p in piles], (1, 0, 2, 1), 4)
    assert len(got) == 2
    a, b = got
    assert (a.cards, a.escobas, a.sevens, a.diamonds) == (5, 3, 3, 3)
    assert (b.cards, b.escobas, b.sevens, b.diamonds) == (4, 1, 0, 0)
    assert a.points == 3 + 2 + 1 + 1 + 1
    assert b.points == 1


def test_pairs_score_through_a_played_round() -> None:
    """Four players, dealer 3: seat 2's escoba and seat 0's cards count together."""
    state = position(
        4,
        hands=("", "", "5D", "1C"),
        table="4S 6C",
        turn=2,
        dealer=3,
        rest_to=0,
        last_capturer=0,
    )
    state, _ = apply(state, 2, make_play(cs("5D")[0], cs("4S 6C")))
    state, _ = apply(state, 3, make_play(cs("1C")[0]))
    summary = state.finished_rounds[-1]
    assert summary.scores[0].escobas == 1
    # seat 0's earlier piles, seat 2's 15 and the leftover 1C, which seat 2 took
    assert summary.scores[0].cards == 40
    assert summary.leftover.seat == 2
    assert summary.scores[1].cards == 0


# --------------------------------------------------------------------------
# Winning


@pytest.mark.parametrize(
    ("totals", "target", "winner"),
    [
        ((21, 20), 21, 0),  # reached with strictly more
        ((20, 20), 21, None),  # nobody reached
        ((22, 22), 21, None),  # tie at the top: play on
        ((25, 23), 21, 0),  # both over: the larger wins
        ((23, 25, 10), 21, 1),
        ((25, 25, 30), 21, 2),
        ((31, 30), 31, 0),
        ((30, 29), 30, 0),
        ((15, 3), 15, 0),
        ((14, 3), 15, None),
    ],
)
def test_winner_on_points(totals: tuple[int, ...], target: int, winner: int | None) -> None:
    assert winner_on_points(totals, target) == winner


@pytest.mark.parametrize("target", [15, 21, 30, 31])
def test_targets_are_fifteen_twenty_one_thirty_and_thirty_one(target: int) -> None:
    assert RuleSet(target=target).target == target


@pytest.mark.parametrize("target", [0, 20, 25, 40])
def test_other_targets_are_refused(target: int) -> None:
    with pytest.raises(ValueError):
        RuleSet(target=target)


def finishing_round(totals: tuple[int, int], target: int = 21) -> GameState:
    """Seat 1 makes the last play of the round, an escoba; seat 0 took every
    other card earlier. The round gives seat 0 cards 2 + diamonds 2 + 7D 1 +
    sevens 2 = 7 points and seat 1 its escoba: 1 point."""
    return position(
        2,
        hands=("", "5H"),
        table="4S 6C",
        turn=1,
        rest_to=0,
        last_capturer=0,
        totals=totals,
        rules=RuleSet(target=target),
    )


def play_out(state: GameState) -> GameState:
    state, _ = apply(state, 1, make_play(cs("5H")[0], cs("4S 6C")))
    summary = state.finished_rounds[-1]
    assert [s.points for s in summary.scores] == [7, 1]
    return state


def test_reaching_the_target_with_strictly_more_wins() -> None:
    state = play_out(finishing_round((10, 3)))
    assert state.totals == (17, 4)
    assert state.phase is Phase.ROUND_OVER and state.result is None
    before = finishing_round((14, 3))
    state, events = apply(before, 1, make_play(cs("5H")[0], cs("4S 6C")))
    assert state.totals == (21, 4)
    assert state.phase is Phase.GAME_OVER
    assert state.result is not None
    assert events[-2:] == [RoundEnded(summary=state.finished_rounds[-1]), GameEnded(state.result)]
    assert state.result.winners == (0,) and state.result.reason is EndReason.TARGET
    with pytest.raises(IllegalAction):
        start_next_round(state, deck_in_dealing_order(2, 1, "1D 2H 4S 5C"))


def test_a_tie_at_the_top_plays_another_round() -> None:
    state = play_out(finishing_round((15, 21)))
    assert state.totals == (22, 22)
    assert state.phase is Phase.ROUND_OVER and state.result is None
    nxt, _ = start_next_round(state, deck_in_dealing_order(2, 1, "1D 2H 4S 5C"))
    assert nxt.phase is Phase.PLAYING and nxt.totals == (22, 22)


def test_two_sides_over_the_target_the_larger_wins() -> None:
    state = play_out(finishing_round((20, 29), target=21))
    assert state.totals == (27, 30)
    assert state.result is not None and state.result.winners == (1,)


def test_dealer_rotates_each_round_and_the_next_seat_plays_first() -> None:
    state = new_game(RuleSet(target=31), 3, shuffled_deck(random.Random(3)), first_dealer=0)
    dealers, first_players, numbers = [], [], []
    for _ in range(5):
        dealers.append(state.round.dealer)
        first_players.append(state.round.turn)
        numbers.append(state.round.number)
        while state.phase is Phase.PLAYING:
            state, _ = apply(state, state.round.turn, legal_actions(state)[-1])
        assert state.phase is Phase.ROUND_OVER
        with pytest.raises(IllegalAction):
            apply(
                state, 0, legal_actions(state)[0] if legal_actions(state) else make_play(CARDS[0])
            )
        state, _ = start_next_round(state, shuffled_deck(random.Random(len(dealers))))
    assert dealers == [0, 1, 2, 0, 1]
    assert first_players == [1, 2, 0, 1, 2]
    assert numbers == [1, 2, 3, 4, 5]


def test_next_round_only_between_rounds() -> None:
    state = new_game(RuleSet(), 2, shuffled_deck(random.Random(1)))
    with pytest.raises(IllegalAction) as err:
        start_next_round(state, shuffled_deck(random.Random(2)))
    assert err.value.code == "round_in_play"


# --------------------------------------------------------------------------
# Leaving, absence and expiry


def mid_game(players: int, totals: tuple[int, ...]) -> GameState:
    state = new_game(RuleSet(), players, shuffled_deck(random.Random(players)))
    return dataclasses.replace(state, totals=totals)


@pytest.mark.parametrize("reason", [EndReason.ABANDON, EndReason.ABSENCE])
def test_with_pairs_the_leavers_pair_loses_and_the_other_pair_wins(reason: EndReason) -> None:
    state = mid_game(4, (20, 3))
    for loser, winners in ((0, (1,)), (2, (1,)), (1, (0,)), (3, (0,))):
        end, _ = end_game(state, reason, loser)
        assert end.phase is Phase.GAME_OVER
        assert end.result is not None
        assert (end.result.winners, end.result.reason, end.result.loser_seat) == (
            winners,
            reason,
            loser,
        )


@pytest.mark.parametrize("reason", [EndReason.ABANDON, EndReason.ABSENCE])
def test_without_pairs_the_other_player_with_most_points_wins(reason: EndReason) -> None:
    state = mid_game(3, (5, 8, 2))
    end, _ = end_game(state, reason, 1)
    assert end.result is not None and end.result.winners == (0,)
    end, _ = end_game(state, reason, 2)
    assert end.result is not None and end.result.winners == (1,)
    two, _ = end_game(mid_game(2, (0, 0)), reason, 0)
    assert two.result is not None and two.result.winners == (1,)


@pytest.mark.parametrize("reason", [EndReason.ABANDON, EndReason.ABSENCE])
def test_without_pairs_only_the_best_of_the_others_wins_not_one_point_behind(
    reason: EndReason,
) -> None:
    state = mid_game(3, (10, 4, 9))
    end, _ = end_game(state, reason, 1)
    assert end.result is not None and end.result.winners == (0,)
    end, _ = end_game(mid_game(3, (3, 20, 4)), reason, 1)
    assert end.result is not None and end.result.winners == (2,)


def test_without_pairs_a_tie_among_the_others_shares_the_win() -> None:
    state = mid_game(3, (9, 4, 9))
    end, _ = end_game(state, EndReason.ABANDON, 1)
    assert end.result is not None and end.result.winners == (0, 2)


def test_expiry_ends_with_no_winner() -> None:
    end, _ = end_game(mid_game(2, (20, 10)), EndReason.EXPIRED)
    assert end.result is not None
    assert end.result.winners == () and end.result.reason is EndReason.EXPIRED
    assert to_record(end)["result"] == {"winners": [], "reason": "expired"}
    assert replay(to_record(end)).result == end.result


def test_end_game_refuses_what_it_cannot_record() -> None:
    state = mid_game(2, (0, 0))
    with pytest.raises(ValueError, match=r"^a game ends on points only by playing$"):
        end_game(state, EndReason.TARGET)
    who_left = r"^abandon and absence name the losing seat$"
    with pytest.raises(ValueError, match=who_left):
        end_game(state, EndReason.ABANDON)  # who left?
    with pytest.raises(ValueError, match=who_left):
        end_game(state, EndReason.ABSENCE, 2)
    with pytest.raises(ValueError, match=who_left):
        end_game(state, EndReason.ABSENCE, -1)
    end, events = end_game(state, EndReason.ABANDON, 0)
    assert events == [GameEnded(result=end.result)] and end.result is not None
    with pytest.raises(IllegalAction) as err:
        end_game(end, EndReason.EXPIRED)
    assert _said(err.value) == (
        "game_over",
        "La partida ya terminó.",
    )
    with pytest.raises(IllegalAction) as err:
        apply(end, end.round.turn, legal_actions(state)[0])
    assert err.value.code == "game_over"
    assert legal_actions(end) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_ended_by_leaving_replays_from_its_record(players: int) -> None:
    state = mid_game(players, (0,) * (2 if players == 4 else players))
    state = dataclasses.replace(state, totals=(0,) * len(state.totals))
    for _ in range(5):
        state, _ = apply(state, state.round.turn, legal_actions(state)[0])
    end, _ = end_game(state, EndReason.ABSENCE, 1)
    again = replay(json.loads(json.dumps(to_record(end))))
    assert again.result == end.result
    assert to_record(again) == to_record(end)


def _said(err: IllegalAction) -> tuple[str, str]:
    """An engine refusal's code, and its words in Spanish (the catalog's)."""
    return err.code, say(err.code, "es", **err.params)
