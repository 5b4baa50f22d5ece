"""The first lesson's stages (escoba.lessons) are data the engine checks:
each position is a legal moment of a two-player round, each expected play
is one the engine accepts and that does what the stage teaches, and every
other play the engine allows is judged wrong, with a reason that is true."""

from __future__ import annotations

import pytest

from escoba.engine import (
    SEVEN_OF_DIAMONDS,
    VALUE,
    Card,
    Claim,
    Phase,
    Play,
    apply,
    can,
    can_capture,
    legal_actions,
    parse_card,
    parse_cards,
)
from escoba.engine.scoring import score_round
from escoba.lessons import (
    BY_KEY,
    DEALS,
    STAGES,
    TITO,
    YOU,
    Stage,
    answer_of,
    classify,
    judge,
    judge_answer,
    position,
    stage_at,
)

PLAYS = [s for s in STAGES if s.question is None]
QUESTIONS = [s for s in STAGES if s.question is not None]


def _sum(cards: tuple[Card, ...] | list[Card]) -> int:
    return sum(VALUE[c] for c in cards)


def test_the_lesson_has_its_seven_stages_in_order() -> None:
    assert [s.key for s in STAGES] == [
        "fifteen",
        "groups",
        "escoba",
        "claim",
        "leave",
        "ultimas",
        "points",
    ]
    assert stage_at(1) is STAGES[0] and stage_at(7) is STAGES[-1]
    assert stage_at(0) is None and stage_at(8) is None


@pytest.mark.parametrize("stage", PLAYS, ids=lambda s: s.key)
def test_each_position_is_a_legal_moment_of_a_round(stage: Stage) -> None:
    state = position(stage)
    rs = state.round
    assert state.phase is Phase.PLAYING and state.turn == YOU
    every = [*rs.table, *rs.deck, *(c for h in rs.hands for c in h)]
    every += [c for pile in rs.captured for c in pile]
    assert sorted(every) == list(range(40))  # the 40 cards, each once
    assert rs.hands[YOU] == parse_cards(stage.hand)
    assert sorted(rs.table) == sorted(parse_cards(stage.table))
    # the deck as long as the deal says; ÚLTIMAS only on the sixth
    assert len(rs.deck) == 36 - 6 * stage.deal and rs.deal_number == stage.deal
    assert rs.is_last_deal == (stage.deal == DEALS)
    # the turn order: who plays first in the deal has no fewer cards
    first = (rs.dealer + 1) % 2
    assert len(rs.hands[first]) + (0 if first == YOU else 1) == len(rs.hands[YOU])
    # every pile is captures' fifteens: what is not in a pile sums 10 + 15·k
    for pile in rs.captured:
        assert _sum(pile) % 15 == 0
    assert (_sum(rs.table) + _sum(rs.deck) + sum(_sum(h) for h in rs.hands)) % 15 == 10
    assert rs.last_capturer is not None and rs.captured[rs.last_capturer]
    # LLEVAR EL 15 is open only where the left card made 15 with the table
    if stage.left is None:
        assert rs.claim is None
    else:
        left = parse_card(stage.left)
        assert rs.claim is not None and rs.claim.card == left and rs.claim.seat == YOU
        assert can_capture(left, [c for c in rs.table if c != left])
    # the same position however often it is built (the pages build it again)
    assert position.__wrapped__(stage) == state


@pytest.mark.parametrize("stage", PLAYS, ids=lambda s: s.key)
def test_the_expected_plays_are_legal_and_right_and_every_other_is_wrong(stage: Stage) -> None:
    state = position(stage)
    legal = legal_actions(state)
    judged = classify(stage)
    assert set(judged) == set(legal)
    assert stage.right and all(can(state, YOU, a) for a in stage.right)
    assert {a for a, v in judged.items() if v.right} == set(stage.right)
    wrong = [v for v in judged.values() if not v.right]
    assert wrong, "a stage with nothing wrong to do teaches nothing"
    for action, code in stage.wrong:
        assert can(state, YOU, action)
        assert judged[action].code == code
    for verdict in wrong:
        assert verdict.code in {code for _, code in stage.wrong} | {stage.otherwise}
    for action in stage.right:
        assert judged[action].code == f"{stage.key}_right"


def test_make_15_takes_the_only_fifteen() -> None:
    stage = BY_KEY["fifteen"]
    state = position(stage)
    (take,) = [a for a in legal_actions(state) if isinstance(a, Play) and a.capture]
    assert stage.right == (take,)
    assert VALUE[take.card] + _sum(take.capture) == 15


def test_choosing_among_groups_the_right_one_takes_more_and_the_seven_of_diamonds() -> None:
    stage = BY_KEY["groups"]
    state = position(stage)
    (right,) = stage.right
    assert isinstance(right, Play)
    groups = [a for a in legal_actions(state) if isinstance(a, Play) and a.card == right.card]
    takes = [a for a in groups if a.capture]
    assert len(takes) == 2  # two groups for the same card
    (other,) = [a for a in takes if a != right]
    assert len(right.capture) > len(other.capture)
    assert SEVEN_OF_DIAMONDS in right.capture and SEVEN_OF_DIAMONDS not in other.capture
    assert judge(stage, other).values["best_cards"] == ["3S", "7D"]


def test_the_escoba_stage_right_play_sweeps_and_the_other_capture_does_not() -> None:
    stage = BY_KEY["escoba"]
    state = position(stage)
    after, _ = apply(state, YOU, stage.right[0])
    assert after.round.table == () and after.round.escobas[YOU] == 1
    assert after.round.history[-1].escoba
    ((partial, _),) = stage.wrong
    left, _ = apply(state, YOU, partial)
    assert left.round.table and left.round.escobas[YOU] == 0
    assert judge(stage, partial).values["left"] == ["4C"]


def test_llevar_el_15_takes_the_left_card_sweeps_and_lapses_with_a_play() -> None:
    stage = BY_KEY["claim"]
    state = position(stage)
    (claim,) = stage.right
    assert isinstance(claim, Claim)
    assert [a for a in legal_actions(state) if isinstance(a, Claim)] == [claim]
    after, _ = apply(state, YOU, claim)
    assert after.round.table == () and after.round.escobas[YOU] == 1
    assert after.turn == YOU  # a card is still to be played
    # no card of the hand captures: only the claim takes anything
    assert not any(isinstance(a, Play) and a.capture for a in legal_actions(state))
    play = next(a for a in legal_actions(state) if isinstance(a, Play))
    lapsed, _ = apply(state, YOU, play)
    assert lapsed.round.claim is None or lapsed.round.claim.seat != YOU


def test_the_card_to_leave_is_the_one_no_card_can_sweep_after() -> None:
    stage = BY_KEY["leave"]
    state = position(stage)
    assert all(isinstance(a, Play) and not a.capture for a in legal_actions(state))
    for action in legal_actions(state):
        after, _ = apply(state, YOU, action)
        total = _sum(after.round.table)
        verdict = judge(stage, action)
        sweepable = any(VALUE[c] + total == 15 for c in range(40))
        assert verdict.right == (not sweepable)
        if not verdict.right:
            # the sentence's card: the value that sweeps that table
            assert verdict.values["sum"] == total
            assert verdict.values["value"] == 15 - total and 1 <= 15 - total <= 10


def test_ultimas_the_last_capture_takes_what_stays_and_leaving_gives_it_to_tito() -> None:
    stage = BY_KEY["ultimas"]
    state = position(stage)
    assert state.round.is_last_deal and state.round.last_capturer == TITO
    assert state.round.hands[TITO] == () and len(state.round.hands[YOU]) == 1
    for action in legal_actions(state):
        after, _ = apply(state, YOU, action)
        assert after.phase is Phase.ROUND_OVER
        summary = after.last_summary
        assert summary is not None
        assert isinstance(action, Play)
        if action.capture:
            assert judge(stage, action).right
            assert summary.leftover.seat == YOU and summary.leftover.cards
            assert not summary.actions[-1].escoba  # the leftover is never an escoba
        else:
            assert not judge(stage, action).right
            assert summary.leftover.seat == TITO
            assert len(summary.leftover.cards) == judge(stage, action).values["n"]


def test_the_points_question_is_about_the_round_the_ultimas_stage_ends() -> None:
    stage = BY_KEY["points"]
    assert stage in QUESTIONS and stage.after == "ultimas"
    state = position(stage)
    assert state.phase is Phase.ROUND_OVER
    rs = state.round
    scores = score_round(rs.captured, rs.escobas, 2)
    assert answer_of(stage) == scores[YOU].points == 4
    assert scores[TITO].points == 3
    assert answer_of(stage) in stage.choices
    # a question worth asking: not every line goes the same way
    assert scores[TITO].points_sevens == 1 and scores[YOU].points_cards == 1
    for n in stage.choices:
        verdict = judge_answer(stage, n)
        assert verdict.right == (n == answer_of(stage))
        assert verdict.code == ("points_right" if verdict.right else "points_wrong")
