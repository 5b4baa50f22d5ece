"""The JSON API over the same service (OpenAPI at /docs): anyone can write a
client or a robot. A seat is identified by its token, sent as
`Authorization: Bearer <token>`; without one you are a spectator, and a token
that holds no seat at the table is refused (403), on reads as on commands.

Every command answers with the table as its seat sees it after the command,
so a client never reads it again. Every refusal, whatever refused it (the
service, validation, FastAPI's body parsing, routing), is `{"error": code,
"message": text}` with a status its route documents (`web/api/schema/errors.py`),
and no answer may be cached (`Cache-Control: no-store`)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, status
from fastapi.responses import Response
from fastapi.routing import APIRoute

from escoba.engine import Action, IllegalAction, claim_of, make_play, parse_card, parse_cards
from escoba.web.api.refusals import NO_STORE
from escoba.web.api.schema import (
    ANY,
    BODY,
    ActIn,
    AnalysisOut,
    ChatIn,
    ChatOut,
    ClaimIn,
    CreateIn,
    JoinIn,
    NoticesIn,
    NoticesOut,
    Out,
    PlayIn,
    PositionIn,
    PushEndpointIn,
    PushSubscriptionIn,
    RematchIn,
    RobotIn,
    SeatOut,
    TableOut,
    TransferIn,
    TransferOut,
    VersionIn,
    refusals,
)
from escoba.web.base.errors import Conflict, Forbidden
from escoba.web.frame.deps import AppContext, ContextDep, bearer_token, public_base_url
from escoba.web.notices.notice import NoticeKind
from escoba.web.table.analyses import AnalysisRead
from escoba.web.table.lobby import Joined
from escoba.web.table.pages import ChatLine
from escoba.web.table.service import TableService


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


def _chat_out(line: ChatLine) -> ChatOut:
    return ChatOut(
        id=line.id, position=line.position, name=line.name, text=line.text, at=line.at.isoformat()
    )


def answer(model: Out, status_code: int = 200) -> Response:
    """The route's answer, its model written as it is: the fields a model
    leaves out unless set (`ResultOut.loser_seat`, la setenta's lines)
    stay out. Written here rather than by FastAPI, which would validate the
    model again on the hot read of every turn."""
    return Response(
        model.model_dump_json(exclude_unset=True),
        status_code=status_code,
        media_type="application/json",
    )


def _table_response(
    service: TableService, invite: str, token: str | None, status_code: int = 200
) -> Response:
    """The table as the seat of `token` sees it now: every command's answer
    (after it committed: its version, or a later one if the table moved on
    meanwhile, robots' answers included), which spares the client a read."""
    page = service.pages.page(invite, token, with_chat=False)
    return answer(TableOut.of(page, service.settings), status_code)


def _seat_response(request: Request, service: TableService, joined: Joined) -> Response:
    ctx: AppContext = request.app.state.ctx
    base = public_base_url(request, ctx.settings)
    invite, token = joined.invite, joined.token
    page = service.pages.page(invite, token, with_chat=False)
    code = ctx.transfers.seat_code(invite, token)
    seat = SeatOut(
        invite=invite,
        token=token,
        position=joined.position,
        table_url=f"{base}/t/{invite}",
        continue_url=base + code.path,
        table=TableOut.of(page, service.settings),
    )
    return answer(seat, status.HTTP_201_CREATED)


#: The refusals of a command on a table: its body's, the table's, and any request's.
COMMAND = refusals(*ANY, *BODY, 409)


@router.post(
    "/tables",
    status_code=status.HTTP_201_CREATED,
    response_model=SeatOut,
    responses=refusals(405, 431, 503, *BODY),
)
async def create_table(body: CreateIn, service: ServiceDep, request: Request) -> Response:
    """Open a table; you take the first seat and deal the first round."""
    return _seat_response(request, service, service.lobby.create_table(body.name, body.rule_set()))


@router.post(
    "/tables/{invite}/seats",
    status_code=status.HTTP_201_CREATED,
    response_model=SeatOut,
    responses=COMMAND,
)
async def join_table(
    invite: Invite, body: JoinIn, service: ServiceDep, request: Request
) -> Response:
    """Take a free seat before the game starts."""
    return _seat_response(request, service, service.lobby.join(invite, body.name))


@router.get("/tables/{invite}", response_model=TableOut, responses=refusals(*ANY, 403))
async def get_table(invite: Invite, service: ServiceDep, token: TokenDep) -> Response:
    """The table as your seat sees it (a spectator's view without a token)."""
    page = service.pages.page(invite, token, with_chat=False)
    if token is not None and page.you is None:
        raise Forbidden("not_seated")
    return answer(TableOut.of(page, service.settings))


@router.post("/tables/{invite}/robots", response_model=TableOut, responses=COMMAND)
async def add_robot(
    invite: Invite, body: RobotIn, service: ServiceDep, token: TokenDep
) -> Response:
    service.lobby.add_robot(invite, token, body.version, body.robot)
    return _table_response(service, invite, token)


@router.post("/tables/{invite}/robots/remove", response_model=TableOut, responses=COMMAND)
async def remove_robot(
    invite: Invite, body: PositionIn, service: ServiceDep, token: TokenDep
) -> Response:
    service.lobby.remove_robot(invite, token, body.version, body.position)
    return _table_response(service, invite, token)


@router.post("/tables/{invite}/partner", response_model=TableOut, responses=COMMAND)
async def choose_partner(
    invite: Invite, body: PositionIn, service: ServiceDep, token: TokenDep
) -> Response:
    """LAS PAREJAS: with four, the creator's partner sits opposite."""
    service.lobby.choose_partner(invite, token, body.version, body.position)
    return _table_response(service, invite, token)


@router.post("/tables/{invite}/start", response_model=TableOut, responses=COMMAND)
async def start(invite: Invite, body: VersionIn, service: ServiceDep, token: TokenDep) -> Response:
    service.lobby.start(invite, token, body.version)
    return _table_response(service, invite, token)


@router.post("/tables/{invite}/actions", response_model=TableOut, responses=COMMAND)
async def act(invite: Invite, body: ActIn, service: ServiceDep, token: TokenDep) -> Response:
    """Play a card (`play`: with `capture` to take cards, empty to leave it on
    the table) or take the 15 that was left (`claim`, with `cards`: every card
    you take, the left card included). Any of the view's `legal_actions` is
    an `action` as it is."""
    service.playing.act(invite, token, body.version, _action(service, invite, body.action))
    return _table_response(service, invite, token)


def _action(service: TableService, invite: str, action: PlayIn | ClaimIn) -> Action:
    """The engine's action for a command's. A claim's `cards` are read
    against the card left on a 15 now, as the table's views show it (if the
    table moved on since, the command is refused as stale anyway)."""
    if isinstance(action, PlayIn):
        return make_play(parse_card(action.card), parse_cards(action.capture))
    try:
        return claim_of(service.reads.left_card(invite), parse_cards(action.cards))
    except IllegalAction as err:
        raise Conflict(err.code, **err.params) from err


@router.post("/tables/{invite}/next-round", response_model=TableOut, responses=COMMAND)
async def next_round(
    invite: Invite, body: VersionIn, service: ServiceDep, token: TokenDep
) -> Response:
    """SIGUIENTE RONDA."""
    service.playing.next_round(invite, token, body.version)
    return _table_response(service, invite, token)


@router.post("/tables/{invite}/abandon", response_model=TableOut, responses=COMMAND)
async def abandon(
    invite: Invite, body: VersionIn, service: ServiceDep, token: TokenDep
) -> Response:
    """ABANDONAR: your side loses and the game ends."""
    service.ending.abandon(invite, token, body.version)
    return _table_response(service, invite, token)


@router.post("/tables/{invite}/absence", response_model=TableOut, responses=COMMAND)
async def absence(
    invite: Invite, body: VersionIn, service: ServiceDep, token: TokenDep
) -> Response:
    """TERMINAR POR AUSENCIA, once the player on turn has been idle longer
    than ESCOBA_ABSENCE_HOURS (48 by default)."""
    service.ending.end_for_absence(invite, token, body.version)
    return _table_response(service, invite, token)


@router.post("/tables/{invite}/rematch", response_model=TableOut, responses=COMMAND)
async def rematch(
    invite: Invite, body: RematchIn, service: ServiceDep, token: TokenDep
) -> Response:
    """PROPONER REVANCHA, the first person to ask for one (no seat's `rematch`
    yet), or ACEPTAR REVANCHA, the others after: the new game starts at this
    table when every person has asked (robots need no asking, so a person
    alone with robots starts it at once). With four, the creator's request
    carries `pairs`: MANTENER (`keep`) or CAMBIAR (`change`)."""
    service.rematches.accept_rematch(invite, token, body.version, body.pairs)
    return _table_response(service, invite, token)


@router.post(
    "/tables/{invite}/transfer",
    status_code=status.HTTP_201_CREATED,
    response_model=TransferOut,
    responses=refusals(*ANY, *BODY),
)
async def transfer(invite: Invite, ctx: ContextDep, token: TokenDep, request: Request) -> Response:
    """«Seguir en otro dispositivo»: a fresh single-use link (and its code)
    that opens your seat in a browser; the seat's token never goes in a URL."""
    code = ctx.transfers.seat_code(invite, token)
    made = TransferOut(
        code=code.code,
        url=public_base_url(request, ctx.settings) + code.path,
        expires_at=code.expires_at.isoformat().replace("+00:00", "Z"),
    )
    return answer(made, status.HTTP_201_CREATED)


@router.post(
    "/transfer",
    status_code=status.HTTP_201_CREATED,
    response_model=SeatOut,
    responses=refusals(*ANY, *BODY, 409),
)
async def redeem_transfer(
    body: TransferIn, service: ServiceDep, ctx: ContextDep, request: Request
) -> Response:
    """A new token for a seat: redeem a «Seguir en otro dispositivo» code of
    one seat (made by a browser that holds it, or by this API). The seat's
    token is replaced: the old one is refused from now on (`token_retired`),
    and the browsers that hold the seat keep it. The way to a token again
    when yours was retired or lost; tries are counted per IP, as at
    `/seguir`."""
    return _seat_response(request, service, ctx.transfers.token_for_code(body.code))


@router.get("/tables/{invite}/chat", responses=refusals(*ANY, 403))
async def read_chat(
    invite: Invite,
    service: ServiceDep,
    token: TokenDep,
    after: Annotated[
        int, Query(ge=0, le=MAX_ID, description="Only the lines after this chat line id.")
    ] = 0,
) -> list[ChatOut]:
    require_seat_if_named(service, invite, token)
    return [_chat_out(line) for line in service.chat.chat_lines(invite, after)]


@router.post(
    "/tables/{invite}/chat",
    status_code=status.HTTP_201_CREATED,
    response_model=TableOut,
    responses=COMMAND,
)
async def write_chat(
    invite: Invite, body: ChatIn, service: ServiceDep, token: TokenDep
) -> Response:
    """Seated players write; spectators read only. A chat line changes no
    version: a move made on the version before it is still current."""
    service.chat.chat(invite, token, body.text)
    return _table_response(service, invite, token, status.HTTP_201_CREATED)


@router.get("/tables/{invite}/notices", response_model=NoticesOut, responses=refusals(*ANY, 403))
async def read_notices(invite: Invite, ctx: ContextDep, token: TokenDep) -> Response:
    """Which notices your seat hears of (Web Push, e-mail) when its table is
    not open anywhere."""
    kinds = ctx.notice_choices.of(invite, token)
    if kinds is None:
        raise Forbidden("not_seated")
    return _notices_answer(kinds)


@router.put("/tables/{invite}/notices", response_model=NoticesOut, responses=refusals(*ANY, *BODY))
async def choose_notices(
    invite: Invite, body: NoticesIn, ctx: ContextDep, token: TokenDep
) -> Response:
    """Choose which notices your seat hears of: the kinds named, and no
    other. A name that is no kind changes nothing (422 `unknown_notice`)."""
    return _notices_answer(ctx.notice_choices.choose(invite, token, body.kinds))


def _notices_answer(kinds: frozenset[NoticeKind]) -> Response:
    return answer(NoticesOut(kinds=sorted(k.value for k in kinds)))


@router.get(
    "/tables/{invite}/record",
    responses=refusals(*ANY, 403, 409),
    response_description="The game record, `escoba-record/1` (shared/RECORD.md).",
)
async def record(invite: Invite, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """The game record (`escoba-record/1`) once the game is over."""
    require_seat_if_named(service, invite, token)
    return service.reads.record(invite)


@router.get(
    "/tables/{invite}/rounds/{number}/analysis",
    response_model=AnalysisOut,
    responses=refusals(*ANY, 403, 409),
)
async def round_analysis(
    invite: Invite,
    number: Annotated[int, Path(ge=1, le=MAX_ID, description="The round's number, from 1.")],
    service: ServiceDep,
    token: TokenDep,
) -> Response:
    """The analysis of a finished round of the game in play, for every seat
    and spectator: every play weighed from what its seat could see, the
    costly ones marked (`escoba-analysis/1`, README «The analysis of a
    round»). Always 200 once the round is over: while the server still
    computes it, `status` and the progress say how far it is. The round in
    play is refused (409 `round_in_play`), a round the game does not have
    is 404 `no_round`."""
    require_seat_if_named(service, invite, token)
    return analysis_answer(service.analyses.round_analysis(invite, number))


def analysis_answer(read: AnalysisRead) -> Response:
    """A round's analysis as `AnalysisOut` says it (the document as
    `escoba.analysis` writes it, checked by the model)."""
    return answer(AnalysisOut.of(read))


def require_seat_if_named(service: TableService, invite: str, token: str | None) -> None:
    """Anyone may read without a token; a token that holds no seat here is
    refused as a command refuses it, not quietly read as a spectator's."""
    if token is not None and service.reads.seat_for(invite, token) is None:
        raise Forbidden("not_seated")


#: The refusals of a subscription: a command's (no 409), and its own 422s.
PUSH = refusals(*ANY, *BODY)


@router.post(
    "/tables/{invite}/push",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=PUSH,
)
async def subscribe_push(
    invite: Invite, body: PushSubscriptionIn, request: Request, token: TokenDep
) -> Response:
    """Send your seat's notices to this Web Push subscription (the server's
    VAPID key, the subscription's `applicationServerKey`, is at `/push/key`).
    Subscribing again updates the subscription's keys and language."""
    ctx: AppContext = request.app.state.ctx
    data = body.model_dump(by_alias=True, exclude={"lang"})
    await ctx.push.subscribing.subscribe(invite, token, data, body.lang, None)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete(
    "/tables/{invite}/push",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=PUSH,
)
async def unsubscribe_push(
    invite: Invite, body: PushEndpointIn, request: Request, token: TokenDep
) -> Response:
    """Stop sending your seat's notices to the subscription of `endpoint`
    (no error if it was not subscribed)."""
    ctx: AppContext = request.app.state.ctx
    ctx.push.subscribing.unsubscribe(invite, token, body.model_dump())
    return Response(status_code=status.HTTP_204_NO_CONTENT)
