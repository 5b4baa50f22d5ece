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
  Luna's machinery: the current deal played out in sampled worlds and the
  rest estimated, until the figures are precise enough), and what
  «expected round points» means at 2, 3 and 4 players.
- `seeding`: the random source of a position, from what its seat can see.
- `rounds`: a finished round replayed and weighed step by step; the marks'
  thresholds (`THRESHOLDS`); hindsight; per-seat and per-game summaries.
- `model`: the result as frozen dataclasses with `to_json` / `from_json`.
- `lines`: a round's points split by scoring line, as a playout scores them.
- `reasons`: why a costly play cost: its costliest lines, each told by a
  fact that differs between the play made and the best.
- `coach`: the facts of a candidate play, from a seat's view.
- `wording`: all of it in the game's words (`escoba.words` codes).
- `cli`: `escoba analyse record.jsonl`.

The package may read game states (it replays finished rounds, and hindsight
reads the true cards through `cheater.true_world`); what it asks of the
robots' machinery is always a seat's view.
"""

from escoba.analysis.coach import CoachFacts, Sweep, coach_facts
from escoba.analysis.evaluator import WORLDS, Evaluation, Evaluator, LunaEvaluator, margin
from escoba.analysis.lines import LINES, line_names, line_points
from escoba.analysis.model import (
    FORMAT,
    MARKS,
    Candidate,
    EvaluatorInfo,
    GameSeatSummary,
    Hindsight,
    LineCost,
    Mark,
    MarkCounts,
    Move,
    Reason,
    RoundAnalysis,
    SeatSummary,
    StepAnalysis,
    StepRef,
    Thresholds,
)
from escoba.analysis.reasons import PlayFacts, explain, play_facts
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
from escoba.analysis.wording import (
    StepWords,
    say_coach,
    say_line,
    say_move,
    say_reason,
    say_seat,
    say_step,
    step_words,
)
from escoba.bots.knowledge import holds_chance

__all__ = [
    "FORMAT",
    "LINES",
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
    "LineCost",
    "LunaEvaluator",
    "Mark",
    "MarkCounts",
    "Move",
    "PlayFacts",
    "Progress",
    "Reason",
    "RoundAnalysis",
    "SeatSummary",
    "StepAnalysis",
    "StepRef",
    "StepWords",
    "Sweep",
    "Thresholds",
    "analyse_record",
    "analyse_round",
    "analyse_step",
    "coach_facts",
    "explain",
    "game_summary",
    "holds_chance",
    "line_names",
    "line_points",
    "margin",
    "play_facts",
    "position_rng",
    "round_analysis",
    "round_positions",
    "say_coach",
    "say_line",
    "say_move",
    "say_reason",
    "say_seat",
    "say_step",
    "step_words",
    "weigh_play",
]
