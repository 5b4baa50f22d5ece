"""The tries at a stronger Luna kept in bench/tries/ (issue 27) stay
runnable, so that their figures in bench/RESULTS-bots.md can be made again:
each plays a legal action in positions of every kind, and the quick players
of bench/bench_policies.py play whole rounds to their points. (bench/ is on
the path: pyproject's `[tool.pytest.ini_options]`.)"""

from __future__ import annotations

import random

import pytest

from escoba.bots.luna import Luna
from escoba.engine import Phase, view

from .helpers import answers_as_carmen, carmen_rounds, random_round_states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tunable_luna_at_her_defaults_is_luna(players: int) -> None:
    """bench/research_luna.py: `TunableLuna` at its defaults makes Luna's
    own choice in every position, from the same random source (the same
    worlds, the same figures): the paired bench's `base`, and every try
    built on it, is today's Luna."""
    from research_luna import TunableLuna

    luna = Luna(budget=10.0, min_worlds=6, max_worlds=6, limit=None)
    tunable = TunableLuna(budget=10.0, min_worlds=6, max_worlds=6, limit=None)
    _choose_alike(tunable, luna, players, seed=36 + players)


def _choose_alike(first: Luna, second: Luna, players: int, seed: int) -> None:
    """`first` and `second` make the same choice in every position with a
    choice of a random round (each from the same random source), and there
    are more than ten such positions."""
    chosen = 0
    for i, state in enumerate(random_round_states(players, seed=seed, rounds=1)):
        if state.phase is not Phase.PLAYING:
            continue
        v = view(state, state.round.turn)
        if len(v.legal) > 1:
            assert first.choose(v, random.Random(i)) == second.choose(v, random.Random(i))
            chosen += 1
    assert chosen > 10


def test_the_frozen_luna_still_plays_out_to_the_rounds_end() -> None:
    """issue 35 cut Luna's playouts at the deal's end; the mark of issue 27
    (`luna-2026-12`) is the Luna before it: `TunableLuna(horizon=None)`,
    choice for choice."""
    from escoba.tournament.entrants import FROZEN
    from research_luna import TunableLuna

    frozen = FROZEN["luna-2026-12"]()
    assert isinstance(frozen, Luna) and frozen.horizon is None and Luna.horizon == 0
    frozen.budget, frozen.min_worlds, frozen.max_worlds, frozen.limit = 10.0, 6, 6, None
    before = TunableLuna(budget=10.0, min_worlds=6, max_worlds=6, limit=None, horizon=None)
    _choose_alike(frozen, before, 2, seed=35)


@pytest.mark.parametrize(
    "variant",
    [
        "racing:first=4,max_worlds=8",
        "exact_earlier:worlds=2,max_worlds=4",
        "endplay:max_worlds=4",
        "twostep:max_worlds=6",
        "exact_reply:max_worlds=4",
        "exact_read:max_worlds=4",
        "deal_exact:splits=1",
        "ismcts:max_worlds=4",
        "ismcts:max_worlds=4,reply=carmen",
        "ismcts:max_worlds=4,root=paired",
        "ismcts:max_worlds=4,root=paired,expand=policy",
    ],
)
def test_each_try_plays_legal_actions(variant: str) -> None:
    import bench_luna_paired

    luna = bench_luna_paired.make(variant)
    rng = random.Random(5)
    chosen = 0
    for state in random_round_states(2, seed=3, rounds=2):
        if state.phase is not Phase.PLAYING:
            continue
        v = view(state, state.round.turn)
        if len(v.legal) > 1:
            assert luna.choose(v, rng) in v.legal
            chosen += 1
    assert chosen > 20


@pytest.mark.parametrize(
    "player",
    ["sharp", "sharp:dynamic=0,reply=1.2", "careful", "greedy", "end_minimax", "end_reply"],
)
def test_the_quick_players_play_rounds_to_their_points(player: str) -> None:
    import bench_policies

    for deal in range(3):
        for players in (2, 3, 4):
            deck = list(range(40))
            random.Random(deal).shuffle(deck)
            sim = bench_policies.new_round(players, deal % players, deck)
            movers = [
                bench_policies._mover(player if s % 2 == 0 else "careful") for s in range(players)
            ]
            points = bench_policies.play_round(sim, movers)
            assert sim.over and len(points) == sim.nsides
            assert min(points) >= 0 and sum(points) >= 1  # the 7 of diamonds scores


def test_the_best_answer_to_carmen_never_does_worse_than_her_rule() -> None:
    """`end_reply` (bench/tries/endplay.py) plays a two-player round's last
    deal as the best answer to Carmen's rule: from any last deal, against
    her rule, it ends at least as well as her rule itself, and better in
    some."""
    import bench_policies
    from escoba.bots.policy import careful_move
    from tries.endplay import end_reply

    better = 0
    for deal in range(40):
        deck = list(range(40))
        random.Random(deal).shuffle(deck)
        sim = bench_policies.new_round(2, deal % 2, deck)
        carmen = [careful_move, careful_move]
        while sim.deck:  # both play by her rule to the last deal
            count, worth = bench_policies.unplayed_of(sim)
            sim.apply(careful_move(sim, count, worth))
        side = sim.side[sim.turn]
        ends = []
        for movers in (carmen, [end_reply if s == sim.turn else careful_move for s in range(2)]):
            pts = bench_policies.play_round(sim.copy(), movers)
            ends.append(pts[side] - pts[1 - side])
        assert ends[1] >= ends[0]
        better += ends[1] > ends[0]
    assert better > 0


def test_the_worth_of_the_hand_is_nothing_where_luna_chooses_as_the_seer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bench/bench_regret.py: every decision of Luna's with a choice is
    recorded, from her leads of a deal to its end, and a choice made alike
    costs exactly nothing."""
    import bench_regret

    monkeypatch.setattr(bench_regret, "LUNA_WORLDS", 6)
    monkeypatch.setattr(bench_regret, "EVAL_WORLDS", 6)
    decisions = bench_regret.deal_pair((2026, 1))
    assert len(decisions) > 10
    for played, deck, loss, alike in decisions:
        assert 0 <= played <= 3 and deck % 6 == 0
        if alike:
            assert loss == 0.0
    assert {0, 1, 2} <= {played for played, *_ in decisions}


def test_the_exact_reply_is_carmens_choice_in_every_position() -> None:
    """`exact_reply`'s answer, played in the true world, leaves the table
    Carmen's own choice leaves, in every position where she answers with a
    play (`CarmenReply`'s, with her view of the unseen cards approximated,
    in nearly every one: tests/bots/test_bots_reply.py). After a «LLEVAR EL
    15» of hers both keep the judgement of the table before it, where she
    judges afresh, so those answers are left out."""
    from tries.exact_reply import ExactReply

    same, total = answers_as_carmen(ExactReply, seed=31, rounds=12, claims=False)
    assert total > 1000
    assert same == total, (same, total)


def test_the_exact_reading_keeps_the_hands_carmen_would_have_played_from() -> None:
    """`exact_read` weighs a hand 1 when Carmen's rule, holding it, makes
    the play seen, and `eps` when not: in real Carmen games the hand she
    truly holds always passes, and some hands do not."""
    from escoba.bots.inference import past_plays
    from escoba.bots.knowledge import knowledge
    from tries.exact_read import ExactPosterior, consistent

    rng = random.Random(9)
    checked = refused = 0
    for state, v, _ in carmen_rounds(seed=9, deals=6):
        know = knowledge(v)
        plays = past_plays(v, know)
        other = 1 - know.seat
        truth = [int(c) for c in state.round.hands[other]]
        for play in plays:
            assert consistent(play, truth)
            checked += 1
            others = [c for c in know.unseen if c not in truth][: len(truth)]
            refused += not consistent(play, others)
        if plays:
            sampler = ExactPosterior(know, plays, rng, eps=0.0)
            world = sampler.sample(rng)
            assert all(consistent(p, world.hands[other]) for p in plays)
    assert checked > 50 and refused > 0


def test_the_posterior_bench_scores_a_reading() -> None:
    """bench/bench_posterior.py: a reading sure of the true values scores
    0, one sure of the wrong ones scores the number of values it gets wrong;
    equal weights keep the whole pool, one weight alone keeps one hand."""
    import bench_posterior
    from escoba.bots.inference import PosteriorSampler

    sure = [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0]
    assert bench_posterior.brier(sure, {1, 7, 10}) == 0.0
    assert bench_posterior.brier(sure, {2, 7, 9}) == 4.0
    sampler = PosteriorSampler.__new__(PosteriorSampler)
    sampler.cum = [1.0, 2.0, 3.0, 4.0]
    assert bench_posterior.effective_size(sampler) == 4.0
    sampler.cum = [0.0, 0.0, 5.0, 5.0]
    assert bench_posterior.effective_size(sampler) == 1.0


def test_deal_exact_answers_as_carmen_and_searches_the_second_to_last_deal() -> None:
    """`deal_exact`: in the true world its answer is Carmen's own choice at
    every turn of hers; at the second-to-last deal of a two-player round it
    weighs every hand the other player may hold (the true one among them,
    never ruled out), and chooses a legal action."""
    from escoba.bots.base import sim_move_of
    from escoba.bots.knowledge import knowledge
    from escoba.cheater import true_world
    from tries.deal_exact import LunaDealExact

    luna = LunaDealExact(splits=1, budget=10.0, limit=None)
    rng = random.Random(4)
    answers = searched = 0
    for state, v, action in carmen_rounds(seed=4, deals=8):
        seat = state.round.turn
        luna.seat, luna.answers = 1 - seat, {}
        claim_card = -1 if v.claimable is None else int(v.claimable)
        assert luna.answer(true_world(state)) == sim_move_of(action, claim_card)
        answers += 1
        know = knowledge(v)
        if know.deck_size == 6 and state.round.dealer == 0 and len(v.legal) > 1:
            worlds = luna.worlds(v, know, rng)
            truth = sorted(int(c) for c in state.round.hands[1 - seat])
            assert [w for w, sim in worlds if sorted(sim.hands[1 - seat]) == truth] == [1.0]
            assert luna.choose(v, rng) in v.legal
            searched += 1
    assert answers > 200 and searched > 5


@pytest.mark.parametrize(("root", "expand"), [("ucb", "random"), ("paired", "policy")])
def test_ismcts_shares_one_tree_across_worlds(root: str, expand: str) -> None:
    """`ismcts`: a decision's iterations, one world each, all pass through
    its candidates (each tried); below them the other player's moves differ
    from world to world (her hand does), and each counts the iterations in
    which it was legal, never fewer than those that chose it."""
    from escoba.bots.base import legal_of, moves_of
    from escoba.bots.knowledge import knowledge
    from tries.ismcts import LunaIsmcts, Node

    luna = LunaIsmcts(max_worlds=8, root=root, expand=expand, budget=10.0, limit=None)
    rng = random.Random(6)
    grown = 0
    for state in random_round_states(2, seed=6, rounds=2):
        if state.phase is not Phase.PLAYING or not state.round.deck:
            continue
        v = view(state, state.round.turn)
        legal = legal_of(v)
        if len(legal) < 2:
            continue
        know = knowledge(v)
        moves = moves_of(v, legal)
        root = luna.tree(know, moves, luna.posterior(v, know, rng).sample, rng)
        assert set(root.children) == set(moves)
        assert sum(c.visits for c in root.children.values()) == 8 * len(moves)
        assert all(c.visits for c in root.children.values())
        stack: list[Node] = list(root.children.values())
        answers = set()
        while stack:
            node = stack.pop()
            for child in node.children.values():
                assert child.avail >= child.visits
                stack.append(child)
        for candidate in root.children.values():
            answers |= {m[1] for m in candidate.children}
        grown += len(answers) > 3  # the other player's cards vary with the world
    assert grown > 10


def test_the_seer_bench_plays_whole_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/bench_seer.py: the seer plays both seatings of a deal against
    Carmen to the round's end; its margin is a mean of two whole-point
    differences."""
    import bench_seer

    monkeypatch.setattr(bench_seer, "LUNA_WORLDS", 4)
    deal, margin = bench_seer.deal_pair((2026, 3))
    assert deal == 3
    assert (2 * margin).is_integer() and abs(margin) <= 20
