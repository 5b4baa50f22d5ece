"""After the round: every play weighed, the costly ones shown, and a coach
for those who are learning (issue 28).

    from escoba.analysis import analyse_round, analyse_record, coach_facts

    analysis = analyse_round(summary, players, rules, progress=report)
    stored = analysis.to_json()               # «escoba-analysis/1»
    again = RoundAnalysis.from_json(stored)
    game_summary(analyses)                    # per seat: given away per round, costliest
    say_step(step, names, lang, design)       # its sentences, es / pt_BR / en

    facts = coach_facts(view, action)         # what a play leaves, before it is made
    say_coach(facts, names, lang, design)    # its sentences

- `evaluator`: the seam to a robot's search (`Evaluator`; `LunaEvaluator`,
  Luna's machinery at a fixed number of worlds), and what «expected round
  points» means at 2, 3 and 4 players.
- `seeding`: the random source of a position, from what its seat can see.
- `rounds`: a finished round replayed and weighed step by step; the marks'
  thresholds (`THRESHOLDS`); hindsight; per-seat and per-game summaries.
- `model`: the result as frozen dataclasses with `to_json` / `from_json`.
- `coach`: the facts of a candidate play, from a seat's view.
- `wording`: all of it in the game's words (`escoba.words` codes).
- `cli`: `escoba analyse record.jsonl`.

The package may read game states (it replays finished rounds, and hindsight
reads the true cards through `cheater.true_world`); what it asks of the
robots' machinery is always a seat's view.
"""

from escoba.analysis.coach import CoachFacts, Sweep, coach_facts
from escoba.analysis.evaluator import WORLDS, Evaluation, Evaluator, LunaEvaluator, margin
from escoba.analysis.model import (
    FORMAT,
    MARKS,
    Candidate,
    EvaluatorInfo,
    GameSeatSummary,
    Hindsight,
    Mark,
    MarkCounts,
    Move,
    RoundAnalysis,
    SeatSummary,
    StepAnalysis,
    StepRef,
    Thresholds,
)
from escoba.analysis.rounds import (
    THRESHOLDS,
    Progress,
    analyse_record,
    analyse_round,
    analyse_step,
    game_summary,
    round_analysis,
    round_positions,
    weigh_play,
)
from escoba.analysis.seeding import position_rng
from escoba.analysis.wording import say_coach, say_move, say_seat, say_step

__all__ = [
    "FORMAT",
    "MARKS",
    "THRESHOLDS",
    "WORLDS",
    "Candidate",
    "CoachFacts",
    "Evaluation",
    "Evaluator",
    "EvaluatorInfo",
    "GameSeatSummary",
    "Hindsight",
    "LunaEvaluator",
    "Mark",
    "MarkCounts",
    "Move",
    "Progress",
    "RoundAnalysis",
    "SeatSummary",
    "StepAnalysis",
    "StepRef",
    "Sweep",
    "Thresholds",
    "analyse_record",
    "analyse_round",
    "analyse_step",
    "coach_facts",
    "game_summary",
    "margin",
    "position_rng",
    "round_analysis",
    "round_positions",
    "say_coach",
    "say_move",
    "say_seat",
    "say_step",
    "weigh_play",
]
