"""The HTML routes of a browser's device: «Mis mesas» (the home page's list,
its fragment and its live stream), «Seguir en otro dispositivo» (making a
code, and redeeming one at /seguir), and a seat's devices (listing them,
revoking one, forgetting a table). Thin, like routes.py: each parses a form,
runs the service for this browser's device and renders or redirects."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Form, Header, Query, Request
from fastapi.responses import RedirectResponse, Response
from jinja2_fragments import render_block

from escoba.web.base.errors import Conflict, Forbidden, NotFound, RateLimited, ServiceError
from escoba.web.devices.my_tables import arrivals, arrivals_query
from escoba.web.devices.transfers import TransferCode, parse_code, show_code
from escoba.web.frame.deps import (
    AppContext,
    ContextDep,
    device_of,
    held_seat,
    lang_of,
    my_tables_of,
    public_base_url,
    set_device_cookie,
)
from escoba.web.html.routes import html_response, is_htmx, limits_of, refusal
from escoba.web.live.my_tables_live import ListStream
from escoba.web.rendering.templating import environment, refusal_text, render_page
from escoba.words import say

log = logging.getLogger("escoba.web")

router = APIRouter(include_in_schema=False)

# ---------------------------------------------------------------------------
# «Mis mesas»


def home_context(request: Request) -> dict[str, Any]:
    """What the home page shows of this browser's tables (and of those a
    code just brought it: `?llegadas=`, from `follow`)."""
    ctx: AppContext = request.app.state.ctx
    mine = my_tables_of(request)
    came = arrivals(mine, request.query_params.get("llegadas"))
    return {"mine": mine, "arrived": came, "now": ctx.service.clock.now()}


@router.get("/my-tables")
async def my_tables_fragment(request: Request) -> Response:
    """The list alone, for the home page's live refresh (HTMX)."""
    lang = lang_of(request)
    env = environment(lang, limits_of(request))
    return html_response(render_block(env, "home.html", "my_tables", **home_context(request)))


@router.get("/my-tables/events", response_class=ListStream)
async def my_tables_events(
    request: Request,
    ctx: ContextDep,
    since: Annotated[int | None, Query(ge=0)] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> Response:
    """Server-sent events: `update` when a table of this browser's list
    changed. 204 (the browser stops asking) for a browser with no device."""
    device = device_of(request)
    if device is None:
        return Response(status_code=204)
    client = request.client.host if request.client else None
    if client is not None and not ctx.broker.admit(client):
        raise RateLimited("too_many_streams")
    heard = _int_or_none(last_event_id)
    my_tables = ctx.my_tables
    return ListStream(
        ctx.broker,
        lambda: my_tables.mark(device.id),
        since=heard if heard is not None else since,
        client=client,
        device_id=device.id,
    )


# a page asks whether it would be let in (429 or 200, no stream held)
router.add_api_route(
    "/my-tables/events", my_tables_events, methods=["HEAD"], response_class=ListStream
)


@router.post("/my-tables/forget")
async def forget_table(
    request: Request, ctx: ContextDep, invite: Annotated[str, Form(max_length=64)] = ""
) -> Response:
    """«Olvidar»: a table leaves this browser's list (its seats here go)."""
    device = device_of(request)
    try:
        if device is None:
            raise _not_seated()
        ctx.seat_devices.forget_table(invite, device.id)
    except ServiceError as exc:
        return refusal(request, exc)
    if is_htmx(request):
        return await my_tables_fragment(request)
    return RedirectResponse("/", status_code=303)


# ---------------------------------------------------------------------------
# «Seguir en otro dispositivo»


@router.post("/my-tables/transfer")
async def transfer_list(request: Request, ctx: ContextDep) -> Response:
    """A code for every table of this browser's list."""
    device = device_of(request)
    try:
        if device is None:
            raise _nothing()
        code = ctx.transfers.list_code(device.id)
    except ServiceError as exc:
        return refusal(request, exc)
    return _code_page(request, ctx, code, back_url="/")


@router.post("/t/{invite}/transfer")
async def transfer_seat(invite: str, request: Request, ctx: ContextDep) -> Response:
    """A code for this browser's seat at the table."""
    device = device_of(request)
    try:
        held = held_seat(request, invite)
        if device is None or held is None:
            raise _not_seated()
        code = ctx.transfers.seat_code(invite, held, device.id)
    except ServiceError as exc:
        return refusal(request, exc, back_url=f"/t/{invite}")
    return _code_page(request, ctx, code, back_url=f"/t/{invite}")


def _code_page(request: Request, ctx: AppContext, code: TransferCode, back_url: str) -> Response:
    body = render_page(
        "transfer.html",
        lang_of(request),
        limits_of(request),
        code=code,
        url=public_base_url(request, ctx.settings) + code.path,
        now=ctx.service.clock.now(),
        back_url=back_url,
        next_path=back_url,
    )
    return html_response(body)


@router.get("/seguir")
async def follow_form(request: Request) -> Response:
    """Where a code is typed."""
    return _follow_page(request, "")


@router.get("/seguir/{code}")
async def follow_link(code: str, request: Request) -> Response:
    """A code's link: it asks first (a GET changes nothing)."""
    raw = parse_code(code)
    return _follow_page(request, show_code(raw) if raw else code[:64], from_link=True)


@router.post("/seguir")
async def follow(
    request: Request, ctx: ContextDep, code: Annotated[str, Form(max_length=200)] = ""
) -> Response:
    """Redeem a code: this browser's device (made now if it has none) gains
    its seats; then the table, or the list, each saying what came."""
    device = device_of(request)
    try:
        done = ctx.transfers.redeem(
            code, None if device is None else device.id, request.headers.get("user-agent")
        )
    except ServiceError as exc:
        log.info("transfer refused", extra={"code": exc.code})
        lang = lang_of(request)
        error = refusal_text(exc, lang, limits_of(request))
        return _follow_page(request, code[:64], error=error, status_code=exc.status)
    # one seat: its table, which says it came; a list: Mis mesas, saying what came
    if len(done.invites) == 1 and not done.whole_list:
        target = f"/t/{done.invites[0]}?llegada=1"
    else:
        target = "/?llegadas=" + arrivals_query(done.invites) if done.invites else "/"
    response = RedirectResponse(target, status_code=303)
    if done.new_secret is not None:
        set_device_cookie(response, ctx.settings, ctx.devices.cookie(done.new_secret))
    log.info("transfer redeemed", extra={"tables": len(done.invites)})
    return response


@router.get("/t/{invite}/continue/{token}")
async def retired_continue_link(
    invite: str, token: str, request: Request, ctx: ContextDep
) -> Response:
    """The old permanent links with a seat's token in them (the API handed
    them out once) are retired: a URL ends in browser histories and proxy
    logs. The token is never looked at. The page says how a seat moves now,
    with the code's form right there, and offers to watch the table."""
    try:
        ctx.service.reads.table_id(invite)
        table_url: str | None = f"/t/{invite}"
    except NotFound:
        table_url = None
    error = say("old_seat_link", lang_of(request))
    return _follow_page(request, "", error=error, status_code=410, table_url=table_url)


def _follow_page(
    request: Request,
    code: str,
    error: str | None = None,
    status_code: int = 200,
    from_link: bool = False,
    table_url: str | None = None,
) -> Response:
    body = render_page(
        "follow.html",
        lang_of(request),
        limits_of(request),
        code=code,
        error=error,
        from_link=from_link,
        table_url=table_url,
        next_path="/seguir",
    )
    return html_response(body, status_code)


# ---------------------------------------------------------------------------
# A seat's devices


@router.get("/t/{invite}/devices")
async def seat_devices(invite: str, request: Request, ctx: ContextDep) -> Response:
    """The devices that hold this browser's seat: the table page's
    «Dispositivos» (HTMX), or a page of its own."""
    device = device_of(request)
    try:
        if device is None:
            raise _not_seated()
        devices = ctx.seat_devices.of(invite, device.id)
    except ServiceError as exc:
        return refusal(request, exc, back_url=f"/t/{invite}")
    context = {"invite": invite, "devices": devices, "now": ctx.service.clock.now()}
    lang, limits = lang_of(request), limits_of(request)
    if is_htmx(request):
        env = environment(lang, limits)
        return html_response(render_block(env, "seat_devices.html", "devices", **context))
    return html_response(
        render_page("seat_devices.html", lang, limits, next_path=f"/t/{invite}", **context)
    )


@router.post("/t/{invite}/devices/revoke")
async def revoke_device(
    invite: str,
    request: Request,
    ctx: ContextDep,
    device_id: Annotated[int, Form(alias="device", ge=0, le=2**31 - 1)],
) -> Response:
    """Take this seat back from another device; from this one: forget the
    table here (then the home page, where it is no longer listed)."""
    device = device_of(request)
    try:
        if device is None:
            raise _not_seated()
        ctx.seat_devices.revoke(invite, device.id, device_id)
    except ServiceError as exc:
        return refusal(request, exc, back_url=f"/t/{invite}")
    if device_id == device.id:
        if is_htmx(request):
            return Response(status_code=200, headers={"HX-Redirect": "/"})
        return RedirectResponse("/", status_code=303)
    if is_htmx(request):
        return await seat_devices(invite, request, ctx)
    return RedirectResponse(f"/t/{invite}/devices", status_code=303)


def _not_seated() -> ServiceError:
    return Forbidden("not_seated")


def _nothing() -> ServiceError:
    return Conflict("nothing_to_transfer")


def _int_or_none(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() and len(value) < 19 else None
