"""Reading hands from plays: the deal's past tables, the posterior's worlds,
and that it points at the true hands more often than uniform worlds do."""

from __future__ import annotations

import random
import statistics

import pytest

from escoba.bots import get_robot
from escoba.bots.inference import PosteriorSampler, observations, tables_before_plays
from escoba.bots.knowledge import knowledge, shuffle_tail
from escoba.engine import GameState, Phase, RuleSet, apply, new_game, shuffled_deck, view


def carmen_games(players: int, seed: int, rounds: int) -> list[tuple[GameState, list[list[int]]]]:
    """Every playing state of `rounds` Carmen-only rounds, each with the
    table before every play so far (from the engine, for checking)."""
    rng = random.Random(seed)
    carmen = get_robot("carmen")
    out: list[tuple[GameState, list[list[int]]]] = []
    for r in range(rounds):
        state = new_game(RuleSet(), players, shuffled_deck(rng), first_dealer=r % players)
        tables: list[list[int]] = []
        while state.phase is Phase.PLAYING:
            out.append((state, tables[:]))
            seat = state.round.turn
            action = carmen.choose(view(state, seat), rng)
            before = sorted(int(c) for c in state.round.table)
            if action.__class__.__name__ == "Play":
                tables.append(before)
            else:
                tables.append([])  # a claim: not a play, keeps history indices aligned
            state, _ = apply(state, seat, action)
    return out


def test_the_tables_before_the_deals_plays_are_rebuilt_from_the_view() -> None:
    checked = 0
    for state, tables in carmen_games(2, seed=3, rounds=6):
        v = view(state, state.round.turn)
        for idx, table in tables_before_plays(v).items():
            assert v.history[idx].kind == "play"
            assert table == tables[idx]
            checked += 1
    assert checked > 100


def test_observations_cover_the_other_seats_plays_of_this_deal() -> None:
    for state, _ in carmen_games(3, seed=4, rounds=3):
        seat = state.round.turn
        v = view(state, seat)
        know = knowledge(v)
        obs = observations(v, know)
        deal_plays = [i for i in tables_before_plays(v) if v.history[i].seat != seat]
        assert len(obs) == len(deal_plays)
        for o in obs:
            assert o.seat != seat
            assert set(o.weight) == set(know.unseen)
            assert o.known >= 1.0  # the observed action itself weighs 1
            assert all(w > 0.0 for w in o.weight.values())


@pytest.mark.parametrize("hands_only", [False, True])
@pytest.mark.parametrize("players", [2, 4])
def test_posterior_worlds_keep_every_public_fact(players: int, hands_only: bool) -> None:
    rng = random.Random(8)
    for state, _ in carmen_games(players, seed=5, rounds=3)[::3]:
        v = view(state, state.round.turn)
        know = knowledge(v)
        obs = observations(v, know)
        sampler = PosteriorSampler(know, obs, rng, pool=32, hands_only=hands_only)
        for _ in range(5):
            world = sampler.sample(rng)
            hidden = [c for s in range(players) if s != know.seat for c in world.hands[s]]
            assert sorted(hidden + world.deck) == sorted(know.unseen)
            assert [len(h) for h in world.hands] == list(know.hand_sizes)
            assert world.hands[know.seat] == list(know.hand)
            assert world.table == list(know.table)


def test_posterior_points_at_the_true_hand_more_than_uniform_worlds() -> None:
    """Against Carmen (whom the model describes) the sampled opponent hands
    share more cards with the true one than uniform samples do."""
    rng = random.Random(1)
    post: list[float] = []
    uniform: list[float] = []
    for state, _ in carmen_games(2, seed=6, rounds=25):
        seat = state.round.turn
        v = view(state, seat)
        if len(v.legal) < 2:
            continue
        know = knowledge(v)
        obs = observations(v, know)
        if not obs:
            continue
        true_hand = {int(c) for c in state.round.hands[1 - seat]}
        sampler = PosteriorSampler(know, obs, rng)
        for _ in range(40):
            post.append(len(true_hand & set(sampler.sample(rng).hands[1 - seat])))
            uniform.append(len(true_hand & set(know.sample(rng).hands[1 - seat])))
    assert len(post) > 2000
    assert statistics.mean(post) > 1.05 * statistics.mean(uniform)


def test_a_shuffle_cut_short_draws_its_last_cards_uniformly() -> None:
    """`shuffle_tail` (the posterior's pool when only the hidden hands are
    read): every card lands in each of the last places about equally often,
    and the list keeps its cards."""
    rng = random.Random(35)
    cards = list(range(30))
    counts = [[0] * 30 for _ in range(3)]
    for _ in range(6000):
        shuffle_tail(cards, 3, rng)
        assert sorted(cards) == list(range(30))
        for place in range(3):
            counts[place][cards[-1 - place]] += 1
    for by_card in counts:
        assert min(by_card) > 120 and max(by_card) < 290  # 200 expected each
