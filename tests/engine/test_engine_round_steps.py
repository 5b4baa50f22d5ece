"""The replay of a finished round (engine/round_steps.py): its steps follow
the game record play by play, and no step names a card that was still in a
hand (or the deck) at that moment."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise

import pytest

from escoba.engine import (
    GameState,
    Phase,
    RecordError,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    shuffled_deck,
    start_next_round,
    to_record,
    view,
)
from escoba.engine.cards import CARDS, NOTATION
from escoba.engine.round_steps import RoundStep, round_states, round_story


def whole_game(players: int, seed: int) -> GameState:
    rng = random.Random(seed)
    state = new_game(RuleSet(target=21), players, shuffled_deck(rng))
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            state, _ = start_next_round(state, shuffled_deck(rng))
        else:
            state, _ = apply(state, state.round.turn, rng.choice(legal_actions(state)))
    return state


GAMES = [(players, seed) for players in (2, 3, 4) for seed in range(4)]


def shown(step: RoundStep) -> set[int]:
    cards = {*step.taken, *step.table, *step.table_before}
    if step.card is not None:
        cards.add(step.card)
    return cards


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_the_steps_follow_the_record(players: int, seed: int) -> None:
    state = whole_game(players, seed)
    record = to_record(state)
    for summary, recorded in zip(state.finished_rounds, record["rounds"], strict=True):
        story = round_story(summary, players, state.rules)
        steps = story.steps
        assert len(steps) == len(recorded["actions"]) + 2
        assert steps[0].kind == "deal" and steps[-1].kind == "end"
        assert sorted(NOTATION[c] for c in steps[0].table_before) == sorted(
            recorded["deals"][0]["table"]
        )
        take = recorded["table_take"]
        assert [NOTATION[c] for c in steps[0].taken] == (take["cards"] if take else [])
        for step, action in zip(steps[1:-1], recorded["actions"], strict=True):
            assert step.seat == action["seat"] and step.kind == action["type"]
            if action["type"] == "play":
                assert NOTATION[step.card] == action["card"]  # type: ignore[index]
                assert [NOTATION[c] for c in step.taken] == action["capture"]
            else:
                assert [NOTATION[c] for c in step.taken] == action["cards"]
            assert (step.escobas == 1) == action["escoba"]
            assert step.escobas == 0 or not step.table
        # the table after each step is the table before the next
        for before, after in pairwise(steps):
            assert after.table_before == before.table
        left = recorded["leftover"]
        assert [NOTATION[c] for c in steps[-1].taken] == (left["cards"] if left else [])
        assert steps[-1].seat == (left["seat"] if left else None)
        assert story.totals == tuple(recorded["totals"])
        # every card is on the table or in a pile at the end, but for a
        # leftover that went to nobody
        nobody = len(steps[-1].taken) if steps[-1].seat is None else 0
        assert sum(steps[-1].piles) + nobody == 40
        assert list(steps[-1].seat_escobas) == [
            sum(1 for a in recorded["actions"] if a["seat"] == s and a["escoba"])
            + (take["escobas"] if take and take["seat"] == s else 0)
            for s in range(players)
        ]


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_no_step_names_a_card_still_hidden(players: int, seed: int) -> None:
    state = whole_game(players, seed)
    for summary in state.finished_rounds:
        story = round_story(summary, players, state.rules)
        known = set(summary.deals[0].table)  # face up from the deal
        for step in story.steps:
            if step.card is not None:
                known.add(step.card)  # played: everyone saw it
            assert shown(step) <= known, f"step {step.number} shows {shown(step) - known}"
            assert len(step.piles) == players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_states_of_a_round_are_those_of_its_play(players: int) -> None:
    """`round_states` gives the state after the deal, then the state after
    each action: the one a seat saw before its next action (the analysis
    reads the seats' views from them)."""
    state = whole_game(players, 5)
    for summary in state.finished_rounds:
        states = list(round_states(summary, players, state.rules))
        assert [recorded for _, recorded in states] == [None, *summary.actions]
        first = states[0][0].round
        assert first.deals == summary.deals[:1] and first.table_take == summary.table_take
        for (before, _), (after, recorded) in pairwise(states):
            assert recorded is not None and before.round.turn == recorded.seat
            assert after.round.history == (*before.round.history, recorded)
        end = states[-1][0]
        assert end.phase is not Phase.PLAYING
        assert end.finished_rounds[-1].scores == summary.scores


def test_a_round_that_does_not_follow_the_rules_is_refused() -> None:
    state = whole_game(2, 1)
    summary = state.finished_rounds[0]
    first, second, *rest = summary.actions
    swapped = replace(summary, actions=(second, first, *rest))
    with pytest.raises(RecordError):
        round_story(swapped, 2, state.rules)
    with pytest.raises(RecordError):
        round_story(replace(summary, actions=summary.actions[:-1]), 2, state.rules)
    with pytest.raises(RecordError, match="not finished"):
        list(round_states(replace(summary, actions=summary.actions[:-1]), 2, state.rules))
    wrong_end = replace(summary, leftover=replace(summary.leftover, seat=None))
    if summary.leftover.seat is not None and summary.leftover.cards:
        with pytest.raises(RecordError):
            round_story(wrong_end, 2, state.rules)


def test_a_deal_that_takes_the_table_is_its_first_step() -> None:
    """The first four cards make 15: the dealer takes them (¡ESCOBA!) and the
    replay's deal step shows them taken, the table left empty."""
    table = [CARDS[0], CARDS[4], CARDS[8], CARDS[32]]  # 1 + 2 + 3 + 9 = 15
    rest = [c for c in CARDS if c not in table]
    deck = [*rest[:6], *table, *rest[6:]]
    rng = random.Random(2)
    state = new_game(RuleSet(target=21), 2, deck)
    while state.phase is Phase.PLAYING:
        state, _ = apply(state, state.round.turn, rng.choice(legal_actions(state)))
    story = round_story(state.finished_rounds[0], 2, state.rules)
    deal = story.steps[0]
    assert deal.kind == "deal" and deal.seat == 0
    assert sorted(deal.taken) == sorted(table) and deal.escobas == 1
    assert deal.table == () and sorted(deal.table_before) == sorted(table)
    assert deal.piles == (4, 0) and deal.seat_escobas == (1, 0)


@pytest.mark.parametrize(("players", "seed"), GAMES[::3])
def test_a_play_s_step_keeps_the_position_its_seat_saw(players: int, seed: int) -> None:
    """Issue 34: the hand the player chose from and LLEVAR EL 15 if it was
    offered: the state before the action, as its seat's view had them."""
    state = whole_game(players, seed)
    for summary in state.finished_rounds:
        story = round_story(summary, players, state.rules)
        states = list(round_states(summary, players, state.rules))
        for step, ((before, _), _) in zip(story.steps[1:-1], pairwise(states), strict=True):
            assert step.seat is not None
            seen = view(before, step.seat)
            assert step.hand_before == tuple(sorted(seen.hand))
            assert step.table_before == seen.table
            offered = seen.claimable if seen.claim_seat == step.seat else None
            assert step.claimable == offered
            if step.kind == "play":
                assert step.card in step.hand_before
            else:
                assert step.claimable == step.card
        assert story.steps[0].hand_before == () and story.steps[-1].hand_before == ()
