"""The HTML pages: a Jinja2 environment, what a board shows one viewer, and
(below) the thin router over the table service.

Templates are pages with named blocks (jinja2-fragments): `table.html`
renders the whole page, or only its `board` and `chat` blocks for an HTMX
swap. Everything a template needs beyond the `TablePage` is computed here, in
`board_model`, so that the templates stay plain and the rules stay in the
engine: the groups a hand card may take come from `View.legal`, never from a
sum done in a template.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import APIRouter, Form, Request
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from jinja2_fragments import render_block, render_blocks

from escoba.engine import Claim, Phase, Play, View, make_claim, make_play, parse_card, parse_cards
from escoba.engine.cards import NOTATION, VALUE
from escoba.engine.seats import seats_of_side
from escoba.engine.state import EndReason, RoundSummary
from escoba.names import (
    DESIGN_LABELS,
    Design,
    card_name,
    cards_phrase,
    diamonds_word,
    parse_design,
    seven_of_diamonds_name,
    the_card,
)
from escoba.web.cards_svg import card_back_svg, card_svg
from escoba.web.deps import (
    COOKIE_MAX_AGE,
    DECK_COOKIE,
    AppContext,
    ContextDep,
    seat_token_from_cookie,
    set_seat_cookie,
)
from escoba.web.pages import TablePage, TableStatus
from escoba.web.service import NotFound, ServiceError

PACKAGE_DIR: Final = Path(__file__).resolve().parent.parent
TEMPLATES_DIR: Final = PACKAGE_DIR / "templates"
STATIC_DIR: Final = PACKAGE_DIR / "static"
RECENT_PLAYS: Final = 6
ROBOT_LABELS: Final = {"carmen": "Carmen", "tito": "Tito", "luna": "Luna"}


# --------------------------------------------------------------------------
# What a board shows


@dataclass(frozen=True, slots=True)
class HandCard:
    card: int
    notation: str
    value: int
    name: str
    the: str  # the name with its article, for messages
    groups: tuple[tuple[str, ...], ...]  # table cards it may take (LLEVAR)
    can_leave: bool  # DEJAR EN LA MESA is legal with it

    @property
    def groups_json(self) -> str:
        return json.dumps([list(g) for g in self.groups])


@dataclass(frozen=True, slots=True)
class TableCard:
    card: int
    notation: str
    value: int
    name: str
    the: str
    claimable: bool  # the card left on a 15 (LLEVAR EL 15)


@dataclass(frozen=True, slots=True)
class SeatPanel:
    seat: int
    name: str
    side: int
    hand_size: int
    captured: int
    escobas: int
    is_dealer: bool
    on_turn: bool
    is_you: bool
    is_partner: bool
    absent: bool
    flash: str | None  # «¡ESCOBA!» or «¡ESCOBA DOBLE!» when it just happened


@dataclass(frozen=True, slots=True)
class SummaryRow:
    label: str
    escobas: int
    cards: int
    diamonds: int
    sevens: int
    seven_of_diamonds: bool
    points: int
    total: int
    is_yours: bool
    is_winner: bool


@dataclass(frozen=True, slots=True)
class RoundTable:
    number: int
    rows: tuple[SummaryRow, ...]
    leftover: str | None


@dataclass(frozen=True, slots=True)
class Board:
    """One viewer's board, ready for the templates."""

    players: int
    phase: Phase
    my_turn: bool
    can_claim: bool
    turn_name: str | None
    seats: tuple[SeatPanel, ...]
    hand: tuple[HandCard, ...]
    table: tuple[TableCard, ...]
    claim_groups: tuple[tuple[str, ...], ...]  # other table cards for LLEVAR EL 15
    claim_card: TableCard | None
    recent: tuple[str, ...]  # newest first
    deck_size: int
    deal_number: int
    last_deal: bool
    round_number: int
    totals: tuple[tuple[str, int], ...]  # side label, points
    summary: RoundTable | None
    winners_text: str | None
    spectator: bool

    @property
    def claim_groups_json(self) -> str:
        return json.dumps([list(g) for g in self.claim_groups])


def side_label(side: int, view: View, names: tuple[str, ...]) -> str:
    """«Ana» alone, or «Ana y Tito» for a pair."""
    members = [_name(names, s) for s in seats_of_side(side, view.players)]
    return " y ".join(members)


def _name(names: tuple[str, ...], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Jugador {seat + 1}"


def _flash_seats(view: View) -> dict[int, str]:
    """Who gets «¡ESCOBA!» next to the name: the author of the last history
    entry when it emptied the table, or the dealer's first table take."""
    if view.history:
        last = view.history[-1]
        return {last.seat: "¡ESCOBA!"} if last.escoba else {}
    take = view.table_take
    if take is not None and view.phase is Phase.PLAYING:
        return {take.seat: "¡ESCOBA DOBLE!" if take.escobas >= 2 else "¡ESCOBA!"}
    return {}


def describe_play(view: View, names: tuple[str, ...], index: int, design: Design) -> str:
    """One line of «últimas jugadas», in the viewer's deck design."""
    action = view.history[index]
    who = _name(names, action.seat)
    if action.kind == "claim":
        text = f"{who} lleva el 15: {cards_phrase(action.cards, design)}"
    elif action.cards:
        played = the_card(action.card, design)
        text = f"{who} juega {played} y lleva {cards_phrase(action.cards, design)}"
    else:
        text = f"{who} deja {the_card(action.card, design)} en la mesa"
    return f"{text} — ¡ESCOBA!" if action.escoba else text


def _round_table(
    summary: RoundSummary, view: View, names: tuple[str, ...], winners: tuple[int, ...]
) -> RoundTable:
    rows = tuple(
        SummaryRow(
            label=side_label(side, view, names),
            escobas=score.escobas,
            cards=score.cards,
            diamonds=score.diamonds,
            sevens=score.sevens,
            seven_of_diamonds=score.seven_of_diamonds,
            points=score.points,
            total=summary.totals[side],
            is_yours=view.my_side == side,
            is_winner=side in winners,
        )
        for side, score in enumerate(summary.scores)
    )
    left = summary.leftover
    leftover = None
    if left.cards:
        owner = "nadie" if left.seat is None else _name(names, left.seat)
        n = len(left.cards)
        cards = "1 carta" if n == 1 else f"{n} cartas"
        verb = "Quedó" if n == 1 else "Quedaron"
        leftover = f"{verb} {cards} en la mesa: para {owner}."
    return RoundTable(number=summary.number, rows=rows, leftover=leftover)


def winners_text(view: View, names: tuple[str, ...]) -> str | None:
    result = view.result
    if result is None:
        return None
    labels = [side_label(s, view, names) for s in result.winners]
    if not labels:
        return "La partida terminó sin ganador."
    who = " y ".join(labels) if len(labels) > 1 else labels[0]
    shared = len(labels) > 1
    plural = shared or (view.players == 4)
    verb = "comparten la victoria" if shared else ("ganan" if plural else "gana")
    if result.reason is EndReason.ABANDON and result.loser_seat is not None:
        return f"{_name(names, result.loser_seat)} abandonó: {who} {verb}."
    if result.reason is EndReason.ABSENCE and result.loser_seat is not None:
        return f"Terminó por ausencia de {_name(names, result.loser_seat)}: {who} {verb}."
    return f"¡{who} {verb} la partida!"


def board_model(page: TablePage, design: Design) -> Board | None:
    """What `page.view` shows, in the viewer's design; None in the lobby."""
    view = page.view
    if view is None:
        return None
    names = page.names
    flashes = _flash_seats(view)
    partner = None
    if view.seat is not None and view.players == 4:
        partner = (view.seat + 2) % 4
    seats = tuple(
        SeatPanel(
            seat=info.seat,
            name=_name(names, info.seat),
            side=info.side,
            hand_size=info.hand_size,
            captured=info.captured,
            escobas=info.escobas,
            is_dealer=info.is_dealer,
            on_turn=info.on_turn,
            is_you=info.seat == view.seat,
            is_partner=info.seat == partner,
            absent=info.seat == page.absent_seat,
            flash=flashes.get(info.seat),
        )
        for info in view.seats
    )
    groups: dict[int, list[tuple[str, ...]]] = {}
    leaves: set[int] = set()
    claim_groups: list[tuple[str, ...]] = []
    for action in view.legal:
        if isinstance(action, Play):
            if action.capture:
                groups.setdefault(action.card, []).append(
                    tuple(NOTATION[c] for c in action.capture)
                )
            else:
                leaves.add(action.card)
        elif isinstance(action, Claim):
            claim_groups.append(tuple(NOTATION[c] for c in action.group))
    hand = tuple(
        HandCard(
            card=c,
            notation=NOTATION[c],
            value=VALUE[c],
            name=card_name(c, design),
            the=the_card(c, design),
            groups=tuple(groups.get(c, ())),
            can_leave=c in leaves,
        )
        for c in view.hand
    )
    claim_card = None
    table_cards = []
    for c in view.table:
        tc = TableCard(
            card=c,
            notation=NOTATION[c],
            value=VALUE[c],
            name=card_name(c, design),
            the=the_card(c, design),
            claimable=c == view.claimable,
        )
        if tc.claimable:
            claim_card = tc
        table_cards.append(tc)
    recent = tuple(
        describe_play(view, names, i, design)
        for i in range(len(view.history) - 1, max(-1, len(view.history) - 1 - RECENT_PLAYS), -1)
    )
    take = view.table_take
    if take is not None and len(recent) < RECENT_PLAYS:
        double = " (¡ESCOBA DOBLE!)" if take.escobas >= 2 else " (¡ESCOBA!)"
        recent = (
            *recent,
            f"{_name(names, take.seat)} reparte y se lleva la mesa: "
            f"{cards_phrase(take.cards, design)}{double}",
        )
    winners = view.result.winners if view.result is not None else ()
    summary = None
    if view.phase is not Phase.PLAYING and view.last_round is not None:
        summary = _round_table(view.last_round, view, names, winners)
    return Board(
        players=view.players,
        phase=view.phase,
        my_turn=view.my_turn,
        can_claim=view.can_claim,
        turn_name=None if view.turn is None else _name(names, view.turn),
        seats=seats,
        hand=hand,
        table=tuple(table_cards),
        claim_groups=tuple(claim_groups),
        claim_card=claim_card,
        recent=recent,
        deck_size=view.deck_size,
        deal_number=view.deal_number,
        last_deal=view.last_deal,
        round_number=view.round_number,
        totals=tuple((side_label(s, view, names), view.totals[s]) for s in range(view.sides)),
        summary=summary,
        winners_text=page.result_text or winners_text(view, names),
        spectator=view.seat is None,
    )


# --------------------------------------------------------------------------
# Templates


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(
        card_svg=card_svg,
        card_back_svg=card_back_svg,
        card_name=card_name,
        design_labels=DESIGN_LABELS,
        designs=tuple(Design),
        diamonds_word=diamonds_word,
        seven_of_diamonds_name=seven_of_diamonds_name,
        robot_labels=ROBOT_LABELS,
        TableStatus=TableStatus,
        Phase=Phase,
    )
    return env


def table_context(
    page: TablePage,
    design: Design,
    error: str | None = None,
    watching: bool = False,
    invite_url: str | None = None,
) -> dict[str, Any]:
    return {
        "page": page,
        "design": design,
        "board": board_model(page, design),
        "error": error,
        "watching": watching,
        "invite_url": invite_url,
    }


def render_page(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def render_table(page: TablePage, design: Design, **extra: Any) -> str:
    """The whole table page."""
    return render_page("table.html", **table_context(page, design, **extra))


def render_board(page: TablePage, design: Design, **extra: Any) -> str:
    """The `board` block plus the chat log as an out-of-band swap: what an
    HTMX request (a refresh after an SSE «update», or an action) gets back."""
    context = table_context(page, design, **extra)
    return str(render_blocks(environment(), "table.html", ["board", "chat"], **context))


def render_fragment(template: str, block: str, **context: Any) -> str:
    return str(render_block(environment(), template, block, **context))


# --------------------------------------------------------------------------
# The router: parse a form, call the service, render or redirect.

router = APIRouter(include_in_schema=False)
router.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

#: Front-end files served from the npm packages (package.json), never copied
#: into the repository: URL name → path inside node_modules.
VENDOR_FILES: Final = {
    "htmx.min.js": ("htmx.org", "dist", "htmx.min.js"),
    "htmx-ext-sse.js": ("htmx-ext-sse", "dist", "sse.min.js"),
}


def node_modules_dirs() -> list[Path]:
    """Where `npm ci` put the packages: $ESCOBA_NODE_MODULES, the working
    directory, or the repository root of an editable install."""
    dirs = []
    if env := os.environ.get("ESCOBA_NODE_MODULES"):
        dirs.append(Path(env))
    dirs.append(Path.cwd() / "node_modules")
    dirs.append(PACKAGE_DIR.parent.parent / "node_modules")
    return dirs


def vendor_path(name: str) -> Path | None:
    parts = VENDOR_FILES.get(name)
    if parts is None:
        return None
    for base in node_modules_dirs():
        path = base.joinpath(*parts)
        if path.is_file():
            return path
    return None


@router.get("/vendor/{name}")
def vendor(name: str) -> Response:
    path = vendor_path(name)
    if path is None:
        return PlainTextResponse(
            "Front-end package missing: run `npm ci` (or `bash dev.sh run`).", status_code=404
        )
    return FileResponse(
        path,
        media_type="text/javascript",
        headers={"Cache-Control": "public, max-age=86400"},
    )


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def design_of(request: Request) -> Design:
    return parse_design(request.cookies.get(DECK_COOKIE))


def invite_url(request: Request, ctx: AppContext, invite: str) -> str:
    base = ctx.settings.base_url.rstrip("/") or str(request.base_url).rstrip("/")
    return f"{base}/t/{invite}"


def html_response(content: str, status_code: int = 200) -> HTMLResponse:
    return HTMLResponse(content, status_code=status_code, headers={"Cache-Control": "no-store"})


def error_page(message: str, status_code: int, back_url: str = "/") -> HTMLResponse:
    title = "No encontramos esa mesa" if status_code == 404 else "No se pudo"
    body = render_page("error.html", title=title, message=message, back_url=back_url)
    return html_response(body, status_code)


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
        return error_page(exc.message, exc.status)
    design = design_of(request)
    if fragment:
        return html_response(render_board(page, design, error=error))
    body = render_table(
        page,
        design,
        error=error,
        watching=request.query_params.get("mirar") == "1",
        invite_url=invite_url(request, ctx, invite),
    )
    return html_response(body, status_code)


def after_command(
    request: Request, ctx: AppContext, invite: str, command: Callable[[str | None], object]
) -> Response:
    """Run a table command for this request's seat. HTMX gets the fresh board
    (or the same board with the refusal on top); a plain form post is
    redirected (303) to the table page, or shown the page with the message."""
    token = seat_token_from_cookie(request, ctx, invite)
    try:
        command(token)
    except (ServiceError, ValueError) as exc:
        message = exc.message if isinstance(exc, ServiceError) else str(exc)
        status_code = exc.status if isinstance(exc, ServiceError) else 422
        if isinstance(exc, NotFound):
            return error_page(message, 404)
        return show_table(
            request, ctx, invite, error=message, status_code=status_code, fragment=is_htmx(request)
        )
    if is_htmx(request):
        return show_table(request, ctx, invite, fragment=True)
    return RedirectResponse(f"/t/{invite}", status_code=303)


VersionForm = Annotated[int, Form()]


@router.get("/", response_class=HTMLResponse)
def home() -> HTMLResponse:
    return html_response(render_page("home.html", error=None, name=None, target=None))


@router.post("/tables")
def create_table(
    ctx: ContextDep,
    name: Annotated[str, Form(max_length=200)] = "",
    target: Annotated[int, Form()] = 21,
) -> Response:
    try:
        joined = ctx.service.create_table(name, target)
    except ServiceError as exc:
        body = render_page("home.html", error=exc.message, name=name, target=target)
        return html_response(body, exc.status)
    response = RedirectResponse(f"/t/{joined.invite}", status_code=303)
    set_seat_cookie(response, ctx, joined.invite, joined.token)
    return response


@router.get("/t/{invite}", response_class=HTMLResponse)
def table_page(invite: str, request: Request, ctx: ContextDep) -> HTMLResponse:
    return show_table(request, ctx, invite)


@router.get("/t/{invite}/board", response_class=HTMLResponse)
def board(invite: str, request: Request, ctx: ContextDep) -> HTMLResponse:
    return show_table(request, ctx, invite, fragment=True)


@router.get("/t/{invite}/continue/{token}")
def continue_seat(invite: str, token: str, ctx: ContextDep) -> Response:
    """The link the API hands out with a seat: it opens that seat here."""
    try:
        seat = ctx.service.seat_for(invite, token)
    except ServiceError as exc:
        return error_page(exc.message, exc.status)
    if seat is None:
        return error_page("Ese enlace no corresponde a ningún lugar de esta mesa.", 404)
    response = RedirectResponse(f"/t/{invite}", status_code=303)
    set_seat_cookie(response, ctx, invite, token)
    return response


@router.post("/t/{invite}/join")
def join(
    invite: str, request: Request, ctx: ContextDep, name: Annotated[str, Form(max_length=200)] = ""
) -> Response:
    try:
        joined = ctx.service.join(invite, name)
    except ServiceError as exc:
        if isinstance(exc, NotFound):
            return error_page(exc.message, 404)
        return show_table(request, ctx, invite, error=exc.message, status_code=exc.status)
    response = RedirectResponse(f"/t/{invite}", status_code=303)
    set_seat_cookie(response, ctx, invite, joined.token)
    return response


@router.post("/t/{invite}/robots")
def add_robot(
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
def remove_robot(
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
def choose_partner(
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
def start(invite: str, request: Request, ctx: ContextDep, version: VersionForm) -> Response:
    return after_command(request, ctx, invite, lambda t: ctx.service.start(invite, t, version))


def parse_play(card: str, capture: str, mode: str) -> Play:
    """The play form: `card` from the hand; `capture`, the table cards taken
    (space separated), unless `mode` is «leave» (DEJAR EN LA MESA)."""
    if not card.strip():
        raise ValueError("Primero toca una carta de tu mano.")
    if mode == "leave":
        return make_play(parse_card(card))
    group = parse_cards(capture.replace(",", " ").split())
    if not group:
        raise ValueError("Toca las cartas de la mesa que quieres llevarte.")
    return make_play(parse_card(card), group)


def parse_claim(group: str) -> Claim:
    cards = parse_cards(group.replace(",", " ").split())
    if not cards:
        raise ValueError("Toca las cartas de la mesa que van con la carta que quedó.")
    return make_claim(cards)


@router.post("/t/{invite}/play")
def play(
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
def claim(
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
def next_round(invite: str, request: Request, ctx: ContextDep, version: VersionForm) -> Response:
    return after_command(request, ctx, invite, lambda t: ctx.service.next_round(invite, t, version))


@router.post("/t/{invite}/leave")
def leave(invite: str, request: Request, ctx: ContextDep, version: VersionForm) -> Response:
    """ABANDONAR and SALIR DEL JUEGO: both end the game as a loss."""
    return after_command(request, ctx, invite, lambda t: ctx.service.abandon(invite, t, version))


@router.post("/t/{invite}/absence")
def absence(invite: str, request: Request, ctx: ContextDep, version: VersionForm) -> Response:
    return after_command(
        request, ctx, invite, lambda t: ctx.service.end_for_absence(invite, t, version)
    )


@router.post("/t/{invite}/rematch")
def rematch(
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
def chat(
    invite: str,
    request: Request,
    ctx: ContextDep,
    text: Annotated[str, Form(max_length=2000)] = "",
) -> Response:
    return after_command(request, ctx, invite, lambda t: ctx.service.chat(invite, t, text))


@router.post("/t/{invite}/design")
def choose_design(
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
            return error_page(exc.message, exc.status)
        response: Response = html_response(render_board(page, chosen))
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
