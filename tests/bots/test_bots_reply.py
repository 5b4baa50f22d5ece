"""The answer model in Luna's search plays as Carmen would."""

from __future__ import annotations

from escoba.bots.base import sim_move_of
from escoba.bots.knowledge import knowledge
from escoba.bots.reply import CarmenReply
from escoba.engine import Phase, view

from .helpers import answers_as_carmen, random_round_states


def test_the_answer_is_carmens_choice_in_nearly_every_position() -> None:
    """Played in the true world, the modelled answer (a claim and a play, or
    a play) leaves the table that Carmen's own choice leaves; her view of the
    unseen cards is approximated, so a few differ."""
    same, total = answers_as_carmen(CarmenReply, seed=31, rounds=12, claims=True)
    assert total > 1000
    assert same >= 0.93 * total, (same, total)


def test_no_answer_after_a_claim_or_at_the_end_of_a_deal() -> None:
    for state in random_round_states(2, seed=32, rounds=10):
        if state.phase is not Phase.PLAYING:
            continue
        seat = state.round.turn
        v = view(state, seat)
        know = knowledge(v)
        claim_card = -1 if v.claimable is None else int(v.claimable)
        moves = [sim_move_of(a, claim_card) for a in v.legal]
        reply = CarmenReply(know, moves)
        for i, (claim, _, _) in enumerate(moves):
            ends_deal = know.hand_sizes[1 - seat] == 0
            if claim or ends_deal:
                assert reply.judges[i] is None
            else:
                assert reply.judges[i] is not None
