"""The JSON API over the same service (OpenAPI at /docs): anyone can write a
client or a robot. A seat is identified by its token, sent as
`Authorization: Bearer <token>`; without one you are a spectator, and a token
that holds no seat at the table is refused (403), on reads as on commands.

Every refusal, whatever refused it (the service, validation, FastAPI's body
parsing, routing), is `{"error": code, "message": text}` with a 4xx status,
and no answer may be cached (`Cache-Control: no-store`)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from http import HTTPStatus
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Depends, Path, Query, Request, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError
from starlette.exceptions import HTTPException

from escoba import engine as eng
from escoba.web.deps import AppContext, bearer_token, public_base_url
from escoba.web.errors import Forbidden, Invalid
from escoba.web.pages import ChatLine, TablePage
from escoba.web.service import TableService

NO_STORE = {"Cache-Control": "no-store"}


class NoStoreRoute(APIRoute):
    """An API route whose every answer is `Cache-Control: no-store`: a view
    carries the seat's hand, a new seat its token, and the rest is a table's
    live state behind its secret invite code, so no browser or proxy may keep
    any of it (the pages say the same)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def no_store(request: Request) -> Response:
            response = await handler(request)
            response.headers.update(NO_STORE)
            return response

        return no_store


router = APIRouter(prefix="/api", tags=["api"], route_class=NoStoreRoute)


# The routes and their dependencies are coroutines: the service's calls are
# short, and on the event loop they cost a third of what they cost with a trip
# to the thread pool and back, where they fight the loop for the GIL
# (bench/RESULTS-load.md).
async def _service(request: Request) -> TableService:
    ctx: AppContext = request.app.state.ctx
    return ctx.service


async def _bearer_token(request: Request) -> str | None:
    return bearer_token(request)


MAX_ID = 2**31 - 1  # the largest id of an INTEGER key column

ServiceDep = Annotated[TableService, Depends(_service)]
TokenDep = Annotated[str | None, Depends(_bearer_token)]
Invite = Annotated[str, Path(description="The table's invite code, from its link.")]


class ErrorOut(BaseModel):
    error: str = Field(description="A stable code, e.g. `stale`, `not_your_turn`.")
    message: str = Field(description="What went wrong, in words a player understands.")


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 403, 404, 409, 415, 422, 429, 503)
}


def refusal(
    status_code: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """The API's one error shape, `{"error": code, "message": text}`."""
    return JSONResponse(
        {"error": code, "message": message},
        status_code=status_code,
        headers={**(headers or {}), **NO_STORE},
    )


def validation_refusal(request: Request, exc: RequestValidationError) -> JSONResponse:
    """A request FastAPI could not turn into a route's arguments: a body that
    is no JSON at all is a 400 (`bad_json`), a body sent as another media type
    a 415, anything else a 422 (`invalid`) that names the first wrong field."""
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return refusal(400, "bad_json", "El cuerpo de la petición no es JSON válido.")
    whole_body = next((e for e in errors if tuple(e.get("loc", ())) == ("body",)), None)
    if whole_body is not None:
        if whole_body.get("type") == "missing":
            return refusal(422, "invalid", "Falta el cuerpo de la petición: un objeto JSON.")
        if not _is_json(request.headers.get("content-type")):
            # FastAPI parses a body as JSON only when it is labelled so
            return refusal(
                415,
                "unsupported_media_type",
                "Envía el cuerpo como JSON, con Content-Type: application/json.",
            )
        return refusal(422, "invalid", "El cuerpo de la petición debe ser un objeto JSON.")
    first = errors[0] if errors else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    return refusal(
        422, "invalid", f"Dato no válido: {where} ({first.get('msg', 'revisa la petición')})"
    )


#: FastAPI's words when a body labelled JSON cannot even be decoded (not UTF-8).
BODY_PARSE_ERROR = "There was an error parsing the body"
HTTP_REFUSALS: dict[int, tuple[str, str]] = {
    404: ("not_found", "La API no tiene esa dirección."),
    405: ("method_not_allowed", "Esa dirección de la API no acepta ese método."),
}


def http_refusal(exc: HTTPException) -> JSONResponse:
    """An HTTP error raised by FastAPI or Starlette themselves (an unknown
    path, a wrong method, an unreadable body) in the API's shape, with its
    headers (a 405's `Allow`)."""
    if exc.status_code == 400 and exc.detail == BODY_PARSE_ERROR:
        code, message = "bad_json", "El cuerpo de la petición no es JSON válido (ni UTF-8)."
    elif exc.status_code in HTTP_REFUSALS:
        code, message = HTTP_REFUSALS[exc.status_code]
    else:
        phrase = HTTPStatus(exc.status_code).phrase
        code = phrase.lower().replace(" ", "_").replace("-", "_")
        message = exc.detail if isinstance(exc.detail, str) else phrase
    return refusal(exc.status_code, code, message, exc.headers)


def _is_json(content_type: str | None) -> bool:
    media = (content_type or "").split(";")[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


class StrictIn(BaseModel):
    """Every request body is read with strict types: `"3"`, `4.0` or `true`
    is no version (lax pydantic would take them for 3, 4 and 1), and a client
    that sends one learns it from a 422 instead of acting on a guess."""

    model_config = ConfigDict(strict=True)


def _integer(value: Any) -> Any:
    """Strict mode does not reach a literal's values, which compare by
    equality: 21.0 would pass for 21 (and `true` for a literal 1)."""
    if type(value) is not int:
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


class CreateIn(StrictIn):
    name: str = Field(max_length=200, description="Your name at the table.")
    target: Annotated[Literal[21, 31], BeforeValidator(_integer)] = 21


class JoinIn(StrictIn):
    name: str = Field(max_length=200)


class SeatOut(BaseModel):
    invite: str
    token: str = Field(description="Keep it secret: it is your seat. Send it as a bearer token.")
    position: int
    table_url: str
    continue_url: str = Field(description="Opens this seat in any browser.")


class VersionIn(StrictIn):
    version: int = Field(description="The table version your command was made on.")


class RobotIn(VersionIn):
    robot: Literal["carmen", "tito", "luna"]


class PositionIn(VersionIn):
    position: int = Field(ge=0, le=3)


class ActionIn(StrictIn):
    type: Literal["play", "claim"]
    card: str | None = Field(default=None, max_length=4, description="play: the hand card")
    capture: list[str] = Field(
        default_factory=list, max_length=40, description="play: table cards taken"
    )
    group: list[str] = Field(
        default_factory=list, max_length=40, description="claim: the other table cards"
    )


class ActIn(VersionIn):
    action: ActionIn


class RematchIn(VersionIn):
    pairs: Literal["keep", "change"] | None = Field(
        default=None, description="With four, the creator: MANTENER (keep) or CAMBIAR (change)."
    )


class ChatIn(StrictIn):
    text: str = Field(max_length=2000)


class OkOut(BaseModel):
    version: int


class SeatPublic(BaseModel):
    position: int
    name: str
    robot: str | None
    game_seat: int | None
    creator: bool
    you: bool


class ChatOut(BaseModel):
    id: int
    position: int
    name: str
    text: str
    at: str


class TableOut(BaseModel):
    invite: str
    status: str
    target: int
    version: int
    game_number: int
    seats: list[SeatPublic]
    you: int | None = Field(description="Your lobby position, or null for a spectator.")
    names: list[str] = Field(description="Player names by engine seat (play order).")
    view: dict[str, Any] | None = Field(
        description="Your seat's view of the game (no hidden card)."
    )
    result: str | None
    can: dict[str, bool]


def _chat_out(line: ChatLine) -> ChatOut:
    return ChatOut(
        id=line.id, position=line.position, name=line.name, text=line.text, at=line.at.isoformat()
    )


def table_json(page: TablePage) -> dict[str, Any]:
    """A `TableOut` as JSON-ready data, made without the models (the hot read
    of every turn; the model stays the route's documented response)."""
    return {
        "invite": page.invite,
        "status": page.status.value,
        "target": page.target,
        "version": page.version,
        "game_number": page.game_number,
        "seats": [
            {
                "position": s.position,
                "name": s.name,
                "robot": s.robot,
                "game_seat": s.game_seat,
                "creator": s.is_creator,
                "you": s.is_you,
            }
            for s in page.seats
        ],
        "you": None if page.you is None else page.you.position,
        "names": list(page.names),
        "view": None if page.view is None else page.view.to_dict(),
        "result": page.result_text,
        "can": {
            "join": page.can_join,
            "start": page.can_start,
            "manage": page.can_manage,
            "chat": page.can_chat,
            "leave": page.can_leave,
            "next_round": page.can_next_round,
            "absence": page.absence_available,
            "rematch": page.rematch_possible and not page.rematch_accepted_by_you,
        },
    }


def _seat_out(request: Request, invite: str, token: str, position: int) -> SeatOut:
    ctx: AppContext = request.app.state.ctx
    base = public_base_url(request, ctx.settings)
    return SeatOut(
        invite=invite,
        token=token,
        position=position,
        table_url=f"{base}/t/{invite}",
        continue_url=f"{base}/t/{invite}/continue/{token}",
    )


@router.post("/tables", status_code=status.HTTP_201_CREATED, responses=ERRORS)
async def create_table(body: CreateIn, service: ServiceDep, request: Request) -> SeatOut:
    """Open a table; you take the first seat and deal the first round."""
    joined = service.create_table(body.name, body.target)
    return _seat_out(request, joined.invite, joined.token, joined.position)


@router.post("/tables/{invite}/seats", status_code=status.HTTP_201_CREATED, responses=ERRORS)
async def join_table(
    invite: Invite, body: JoinIn, service: ServiceDep, request: Request
) -> SeatOut:
    """Take a free seat before the game starts."""
    joined = service.join(invite, body.name)
    return _seat_out(request, joined.invite, joined.token, joined.position)


@router.get("/tables/{invite}", responses=ERRORS, response_model=TableOut)
async def get_table(invite: Invite, service: ServiceDep, token: TokenDep) -> Response:
    """The table as your seat sees it (a spectator's view without a token)."""
    page = service.page(invite, token, with_chat=False)
    if token is not None and page.you is None:
        raise Forbidden("not_seated")
    return Response(orjson.dumps(table_json(page)), media_type="application/json")


@router.post("/tables/{invite}/robots", responses=ERRORS)
async def add_robot(invite: Invite, body: RobotIn, service: ServiceDep, token: TokenDep) -> OkOut:
    return OkOut(version=service.add_robot(invite, token, body.version, body.robot).version)


@router.post("/tables/{invite}/robots/remove", responses=ERRORS)
async def remove_robot(
    invite: Invite, body: PositionIn, service: ServiceDep, token: TokenDep
) -> OkOut:
    return OkOut(version=service.remove_robot(invite, token, body.version, body.position).version)


@router.post("/tables/{invite}/partner", responses=ERRORS)
async def choose_partner(
    invite: Invite, body: PositionIn, service: ServiceDep, token: TokenDep
) -> OkOut:
    """LAS PAREJAS: with four, the creator's partner sits opposite."""
    return OkOut(version=service.choose_partner(invite, token, body.version, body.position).version)


@router.post("/tables/{invite}/start", responses=ERRORS)
async def start(invite: Invite, body: VersionIn, service: ServiceDep, token: TokenDep) -> OkOut:
    return OkOut(version=service.start(invite, token, body.version).version)


@router.post("/tables/{invite}/actions", responses=ERRORS)
async def act(invite: Invite, body: ActIn, service: ServiceDep, token: TokenDep) -> OkOut:
    """Play a card (`play`: with `capture` to take cards, empty to leave it on
    the table) or take the 15 that was left (`claim`, with `group`)."""
    try:
        action = eng.action_from_dict(body.action.model_dump())
    except eng.InputError as err:
        raise Invalid("bad_action", words=err.code, **err.params) from err
    return OkOut(version=service.act(invite, token, body.version, action).version)


@router.post("/tables/{invite}/next-round", responses=ERRORS)
async def next_round(
    invite: Invite, body: VersionIn, service: ServiceDep, token: TokenDep
) -> OkOut:
    """SIGUIENTE RONDA."""
    return OkOut(version=service.next_round(invite, token, body.version).version)


@router.post("/tables/{invite}/abandon", responses=ERRORS)
async def abandon(invite: Invite, body: VersionIn, service: ServiceDep, token: TokenDep) -> OkOut:
    """ABANDONAR: your side loses and the game ends."""
    return OkOut(version=service.abandon(invite, token, body.version).version)


@router.post("/tables/{invite}/absence", responses=ERRORS)
async def absence(invite: Invite, body: VersionIn, service: ServiceDep, token: TokenDep) -> OkOut:
    """TERMINAR POR AUSENCIA, once the player on turn has been idle over 48 hours."""
    return OkOut(version=service.end_for_absence(invite, token, body.version).version)


@router.post("/tables/{invite}/rematch", responses=ERRORS)
async def rematch(invite: Invite, body: RematchIn, service: ServiceDep, token: TokenDep) -> OkOut:
    return OkOut(version=service.accept_rematch(invite, token, body.version, body.pairs).version)


@router.get("/tables/{invite}/chat", responses=ERRORS)
async def read_chat(
    invite: Invite,
    service: ServiceDep,
    token: TokenDep,
    after: Annotated[
        int, Query(ge=0, le=MAX_ID, description="Only the lines after this chat line id.")
    ] = 0,
) -> list[ChatOut]:
    _require_seat_if_named(service, invite, token)
    return [_chat_out(line) for line in service.chat_lines(invite, after)]


@router.post("/tables/{invite}/chat", status_code=status.HTTP_201_CREATED, responses=ERRORS)
async def write_chat(invite: Invite, body: ChatIn, service: ServiceDep, token: TokenDep) -> OkOut:
    """Seated players write; spectators read only."""
    return OkOut(version=service.chat(invite, token, body.text).version)


@router.get("/tables/{invite}/record", responses=ERRORS)
async def record(invite: Invite, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """The game record (`escoba-record/1`) once the game is over."""
    _require_seat_if_named(service, invite, token)
    return service.record(invite)


def _require_seat_if_named(service: TableService, invite: str, token: str | None) -> None:
    """Anyone may read without a token; a token that holds no seat here is
    refused as a command refuses it, not quietly read as a spectator's."""
    if token is not None and service.seat_for(invite, token) is None:
        raise Forbidden("not_seated")
