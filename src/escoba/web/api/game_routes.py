"""The JSON API of a table's games (issue 34): every game played at a table
stays readable, whatever the table does afterwards (a rematch included).

    GET /api/tables/{invite}/games                               the games, the series
    GET /api/tables/{invite}/games/{game}/record                 a game's record
    GET /api/tables/{invite}/games/{game}/rounds/{n}/analysis    a round's analysis

A finished game answers at its number for as long as the table exists; the
game in play answers at its number as at the table's own paths (`/record`,
`/rounds/{n}/analysis`): the same answers, the same refusals (409
`not_finished` for its record before its end, 409 `round_in_play`). A
number the table never reached is 404 `no_such_game`. Anyone may read, as
the table's own paths: a token, if sent, must hold a seat here (403)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import Response

from escoba.web.api.routes import (
    MAX_ID,
    Invite,
    NoStoreRoute,
    ServiceDep,
    TokenDep,
    analysis_answer,
    answer,
    require_seat_if_named,
)
from escoba.web.api.schema import ANY, AnalysisOut, GamesOut, refusals

router = APIRouter(prefix="/api", tags=["api"], route_class=NoStoreRoute)

GameNumber = Annotated[
    int, Path(ge=1, le=MAX_ID, description="The game's number at the table, from 1.")
]


@router.get("/tables/{invite}/games", response_model=GamesOut, responses=refusals(*ANY, 403))
async def games(invite: Invite, service: ServiceDep, token: TokenDep) -> Response:
    """Every game played at the table, first to last (the game in play
    included): its number, its players, its result, its rounds' points."""
    require_seat_if_named(service, invite, token)
    return answer(GamesOut.of(service.history.table_games(invite)))


@router.get(
    "/tables/{invite}/games/{game}/record",
    responses=refusals(*ANY, 403, 409),
    response_description="The game record, `escoba-record/1` (shared/RECORD.md).",
)
async def game_record(
    invite: Invite, game: GameNumber, service: ServiceDep, token: TokenDep
) -> dict[str, Any]:
    """Game `game`'s record (`escoba-record/1`), once it is over: a finished
    game's for as long as the table exists; the game in play's is 409
    `not_finished` until it ends."""
    require_seat_if_named(service, invite, token)
    record, _ = service.story.record_file(invite, game)
    return record


@router.get(
    "/tables/{invite}/games/{game}/rounds/{number}/analysis",
    response_model=AnalysisOut,
    responses=refusals(*ANY, 403, 409),
)
async def game_round_analysis(
    invite: Invite,
    game: GameNumber,
    number: Annotated[int, Path(ge=1, le=MAX_ID, description="The round's number, from 1.")],
    service: ServiceDep,
    token: TokenDep,
) -> Response:
    """The analysis of a finished round of game `game` (as
    `/rounds/{n}/analysis` for the game in play): 200 once the round is
    over, with its progress while the server computes it; 409
    `round_in_play` for the round being played; 404 `no_round` for a round
    the game does not have."""
    require_seat_if_named(service, invite, token)
    return analysis_answer(service.analyses.round_analysis(invite, number, game))
