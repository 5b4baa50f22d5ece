"""The pages of e-mail notices: a seat's address on its table page, and the
pages of the links in e-mails (confirm, unsubscribe), which work without
signing in. Without SMTP settings none of it shows: the form is not on the
page, the links' pages and the form's posts are 404 (the JSON API's routes
are `api.email_routes`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from escoba.names import and_list
from escoba.web.base.errors import Invalid, RateLimited, ServiceError
from escoba.web.frame.deps import ContextDep, device_of, lang_of, public_base_url
from escoba.web.html.routes import VisitDep, error_page, html_response, limits_of, refusal
from escoba.web.notices.email.seats import EMAIL_MODES, EmailForm, EmailMode, LinkTarget, SeatEmail
from escoba.web.rendering.templating import render_page
from escoba.words import say

router = APIRouter(include_in_schema=False)


# ---------------------------------------------------------------------------
# The table page's form


@router.post("/t/{invite}/email")
async def save_email(
    here: VisitDep,
    email: Annotated[str, Form(max_length=1000)] = "",
    mode: Annotated[str, Form(max_length=16)] = "now",
) -> Response:
    """Save the seat's address; the page then says what comes next (a
    confirmation e-mail, or nothing for an address it already confirmed)."""
    if here.ctx.email is None:
        return _no_email(here.request)
    if mode not in EMAIL_MODES:
        return _no_form(here.request)
    chosen: EmailMode = "daily" if mode == "daily" else "now"
    device = device_of(here.request)
    try:
        saved = here.ctx.email.seats.save(
            here.invite,
            here.token,
            email,
            chosen,
            here.lang,
            public_base_url(here.request, here.ctx.settings),
            device_id=None if device is None else device.id,
        )
    except (Invalid, RateLimited) as exc:  # the address: said in the form
        try:
            current = here.ctx.email.seats.current(here.invite, here.token)
        except ServiceError:
            current = SeatEmail(None, "now", False)
        form = EmailForm(current, email, chosen, error=here.refusal_text(exc))
        return here.show(status_code=exc.status, email=form)
    except ServiceError as exc:  # no such table, not seated
        return refusal(here.request, exc)
    note = "guardado" if saved.confirmed else "confirmar"
    return RedirectResponse(f"/t/{here.invite}?correo={note}#correo", status_code=303)


@router.post("/t/{invite}/email/remove")
async def remove_email(here: VisitDep) -> Response:
    """«Dejar de recibir», from the table page."""
    if here.ctx.email is None:
        return _no_email(here.request)
    try:
        here.ctx.email.seats.remove(here.invite, here.token)
    except ServiceError as exc:
        return refusal(here.request, exc)
    return RedirectResponse(f"/t/{here.invite}?correo=baja#correo", status_code=303)


# ---------------------------------------------------------------------------
# The links in e-mails


@router.get("/correo/confirmar/{token}", response_class=HTMLResponse)
async def confirm_page(token: str, request: Request, ctx: ContextDep) -> Response:
    if ctx.email is None:
        return _no_email(request)
    return _link_page(request, "confirm", ctx.email.seats.confirm_target(token))


@router.post("/correo/confirmar/{token}", response_class=HTMLResponse)
async def confirm(token: str, request: Request, ctx: ContextDep) -> Response:
    if ctx.email is None:
        return _no_email(request)
    return _link_page(request, "confirm", ctx.email.seats.confirm_target(token, confirm=True))


@router.get("/correo/baja/{token}", response_class=HTMLResponse)
async def unsubscribe_page(token: str, request: Request, ctx: ContextDep) -> Response:
    if ctx.email is None:
        return _no_email(request)
    return _link_page(request, "unsubscribe", ctx.email.seats.unsubscribe_target(token))


@router.post("/correo/baja/{token}", response_class=HTMLResponse)
async def unsubscribe(token: str, request: Request, ctx: ContextDep) -> Response:
    """The page's button, and a mail program's one-click POST (RFC 8058,
    `List-Unsubscribe=One-Click`), which carries no cookie and needs none."""
    if ctx.email is None:
        return _no_email(request)
    target = ctx.email.seats.unsubscribe_target(token, remove=True)
    return _link_page(request, "unsubscribe", target)


def _link_page(request: Request, action: str, target: LinkTarget | None) -> HTMLResponse:
    lang = lang_of(request)
    players = None
    if target is not None and target.players:
        players = and_list(list(target.players), lang)
    body = render_page(
        "email_link.html",
        lang,
        limits_of(request),
        action=action,
        target=target,
        players=players,
        post_url=request.url.path,
        next_path=request.url.path,
    )
    return html_response(body, 200 if target is not None else 404)


def _no_email(request: Request) -> HTMLResponse:
    lang = lang_of(request)
    return error_page(say("page_not_found", lang), 404, lang=lang, limits=limits_of(request))


def _no_form(request: Request) -> HTMLResponse:
    lang = lang_of(request)
    return error_page(say("bad_form", lang), 422, lang=lang, limits=limits_of(request))
