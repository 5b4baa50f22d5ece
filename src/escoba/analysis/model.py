"""The analysis as a value: a tree of frozen dataclasses that the web layer
stores and serves, each with `to_json` (plain JSON: cards in RULES.md's
notation, figures rounded to 3 decimals) and `from_json` (its inverse, for
what was stored).

    RoundAnalysis            one finished round («escoba-analysis/1»)
      evaluator              who weighed the plays, at which settings
      thresholds             the marks' thresholds and the noise gate
      steps: StepAnalysis    every play and claim of the round, in order
        played, best: Move   what was done, and the best the evaluator found
        candidates           every legal action with its expected margin
        lines: LineCost      each scoring line's expected points, played and best
        reasons: Reason      why a costly play cost: codes with their values
        hindsight            what the play cost with every card known (or null)
      seats: SeatSummary     per seat: points given away, marks, costliest steps
    GameSeatSummary          per seat over a game's rounds (`game_summary`)

Figures are in round points, as the evaluator defines them: a step's
`played_value` and `best_value` are expected *margins* (the side's points
less the mean of the other sides', `escoba.analysis.evaluator`), and
`played_points` / `best_points` each side's expected points.

An analysis stored before the lines and reasons existed reads back with
both empty (`lines == ()`): the pages and the API show it without them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final, Literal, cast

from escoba.engine.cards import Card, cards_str, parse_card, parse_cards

FORMAT: Final = "escoba-analysis/1"

Mark = Literal["imprecise", "mistake", "blunder"]
MARKS: Final[tuple[Mark, ...]] = ("imprecise", "mistake", "blunder")
Method = Literal["search", "exact", "forced"]
METHODS: Final[tuple[Method, ...]] = ("search", "exact", "forced")

Json = dict[str, Any]


def figure(x: float) -> float:
    """A figure as stored: 3 decimals (no «-0.0»). The analysis rounds its
    figures when it makes them, so that a value read back from its JSON is
    equal to the one written."""
    return round(x, 3) + 0.0


@dataclass(frozen=True, slots=True)
class Move:
    """An action in a round. A play: `card` from the hand, `taken` the table
    cards it took (empty: DEJAR EN LA MESA). A claim («LLEVAR EL 15»):
    `card` is the card left before, `taken` every card taken, it first, as
    the game record has them. `escoba`: it empties the table."""

    kind: Literal["play", "claim"]
    card: Card
    taken: tuple[Card, ...]
    escoba: bool

    def to_json(self) -> Json:
        if self.kind == "claim":
            return {"type": "claim", "cards": cards_str(self.taken), "escoba": self.escoba}
        return {
            "type": "play",
            "card": str(self.card),
            "capture": cards_str(self.taken),
            "escoba": self.escoba,
        }

    @classmethod
    def from_json(cls, data: Json) -> Move:
        if data["type"] == "claim":
            taken = parse_cards(data["cards"])
            return cls("claim", taken[0], taken, bool(data["escoba"]))
        if data["type"] != "play":
            raise ValueError(f"unknown move type {data['type']!r}")
        return cls(
            "play", parse_card(data["card"]), parse_cards(data["capture"]), bool(data["escoba"])
        )


@dataclass(frozen=True, slots=True)
class Candidate:
    """A legal action of the step and its expected margin."""

    move: Move
    value: float

    def to_json(self) -> Json:
        return {"move": self.move.to_json(), "value": figure(self.value)}

    @classmethod
    def from_json(cls, data: Json) -> Candidate:
        return cls(Move.from_json(data["move"]), float(data["value"]))


@dataclass(frozen=True, slots=True)
class Hindsight:
    """What the play was worth *in hindsight*: the rest of the round solved
    exactly with every card known (the other hands too, which the seat could
    not see), both sides playing perfectly after it. Figures are whole
    margins (two sides only: the last deal at 2 or 4 players). Never a mark:
    it says what the cards were, not what the seat could know."""

    best: Move
    played_value: float
    best_value: float
    cost: float

    def to_json(self) -> Json:
        return {
            "best": self.best.to_json(),
            "played_value": figure(self.played_value),
            "best_value": figure(self.best_value),
            "cost": figure(self.cost),
        }

    @classmethod
    def from_json(cls, data: Json) -> Hindsight:
        return cls(
            Move.from_json(data["best"]),
            float(data["played_value"]),
            float(data["best_value"]),
            float(data["cost"]),
        )


@dataclass(frozen=True, slots=True)
class LineCost:
    """One scoring line of a step (`escoba.analysis.lines`: escobas, cards,
    diamonds, sevens or setenta, seven_of_diamonds, leftover): each side's
    expected points on it after the play made (`played`) and after the best
    (`best`), and `cost`, the line's share of the step's cost (the best's
    margin on the line less the play's): the lines' costs add up to the
    step's `cost`."""

    line: str
    played: tuple[float, ...]
    best: tuple[float, ...]
    cost: float

    def to_json(self) -> Json:
        return {
            "line": self.line,
            "played": [figure(p) for p in self.played],
            "best": [figure(p) for p in self.best],
            "cost": figure(self.cost),
        }

    @classmethod
    def from_json(cls, data: Json) -> LineCost:
        return cls(
            str(data["line"]),
            tuple(float(p) for p in data["played"]),
            tuple(float(p) for p in data["best"]),
            float(data["cost"]),
        )


ReasonValue = int | float | str


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a costly play cost, on scoring line `line`: `code` is the words'
    catalog code (`escoba.words`, «analysis_reason_…») and `values` its
    values as data: numbers (`cost` in round points), a card in RULES.md's
    notation (`card`), a seat (`seat`), a line's name (`of_line`);
    `escoba.analysis.wording` names them in the viewer's language and deck."""

    code: str
    line: str
    values: tuple[tuple[str, ReasonValue], ...] = ()

    def value(self, key: str) -> ReasonValue:
        return dict(self.values)[key]

    def to_json(self) -> Json:
        return {"code": self.code, "line": self.line, "values": dict(self.values)}

    @classmethod
    def from_json(cls, data: Json) -> Reason:
        values = data.get("values") or {}
        return cls(
            str(data["code"]),
            str(data["line"]),
            tuple(sorted((str(k), _reason_value(v)) for k, v in values.items())),
        )


def _reason_value(value: Any) -> ReasonValue:
    """A value as JSON read it back (a number keeps its type)."""
    if isinstance(value, str | float) and not isinstance(value, bool):
        return value
    return int(value)


@dataclass(frozen=True, slots=True)
class StepAnalysis:
    """One play or claim of the round, weighed from its seat's view.

    `step` is its number in the round's replay (`engine.round_steps`: 0 is
    the deal, the actions from 1). `method`: `search` (sampled worlds),
    `exact` (the seat could see every remaining card: perfect play after)
    or `forced` (one legal action: nothing to weigh, no cost). `cost` is
    `best_value - played_value` (0 when the play is the best), `noise` the
    standard error of that difference (0 when exact). `given_away` is the
    cost counted against the seat: the cost when it stands above the noise
    (`Thresholds.significant`), else 0; `mark` grades it. `lines` splits
    the figures by scoring line (empty in an analysis stored before they
    existed) and `reasons` say why a play that gave points away cost them
    (`escoba.analysis.reasons`)."""

    step: int
    seat: int
    side: int
    deal: int
    last_deal: bool
    method: Method
    worlds: int
    played: Move
    played_value: float
    played_points: tuple[float, ...]
    best: Move
    best_value: float
    best_points: tuple[float, ...]
    cost: float
    noise: float
    given_away: float
    mark: Mark | None
    candidates: tuple[Candidate, ...]  # every legal action, the best first
    hindsight: Hindsight | None
    lines: tuple[LineCost, ...] = ()
    reasons: tuple[Reason, ...] = ()

    @property
    def is_best(self) -> bool:
        return self.played == self.best

    @property
    def explained(self) -> bool:
        """Its figures are split by line (an analysis made before the split
        existed is not)."""
        return bool(self.lines)

    def to_json(self) -> Json:
        return {
            "step": self.step,
            "seat": self.seat,
            "side": self.side,
            "deal": self.deal,
            "last_deal": self.last_deal,
            "method": self.method,
            "worlds": self.worlds,
            "played": self.played.to_json(),
            "played_value": figure(self.played_value),
            "played_points": [figure(p) for p in self.played_points],
            "best": self.best.to_json(),
            "best_value": figure(self.best_value),
            "best_points": [figure(p) for p in self.best_points],
            "cost": figure(self.cost),
            "noise": figure(self.noise),
            "given_away": figure(self.given_away),
            "mark": self.mark,
            "candidates": [c.to_json() for c in self.candidates],
            "hindsight": None if self.hindsight is None else self.hindsight.to_json(),
            "lines": [line.to_json() for line in self.lines],
            "reasons": [r.to_json() for r in self.reasons],
        }

    @classmethod
    def from_json(cls, data: Json) -> StepAnalysis:
        mark = data["mark"]
        if mark is not None and mark not in MARKS:
            raise ValueError(f"unknown mark {mark!r}")
        if data["method"] not in METHODS:
            raise ValueError(f"unknown method {data['method']!r}")
        hindsight = data["hindsight"]
        return cls(
            step=int(data["step"]),
            seat=int(data["seat"]),
            side=int(data["side"]),
            deal=int(data["deal"]),
            last_deal=bool(data["last_deal"]),
            method=cast(Method, data["method"]),
            worlds=int(data["worlds"]),
            played=Move.from_json(data["played"]),
            played_value=float(data["played_value"]),
            played_points=tuple(float(p) for p in data["played_points"]),
            best=Move.from_json(data["best"]),
            best_value=float(data["best_value"]),
            best_points=tuple(float(p) for p in data["best_points"]),
            cost=float(data["cost"]),
            noise=float(data["noise"]),
            given_away=float(data["given_away"]),
            mark=cast(Mark | None, mark),
            candidates=tuple(Candidate.from_json(c) for c in data["candidates"]),
            hindsight=None if hindsight is None else Hindsight.from_json(hindsight),
            lines=tuple(LineCost.from_json(x) for x in data.get("lines") or ()),
            reasons=tuple(Reason.from_json(r) for r in data.get("reasons") or ()),
        )


@dataclass(frozen=True, slots=True)
class MarkCounts:
    imprecise: int = 0
    mistake: int = 0
    blunder: int = 0

    def of(self, mark: Mark) -> int:
        return cast(int, getattr(self, mark))

    def to_json(self) -> Json:
        return {m: self.of(m) for m in MARKS}

    @classmethod
    def from_json(cls, data: Json) -> MarkCounts:
        return cls(**{m: int(data[m]) for m in MARKS})


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's round: its `decisions` (steps with a choice), the points it
    gave away (the sum of its steps' `given_away`), its marks, its costliest
    steps (up to three step numbers, costliest first, each with something
    given away) and, where the last deal could be solved in hindsight, the
    points given away by that measure over the steps that have one."""

    seat: int
    side: int
    decisions: int
    given_away: float
    marks: MarkCounts
    costliest: tuple[int, ...]
    hindsight_given_away: float | None

    def to_json(self) -> Json:
        hindsight = self.hindsight_given_away
        return {
            "seat": self.seat,
            "side": self.side,
            "decisions": self.decisions,
            "given_away": figure(self.given_away),
            "marks": self.marks.to_json(),
            "costliest": list(self.costliest),
            "hindsight_given_away": None if hindsight is None else figure(hindsight),
        }

    @classmethod
    def from_json(cls, data: Json) -> SeatSummary:
        hindsight = data["hindsight_given_away"]
        return cls(
            seat=int(data["seat"]),
            side=int(data["side"]),
            decisions=int(data["decisions"]),
            given_away=float(data["given_away"]),
            marks=MarkCounts.from_json(data["marks"]),
            costliest=tuple(int(s) for s in data["costliest"]),
            hindsight_given_away=None if hindsight is None else float(hindsight),
        )


@dataclass(frozen=True, slots=True)
class Thresholds:
    """A step is marked when its cost stands above the estimate's noise
    (`significant`: more than `noise_factor` standard errors, and at least
    `floor` points) and reaches `imprecise`, `mistake` or `blunder` points.
    bench/RESULTS-analysis.md says how these were chosen."""

    imprecise: float
    mistake: float
    blunder: float
    noise_factor: float
    floor: float

    def significant(self, cost: float, noise: float) -> bool:
        return cost >= self.floor and cost > self.noise_factor * noise

    def mark(self, cost: float, noise: float) -> Mark | None:
        if not self.significant(cost, noise):
            return None
        if cost >= self.blunder:
            return "blunder"
        if cost >= self.mistake:
            return "mistake"
        if cost >= self.imprecise:
            return "imprecise"
        return None

    def to_json(self) -> Json:
        return {
            "imprecise": self.imprecise,
            "mistake": self.mistake,
            "blunder": self.blunder,
            "noise_factor": self.noise_factor,
            "floor": self.floor,
        }

    @classmethod
    def from_json(cls, data: Json) -> Thresholds:
        return cls(**{f.name: float(data[f.name]) for f in fields(cls)})


@dataclass(frozen=True, slots=True)
class EvaluatorInfo:
    """Who weighed the plays: `name` (its key), `display_name` (who «would
    have played» the best: a name, never translated) and its settings."""

    name: str
    display_name: str
    settings: tuple[tuple[str, str | int | float | bool], ...]

    def to_json(self) -> Json:
        return {"name": self.name, "display_name": self.display_name} | {
            "settings": dict(self.settings)
        }

    @classmethod
    def from_json(cls, data: Json) -> EvaluatorInfo:
        return cls(
            str(data["name"]), str(data["display_name"]), tuple(sorted(data["settings"].items()))
        )


@dataclass(frozen=True, slots=True)
class RoundAnalysis:
    """The analysis of one finished round (the module's docstring)."""

    round: int
    players: int
    dealer: int
    evaluator: EvaluatorInfo
    thresholds: Thresholds
    steps: tuple[StepAnalysis, ...]
    seats: tuple[SeatSummary, ...]

    def step(self, number: int) -> StepAnalysis:
        """The step of replay number `number` (KeyError if none)."""
        for s in self.steps:
            if s.step == number:
                return s
        raise KeyError(number)

    def to_json(self) -> Json:
        return {
            "format": FORMAT,
            "round": self.round,
            "players": self.players,
            "dealer": self.dealer,
            "evaluator": self.evaluator.to_json(),
            "thresholds": self.thresholds.to_json(),
            "steps": [s.to_json() for s in self.steps],
            "seats": [s.to_json() for s in self.seats],
        }

    @classmethod
    def from_json(cls, data: Json) -> RoundAnalysis:
        if data.get("format") != FORMAT:
            raise ValueError(f"not an {FORMAT} analysis")
        return cls(
            round=int(data["round"]),
            players=int(data["players"]),
            dealer=int(data["dealer"]),
            evaluator=EvaluatorInfo.from_json(data["evaluator"]),
            thresholds=Thresholds.from_json(data["thresholds"]),
            steps=tuple(StepAnalysis.from_json(s) for s in data["steps"]),
            seats=tuple(SeatSummary.from_json(s) for s in data["seats"]),
        )


@dataclass(frozen=True, slots=True)
class StepRef:
    """A step of a game's analysis: round `round`, replay step `step`."""

    round: int
    step: int
    given_away: float
    mark: Mark | None

    def to_json(self) -> Json:
        return {
            "round": self.round,
            "step": self.step,
            "given_away": figure(self.given_away),
            "mark": self.mark,
        }


@dataclass(frozen=True, slots=True)
class GameSeatSummary:
    """One seat over a game's analysed rounds: the points it gave away in
    each (round number, points), and its three costliest steps."""

    seat: int
    side: int
    given_away: tuple[tuple[int, float], ...]
    costliest: tuple[StepRef, ...]

    @property
    def total(self) -> float:
        return sum(points for _, points in self.given_away)

    def to_json(self) -> Json:
        return {
            "seat": self.seat,
            "side": self.side,
            "given_away": [{"round": r, "points": figure(p)} for r, p in self.given_away],
            "total": figure(self.total),
            "costliest": [c.to_json() for c in self.costliest],
        }
