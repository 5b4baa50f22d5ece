"""The pages' side of Web Push: the server's public key, and the page
script's (or service worker's) subscribe and unsubscribe, for the seat this
browser's device holds at the table. JSON in, 204 or a JSON refusal out
(`{"error": code, "message": …}`, the message in the viewer's language).
Not in the OpenAPI schema, like every route outside /api/."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from escoba.web.base.errors import ServiceError
from escoba.web.frame.deps import AppContext, ContextDep, device_of, held_seat, lang_of

router = APIRouter(include_in_schema=False)

NO_STORE = {"Cache-Control": "no-store"}
#: the key changes only when the operator changes it: an hour in caches
KEY_CACHE = {"Cache-Control": "public, max-age=3600"}


class _BadJson(ServiceError):
    status = 400


class _NotJson(ServiceError):
    status = 415


@router.get("/push/key")
async def push_key(ctx: ContextDep) -> Response:
    """The VAPID public key, the browser's `applicationServerKey`."""
    return JSONResponse({"key": ctx.push.vapid.public_key}, headers=KEY_CACHE)


@router.post("/t/{invite}/push")
async def subscribe(invite: str, request: Request, ctx: ContextDep) -> Response:
    """Body: the browser's `PushSubscription.toJSON()`."""
    lang = lang_of(request)
    try:
        data = await _json_body(request)
        device = device_of(request)
        await ctx.push.subscribing.subscribe(
            invite, held_seat(request, invite), data, lang, None if device is None else device.id
        )
    except ServiceError as exc:
        return _refusal(exc, lang, ctx)
    return Response(status_code=204, headers=NO_STORE)


@router.post("/t/{invite}/push/remove")
async def unsubscribe(invite: str, request: Request, ctx: ContextDep) -> Response:
    """Body: `{"endpoint": …}` of the subscription to unlink from this seat."""
    lang = lang_of(request)
    try:
        data = await _json_body(request)
        ctx.push.subscribing.unsubscribe(invite, held_seat(request, invite), data)
    except ServiceError as exc:
        return _refusal(exc, lang, ctx)
    return Response(status_code=204, headers=NO_STORE)


async def _json_body(request: Request) -> Any:
    """The request's JSON body: sent as JSON (no form a foreign page could
    post), and decodable."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise _NotJson("unsupported_media_type")
    try:
        return orjson.loads(await request.body())
    except orjson.JSONDecodeError:
        raise _BadJson("bad_json") from None


def _refusal(exc: ServiceError, lang: str, ctx: AppContext) -> JSONResponse:
    return JSONResponse(
        {"error": exc.code, "message": exc.text(lang, ctx.settings.limits)},
        status_code=exc.status,
        headers=NO_STORE,
    )
