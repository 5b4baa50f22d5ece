"""`escoba simulate` under every combination of the house rules: whole random
games whose records replay, and whose every round is scored again here by a
small scorer written from shared/RULES.md («Scoring a round»), independent of
`escoba.engine.scoring`: it reads only the record (RECORD.md)."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from escoba.engine import Phase, RuleSet, replay, to_record
from escoba.simulate import play_game

# --------------------------------------------------------------------------
# The independent scorer: cards as in the record («7D»: value 7, diamonds)

SETENTA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}


def value(card: str) -> int:
    return int(card[:-1])


def suit(card: str) -> str:
    return card[-1]


def side(seat: int, players: int) -> int:
    """Partners sit opposite with four (0+2 against 1+3)."""
    return seat % 2 if players == 4 else seat


def most(counts: list[int | None], ties: str) -> list[int]:
    """The sides with «the most»: strictly more than every other side; on a
    tie at the top nobody, or every tied side when ties give each. Nothing
    (0 cards, a «coja» setenta) is never the most."""
    present = [c for c in counts if c]
    if not present:
        return []
    top = max(present)
    leaders = [i for i, c in enumerate(counts) if c == top]
    return leaders if len(leaders) == 1 or ties == "each" else []


def setenta_of(pile: list[str]) -> int | None:
    best: dict[str, int] = {}
    for card in pile:
        best[suit(card)] = max(best.get(suit(card), 0), SETENTA[value(card)])
    return sum(best.values()) if len(best) == 4 else None


def table_take_escobas(cards: list[str], thirty_single: bool) -> int:
    total = sum(value(c) for c in cards)
    if total == 15:
        return 1
    assert total == 30, cards
    return 1 if thirty_single else 2


def score_round(rnd: dict[str, Any], players: int, rules: dict[str, Any]) -> list[int]:
    """Each side's points in a record's round, from its actions alone."""
    sides = 2 if players == 4 else players
    piles: list[list[str]] = [[] for _ in range(sides)]
    escobas = [0] * sides
    take = rnd["table_take"]
    if take is not None:
        piles[side(take["seat"], players)].extend(take["cards"])
        expected = table_take_escobas(take["cards"], not rules["thirty_is_double"])
        assert take["escobas"] == expected
        escobas[side(take["seat"], players)] += expected
    for action in rnd["actions"]:
        s = side(action["seat"], players)
        if action["type"] == "claim":
            taken = list(action["cards"])
        elif action["capture"]:
            taken = [action["card"], *action["capture"]]
        else:
            taken = []
        assert not taken or sum(value(c) for c in taken) == 15
        piles[s].extend(taken)
        escobas[s] += 1 if action["escoba"] else 0
    left = rnd["leftover"]
    if left is not None and left["seat"] is not None:
        piles[side(left["seat"], players)].extend(left["cards"])

    ties = rules["ties"]
    points = list(escobas)
    cards = [len(p) for p in piles]
    card_leaders = most(list(cards), ties)
    for s in card_leaders:
        alone_and_others_under_ten = len(card_leaders) == 1 and all(
            cards[o] < 10 for o in range(sides) if o != s
        )
        points[s] += 2 if alone_and_others_under_ten else 1
    diamonds = [sum(1 for c in p if suit(c) == "D") for p in piles]
    for s in most(list(diamonds), ties):
        points[s] += 2 if diamonds[s] == 10 else 1
    for s in range(sides):
        if "7D" in piles[s]:
            points[s] += 1
    if rules["setenta"]:
        for s in most([setenta_of(p) for p in piles], ties):
            points[s] += 1
    else:
        sevens = [sum(1 for c in p if value(c) == 7) for p in piles]
        for s in most(list(sevens), ties):
            points[s] += 2 if sevens[s] == 4 else 1
    return points


# --------------------------------------------------------------------------
# The property

COMBINATIONS = list(
    itertools.product([False, True], ["nobody", "each"], [False, True], [False, True])
)


@pytest.mark.parametrize(
    ("setenta", "ties", "compulsory", "thirty_single"),
    COMBINATIONS,
    ids=lambda v: str(v),
)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), players=st.sampled_from([2, 3, 4]))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_simulated_games_replay_and_score_as_the_rules_say(
    setenta: bool, ties: str, compulsory: bool, thirty_single: bool, seed: int, players: int
) -> None:
    rules = RuleSet(
        target=15,  # short games, many of them
        setenta=setenta,
        ties="each" if ties == "each" else "nobody",
        compulsory_capture=compulsory,
        thirty_is_double=not thirty_single,
    )
    final = play_game(rules, players, random.Random(seed))
    record = json.loads(json.dumps(to_record(final)))
    assert record["rules"] == rules.to_dict()
    again = replay(record)  # every step legal under these rules, every score checked
    assert again.phase is Phase.GAME_OVER
    assert again.totals == final.totals
    totals = [0] * (2 if players == 4 else players)
    for rnd in record["rounds"]:
        points = score_round(rnd, players, record["rules"])
        assert points == [s["points"] for s in rnd["score"]["sides"]]
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        assert totals == rnd["totals"]
        for s in rnd["score"]["sides"]:
            assert ("setenta" in s) is setenta


def test_the_scorer_knows_the_rules_it_checks() -> None:
    """The test's own scorer on hand-made piles (RULES.md's examples)."""
    assert setenta_of(["7D", "6D", "1H", "5H", "2S", "10S", "10C"]) == 21 + 16 + 12 + 10
    assert setenta_of(["7D", "7H", "7S"]) is None
    assert most([5, 5, 3], "nobody") == [] and most([5, 5, 3], "each") == [0, 1]
    assert most([None, None], "each") == []
    assert table_take_escobas(["10D", "10H", "5S", "5C"], thirty_single=False) == 2
    assert table_take_escobas(["10D", "10H", "5S", "5C"], thirty_single=True) == 1
    rnd = {
        "table_take": None,
        "actions": [
            {"seat": 0, "type": "play", "card": "7D", "capture": ["8D"], "escoba": True},
            {"seat": 1, "type": "play", "card": "5H", "capture": [], "escoba": False},
        ],
        "leftover": {"seat": 0, "cards": ["5H"]},
    }
    site = {"setenta": False, "ties": "nobody", "thirty_is_double": True}
    # side 0: 1 escoba, 3 cards to 0 (2 points: the other side under 10),
    # 2 diamonds to 0, the 7 of diamonds, 1 seven to 0
    assert score_round(rnd, 2, site) == [1 + 2 + 1 + 1 + 1, 0]
