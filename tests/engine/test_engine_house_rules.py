"""Golden positions for the house rules of RULES.md («Scoring a round»,
*Variants*): la setenta, ties that give each, the leftover check, and how a
record names the rules (RECORD.md, `rules`)."""

from __future__ import annotations

import copy
import random

import pytest
from engine_positions import cs

from escoba.engine import RecordError, RuleSet, replay, to_record
from escoba.engine.scoring import leftover_check, score_round, setenta
from escoba.engine.state import SideScore
from escoba.simulate import play_game

SETENTA = RuleSet(setenta=True)
EACH = RuleSet(ties="each")
BOTH = RuleSet(setenta=True, ties="each")


def scores(*piles: str, rules: RuleSet) -> tuple[SideScore, ...]:
    return score_round([cs(p) for p in piles], (0,) * len(piles), len(piles), rules)


# --------------------------------------------------------------------------
# la setenta


def test_setenta_is_the_best_card_of_each_suit_by_the_table() -> None:
    # diamonds: 7 (21) beats the 6 (18); hearts: the ace (16) beats the 5 (15);
    # spades: the 2 (12) beats a figure (10); clubs: a king (10)
    assert setenta(cs("7D 6D 1H 5H 2S 10S 10C")) == 21 + 16 + 12 + 10
    assert setenta(cs("7D 7H 7S 7C")) == 84  # the best there is
    assert setenta(cs("8D 9H 10S 8C")) == 40  # figures only


def test_a_side_missing_a_suit_is_coja_and_cannot_win_la_setenta() -> None:
    # Ana holds three sevens but no club: coja. Beto's 40 wins the point.
    ana, beto = scores("7D 7H 7S 6D 6H 6S", "8D 8H 8S 8C", rules=SETENTA)
    assert (ana.setenta, beto.setenta) == (None, 40)
    assert (ana.points_sevens, beto.points_sevens) == (0, 1)
    # the 7 of diamonds keeps its own point
    assert (ana.points_seven_of_diamonds, beto.points_seven_of_diamonds) == (1, 0)
    # under the site's rules the same piles give «most sevens» to Ana
    site_ana, site_beto = scores("7D 7H 7S 6D 6H 6S", "8D 8H 8S 8C", rules=RuleSet())
    assert (site_ana.points_sevens, site_beto.points_sevens) == (1, 0)
    assert site_ana.setenta is None and not site_ana.setenta_rule


def test_all_four_sevens_under_la_setenta_are_one_point_not_two() -> None:
    ana, beto = scores("7D 7H 7S 7C", "6D 6H 6S 6C", rules=SETENTA)
    assert (ana.setenta, beto.setenta) == (84, 72)
    assert (ana.points_sevens, beto.points_sevens) == (1, 0)
    # 4 cards and 1 diamond each: those ties give nobody the point
    assert (ana.points_cards, ana.points_diamonds) == (0, 0)
    assert ana.points == 2  # la setenta and the 7 of diamonds


def test_when_every_side_is_coja_nobody_scores_la_setenta() -> None:
    for ties in ("nobody", "each"):
        ana, beto = scores("7D 7H", "7S 7C", rules=RuleSet(setenta=True, ties=ties))
        assert (ana.setenta, beto.setenta) == (None, None)
        assert ana.points_sevens == beto.points_sevens == 0


@pytest.mark.parametrize(("ties", "points"), [("nobody", (0, 0, 0)), ("each", (1, 1, 0))])
def test_a_setenta_tie_at_the_top_under_each_tie_rule(ties: str, points: tuple[int, ...]) -> None:
    rules = RuleSet(setenta=True, ties=ties)  # type: ignore[arg-type]
    # Ana and Beto both 7 + 7 + 6 + 1 = 21 + 21 + 18 + 16 = 76; Ciro 40
    got = scores("7D 7H 6S 1C", "7S 7C 6D 1H", "8D 8H 8S 8C", rules=rules)
    assert [s.setenta for s in got] == [76, 76, 40]
    assert tuple(s.points_sevens for s in got) == points


# --------------------------------------------------------------------------
# ties that give each


def test_a_tie_for_the_most_cards_gives_each_tied_side_the_point() -> None:
    site = scores("1D 2H 3S", "4D 5H 6S", rules=RuleSet())
    each = scores("1D 2H 3S", "4D 5H 6S", rules=EACH)
    assert [s.points_cards for s in site] == [0, 0]
    # a shared point is 1, though every *other* side took fewer than 10
    assert [s.points_cards for s in each] == [1, 1]


def test_a_tie_for_the_most_diamonds_gives_each_and_the_side_behind_gets_nothing() -> None:
    got = scores("1D 2D 3H 4H", "5D 6D 5S", "8D 9S", rules=EACH)
    assert [s.diamonds for s in got] == [2, 2, 1]
    assert [s.points_diamonds for s in got] == [1, 1, 0]
    # the cards are not tied: Ana's 4 alone is the most (2: the others under 10)
    assert [s.points_cards for s in got] == [2, 0, 0]


def test_a_tie_for_the_most_sevens_gives_each_and_a_tie_at_none_gives_nobody() -> None:
    ana, beto = scores("7D 7H 1S", "7S 7C 2S", rules=EACH)
    assert (ana.points_sevens, beto.points_sevens) == (1, 1)
    # nobody took anything: no side has «the most» of nothing
    none = score_round([[], []], (0, 0), 2, EACH)
    assert all(s.points == 0 for s in none)


def test_ties_give_each_with_pairs_pools_the_partners_piles() -> None:
    # seats 0 and 2 against 1 and 3: 3 + 2 against 2 + 3 cards
    got = score_round(
        [cs("1D 2D 3H"), cs("4S 5S"), cs("6H 7H"), cs("8C 9C 10C")], (0,) * 4, 4, EACH
    )
    assert [s.cards for s in got] == [5, 5]
    assert [s.points_cards for s in got] == [1, 1]


# --------------------------------------------------------------------------
# the leftover check


def test_the_leftover_is_ten_plus_fifteens() -> None:
    assert leftover_check(cs("10D")) == (10, 0)
    assert leftover_check(cs("7D 3H 10S 5C")) == (25, 1)
    assert leftover_check(cs("10D 10H 10S 5C 5D 5H 5S 10C 9C 1C")) == (70, 4)


@pytest.mark.parametrize("seed", range(20))
def test_every_played_rounds_leftover_passes_the_check(seed: int) -> None:
    for rules in (RuleSet(), BOTH, RuleSet(compulsory_capture=True, thirty_is_double=False)):
        final = play_game(rules, 2 + seed % 3, random.Random(seed))
        for summary in final.finished_rounds:
            total, _ = leftover_check(summary.leftover.cards)
            assert total % 15 == 10


# --------------------------------------------------------------------------
# records name the rules


def test_a_record_names_its_rules_and_replays_under_them() -> None:
    final = play_game(BOTH, 3, random.Random(5))
    record = to_record(final)
    assert record["rules"]["setenta"] is True and record["rules"]["ties"] == "each"
    sides = record["rounds"][0]["score"]["sides"]
    assert all("setenta" in side for side in sides)
    assert replay(record).rules == BOTH
    # the same record read under the site's rules scores differently somewhere
    # (or not at all): a record does not replay under rules it does not name
    site = copy.deepcopy(record)
    site["rules"] = {}
    with pytest.raises(RecordError):
        replay(site)


@pytest.mark.parametrize(
    "rules",
    [
        {"ties": "all"},
        {"setenta": "yes"},
        {"thirty_is_double": 1},
        [],
    ],
)
def test_a_record_with_bad_rules_is_refused(rules: object) -> None:
    record = to_record(play_game(RuleSet(), 2, random.Random(1)))
    record["rules"] = rules
    with pytest.raises(RecordError):
        replay(record)
