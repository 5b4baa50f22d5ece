"""Typed dependencies shared by the HTML and JSON routers and the app's error
handlers: the service, the seat token a request carries (a signed HttpOnly
cookie in the browser, a bearer token on the API), and the viewer's language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request, Response
from itsdangerous import BadSignature, URLSafeSerializer

from escoba.i18n import LANG_COOKIE, choose_lang
from escoba.web.bridges import Hub
from escoba.web.live import Broker
from escoba.web.service import TableService
from escoba.web.settings import Settings

COOKIE_PREFIX = "seat_"
DECK_COOKIE = "deck"
COOKIE_MAX_AGE = 60 * 60 * 24 * 365


@dataclass
class AppContext:
    settings: Settings
    service: TableService
    broker: Broker
    hub: Hub
    signer: URLSafeSerializer


async def get_context(request: Request) -> AppContext:
    ctx: AppContext = request.app.state.ctx
    return ctx


ContextDep = Annotated[AppContext, Depends(get_context)]


def cookie_name(invite: str) -> str:
    return COOKIE_PREFIX + invite


def seat_token_from_cookie(request: Request, ctx: AppContext, invite: str) -> str | None:
    """The seat token in this table's cookie, or None if absent or tampered."""
    return token_in_cookie(ctx.signer, request.cookies.get(cookie_name(invite)), invite)


def token_in_cookie(signer: URLSafeSerializer, raw: str | None, invite: str) -> str | None:
    """The seat token a cookie's value carries for this table, or None."""
    if not raw:
        return None
    try:
        data = signer.loads(raw)
    except BadSignature:
        return None
    if not isinstance(data, dict) or data.get("i") != invite:
        return None  # a cookie signed for another table
    token = data.get("t")
    return token if isinstance(token, str) else None


def set_seat_cookie(response: Response, ctx: AppContext, invite: str, token: str) -> None:
    response.set_cookie(
        cookie_name(invite),
        ctx.signer.dumps({"i": invite, "t": token}),
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=ctx.settings.secure_cookies,
        path="/",
    )


def public_base_url(request: Request, settings: Settings) -> str:
    """The origin of the links the app hands out (invite, continue): the
    configured ESCOBA_BASE_URL when set, since behind a proxy the request's
    Host is the proxy's view, or whatever a client put there; else the request's."""
    return settings.base_url.rstrip("/") or str(request.base_url).rstrip("/")


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def lang_of(request: Request) -> str:
    """The viewer's language: the `lang` cookie, else Accept-Language."""
    return choose_lang(request.cookies.get(LANG_COOKIE), request.headers.get("accept-language"))
