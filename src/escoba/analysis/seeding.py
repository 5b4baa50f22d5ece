"""The random source of a position's analysis, drawn from what its seat can
see and nothing else.

The seed is a hash of the position as the seat saw it: the rules, the
number of players, the dealer, the seat, its hand, the table, the round's
public history (every play and claim, the dealer's table take), the card
left on a 15 and who may take it, each seat's number of cards in hand and
the cards left in the deck. Two positions that the seat could not tell
apart (the other hands or the deck's order differ) get the same seed, so
the same worlds and the same analysis; and the same position analysed
twice, here or on another machine, gives the same figures.

The game's totals and the round's number are left out: they do not change
what a play is worth in the round, so the same position reached in another
round or game is analysed alike. `salt` gives other seeds for the same
position, for measuring the estimate's noise (bench/bench_analysis.py).
"""

from __future__ import annotations

import hashlib
import json
import random

from escoba.engine.cards import cards_str
from escoba.engine.view import View


def position_key(view: View) -> str:
    """The position as the seat sees it, as one canonical text."""
    if view.seat is None:
        raise ValueError("a spectator has no position to analyse")
    take = view.table_take
    facts = {
        "rules": view.rules.to_dict(),
        "players": view.players,
        "dealer": view.dealer,
        "seat": view.seat,
        "hand": cards_str(sorted(view.hand)),
        "table": cards_str(sorted(view.table)),
        "history": [a.to_dict() for a in view.history],
        "table_take": None if take is None else take.to_dict(),
        "claimable": None if view.claimable is None else str(view.claimable),
        "claim_seat": view.claim_seat,
        "hand_sizes": [s.hand_size for s in view.seats],
        "deck_size": view.deck_size,
    }
    return json.dumps(facts, sort_keys=True, separators=(",", ":"))


def position_rng(view: View, salt: str = "") -> random.Random:
    """A random source seeded by the position (`position_key`) and `salt`."""
    digest = hashlib.sha256(f"escoba-analysis:{salt}:{position_key(view)}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))
