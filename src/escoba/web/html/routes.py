"""The HTML routes: the thin router over the table service. Each parses a
form, runs the service for this request's seat, and renders the table (the
whole page, or the board fragment for HTMX) or redirects to it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import (
    HTMLResponse,
    RedirectResponse,
    Response,
)

from escoba.engine import InputError
from escoba.i18n import LANG_COOKIE, parse_lang, switched
from escoba.names import (
    Design,
    chosen_design,
    parse_design,
)
from escoba.web.base.errors import NotFound, ServiceError
from escoba.web.base.settings import DEFAULT_LIMITS, PageLimits, Settings
from escoba.web.devices.devices import COOKIE_MAX_AGE
from escoba.web.devices.my_tables import Elsewhere, arrivals
from escoba.web.frame.deps import (
    COACH_COOKIE,
    CONFIRM_COOKIE,
    DECK_COOKIE,
    AppContext,
    ContextDep,
    device_of,
    held_seat,
    hold_seat,
    lang_of,
    my_tables_of,
    public_base_url,
)
from escoba.web.html.forms import parse_claim, parse_play
from escoba.web.notices.email.seats import EmailForm
from escoba.web.notices.notice import NoticeKind
from escoba.web.rendering.templating import (
    Said,
    refusal_text,
    render_board,
    render_page,
    render_table,
)
from escoba.web.table.lobby import house_rules
from escoba.web.table.pages import TablePage
from escoba.web.table.service import TableService
from escoba.web.table.store import HeldSeat
from escoba.words import say

router = APIRouter(include_in_schema=False)


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def design_of(request: Request) -> Design:
    return parse_design(request.cookies.get(DECK_COOKIE))


#: The values of «Confirmar jugadas» (form and cookie): a play waits for CONFIRMAR, or not.
CONFIRM_CHOICES = {"on": True, "off": False}


def confirm_of(request: Request) -> bool:
    """Whether this viewer asked to confirm each play (off unless asked: a tap
    plays at once, as it always did)."""
    return request.cookies.get(CONFIRM_COOKIE) == "on"


def invite_url(request: Request, ctx: AppContext, invite: str) -> str:
    return f"{public_base_url(request, ctx.settings)}/t/{invite}"


def html_response(content: str, status_code: int = 200) -> HTMLResponse:
    return HTMLResponse(content, status_code=status_code, headers={"Cache-Control": "no-store"})


def limits_of(request: Request) -> PageLimits:
    """The settings this app's pages quote."""
    ctx: AppContext = request.app.state.ctx
    return ctx.settings.limits


def error_page(
    message: str,
    status_code: int,
    back_url: str = "/",
    lang: str = "es",
    limits: PageLimits = DEFAULT_LIMITS,
    title: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """A page with one refusal on it; `title` is a code of the catalog (by
    default: no such table for a 404, «could not» otherwise)."""
    title = title or ("table_not_found_title" if status_code == 404 else "refused_title")
    body = render_page(
        "error.html",
        lang,
        limits,
        title=say(title, lang),
        message=message,
        back_url=back_url,
        next_path=back_url,
    )
    response = html_response(body, status_code)
    response.headers.update(headers or {})
    return response


def refusal(request: Request, exc: ServiceError, back_url: str = "/") -> HTMLResponse:
    lang, limits = lang_of(request), limits_of(request)
    return error_page(refusal_text(exc, lang, limits), exc.status, back_url, lang, limits)


@dataclass
class Visit:
    """This request at a table: who is looking (the seat this browser's
    device holds there, if any), in which language and deck design, and
    whether a play waits for CONFIRMAR. The routes' current seat, as a
    dependency."""

    request: Request
    ctx: AppContext
    invite: str
    token: HeldSeat | None
    lang: str
    design: Design
    confirm: bool = False

    @property
    def service(self) -> TableService:
        return self.ctx.service

    @property
    def htmx(self) -> bool:
        return is_htmx(self.request)

    @property
    def limits(self) -> PageLimits:
        return self.ctx.settings.limits

    def refusal_text(self, exc: ServiceError | InputError) -> str:
        """A refusal in this viewer's language."""
        return refusal_text(exc, self.lang, self.limits)

    def show(
        self,
        error: str | None = None,
        status_code: int = 200,
        fragment: bool = False,
        email: EmailForm | None = None,
        your_name: str | None = None,
        said: Said | None = None,
    ) -> HTMLResponse:
        """The table as this viewer sees it, answered with `status_code`: the
        whole page, or the board fragment for HTMX (with `error` on top, if
        any). `email`: the seat's
        e-mail form as a refused post left it; `your_name`: the invitation's
        «Tu nombre» as a refused post left it (else the name this browser
        last sat down with); `said`: a form's answer, said beside it."""
        device = device_of(self.request)
        try:
            page, kinds, elsewhere = self._read()
        except ServiceError as exc:
            return refusal(self.request, exc)
        watching = self.request.query_params.get("mirar") == "1"
        if fragment:
            return html_response(self._board(page, kinds, elsewhere, error, said), status_code)
        url = invite_url(self.request, self.ctx, self.invite)
        # a seat a code just brought here (`follow`'s redirect) says so
        arrived = page.you is not None and self.request.query_params.get("llegada") == "1"
        if your_name is None and device is not None:
            your_name = device.name
        if email is None and page.you is not None and self.ctx.email is not None:
            saved = self.ctx.email.seats.current(self.invite, self.token)
            email = EmailForm.of(saved, self.request.query_params.get("correo"))
        body = render_table(
            page,
            self.design,
            self.lang,
            self.limits,
            error=error,
            watching=watching,
            invite_url=url,
            notice_kinds=kinds,
            email=email,
            confirm_moves=self.confirm,
            your_name=your_name,
            elsewhere=elsewhere,
            arrived=arrived,
            said=said,
        )
        return html_response(body, status_code)

    def _read(self) -> tuple[TablePage, frozenset[NoticeKind] | None, Elsewhere | None]:
        """The table as this viewer may see it, the notices its seat hears of
        and this browser's other tables waiting for it (the way on)."""
        device = device_of(self.request)
        page = self.service.pages.page(self.invite, self.token)
        kinds = self.ctx.notice_choices.of(self.invite, self.token) if page.you else None
        elsewhere = None if device is None else self.ctx.my_tables.elsewhere(device.id, self.invite)
        return page, kinds, elsewhere

    def _board(
        self,
        page: TablePage,
        kinds: frozenset[NoticeKind] | None,
        elsewhere: Elsewhere | None,
        error: str | None = None,
        said: Said | None = None,
    ) -> str:
        return render_board(
            page,
            self.design,
            self.lang,
            self.limits,
            error=error,
            notice_kinds=kinds,
            watching=self.request.query_params.get("mirar") == "1",
            confirm_moves=self.confirm,
            elsewhere=elsewhere,
            said=said,
        )

    def board_now(self) -> tuple[int, str]:
        """The board fragment as this viewer sees it now, and the version it
        shows: what the table's live stream sends a page after each change
        (`LiveStream`'s `board`), the same as a fetch of `/t/{invite}/board`
        with this request's cookies would answer. Raises `ServiceError`."""
        page, kinds, elsewhere = self._read()
        return page.version, self._board(page, kinds, elsewhere)

    async def answer(
        self,
        change: Callable[[], object],
        form: str | None = None,
        saying: Callable[[Any], Said] | None = None,
    ) -> Response:
        """Make a change to the table for this viewer's seat. HTMX gets the
        fresh board (or the same board with the refusal on top, a 200: htmx
        swaps a success only); a plain form post is redirected (303) to the
        table page, or shown the page with the message and its status. Once
        the change is made, the other pages' streams (woken by its commit)
        render and send their boards before this answer's is rendered: the
        seat that moved hears of it last, as its streams do.
        `form` ("chat"): a refusal is said beside it (a seat's); `saying`: what
        its answer says of the change made (HTMX: a plain post redirects)."""
        try:
            done = change()
        except (ServiceError, InputError) as exc:
            message = self.refusal_text(exc)
            if isinstance(exc, NotFound):
                return error_page(message, 404, lang=self.lang, limits=self.limits)
            said = None if form is None or self.token is None else Said(form, error=message)
            error = None if said else message
            if self.htmx:
                return self.show(error, fragment=True, said=said)
            return self.show(error, exc.status if isinstance(exc, ServiceError) else 422, said=said)
        await asyncio.sleep(0)  # the other pages first (`live.streams.acting`)
        if self.htmx:
            said = saying(done) if saying else None if form is None else Said(form)
            return self.show(fragment=True, said=said)
        return RedirectResponse(f"/t/{self.invite}", status_code=303)


async def visit(invite: str, request: Request, ctx: ContextDep) -> Visit:
    return Visit(
        request=request,
        ctx=ctx,
        invite=invite,
        token=held_seat(request, invite),
        lang=lang_of(request),
        design=design_of(request),
        confirm=confirm_of(request),
    )


VisitDep = Annotated[Visit, Depends(visit)]


VersionForm = Annotated[int, Form()]


def keep_choice(response: Response, cookie: str, value: str, settings: Settings) -> None:
    """One of the device's choices (language, deck design, «Confirmar
    jugadas», the coach), kept in its cookie for the device's next pages."""
    response.set_cookie(
        cookie,
        value,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


@router.get("/", response_class=HTMLResponse)
async def home(request: Request, ctx: ContextDep) -> HTMLResponse:
    """The newcomer's form (its «Tu nombre» the name this browser last sat
    down with), and a returning browser's «Mis mesas» (saying which tables a
    code just brought: `?llegadas=`)."""
    device = device_of(request)
    mine = my_tables_of(request)
    body = render_page(
        "home.html",
        lang_of(request),
        limits_of(request),
        error=None,
        name=None if device is None else device.name,
        target=None,
        chosen={},
        next_path="/",
        mine=mine,
        arrived=arrivals(mine, request.query_params.get("llegadas")),
        now=ctx.service.clock.now(),
    )
    return html_response(body)


@router.post("/lang")
async def choose_language(
    request: Request,
    ctx: ContextDep,
    lang: Annotated[str, Form()] = "",
    next_path: Annotated[str, Form(alias="next")] = "/",
) -> Response:
    """The language switch: kept in a cookie, then back to the same page."""
    chosen = switched(parse_lang(lang) or "es", request.headers.get("accept-language"))
    safe_next = next_path if next_path.startswith("/") and not next_path.startswith("//") else "/"
    response = RedirectResponse(safe_next, status_code=303)
    keep_choice(response, LANG_COOKIE, chosen, ctx.settings)
    return response


@router.post("/tables")
async def create_table(
    request: Request,
    ctx: ContextDep,
    name: Annotated[str, Form(max_length=200)] = "",
    target: Annotated[int, Form()] = 21,
    setenta: Annotated[bool, Form()] = False,
    ties_each: Annotated[bool, Form()] = False,
    compulsory_capture: Annotated[bool, Form()] = False,
    thirty_single: Annotated[bool, Form()] = False,
) -> Response:
    """The new-table form: the name, the target and the house rules ticked
    under «Reglas de la casa»."""
    chosen = {
        "setenta": setenta,
        "ties_each": ties_each,
        "compulsory_capture": compulsory_capture,
        "thirty_single": thirty_single,
    }
    try:
        joined = ctx.service.lobby.create_table(name, house_rules(target, **chosen))
    except ServiceError as exc:
        lang, limits = lang_of(request), limits_of(request)
        body = render_page(
            "home.html",
            lang,
            limits,
            error=refusal_text(exc, lang, limits),
            name=name,
            target=target,
            chosen=chosen,
            next_path="/",
            mine=my_tables_of(request),
            now=ctx.service.clock.now(),
        )
        return html_response(body, exc.status)
    coach_as_before(request, ctx.service, joined.invite, joined.token)
    response = RedirectResponse(f"/t/{joined.invite}", status_code=303)
    hold_seat(request, response, joined.invite, joined.token)
    return response


@router.get("/t/{invite}", response_class=HTMLResponse)
async def table_page(here: VisitDep) -> HTMLResponse:
    return here.show()


@router.get("/t/{invite}/board", response_class=HTMLResponse)
async def board(here: VisitDep) -> HTMLResponse:
    return here.show(fragment=True)


@router.post("/t/{invite}/join")
async def join(here: VisitDep, name: Annotated[str, Form(max_length=200)] = "") -> Response:
    try:
        joined = here.service.lobby.join(here.invite, name)
    except ServiceError as exc:
        if isinstance(exc, NotFound):
            return refusal(here.request, exc)
        return here.show(error=here.refusal_text(exc), status_code=exc.status, your_name=name)
    coach_as_before(here.request, here.service, here.invite, joined.token)
    response = RedirectResponse(f"/t/{here.invite}", status_code=303)
    hold_seat(here.request, response, here.invite, joined.token)
    return response


@router.post("/t/{invite}/robots")
async def add_robot(
    here: VisitDep,
    version: VersionForm,
    robot: Annotated[str, Form()],
) -> Response:
    return await here.answer(
        lambda: here.service.lobby.add_robot(here.invite, here.token, version, robot)
    )


@router.post("/t/{invite}/robots/remove")
async def remove_robot(
    here: VisitDep,
    version: VersionForm,
    position: Annotated[int, Form()],
) -> Response:
    return await here.answer(
        lambda: here.service.lobby.remove_robot(here.invite, here.token, version, position)
    )


@router.post("/t/{invite}/partner")
async def choose_partner(
    here: VisitDep,
    version: VersionForm,
    position: Annotated[int, Form()],
) -> Response:
    return await here.answer(
        lambda: here.service.lobby.choose_partner(here.invite, here.token, version, position)
    )


@router.post("/t/{invite}/start")
async def start(here: VisitDep, version: VersionForm) -> Response:
    return await here.answer(lambda: here.service.lobby.start(here.invite, here.token, version))


@router.post("/t/{invite}/play")
async def play(
    here: VisitDep,
    version: VersionForm,
    card: Annotated[str, Form()] = "",
    capture: Annotated[str, Form()] = "",
    mode: Annotated[str, Form()] = "capture",
) -> Response:
    return await here.answer(
        lambda: here.service.playing.act(
            here.invite, here.token, version, parse_play(card, capture, mode)
        )
    )


@router.post("/t/{invite}/claim")
async def claim(
    here: VisitDep,
    version: VersionForm,
    group: Annotated[str, Form()] = "",
) -> Response:
    return await here.answer(
        lambda: here.service.playing.act(here.invite, here.token, version, parse_claim(group))
    )


@router.post("/t/{invite}/next-round")
async def next_round(here: VisitDep, version: VersionForm) -> Response:
    return await here.answer(
        lambda: here.service.playing.next_round(here.invite, here.token, version)
    )


@router.post("/t/{invite}/leave")
async def leave(here: VisitDep, version: VersionForm) -> Response:
    """ABANDONAR and SALIR DEL JUEGO: both end the game as a loss."""
    return await here.answer(lambda: here.service.ending.abandon(here.invite, here.token, version))


@router.post("/t/{invite}/absence")
async def absence(here: VisitDep, version: VersionForm) -> Response:
    return await here.answer(
        lambda: here.service.ending.end_for_absence(here.invite, here.token, version)
    )


@router.post("/t/{invite}/rematch")
async def rematch(
    here: VisitDep,
    version: VersionForm,
    pairs: Annotated[str | None, Form()] = None,
) -> Response:
    return await here.answer(
        lambda: here.service.rematches.accept_rematch(here.invite, here.token, version, pairs)
    )


@router.post("/t/{invite}/chat")
async def chat(
    here: VisitDep,
    # any length: the service refuses one over `chat_max_length` in words
    text: Annotated[str, Form()] = "",
) -> Response:
    return await here.answer(lambda: here.service.chat.chat(here.invite, here.token, text), "chat")


@router.post("/t/{invite}/notices")
async def choose_notices(
    here: VisitDep,
    kinds: Annotated[list[str], Form(max_length=32)] = [],  # noqa: B006 (FastAPI copies it)
) -> Response:
    """Which notices this browser's seat hears of: the kinds checked."""
    chosen = partial(here.ctx.notice_choices.choose, here.invite, here.token, kinds)
    return await here.answer(chosen, "notices", lambda saved: Said("notices", saved=saved))


@router.post("/t/{invite}/design")
async def choose_design(here: VisitDep, design: Annotated[str, Form()] = "") -> Response:
    """Each viewer's deck design, kept in a cookie: it never changes the rules."""
    chosen = chosen_design(design)
    if chosen is None:  # only a forged post: refused (422) even to HTMX, nothing kept
        return here.show(error=say("bad_form", here.lang), status_code=422, fragment=here.htmx)
    if here.htmx:
        here.design = chosen
        response: Response = here.show(fragment=True)
    else:
        response = RedirectResponse(f"/t/{here.invite}", status_code=303)
    keep_choice(response, DECK_COOKIE, chosen.value, here.ctx.settings)
    return response


@router.post("/t/{invite}/confirm")
async def choose_confirm(here: VisitDep, confirm: Annotated[str, Form()] = "") -> Response:
    """«Confirmar jugadas», each viewer's, kept in a cookie: with it on, a play
    shows what it will do and waits for CONFIRMAR (static/escoba.js)."""
    chosen = CONFIRM_CHOICES.get(confirm)
    if chosen is None:  # only a forged post: refused (422) even to HTMX, nothing kept
        return here.show(error=say("bad_form", here.lang), status_code=422, fragment=here.htmx)
    if here.htmx:
        here.confirm = chosen
        response: Response = here.show(fragment=True)
    else:
        response = RedirectResponse(f"/t/{here.invite}", status_code=303)
    keep_choice(response, CONFIRM_COOKIE, confirm, here.ctx.settings)
    return response


@router.post("/t/{invite}/coach")
async def choose_coach(here: VisitDep, coach: Annotated[str, Form()] = "") -> Response:
    """The coach, the seat's choice (escoba.web.table.coaching): on, it says before
    a play what the play leaves, where that gives nobody an edge."""
    chosen = CONFIRM_CHOICES.get(coach)
    if chosen is None:  # only a forged post: refused (422), nothing kept
        return here.show(error=say("bad_form", here.lang), status_code=422, fragment=here.htmx)
    response = await here.answer(
        lambda: here.service.coaching.choose_coach(here.invite, here.token, chosen)
    )
    if response.status_code < 400:  # kept with the device's other choices, for its next seats
        keep_choice(response, COACH_COOKIE, coach, here.ctx.settings)
    return response


def coach_as_before(request: Request, service: TableService, invite: str, token: str) -> None:
    """A seat this browser just took starts with the coach as the device
    last chose it (off unless it chose on)."""
    if request.cookies.get(COACH_COOKIE) == "on":
        service.coaching.choose_coach(invite, token, True)
