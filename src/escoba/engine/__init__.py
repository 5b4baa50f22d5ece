"""The rules engine: pure Python, no I/O, no clock, no global RNG.

state = new_game(RuleSet(target=21), players=2, deck=shuffled_deck(rng))
for action in legal_actions(state): ...
state, events = apply(state, seat, action)
view(state, seat)  # what that seat may know
"""

from escoba.engine.actions import (
    Action,
    Claim,
    Play,
    action_from_dict,
    claim_cards,
    claim_of,
    make_claim,
    make_play,
)
from escoba.engine.captures import can_capture, capture_groups
from escoba.engine.cards import (
    CARDS,
    SEVEN_OF_DIAMONDS,
    VALUE,
    Card,
    CardNotationError,
    parse_card,
    parse_cards,
    shuffled_deck,
)
from escoba.engine.errors import IllegalAction, InputError, RecordError
from escoba.engine.events import Event
from escoba.engine.game import (
    apply,
    can,
    deals_per_round,
    end_game,
    legal_actions,
    new_game,
    start_next_round,
    verify,
)
from escoba.engine.record import replay, replay_states, to_record
from escoba.engine.rules import SITE_RULES, RuleSet
from escoba.engine.seats import next_seat, side_count, side_of
from escoba.engine.state import EndReason, GameState, Phase, Result, RoundSummary, SideScore
from escoba.engine.view import View, spectator_view, view

__all__ = [
    "CARDS",
    "SEVEN_OF_DIAMONDS",
    "SITE_RULES",
    "VALUE",
    "Action",
    "Card",
    "CardNotationError",
    "Claim",
    "EndReason",
    "Event",
    "GameState",
    "IllegalAction",
    "InputError",
    "Phase",
    "Play",
    "RecordError",
    "Result",
    "RoundSummary",
    "RuleSet",
    "SideScore",
    "View",
    "action_from_dict",
    "apply",
    "can",
    "can_capture",
    "capture_groups",
    "claim_cards",
    "claim_of",
    "deals_per_round",
    "end_game",
    "legal_actions",
    "make_claim",
    "make_play",
    "new_game",
    "next_seat",
    "parse_card",
    "parse_cards",
    "replay",
    "replay_states",
    "shuffled_deck",
    "side_count",
    "side_of",
    "spectator_view",
    "start_next_round",
    "to_record",
    "verify",
    "view",
]
