"""What a client gets: the analysis of a finished round («escoba-analysis/1»:
every play weighed from its seat's view, the marks, each seat's summary)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    ConfigDict,
    Field,
)
from pydantic.json_schema import SkipJsonSchema

from escoba.web.api.schema.views import ClaimOut, Out, PlayOut, published_in_order
from escoba.web.table.analyses import AnalysisRead


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


LineName = Literal[
    "escobas", "cards", "diamonds", "sevens", "setenta", "seven_of_diamonds", "leftover"
]
ReasonCode = Literal[
    "analysis_reason_sweep",
    "analysis_reason_missed_escoba",
    "analysis_reason_claim_left",
    "analysis_reason_cards",
    "analysis_reason_diamonds",
    "analysis_reason_sevens",
    "analysis_reason_left_card",
    "analysis_reason_missed_card",
    "analysis_reason_leftover",
    "analysis_reason_line",
]


class LineOut(Out):
    """One scoring line of a step: `leftover` is what the table left at the
    end of the round (ÚLTIMAS) changed, the other lines are counted without
    it, so a side's lines add up to its expected points."""

    line: LineName = Field(description="`sevens`, or `setenta` under la setenta.")
    played: list[float] = Field(
        description="Each side's expected points on this line after the play made."
    )
    best: list[float] = Field(
        description="Each side's expected points on this line after the best play."
    )
    cost: float = Field(
        description="The line's share of the step's `cost` (the best's margin on it less the "
        "play's): the lines' costs add up to the step's cost."
    )


class ReasonValuesOut(Out):
    """A reason's values, as its words' code names them: only those the
    code uses are present."""

    # in the order of their names, as the analysis writes them (a model
    # writes its fields in their order); published in the order they had
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra=published_in_order(
            "sum", "value", "percent", "seat", "card", "took", "could", "of_line", "cost"
        ),
    )

    card: str | SkipJsonSchema[None] = Field(
        default=None, description="A card, in RULES.md's notation («7D»)."
    )
    cost: float | SkipJsonSchema[None] = Field(
        default=None, description="That line's cost, in round points."
    )
    could: int | SkipJsonSchema[None] = Field(
        default=None, description="How many the best play took."
    )
    of_line: LineName | SkipJsonSchema[None] = Field(
        default=None, description="The scoring line told by its cost alone."
    )
    percent: int | SkipJsonSchema[None] = Field(
        default=None, description="The chance the next player held one, in whole percent."
    )
    seat: int | SkipJsonSchema[None] = Field(
        default=None, description="The seat it is about: who sweeps, claims or gets the leftover."
    )
    sum: int | SkipJsonSchema[None] = Field(
        default=None, description="What the table left adds up to."
    )
    took: int | SkipJsonSchema[None] = Field(
        default=None, description="How many (cards, diamonds, sevens) the play made took."
    )
    value: int | SkipJsonSchema[None] = Field(
        default=None, description="The one card value that sweeps that table."
    )


class ReasonOut(Out):
    """Why the play cost: a code of the words' catalog (`escoba.words`, in
    es, pt_BR and en on the pages) with its values, on the scoring line
    whose cost it explains. The code's words speak to the player who made
    the play («Dejaste…»); to anyone else the pages say them of the step's
    `seat` by name («Tito dejó…»), with the same values."""

    code: ReasonCode
    line: LineName
    values: ReasonValuesOut


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
    worlds: int = Field(
        description="The worlds sampled (a search stops once its figures are clear: 64 to "
        "512 by default); 1 for the exact solver, 0 for a forced action."
    )
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
    lines: list[LineOut] = Field(
        description="The figures by scoring line; empty for an analysis made before the "
        "server split them."
    )
    reasons: list[ReasonOut] = Field(
        description="Why the play cost, its costliest lines first: at least one whenever "
        "`given_away` is above 0 (none in an analysis made before the server said why)."
    )


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

    @classmethod
    def of(cls, read: AnalysisRead) -> AnalysisOut:
        """The document as `escoba.analysis` writes it (escoba-analysis/1),
        read into its model."""
        analysis = read.analysis
        return cls.model_validate(
            {
                "round": read.round,
                "status": read.status,
                "done": read.done,
                "total": read.total,
                "analysis": None if analysis is None else analysis.to_json(),
            }
        )
