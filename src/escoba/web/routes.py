"""The HTML routes: the thin router over the table service. Each parses a
form, runs the service for this request's seat, and renders the table (the
whole page, or the board fragment for HTMX) or redirects to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import (
    HTMLResponse,
    RedirectResponse,
    Response,
)

from escoba.engine import Claim, Play, make_claim, make_play, parse_card, parse_cards
from escoba.i18n import LANG_COOKIE, choose_lang, parse_lang, translations
from escoba.names import (
    Design,
    parse_design,
)
from escoba.web.deps import (
    COOKIE_MAX_AGE,
    DECK_COOKIE,
    AppContext,
    ContextDep,
    public_base_url,
    seat_token_from_cookie,
    set_seat_cookie,
)
from escoba.web.errors import NotFound, ServiceError
from escoba.web.templating import N_, error_text, render_board, render_page, render_table

router = APIRouter(include_in_schema=False)


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def design_of(request: Request) -> Design:
    return parse_design(request.cookies.get(DECK_COOKIE))


def lang_of(request: Request) -> str:
    """The viewer's language: the `lang` cookie, else Accept-Language."""
    return choose_lang(request.cookies.get(LANG_COOKIE), request.headers.get("accept-language"))


def invite_url(request: Request, ctx: AppContext, invite: str) -> str:
    return f"{public_base_url(request, ctx.settings)}/t/{invite}"


def html_response(content: str, status_code: int = 200) -> HTMLResponse:
    return HTMLResponse(content, status_code=status_code, headers={"Cache-Control": "no-store"})


def error_page(
    message: str, status_code: int, back_url: str = "/", lang: str = "es"
) -> HTMLResponse:
    _ = translations(lang).gettext
    title = _("No encontramos esa mesa") if status_code == 404 else _("No se pudo")
    body = render_page(
        "error.html", lang, title=title, message=message, back_url=back_url, next_path=back_url
    )
    return html_response(body, status_code)


def refusal(request: Request, exc: ServiceError, back_url: str = "/") -> HTMLResponse:
    lang = lang_of(request)
    return error_page(error_text(exc, lang), exc.status, back_url, lang)


def show_table(
    request: Request,
    ctx: AppContext,
    invite: str,
    error: str | None = None,
    status_code: int = 200,
    fragment: bool = False,
) -> HTMLResponse:
    """The table as this request's viewer sees it: the whole page, or the
    board fragment for HTMX."""
    token = seat_token_from_cookie(request, ctx, invite)
    try:
        page = ctx.service.page(invite, token)
    except ServiceError as exc:
        return refusal(request, exc)
    design = design_of(request)
    lang = lang_of(request)
    if fragment:
        return html_response(render_board(page, design, lang, error=error))
    body = render_table(
        page,
        design,
        lang,
        error=error,
        watching=request.query_params.get("mirar") == "1",
        invite_url=invite_url(request, ctx, invite),
        continue_url=(
            f"{invite_url(request, ctx, invite)}/continue/{token}"
            if token and page.you is not None
            else None
        ),
    )
    return html_response(body, status_code)


def after_command(
    request: Request, ctx: AppContext, invite: str, command: Callable[[str | None], object]
) -> Response:
    """Run a table command for this request's seat. HTMX gets the fresh board
    (or the same board with the refusal on top); a plain form post is
    redirected (303) to the table page, or shown the page with the message."""
    token = seat_token_from_cookie(request, ctx, invite)
    lang = lang_of(request)
    try:
        command(token)
    except (ServiceError, ValueError) as exc:
        if isinstance(exc, ServiceError):
            message = error_text(exc, lang)
            status_code = exc.status
        else:
            message = translations(lang).gettext(str(exc))
            status_code = 422
        if isinstance(exc, NotFound):
            return error_page(message, 404, lang=lang)
        return show_table(
            request, ctx, invite, error=message, status_code=status_code, fragment=is_htmx(request)
        )
    if is_htmx(request):
        return show_table(request, ctx, invite, fragment=True)
    return RedirectResponse(f"/t/{invite}", status_code=303)


VersionForm = Annotated[int, Form()]


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    body = render_page(
        "home.html", lang_of(request), error=None, name=None, target=None, next_path="/"
    )
    return html_response(body)


@router.post("/lang")
async def choose_language(
    ctx: ContextDep,
    lang: Annotated[str, Form()] = "",
    next_path: Annotated[str, Form(alias="next")] = "/",
) -> Response:
    """The language switch: kept in a cookie, then back to the same page."""
    chosen = parse_lang(lang) or "es"
    safe_next = next_path if next_path.startswith("/") and not next_path.startswith("//") else "/"
    response = RedirectResponse(safe_next, status_code=303)
    response.set_cookie(
        LANG_COOKIE,
        chosen,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=ctx.settings.secure_cookies,
        path="/",
    )
    return response


@router.post("/tables")
async def create_table(
    request: Request,
    ctx: ContextDep,
    name: Annotated[str, Form(max_length=200)] = "",
    target: Annotated[int, Form()] = 21,
) -> Response:
    try:
        joined = ctx.service.create_table(name, target)
    except ServiceError as exc:
        lang = lang_of(request)
        body = render_page(
            "home.html",
            lang,
            error=error_text(exc, lang),
            name=name,
            target=target,
            next_path="/",
        )
        return html_response(body, exc.status)
    response = RedirectResponse(f"/t/{joined.invite}", status_code=303)
    set_seat_cookie(response, ctx, joined.invite, joined.token)
    return response


@router.get("/t/{invite}", response_class=HTMLResponse)
async def table_page(invite: str, request: Request, ctx: ContextDep) -> HTMLResponse:
    return show_table(request, ctx, invite)


@router.get("/t/{invite}/board", response_class=HTMLResponse)
async def board(invite: str, request: Request, ctx: ContextDep) -> HTMLResponse:
    return show_table(request, ctx, invite, fragment=True)


@router.get("/t/{invite}/continue/{token}")
async def continue_seat(invite: str, token: str, request: Request, ctx: ContextDep) -> Response:
    """The link the API hands out with a seat: it opens that seat here."""
    try:
        seat = ctx.service.seat_for(invite, token)
    except ServiceError as exc:
        return refusal(request, exc)
    if seat is None:
        lang = lang_of(request)
        message = translations(lang).gettext(
            "Ese enlace no corresponde a ningún lugar de esta mesa."
        )
        return error_page(message, 404, lang=lang)
    response = RedirectResponse(f"/t/{invite}", status_code=303)
    set_seat_cookie(response, ctx, invite, token)
    return response


@router.post("/t/{invite}/join")
async def join(
    invite: str, request: Request, ctx: ContextDep, name: Annotated[str, Form(max_length=200)] = ""
) -> Response:
    try:
        joined = ctx.service.join(invite, name)
    except ServiceError as exc:
        if isinstance(exc, NotFound):
            return refusal(request, exc)
        message = error_text(exc, lang_of(request))
        return show_table(request, ctx, invite, error=message, status_code=exc.status)
    response = RedirectResponse(f"/t/{invite}", status_code=303)
    set_seat_cookie(response, ctx, invite, joined.token)
    return response


@router.post("/t/{invite}/robots")
async def add_robot(
    invite: str,
    request: Request,
    ctx: ContextDep,
    version: VersionForm,
    robot: Annotated[str, Form()],
) -> Response:
    return after_command(
        request, ctx, invite, lambda t: ctx.service.add_robot(invite, t, version, robot)
    )


@router.post("/t/{invite}/robots/remove")
async def remove_robot(
    invite: str,
    request: Request,
    ctx: ContextDep,
    version: VersionForm,
    position: Annotated[int, Form()],
) -> Response:
    return after_command(
        request, ctx, invite, lambda t: ctx.service.remove_robot(invite, t, version, position)
    )


@router.post("/t/{invite}/partner")
async def choose_partner(
    invite: str,
    request: Request,
    ctx: ContextDep,
    version: VersionForm,
    position: Annotated[int, Form()],
) -> Response:
    return after_command(
        request, ctx, invite, lambda t: ctx.service.choose_partner(invite, t, version, position)
    )


@router.post("/t/{invite}/start")
async def start(invite: str, request: Request, ctx: ContextDep, version: VersionForm) -> Response:
    return after_command(request, ctx, invite, lambda t: ctx.service.start(invite, t, version))


def parse_play(card: str, capture: str, mode: str) -> Play:
    """The play form: `card` from the hand; `capture`, the table cards taken
    (space separated), unless `mode` is «leave» (DEJAR EN LA MESA)."""
    if not card.strip():
        raise ValueError(N_("Primero toca una carta de tu mano."))
    if mode == "leave":
        return make_play(parse_card(card))
    group = parse_cards(capture.replace(",", " ").split())
    if not group:
        raise ValueError(N_("Toca las cartas de la mesa que quieres llevarte."))
    return make_play(parse_card(card), group)


def parse_claim(group: str) -> Claim:
    cards = parse_cards(group.replace(",", " ").split())
    if not cards:
        raise ValueError(N_("Toca las cartas de la mesa que van con la carta que quedó."))
    return make_claim(cards)


@router.post("/t/{invite}/play")
async def play(
    invite: str,
    request: Request,
    ctx: ContextDep,
    version: VersionForm,
    card: Annotated[str, Form()] = "",
    capture: Annotated[str, Form()] = "",
    mode: Annotated[str, Form()] = "capture",
) -> Response:
    def command(token: str | None) -> object:
        return ctx.service.act(invite, token, version, parse_play(card, capture, mode))

    return after_command(request, ctx, invite, command)


@router.post("/t/{invite}/claim")
async def claim(
    invite: str,
    request: Request,
    ctx: ContextDep,
    version: VersionForm,
    group: Annotated[str, Form()] = "",
) -> Response:
    def command(token: str | None) -> object:
        return ctx.service.act(invite, token, version, parse_claim(group))

    return after_command(request, ctx, invite, command)


@router.post("/t/{invite}/next-round")
async def next_round(
    invite: str, request: Request, ctx: ContextDep, version: VersionForm
) -> Response:
    return after_command(request, ctx, invite, lambda t: ctx.service.next_round(invite, t, version))


@router.post("/t/{invite}/leave")
async def leave(invite: str, request: Request, ctx: ContextDep, version: VersionForm) -> Response:
    """ABANDONAR and SALIR DEL JUEGO: both end the game as a loss."""
    return after_command(request, ctx, invite, lambda t: ctx.service.abandon(invite, t, version))


@router.post("/t/{invite}/absence")
async def absence(invite: str, request: Request, ctx: ContextDep, version: VersionForm) -> Response:
    return after_command(
        request, ctx, invite, lambda t: ctx.service.end_for_absence(invite, t, version)
    )


@router.post("/t/{invite}/rematch")
async def rematch(
    invite: str,
    request: Request,
    ctx: ContextDep,
    version: VersionForm,
    pairs: Annotated[str | None, Form()] = None,
) -> Response:
    return after_command(
        request, ctx, invite, lambda t: ctx.service.accept_rematch(invite, t, version, pairs)
    )


@router.post("/t/{invite}/chat")
async def chat(
    invite: str,
    request: Request,
    ctx: ContextDep,
    text: Annotated[str, Form(max_length=2000)] = "",
) -> Response:
    return after_command(request, ctx, invite, lambda t: ctx.service.chat(invite, t, text))


@router.post("/t/{invite}/design")
async def choose_design(
    invite: str,
    request: Request,
    ctx: ContextDep,
    design: Annotated[str, Form()] = "",
) -> Response:
    """Each viewer's deck design, kept in a cookie: it never changes the rules."""
    chosen = parse_design(design)
    if is_htmx(request):
        token = seat_token_from_cookie(request, ctx, invite)
        try:
            page = ctx.service.page(invite, token)
        except ServiceError as exc:
            return refusal(request, exc)
        response: Response = html_response(render_board(page, chosen, lang_of(request)))
    else:
        response = RedirectResponse(f"/t/{invite}", status_code=303)
    response.set_cookie(
        DECK_COOKIE,
        chosen.value,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=ctx.settings.secure_cookies,
        path="/",
    )
    return response
