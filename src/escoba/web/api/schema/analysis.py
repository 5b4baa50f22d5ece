"""What a client gets: the analysis of a finished round («escoba-analysis/1»:
every play weighed from its seat's view, the marks, each seat's summary)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    Field,
)

from escoba.web.api.schema.views import ClaimOut, Out, PlayOut


class MovePlayOut(PlayOut):
    """A play weighed: `capture` empty is DEJAR EN LA MESA."""

    escoba: bool = Field(description="It empties the table.")


class MoveClaimOut(ClaimOut):
    """LLEVAR EL 15 weighed: `cards` is every card taken, the left card first."""

    escoba: bool = Field(description="It empties the table.")


AnalysedMove = Annotated[MovePlayOut | MoveClaimOut, Field(discriminator="type")]
Mark = Literal["imprecise", "mistake", "blunder"]


class CandidateOut(Out):
    move: AnalysedMove
    value: float = Field(description="Its expected margin, in round points.")


class HindsightOut(Out):
    """The play with every card known (the others' hands too) and perfect
    play after: hindsight, never a mark."""

    best: AnalysedMove
    played_value: float
    best_value: float
    cost: float


class StepAnalysisOut(Out):
    """One play or claim weighed from what its seat could see then. Values
    are expected *margins* in round points (the side's points less the
    other side's; at three players less the mean of the two others')."""

    step: int = Field(description="Its step in the round's replay (`?paso=`), from 1.")
    seat: int
    side: int
    deal: int
    last_deal: bool = Field(description="It was played in ÚLTIMAS.")
    method: Literal["search", "exact", "forced"] = Field(
        description="Sampled worlds, the exact solver (every card known to the seat), "
        "or one legal action."
    )
    worlds: int
    played: AnalysedMove
    played_value: float
    played_points: list[float] = Field(description="Each side's expected points after it.")
    best: AnalysedMove = Field(description="The best action the evaluator found.")
    best_value: float
    best_points: list[float]
    cost: float = Field(description="`best_value` less `played_value`.")
    noise: float = Field(description="The standard error of `cost`.")
    given_away: float = Field(description="The cost counted against the seat (above the noise).")
    mark: Mark | None
    candidates: list[CandidateOut] = Field(description="Every legal action, the best first.")
    hindsight: HindsightOut | None


class MarkCountsOut(Out):
    imprecise: int
    mistake: int
    blunder: int


class SeatAnalysisOut(Out):
    seat: int
    side: int
    decisions: int = Field(description="Its steps with more than one legal action.")
    given_away: float = Field(description="Round points given away in the round.")
    marks: MarkCountsOut
    costliest: list[int] = Field(description="Its costliest steps (up to 3), costliest first.")
    hindsight_given_away: float | None


class EvaluatorOut(Out):
    name: str
    display_name: str = Field(description="Who «would have played» the best: Luna.")
    settings: dict[str, str | int | float | bool]


class ThresholdsOut(Out):
    """The marks' thresholds in round points, and the noise gate."""

    imprecise: float
    mistake: float
    blunder: float
    noise_factor: float
    floor: float


class RoundAnalysisOut(Out):
    format: Literal["escoba-analysis/1"]
    round: int
    players: int
    dealer: int
    evaluator: EvaluatorOut
    thresholds: ThresholdsOut
    steps: list[StepAnalysisOut]
    seats: list[SeatAnalysisOut]


class AnalysisOut(Out):
    """A finished round's analysis. The server computes it after the round,
    in the background: `status` is `queued`, then `running` (`done` of
    `total` actions weighed), then `done`, and only then is `analysis` set.
    Read it again until it is done (every 2 s, say)."""

    round: int
    status: Literal["queued", "running", "done"]
    done: int = Field(description="Actions weighed so far.")
    total: int = Field(description="Actions of the round.")
    analysis: RoundAnalysisOut | None
