"""The play forms of the table and the lessons, read into the engine's
actions: a play (its card and the cards it takes, or DEJAR EN LA MESA) and
a claim (LLEVAR EL 15). What a form lacks is an `InputError` the page says."""

from __future__ import annotations

from escoba.engine import Claim, InputError, Play, make_claim, make_play, parse_card, parse_cards


def parse_play(card: str, capture: str, mode: str) -> Play:
    """The play form: `card` from the hand; `capture`, the table cards taken
    (space separated), unless `mode` is «leave» (DEJAR EN LA MESA)."""
    if not card.strip():
        raise InputError("pick_card")
    if mode == "leave":
        return make_play(parse_card(card))
    group = parse_cards(capture.replace(",", " ").split())
    if not group:
        raise InputError("pick_capture")
    return make_play(parse_card(card), group)


def parse_claim(group: str) -> Claim:
    cards = parse_cards(group.replace(",", " ").split())
    if not cards:
        raise InputError("pick_claim")
    return make_claim(cards)
