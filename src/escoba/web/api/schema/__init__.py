"""The JSON API's schema: what a client sends, what it gets back and every
refusal it can meet, as the pydantic models FastAPI publishes in
`/openapi.json`.

Every answer is its model: each is made from what the service read by its
`of` (`TableOut.of(page)`, `ViewOut.of(view)`, `GamesOut.of(games)`…) and
written as it is (`api.routes.answer`), so the JSON has one shape and the
published schema is it. The models say that JSON exactly (every field
required unless the JSON may leave it out, no other field), and the test
suite still checks every answer it gets against the published schema.

A claim's cards have one name everywhere: `cards`, every card the claim
takes with the left card first, in the command as in the view's history,
its `legal_actions` and the game record (shared/RECORD.md), spelt by the
engine's `claim_cards` and read back by its `claim_of`.

The whole contract has one face, this package, and one module per thing it
describes: `cards` (how a card is written), `commands` (what a client sends),
`views` (the view of a seat), `tables` (the table around it), `games` (the
games played at a table), `analysis` (a finished round weighed), `errors`
(every refusal, by status). `/docs` shows
it all in one place.

May import: table, base (of escoba, the engine, robots and words)."""

from __future__ import annotations

from escoba.web.api.schema.analysis import (
    AnalysedMove,
    AnalysisOut,
    CandidateOut,
    EvaluatorOut,
    HindsightOut,
    LineOut,
    Mark,
    MarkCountsOut,
    MoveClaimOut,
    MovePlayOut,
    ReasonOut,
    ReasonValuesOut,
    RoundAnalysisOut,
    SeatAnalysisOut,
    StepAnalysisOut,
    ThresholdsOut,
)
from escoba.web.api.schema.cards import CARD_PATTERN, Card, CardIn, Cards, CardsIn
from escoba.web.api.schema.commands import (
    ActIn,
    ChatIn,
    ClaimIn,
    CreateIn,
    EmailIn,
    JoinIn,
    Lang,
    NoticeKindName,
    NoticesIn,
    PlayIn,
    PositionIn,
    PushEndpointIn,
    PushKeysIn,
    PushSubscriptionIn,
    RematchIn,
    RobotIn,
    RobotKey,
    RulesIn,
    StrictIn,
    TransferIn,
    VersionIn,
)
from escoba.web.api.schema.errors import (
    ANY,
    BODY,
    ERROR_CODES,
    ERROR_MODELS,
    ErrorCode,
    ErrorOut,
    refusals,
)
from escoba.web.api.schema.games import GameOut, GameRoundOut, GamesOut, SeriesWinsOut
from escoba.web.api.schema.tables import (
    API_LANG,
    CanOut,
    ChatOut,
    EmailOut,
    NoticesOut,
    SeatOut,
    SeatPublic,
    TableOut,
    TransferOut,
)
from escoba.web.api.schema.views import (
    Action,
    ClaimedOut,
    ClaimOut,
    LastRoundOut,
    LeftoverOut,
    LinesOut,
    Out,
    Played,
    PlayedOut,
    PlayOut,
    ResultOut,
    RulesOut,
    SeatCountsOut,
    SideScoreOut,
    TableTakeOut,
    ViewOut,
)

__all__ = [
    "ANY",
    "API_LANG",
    "BODY",
    "CARD_PATTERN",
    "ERROR_CODES",
    "ERROR_MODELS",
    "ActIn",
    "Action",
    "AnalysedMove",
    "AnalysisOut",
    "CanOut",
    "CandidateOut",
    "Card",
    "CardIn",
    "Cards",
    "CardsIn",
    "ChatIn",
    "ChatOut",
    "ClaimIn",
    "ClaimOut",
    "ClaimedOut",
    "CreateIn",
    "EmailIn",
    "EmailOut",
    "ErrorCode",
    "ErrorOut",
    "EvaluatorOut",
    "GameOut",
    "GameRoundOut",
    "GamesOut",
    "HindsightOut",
    "JoinIn",
    "Lang",
    "LastRoundOut",
    "LeftoverOut",
    "LineOut",
    "LinesOut",
    "Mark",
    "MarkCountsOut",
    "MoveClaimOut",
    "MovePlayOut",
    "NoticeKindName",
    "NoticesIn",
    "NoticesOut",
    "Out",
    "PlayIn",
    "PlayOut",
    "Played",
    "PlayedOut",
    "PositionIn",
    "PushEndpointIn",
    "PushKeysIn",
    "PushSubscriptionIn",
    "ReasonOut",
    "ReasonValuesOut",
    "RematchIn",
    "ResultOut",
    "RobotIn",
    "RobotKey",
    "RoundAnalysisOut",
    "RulesIn",
    "RulesOut",
    "SeatAnalysisOut",
    "SeatCountsOut",
    "SeatOut",
    "SeatPublic",
    "SeriesWinsOut",
    "SideScoreOut",
    "StepAnalysisOut",
    "StrictIn",
    "TableOut",
    "TableTakeOut",
    "ThresholdsOut",
    "TransferIn",
    "TransferOut",
    "VersionIn",
    "ViewOut",
    "refusals",
]
