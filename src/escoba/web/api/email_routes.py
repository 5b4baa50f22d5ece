"""The JSON API of a seat's e-mail notices: its address, saved and
removed. Without SMTP settings it answers 404 `email_unavailable` (the
table page's form and the links' pages are `html.email_routes`)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from escoba.i18n import negotiate
from escoba.web.api.routes import Invite, NoStoreRoute, TokenDep
from escoba.web.api.schema import ANY, BODY, EmailIn, EmailOut, refusals
from escoba.web.base.errors import NotFound
from escoba.web.frame.deps import AppContext, public_base_url
from escoba.web.notices.email.channel import EmailChannel
from escoba.web.notices.email.seats import SeatEmail

router = APIRouter(prefix="/api", tags=["api"], route_class=NoStoreRoute)


def _channel(ctx: AppContext) -> EmailChannel:
    if ctx.email is None:
        raise NotFound("email_unavailable")
    return ctx.email


def _email_out(saved: SeatEmail) -> EmailOut:
    return EmailOut(email=saved.address, mode=saved.mode, confirmed=saved.confirmed)


@router.get("/tables/{invite}/email", response_model=EmailOut, responses=refusals(*ANY, 403))
async def read_email(invite: Invite, request: Request, token: TokenDep) -> EmailOut:
    """Your seat's address for its notices (null when none)."""
    ctx: AppContext = request.app.state.ctx
    return _email_out(_channel(ctx).seats.current(invite, token))


@router.put("/tables/{invite}/email", response_model=EmailOut, responses=refusals(*ANY, *BODY))
async def save_email_api(
    invite: Invite, body: EmailIn, request: Request, token: TokenDep
) -> EmailOut:
    """Leave an address for your seat's notices: a new one gets one e-mail
    with a link to confirm it, and nothing else until it is opened (`confirmed`)."""
    ctx: AppContext = request.app.state.ctx
    channel = _channel(ctx)
    lang = body.lang or negotiate(request.headers.get("accept-language"))
    origin = public_base_url(request, ctx.settings)
    saved = channel.seats.save(invite, token, body.email, body.mode, lang, origin)
    return _email_out(saved)


@router.delete("/tables/{invite}/email", response_model=EmailOut, responses=refusals(*ANY, *BODY))
async def remove_email_api(invite: Invite, request: Request, token: TokenDep) -> EmailOut:
    """Stop e-mail notices for your seat: its address is forgotten."""
    ctx: AppContext = request.app.state.ctx
    return _email_out(_channel(ctx).seats.remove(invite, token))
