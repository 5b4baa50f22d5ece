"""A step's figures split by scoring line, and the reasons a costly play
cost: the lines add up to the totals, the lines' costs to the step's cost,
each reason is found on a hand-built position, and an analysis stored
before the lines existed still reads."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from escoba.analysis import (
    LINES,
    Evaluation,
    LineCost,
    Reason,
    StepAnalysis,
    analyse_round,
    explain,
    line_names,
    line_points,
    play_facts,
    weigh_play,
)
from escoba.analysis.rounds import _lines
from escoba.bots.policy import careful_playout, expected_points
from escoba.bots.sim import RoundSim
from escoba.cheater import true_world
from escoba.engine import (
    Action,
    RuleSet,
    make_play,
    new_game,
    parse_card,
    parse_cards,
    view,
)
from escoba.engine.cards import CARDS, NOTATION, SEVEN_OF_DIAMONDS
from escoba.engine.round_steps import round_states
from escoba.engine.view import View

from .helpers import QUICK, SMALL, deck_for, random_round, robot

RULES = [
    RuleSet(),
    RuleSet(setenta=True),
    RuleSet(ties="each"),
    RuleSet(setenta=True, ties="each"),
]


def ana_first(hand: str, table: str, rules: RuleSet | None = None) -> View:
    """Ana (seat 0, two players) to play the round's first card."""
    state = new_game(rules or RuleSet(), 2, deck_for(2, dealer=1, hands={0: hand}, table=table), 1)
    return view(state, 0)


def play(card: str, capture: str = "") -> Action:
    return make_play(parse_card(card), parse_cards(capture.split()))


def costs(**by_line: float) -> tuple[LineCost, ...]:
    """Lines with only a cost (the reasons read nothing else)."""
    return tuple(LineCost(name, (0.0, 0.0), (0.0, 0.0), by_line.get(name, 0.0)) for name in LINES)


# --------------------------------------------------------------------------
# The split


@pytest.mark.parametrize("rules", RULES, ids=lambda r: "-".join(r.variants()) or "site")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_lines_of_a_played_out_round_add_up_to_its_points(rules: RuleSet, players: int) -> None:
    rng = random.Random(players)
    for _ in range(40):
        deck = list(CARDS)
        rng.shuffle(deck)
        sim = true_world(new_game(rules, players, deck, first_dealer=0))
        careful_playout(sim)
        assert sim.over
        by_line = line_points(sim)
        assert [sum(lines) for lines in by_line] == pytest.approx(sim.points())
        assert all(len(lines) == len(LINES) for lines in by_line)


def test_a_round_cut_short_is_split_as_the_playouts_estimate_it() -> None:
    deck = list(CARDS)
    random.Random(3).shuffle(deck)
    sim = true_world(new_game(RuleSet(), 2, deck, first_dealer=0))
    careful_playout(sim, stop=10)
    assert [sum(x) for x in line_points(sim)] == pytest.approx(expected_points(sim))
    assert all(x[-1] == 0 for x in line_points(sim))  # no leftover yet


def test_the_leftover_is_a_line_of_its_own() -> None:
    """The last card is left; the table (the 7 of diamonds in it) goes to
    the last capturer: its point is the leftover's, not the 7's line."""
    sim = RoundSim.empty(2)
    sim.hands = [[int(parse_card("1C"))], []]
    sim.table = sorted([int(SEVEN_OF_DIAMONDS), int(parse_card("10S"))])
    sim.last = 1
    sim.plays_left = 1
    sim.cards = [20, 17]
    sim.diamonds = [5, 4]
    sim.sevens = [2, 1]
    sim.play(int(parse_card("1C")), ())
    assert sim.over
    by_line = line_points(sim)
    seven = LINES.index("seven_of_diamonds")
    leftover = LINES.index("leftover")
    assert by_line[1][seven] == 0 and by_line[0][seven] == 0
    # without the leftover: cards 20–17 and diamonds 5–4 to Ana, sevens 2–1 to her;
    # with it (3 cards, a diamond, a seven): 20–20, 5–5, 2–2 and the 7 to Beto
    assert by_line[1][leftover] == 1  # the 7 of diamonds
    assert by_line[0][leftover] == -3  # the cards, the diamonds and the sevens tied
    assert [sum(x) for x in by_line] == sim.points()


def test_under_la_setenta_the_fourth_line_is_the_setenta() -> None:
    assert line_names(RuleSet(setenta=True))[3] == "setenta"
    assert line_names(RuleSet())[3] == "sevens"


@pytest.fixture(scope="module")
def seven_left() -> StepAnalysis:
    v = ana_first("8S 1C 2H", "7D 10H 9C 10S")
    return weigh_play(v, play("2H"), step=1, evaluator=QUICK)


def test_a_step_s_lines_add_up_to_its_points_and_their_costs_to_its_cost(
    seven_left: StepAnalysis,
) -> None:
    step = seven_left
    assert [x.line for x in step.lines] == list(LINES)
    for s in range(2):
        assert sum(x.played[s] for x in step.lines) == pytest.approx(
            step.played_points[s], abs=0.01
        )
        assert sum(x.best[s] for x in step.lines) == pytest.approx(step.best_points[s], abs=0.01)
    assert sum(x.cost for x in step.lines) == pytest.approx(step.cost, abs=0.01)
    # the 7 of diamonds left on the table is where the cost is
    top = max(step.lines, key=lambda x: x.cost)
    assert top.line == "seven_of_diamonds" and top.cost > 0.5


@pytest.mark.parametrize("players", [2, 4])
def test_every_play_that_gave_points_away_has_a_reason_and_its_lines_add_up(
    players: int,
) -> None:
    """A round weighed at a few worlds (noisy: many plays give points away)."""
    final = random_round(players, seed=11, chooser=robot("tito"))
    analysis = analyse_round(final.finished_rounds[-1], players, final.rules, evaluator=SMALL)
    given = [s for s in analysis.steps if s.given_away > 0]
    assert given, "a round at 12 worlds marks something"
    for step in analysis.steps:
        assert step.lines, step.step
        if step.method == "forced":
            assert all(x.cost == 0 for x in step.lines)
            continue
        # the lines' costs add up to the step's cost, within its noise (and rounding)
        assert abs(sum(x.cost for x in step.lines) - step.cost) <= max(step.noise, 0.01)
        if step.given_away > 0:
            assert step.reasons, step.step
            assert {r.line for r in step.reasons} <= {x.line for x in step.lines if x.cost > 0}
        else:
            assert step.reasons == ()


def test_an_exact_step_is_split_too() -> None:
    final = random_round(2, seed=4)
    analysis = analyse_round(final.finished_rounds[-1], 2, final.rules, evaluator=SMALL)
    exact = [s for s in analysis.steps if s.method == "exact"]
    assert exact
    for step in exact:
        for s in range(2):
            assert sum(x.played[s] for x in step.lines) == pytest.approx(step.played_points[s])
        assert sum(x.cost for x in step.lines) == pytest.approx(step.cost, abs=0.01)


# --------------------------------------------------------------------------
# Each reason on a hand-built position


def codes(reasons: tuple[Reason, ...]) -> list[str]:
    return [r.code for r in reasons]


def test_a_table_left_for_the_next_to_sweep() -> None:
    """6♥ 5♠ 3♣ 2♦ on the table: the king takes the 5 and leaves 11 (a four
    sweeps it); the 2 of clubs takes 6♥ 5♠ 2♦ and leaves a 3 no card sweeps."""
    v = ana_first("2C 9S 10H", "6H 5S 3C 2D")
    reasons = explain(v, play("10H", "5S"), play("2C", "6H 5S 2D"), costs(escobas=0.8))
    assert codes(reasons) == ["analysis_reason_sweep"]
    sweep = dict(reasons[0].values)
    assert sweep["sum"] == 11 and sweep["value"] == 4 and sweep["seat"] == 1
    # four fours unseen among 33 cards, Beto holds 3: 1 - C(29,3)/C(33,3)
    assert sweep["percent"] == 33


def test_an_escoba_missed() -> None:
    v = ana_first("5S 3D 10C", "1S 2C 3H 4C")
    reasons = explain(v, play("3D"), play("5S", "1S 2C 3H 4C"), costs(escobas=1.2))
    assert codes(reasons) == ["analysis_reason_missed_escoba"]


def test_fewer_cards_taken() -> None:
    v = ana_first("2C 9S 10H", "6H 5S 3C 2D")
    reasons = explain(v, play("10H", "5S"), play("2C", "6H 5S 2D"), costs(cards=0.4))
    assert reasons[0] == Reason("analysis_reason_cards", "cards", (("could", 4), ("took", 2)))
    # and the table it leaves, which the next sweeps (the cards with it)
    assert codes(reasons)[1:] == ["analysis_reason_sweep"]


def test_fewer_diamonds_taken() -> None:
    v = ana_first("10S 9S 1C", "5D 6H 3C 2S")
    reasons = explain(v, play("9S", "6H"), play("10S", "5D"), costs(diamonds=0.3))
    assert reasons == (Reason("analysis_reason_diamonds", "diamonds", (("could", 1), ("took", 0))),)


def test_fewer_sevens_taken_and_the_seven_of_diamonds_left() -> None:
    v = ana_first("8S 4C 9D", "7C 4H 2S 1H")
    reasons = explain(v, play("9D"), play("8S", "7C"), costs(sevens=0.5))
    assert codes(reasons) == ["analysis_reason_sevens"]
    v = ana_first("8S 1C 2H", "7D 10H 9C 10S")
    reasons = explain(v, play("2H"), play("8S", "7D"), costs(seven_of_diamonds=0.8, sevens=0.4))
    assert reasons[0] == Reason(
        "analysis_reason_left_card", "seven_of_diamonds", (("card", NOTATION[SEVEN_OF_DIAMONDS]),)
    )
    assert codes(reasons)[1:] == ["analysis_reason_sevens"]


def test_a_card_left_on_a_fifteen() -> None:
    v = ana_first("7S 1C 2D", "5C 3H 1S 9D")
    reasons = explain(v, play("7S"), play("7S", "5C 3H"), costs(escobas=0.5))
    assert codes(reasons) == ["analysis_reason_claim_left"]
    assert dict(reasons[0].values) == {"card": "7S", "seat": 1}


def test_the_leftover_of_ultimas_given_to_the_other_side() -> None:
    """At ÚLTIMAS Ana leaves a card where she could capture: what stays at
    the end goes to Beto, who captured last."""
    found = None
    for seed in range(40):
        final = random_round(2, seed=seed)
        for before, _ in round_states(final.finished_rounds[-1], 2, final.rules):
            turn = before.round.turn
            v = view(before, turn)
            if not v.last_deal or v.claimable is not None:
                continue
            leave = [a for a in v.legal if not getattr(a, "capture", ())]
            take = [a for a in v.legal if getattr(a, "capture", ())]
            if leave and take and play_facts(v, leave[0]).leftover_seat == 1 - turn:
                found = (v, leave[0], take[0])
                break
        if found:
            break
    assert found is not None
    v, leave, take = found
    reasons = explain(v, leave, take, costs(leftover=0.6))
    assert Reason("analysis_reason_leftover", "leftover", (("seat", 1 - v.seat),)) in reasons


def test_a_line_with_no_fact_of_its_own_is_told_by_its_cost() -> None:
    v = ana_first("2C 9S 10H", "6H 5S 3C 2D")
    reasons = explain(v, play("10H", "5S"), play("2C", "6H 5S 2D"), costs(seven_of_diamonds=0.3))
    assert reasons == (
        Reason(
            "analysis_reason_line",
            "seven_of_diamonds",
            (("cost", 0.3), ("of_line", "seven_of_diamonds")),
        ),
    )


def test_a_play_that_cost_nothing_has_no_reason() -> None:
    v = ana_first("2C 9S 10H", "6H 5S 3C 2D")
    assert explain(v, play("2C"), play("2C"), costs(cards=0.4)) == ()
    assert explain(v, play("2C"), play("9S", "6H"), costs(cards=-0.4)) == ()


def test_a_fact_is_told_once_on_its_costliest_line() -> None:
    v = ana_first("2C 9S 10H", "6H 5S 3C 2D")
    reasons = explain(v, play("10H", "5S"), play("2C", "6H 5S 2D"), costs(escobas=0.8, cards=0.5))
    assert codes(reasons) == ["analysis_reason_sweep", "analysis_reason_cards"]
    assert reasons[0].line == "escobas"


def test_only_the_largest_lines_explain() -> None:
    v = ana_first("8S 1C 2H", "7D 10H 9C 10S")
    reasons = explain(
        v, play("2H"), play("8S", "7D"), costs(seven_of_diamonds=1.0, cards=0.5, diamonds=0.1)
    )
    assert {r.line for r in reasons} == {"seven_of_diamonds", "cards"}


# --------------------------------------------------------------------------
# Stored


def test_the_lines_and_reasons_read_back_and_an_older_analysis_reads_without_them(
    seven_left: StepAnalysis,
) -> None:
    assert seven_left.reasons
    assert StepAnalysis.from_json(seven_left.to_json()) == seven_left
    old = seven_left.to_json()
    del old["lines"], old["reasons"]
    read = StepAnalysis.from_json(old)
    assert read.lines == () and read.reasons == () and not read.explained
    assert read == replace(seven_left, lines=(), reasons=())


def test_an_evaluator_that_does_not_split_gives_no_lines() -> None:
    v = ana_first("8S 1C 2H", "7D 10H 9C 10S")
    ev = Evaluation(v.legal, (0.0,) * len(v.legal), ((0.0, 0.0),) * len(v.legal), "exact", 1)
    assert _lines(v, ev, 0, 1, 0) == ()
