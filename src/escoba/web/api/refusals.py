"""The API's face of every error: one shape, `{"error": code, "message":
text}`, with `Cache-Control: no-store`, for a refused command, a request
FastAPI could not read, FastAPI's and Starlette's own errors, and a bug's
plain answer (`escoba.web.app` picks a face once per error, by
`base.errors.speaks_json`)."""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException

from escoba.web.api.schema import API_LANG
from escoba.web.base.errors import ServiceError
from escoba.web.frame.deps import AppContext, bearer_token
from escoba.words import say

NO_STORE = {"Cache-Control": "no-store"}


def refusal(
    status_code: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """The API's one error shape, `{"error": code, "message": text}`."""
    return JSONResponse(
        {"error": code, "message": message},
        status_code=status_code,
        headers={**(headers or {}), **NO_STORE},
    )


def service_refusal(request: Request, exc: ServiceError) -> JSONResponse:
    """A refused command in the API's shape. A token refused as holding no
    seat that is a retired one (it travelled in the old continue links, or a
    transfer code replaced it) is a 401 that says how to get a new one."""
    if exc.status == 403:
        token = bearer_token(request)
        ctx: AppContext = request.app.state.ctx
        if token is not None and ctx.transfers.token_retired(token):
            challenge = {"WWW-Authenticate": 'Bearer error="invalid_token"'}
            return refusal(401, "token_retired", say("token_retired", API_LANG), challenge)
    return refusal(exc.status, exc.code, exc.message)


def validation_refusal(request: Request, exc: RequestValidationError) -> JSONResponse:
    """A request FastAPI could not turn into a route's arguments: a body that
    is no JSON at all is a 400 (`bad_json`), a body sent as another media type
    a 415, anything else a 422 (`invalid`) that names the first wrong field."""
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return refusal(400, "bad_json", say("bad_json", API_LANG))
    whole_body = next((e for e in errors if tuple(e.get("loc", ())) == ("body",)), None)
    if whole_body is not None:
        if whole_body.get("type") == "missing":
            return refusal(422, "invalid", say("missing_body", API_LANG))
        if not _is_json(request.headers.get("content-type")):
            # FastAPI parses a body as JSON only when it is labelled so
            media = "unsupported_media_type"
            return refusal(415, "unsupported_media_type", say(media, API_LANG))
        return refusal(422, "invalid", say("body_not_object", API_LANG))
    first = errors[0] if errors else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    detail = first.get("msg", "")
    return refusal(422, "invalid", say("invalid", API_LANG, field=where, detail=detail))


#: FastAPI's words when a body labelled JSON cannot even be decoded (not UTF-8).
BODY_PARSE_ERROR = "There was an error parsing the body"
HTTP_REFUSALS: dict[int, str] = {404: "not_found", 405: "method_not_allowed"}


def http_refusal(exc: HTTPException) -> JSONResponse:
    """An HTTP error raised by FastAPI or Starlette themselves (an unknown
    path, a wrong method, an unreadable body) in the API's shape, with its
    headers (a 405's `Allow`)."""
    if exc.status_code == 400 and exc.detail == BODY_PARSE_ERROR:
        code, message = "bad_json", say("bad_encoding", API_LANG)
    elif exc.status_code in HTTP_REFUSALS:
        code = HTTP_REFUSALS[exc.status_code]
        message = say(code, API_LANG)
    else:
        phrase = HTTPStatus(exc.status_code).phrase
        code = phrase.lower().replace(" ", "_").replace("-", "_")
        message = exc.detail if isinstance(exc.detail, str) else phrase
    return refusal(exc.status_code, code, message, exc.headers)


class ApiErrors:
    """The API's face of every error (`escoba.web.app` picks a face once per
    error, by `speaks_json`): JSON refusals, and a bug's plain answer."""

    def refused(self, request: Request, exc: ServiceError) -> Response:
        return service_refusal(request, exc)

    def bad_input(self, request: Request, exc: RequestValidationError) -> Response:
        return validation_refusal(request, exc)

    def http(self, request: Request, exc: HTTPException) -> Response:
        return http_refusal(exc)

    def bug(self, request: Request) -> Response:
        return PlainTextResponse("Internal Server Error", status_code=500)


def _is_json(content_type: str | None) -> bool:
    media = (content_type or "").split(";")[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )
