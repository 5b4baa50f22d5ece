"""The analysis of a finished round: every play and claim of every seat,
people and robots alike, weighed from what that seat could see at that
moment.

    analysis = analyse_round(summary, players, rules)    # the engine's round
    analyses = analyse_record(record)                   # escoba-record/1
    analysis.to_json()                                  # to store and serve

The round is replayed through the engine (`engine.round_steps.round_states`);
before each action the seat's view (its hand, the table, the public history;
never a hand it could not see) goes to the evaluator (`evaluator`, Luna's
search by default) with a random source seeded by that view alone
(`seeding`), and the action made is compared with the best one found: the
difference of their expected margins is what the play cost. A cost that
stands above the estimate's noise is counted as given away and marked by
`THRESHOLDS`. Where the rest of the round can be solved exactly with every
card known (two sides and the last 12 cards: the last two deals at two
players, the last deal at four) and the seat could not see it all, the
step also says what the play cost in hindsight (`Hindsight`).

A caller follows the work step by step through `progress` (a `Progress`
after each action of each round), for a page that shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any, Final

from escoba.analysis.evaluator import Evaluation, Evaluator, LunaEvaluator, margin
from escoba.analysis.lines import line_names
from escoba.analysis.model import (
    MARKS,
    Candidate,
    EvaluatorInfo,
    GameSeatSummary,
    Hindsight,
    LineCost,
    MarkCounts,
    Move,
    RoundAnalysis,
    SeatSummary,
    StepAnalysis,
    StepRef,
    Thresholds,
    figure,
)
from escoba.analysis.reasons import explain
from escoba.analysis.seeding import position_rng
from escoba.bots.base import moves_of
from escoba.bots.endgame import solve
from escoba.cheater import true_world
from escoba.engine import GameState, RoundSummary, RuleSet, replay, view
from escoba.engine.actions import Action, Claim, claim_cards
from escoba.engine.round_steps import recorded_action, round_states
from escoba.engine.seats import side_of
from escoba.engine.view import View

#: The marks' thresholds, in round points, and the noise gate:
#: bench/RESULTS-analysis.md measures the noise and how often each fires.
THRESHOLDS: Final = Thresholds(
    imprecise=0.3, mistake=0.7, blunder=1.5, noise_factor=2.5, floor=0.05
)

#: Hindsight is worked out when at most this many cards are still to play
#: (the last two deals at two players, the last deal at four: each solved
#: in well under a second, bench/RESULTS-analysis.md) and the solver needs
#: at most `HINDSIGHT_NODES` positions.
HINDSIGHT_PLAYS: Final = 12
HINDSIGHT_NODES: Final = 200_000

#: The costliest steps a summary names.
COSTLIEST: Final = 3


@dataclass(frozen=True, slots=True)
class Progress:
    """After action `done` of the `total` of round `round`."""

    round: int
    done: int
    total: int


OnProgress = Callable[[Progress], None]

_default: LunaEvaluator | None = None


def default_evaluator() -> LunaEvaluator:
    """Luna at the analysis's settings (made once per process)."""
    global _default
    if _default is None:
        _default = LunaEvaluator()
    return _default


def move_of(v: View, action: Action) -> Move:
    """`action`, legal in `v`, as the analysis names it."""
    table = len(v.table)
    if isinstance(action, Claim):
        if v.claimable is None:
            raise ValueError("a claim needs a card left on a 15")
        taken = claim_cards(v.claimable, action)
        return Move("claim", v.claimable, taken, len(taken) == table)
    return Move(
        "play", action.card, action.capture, bool(action.capture) and len(action.capture) == table
    )


def weigh_play(
    v: View,
    action: Action,
    *,
    step: int = 0,
    evaluator: Evaluator | None = None,
    thresholds: Thresholds = THRESHOLDS,
    salt: str = "",
) -> StepAnalysis:
    """The analysis of `action` made from the view `v` (the seat's, on its
    turn): a function of that view alone (no hindsight: that needs the
    state). `step` is the action's number in the round's replay. Its
    figures are split by scoring line (`lines`) and, when it gave points
    away, `reasons` say why (`escoba.analysis.reasons`)."""
    if v.seat is None or action not in v.legal:
        raise ValueError("the action is not one of the seat's legal actions")
    ev = (evaluator or default_evaluator()).evaluate(v, position_rng(v, salt))
    return _step(v, action, ev, step, thresholds)


def _step(
    v: View, action: Action, ev: Evaluation, number: int, thresholds: Thresholds
) -> StepAnalysis:
    assert v.seat is not None
    legal = v.legal
    played = legal.index(action)
    values = [figure(x) for x in ev.values]
    best = ev.best()
    if values[played] >= values[best]:
        best = played  # a play as good as the best is the best
    cost = values[best] - values[played]
    noise = figure(ev.noise(best, played))
    significant = best != played and thresholds.significant(cost, noise)
    order = sorted(range(len(legal)), key=lambda i: (i != best, -values[i], i))
    side = side_of(v.seat, v.players)
    lines = _lines(v, ev, played, best, side)
    return StepAnalysis(
        step=number,
        seat=v.seat,
        side=side_of(v.seat, v.players),
        deal=v.deal_number,
        last_deal=v.last_deal,
        method=ev.method,
        worlds=ev.worlds,
        played=move_of(v, action),
        played_value=values[played],
        played_points=tuple(figure(p) for p in ev.points[played]),
        best=move_of(v, legal[best]),
        best_value=values[best],
        best_points=tuple(figure(p) for p in ev.points[best]),
        cost=figure(cost),
        noise=noise,
        given_away=figure(cost) if significant else 0.0,
        mark=thresholds.mark(cost, noise) if significant else None,
        candidates=tuple(Candidate(move_of(v, legal[i]), values[i]) for i in order),
        hindsight=None,
        lines=lines,
        reasons=explain(v, action, legal[best], lines) if significant else (),
    )


def _lines(v: View, ev: Evaluation, played: int, best: int, side: int) -> tuple[LineCost, ...]:
    """The step's figures by scoring line (none when the evaluator does not
    split them): each side's expected points on each line after the play
    and after the best, and the line's share of the cost."""
    if not ev.lines:
        return ()
    out = []
    for k, name in enumerate(line_names(v.rules)):
        mine = tuple(figure(p[k]) for p in ev.lines[played])
        top = tuple(figure(p[k]) for p in ev.lines[best])
        cost = margin(top, side) - margin(mine, side) if best != played else 0.0
        out.append(LineCost(name, mine, top, figure(cost)))
    return tuple(out)


def hindsight_of(state: GameState, v: View, step: StepAnalysis) -> Hindsight | None:
    """What the play of `step` cost with every card known, when the rest of
    the round can be solved exactly (`endgame.solve` on the true world):
    two sides, at most `HINDSIGHT_PLAYS` cards still to play (the last two
    deals at two players, the last deal at four), and a seat that could not
    see it all (else `step` is exact already). None when the solver gives
    up (`HINDSIGHT_NODES`)."""
    if step.method != "search" or state.sides != 2:
        return None
    rs = state.round
    if sum(len(h) for h in rs.hands) + len(rs.deck) > HINDSIGHT_PLAYS:
        return None
    world = true_world(state)
    moves = moves_of(v, v.legal)
    index = [move_of(v, a) for a in v.legal].index(step.played)
    worths = solve(world, moves, HINDSIGHT_NODES)
    exact = solve(world, [moves[index]], HINDSIGHT_NODES)
    if worths is None or exact is None:
        return None
    top = max(worths)
    best = index if exact[0] >= top else worths.index(top)
    return Hindsight(
        best=move_of(v, v.legal[best]),
        played_value=float(exact[0]),
        best_value=float(top),
        cost=float(top - exact[0]),
    )


def analyse_step(
    state: GameState,
    action: Action,
    *,
    step: int = 0,
    evaluator: Evaluator | None = None,
    thresholds: Thresholds = THRESHOLDS,
    salt: str = "",
) -> StepAnalysis:
    """The analysis of `action` by the seat on turn in `state`: weighed from
    that seat's view (`weigh_play`), with its hindsight where there is one."""
    turn = state.turn
    if turn is None:
        raise ValueError("no round in play")
    v = view(state, turn)
    weighed = weigh_play(
        v, action, step=step, evaluator=evaluator, thresholds=thresholds, salt=salt
    )
    return replace(weighed, hindsight=hindsight_of(state, v, weighed))


def round_positions(
    summary: RoundSummary, players: int, rules: RuleSet
) -> list[tuple[int, GameState, Action]]:
    """The round's actions as (step number, the state before, the action):
    what `analyse_step` weighs, one at a time (the web layer sends each to
    its worker pool on its own). Raises `RecordError` when the round does
    not replay."""
    out = []
    for number, ((before, _), (_, recorded)) in enumerate(
        pairwise(round_states(summary, players, rules)), start=1
    ):
        assert recorded is not None
        out.append((number, before, recorded_action(recorded)))
    return out


def round_analysis(
    summary: RoundSummary,
    players: int,
    evaluator: EvaluatorInfo,
    thresholds: Thresholds,
    steps: Sequence[StepAnalysis],
) -> RoundAnalysis:
    """The analysis of a round from its weighed steps, in order."""
    return RoundAnalysis(
        round=summary.number,
        players=players,
        dealer=summary.dealer,
        evaluator=evaluator,
        thresholds=thresholds,
        steps=tuple(steps),
        seats=seat_summaries(steps, players),
    )


def analyse_round(
    summary: RoundSummary,
    players: int,
    rules: RuleSet,
    *,
    evaluator: Evaluator | None = None,
    thresholds: Thresholds = THRESHOLDS,
    salt: str = "",
    progress: OnProgress | None = None,
) -> RoundAnalysis:
    """The analysis of a finished round of the engine (`RoundSummary`, as a
    game keeps them in `finished_rounds`). Raises `RecordError` when the
    round does not replay."""
    ev = evaluator or default_evaluator()
    total = len(summary.actions)
    steps: list[StepAnalysis] = []
    for number, before, action in round_positions(summary, players, rules):
        steps.append(
            analyse_step(
                before, action, step=number, evaluator=ev, thresholds=thresholds, salt=salt
            )
        )
        if progress is not None:
            progress(Progress(summary.number, number, total))
    return round_analysis(summary, players, ev.describe(), thresholds, steps)


def analyse_record(
    record: dict[str, Any],
    *,
    evaluator: Evaluator | None = None,
    thresholds: Thresholds = THRESHOLDS,
    salt: str = "",
    progress: OnProgress | None = None,
) -> tuple[RoundAnalysis, ...]:
    """The analysis of every finished round of an escoba-record/1 game (a
    round cut short, `"finished": false`, is left out: its hands were never
    all played). Raises `RecordError` for a record that does not replay."""
    final = replay(record)
    return tuple(
        analyse_round(
            summary,
            final.players,
            final.rules,
            evaluator=evaluator,
            thresholds=thresholds,
            salt=salt,
            progress=progress,
        )
        for summary in final.finished_rounds
    )


def seat_summaries(steps: Sequence[StepAnalysis], players: int) -> tuple[SeatSummary, ...]:
    """Each seat's round: decisions, points given away, marks, costliest."""
    out = []
    for seat in range(players):
        mine = [s for s in steps if s.seat == seat]
        given = [s for s in mine if s.given_away > 0]
        given.sort(key=lambda s: (-s.given_away, s.step))
        hindsight = [s.hindsight.cost for s in mine if s.hindsight is not None]
        out.append(
            SeatSummary(
                seat=seat,
                side=side_of(seat, players),
                decisions=sum(1 for s in mine if s.method != "forced"),
                given_away=figure(sum(s.given_away for s in mine)),
                marks=MarkCounts(**{m: sum(1 for s in mine if s.mark == m) for m in MARKS}),
                costliest=tuple(s.step for s in given[:COSTLIEST]),
                hindsight_given_away=figure(sum(hindsight)) if hindsight else None,
            )
        )
    return tuple(out)


def game_summary(analyses: Iterable[RoundAnalysis]) -> tuple[GameSeatSummary, ...]:
    """Each seat over a game's analysed rounds (for the end of a game): the
    points given away round by round, and the three costliest steps."""
    rounds = list(analyses)
    if not rounds:
        return ()
    players = rounds[0].players
    if any(r.players != players for r in rounds):
        raise ValueError("the rounds of a game summary are of one game: the same players")
    out = []
    for seat in range(players):
        refs = [
            StepRef(r.round, s.step, s.given_away, s.mark)
            for r in rounds
            for s in r.steps
            if s.seat == seat and s.given_away > 0
        ]
        refs.sort(key=lambda ref: (-ref.given_away, ref.round, ref.step))
        out.append(
            GameSeatSummary(
                seat=seat,
                side=side_of(seat, players),
                given_away=tuple((r.round, r.seats[seat].given_away) for r in rounds),
                costliest=tuple(refs[:COSTLIEST]),
            )
        )
    return tuple(out)
