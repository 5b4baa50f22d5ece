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

import gettext
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
from markupsafe import Markup, escape

from escoba.engine import Claim, Phase, Play, View, make_claim, make_play, parse_card, parse_cards
from escoba.engine.cards import NOTATION, VALUE
from escoba.engine.seats import seats_of_side
from escoba.engine.state import EndReason, RoundSummary
from escoba.i18n import HTML_LANG, LANG_COOKIE, LANGUAGES, choose_lang, parse_lang, translations
from escoba.names import (
    AND,
    Design,
    card_name,
    cards_phrase,
    design_label,
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
    public_base_url,
    seat_token_from_cookie,
    set_seat_cookie,
)
from escoba.web.errors import NotFound, ServiceError
from escoba.web.pages import TablePage, TableStatus

PACKAGE_DIR: Final = Path(__file__).resolve().parent.parent
TEMPLATES_DIR: Final = PACKAGE_DIR / "templates"
STATIC_DIR: Final = PACKAGE_DIR / "static"
RECENT_PLAYS: Final = 6
ROBOT_LABELS: Final = {"carmen": "Carmen", "tito": "Tito", "luna": "Luna"}


def N_(message: str) -> str:
    """Marks a string for the catalogs; it is translated where it is shown."""
    return message


#: Refusals from the service, by `ServiceError.code`, for the languages other
#: than Spanish (the service's own message is Spanish and shown as is there).
ERROR_TEXTS: Final = {
    "stale": N_("La mesa cambió desde que la viste: mira cómo quedó y vuelve a jugar."),
    "busy": N_("La mesa está ocupada: prueba otra vez."),
    "no_table": N_("Esa mesa no existe."),
    "already_started": N_("La partida ya empezó: puedes mirarla."),
    "table_full": N_("La mesa está completa: puedes mirar la partida."),
    "not_enough": N_("Hacen falta de 2 a 4 jugadores para empezar."),
    "not_creator": N_("Solo quien creó la mesa puede hacer eso."),
    "not_seated": N_("No estás sentado en esta mesa."),
    "not_playing": N_("No juegas en esta partida."),
    "empty_chat": N_("Escribe algo antes de enviar."),
    "spectator": N_("Solo quienes están sentados pueden escribir."),
    "chat_rate": N_("Vas muy rápido: espera unos segundos."),
    "empty_name": N_("Escribe tu nombre."),
    "bad_name": N_("El nombre tiene caracteres no válidos."),
    "invisible_name": N_("El nombre necesita al menos una letra o un número que se vea."),
    "robot_name": N_("Ese nombre es de robot: elige otro."),
    "name_taken": N_(
        "Ya hay alguien en la mesa con ese nombre o uno que se le parece: elige otro."
    ),
    "self_absence": N_("Eres tú quien tiene el turno: juega una carta."),
    "already_accepted": N_("Ya aceptaste la revancha."),
    "choose_pairs": N_("Elige MANTENER o CAMBIAR las parejas."),
    "not_finished": N_("La partida todavía no terminó."),
    "not_started": N_("La partida todavía no empezó."),
}


def error_text(exc: ServiceError, lang: str) -> str:
    """The refusal in the viewer's language: by code, else the service's words."""
    if lang == "es" or exc.code not in ERROR_TEXTS:
        return exc.message
    return translations(lang).gettext(ERROR_TEXTS[exc.code])


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
    name: Markup  # as shown (`who`): isolated, robots marked
    is_robot: bool
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
    label: Markup
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
    leftover: Markup | None


@dataclass(frozen=True, slots=True)
class Move:
    """The newest public step of the round, for the page's animations: a card
    going to the table, a capture flying to its pile, «¡ESCOBA!»."""

    key: str  # changes with every step: the page animates a key it has not seen
    kind: str  # "leave" | "take" | "claim" | "deal"
    seat: int
    card: str  # the card played (or the left card, for a claim); "" for the deal
    taken: tuple[str, ...]  # table cards that went to the pile
    splash: str | None  # «¡ESCOBA!» or «¡ESCOBA DOBLE!»

    @property
    def taken_text(self) -> str:
        return " ".join(self.taken)


@dataclass(frozen=True, slots=True)
class Board:
    """One viewer's board, ready for the templates."""

    players: int
    phase: Phase
    my_turn: bool
    can_claim: bool
    turn_name: Markup | None
    seats: tuple[SeatPanel, ...]
    hand: tuple[HandCard, ...]
    table: tuple[TableCard, ...]
    claim_groups: tuple[tuple[str, ...], ...]  # other table cards for LLEVAR EL 15
    claim_card: TableCard | None
    recent: tuple[Markup, ...]  # newest first
    deck_size: int
    deal_number: int
    last_deal: bool
    round_number: int
    totals: tuple[tuple[Markup, int], ...]  # side label, points
    summary: RoundTable | None
    winners_text: Markup | None
    spectator: bool
    move: Move | None = None

    @property
    def claim_groups_json(self) -> str:
        return json.dumps([list(g) for g in self.claim_groups])


def who(name: str, robot: bool = False, lang: str = "es") -> Markup:
    """A name as the pages show it: in its own <bdi>, so that letters written
    right to left in it cannot reorder the words around it, and followed by
    the robot mark when a robot plays the seat. No person's name may look
    like a robot's or say «robot» (`escoba.web.spoofing`), so the mark
    cannot be forged."""
    html = Markup('<bdi class="who">{}</bdi>').format(name)
    if robot:
        mark = translations(lang).gettext("robot")
        html += Markup(' <span class="tag tag-robot">{}</span>').format(mark)
    return html


def _names_shown(page: TablePage, lang: str = "es") -> tuple[Markup, ...]:
    """Each engine seat's name as shown (`who`), robots marked."""
    robots = {s.game_seat for s in page.seats if s.is_robot and s.game_seat is not None}
    return tuple(who(name, seat in robots, lang) for seat, name in enumerate(page.names))


def _and(items: list[Markup], lang: str = "es") -> Markup:
    """«a, b y c» of names already shown as markup (`escoba.names.and_list`)."""
    if len(items) <= 1:
        return items[0] if items else Markup("")
    return Markup("{} {} {}").format(Markup(", ").join(items[:-1]), AND.get(lang, "y"), items[-1])


def _text(message: str) -> Markup:
    """A catalog message ready for `%` with names: its own characters escaped,
    the names (markup) kept, any other argument escaped."""
    return escape(message)


def side_label(side: int, view: View, names: tuple[Markup, ...], lang: str = "es") -> Markup:
    """«Ana» alone, or «Ana y Tito» for a pair."""
    members = [_name(names, s, lang) for s in seats_of_side(side, view.players)]
    return _and(members, lang)


def _name(names: tuple[Markup, ...], seat: int, lang: str = "es") -> Markup:
    if 0 <= seat < len(names):
        return names[seat]
    return _text(translations(lang).gettext("Jugador %(n)s")) % {"n": seat + 1}


def _move(view: View) -> Move | None:
    key_base = f"{view.round_number}-{view.deal_number}"
    if view.history:
        last = view.history[-1]
        splash = "¡ESCOBA!" if last.escoba else None
        card = NOTATION[last.card]
        if last.kind == "claim":
            taken = tuple(NOTATION[c] for c in last.cards)
            kind = "claim"
        else:
            taken = tuple(NOTATION[c] for c in last.cards if c != last.card)
            kind = "take" if last.cards else "leave"
        return Move(f"{key_base}-{len(view.history)}", kind, last.seat, card, taken, splash)
    take = view.table_take
    if take is not None and view.phase is Phase.PLAYING:
        splash = "¡ESCOBA DOBLE!" if take.escobas >= 2 else "¡ESCOBA!"
        taken = tuple(NOTATION[c] for c in take.cards)
        return Move(f"{view.round_number}-take", "deal", take.seat, "", taken, splash)
    return None


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


def describe_play(
    view: View, names: tuple[Markup, ...], index: int, design: Design, lang: str = "es"
) -> Markup:
    """One line of «últimas jugadas», in the viewer's deck design."""

    def _(message: str) -> Markup:
        return _text(translations(lang).gettext(message))

    action = view.history[index]
    who = _name(names, action.seat, lang)
    if action.kind == "claim":
        text = _("%(who)s lleva el 15: %(cards)s") % {
            "who": who,
            "cards": cards_phrase(action.cards, design, lang),
        }
    elif action.cards:
        text = _("%(who)s juega %(card)s y lleva %(cards)s") % {
            "who": who,
            "card": the_card(action.card, design, lang),
            "cards": cards_phrase(action.cards, design, lang),
        }
    else:
        text = _("%(who)s deja %(card)s en la mesa") % {
            "who": who,
            "card": the_card(action.card, design, lang),
        }
    return text + " — ¡ESCOBA!" if action.escoba else text


def _round_table(
    summary: RoundSummary,
    view: View,
    names: tuple[Markup, ...],
    winners: tuple[int, ...],
    lang: str = "es",
) -> RoundTable:
    tr = translations(lang)
    rows = tuple(
        SummaryRow(
            label=side_label(side, view, names, lang),
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
        n = len(left.cards)
        if left.seat is None:
            text = tr.ngettext(
                "Quedó %(n)s carta en la mesa: para nadie.",
                "Quedaron %(n)s cartas en la mesa: para nadie.",
                n,
            )
            leftover = _text(text) % {"n": n}
        else:
            text = tr.ngettext(
                "Quedó %(n)s carta en la mesa: para %(who)s.",
                "Quedaron %(n)s cartas en la mesa: para %(who)s.",
                n,
            )
            leftover = _text(text) % {"n": n, "who": _name(names, left.seat, lang)}
    return RoundTable(number=summary.number, rows=rows, leftover=leftover)


def winners_text(view: View, names: tuple[Markup, ...], lang: str = "es") -> Markup | None:
    result = view.result
    if result is None:
        return None

    def _(message: str) -> Markup:
        return _text(translations(lang).gettext(message))

    labels = [side_label(s, view, names, lang) for s in result.winners]
    if result.reason is EndReason.EXPIRED:
        return _("La mesa venció tras 7 días sin jugadas: sin ganador.")
    if not labels:
        return _("La partida terminó sin ganador.")
    who = _and(labels, lang)
    shared = len(labels) > 1
    plural = shared or (view.players == 4)
    if shared:
        verb = _("comparten la victoria")
    elif plural:
        verb = _("ganan")
    else:
        verb = _("gana")
    loser = None if result.loser_seat is None else _name(names, result.loser_seat, lang)
    if result.reason is EndReason.ABANDON and loser is not None:
        return _("%(loser)s abandonó: %(who)s %(verb)s.") % {
            "loser": loser,
            "who": who,
            "verb": verb,
        }
    if result.reason is EndReason.ABSENCE and loser is not None:
        return _("Terminó por ausencia de %(loser)s: %(who)s %(verb)s.") % {
            "loser": loser,
            "who": who,
            "verb": verb,
        }
    return _("¡%(who)s %(verb)s la partida!") % {"who": who, "verb": verb}


def board_model(page: TablePage, design: Design, lang: str = "es") -> Board | None:
    """What `page.view` shows, in the viewer's design and language; None in
    the lobby."""
    view = page.view
    if view is None:
        return None
    _ = translations(lang).gettext
    names = _names_shown(page, lang)
    robots = {s.game_seat for s in page.seats if s.is_robot and s.game_seat is not None}
    flashes = _flash_seats(view)
    partner = None
    if view.seat is not None and view.players == 4:
        partner = (view.seat + 2) % 4
    seats = tuple(
        SeatPanel(
            seat=info.seat,
            name=_name(names, info.seat, lang),
            is_robot=info.seat in robots,
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
            name=card_name(c, design, lang),
            the=the_card(c, design, lang),
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
            name=card_name(c, design, lang),
            the=the_card(c, design, lang),
            claimable=c == view.claimable,
        )
        if tc.claimable:
            claim_card = tc
        table_cards.append(tc)
    recent = tuple(
        describe_play(view, names, i, design, lang)
        for i in range(len(view.history) - 1, max(-1, len(view.history) - 1 - RECENT_PLAYS), -1)
    )
    take = view.table_take
    if take is not None and len(recent) < RECENT_PLAYS:
        double = " (¡ESCOBA DOBLE!)" if take.escobas >= 2 else " (¡ESCOBA!)"
        line = _text(_("%(who)s reparte y se lleva la mesa: %(cards)s")) % {
            "who": _name(names, take.seat, lang),
            "cards": cards_phrase(take.cards, design, lang),
        }
        recent = (*recent, line + double)
    winners = view.result.winners if view.result is not None else ()
    summary = None
    if view.phase is not Phase.PLAYING and view.last_round is not None:
        summary = _round_table(view.last_round, view, names, winners, lang)
    return Board(
        players=view.players,
        phase=view.phase,
        my_turn=view.my_turn,
        can_claim=view.can_claim,
        turn_name=None if view.turn is None else _name(names, view.turn, lang),
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
        totals=tuple((side_label(s, view, names, lang), view.totals[s]) for s in range(view.sides)),
        summary=summary,
        winners_text=winners_text(view, names, lang),
        spectator=view.seat is None,
        move=_move(view),
    )


# --------------------------------------------------------------------------
# Templates


@lru_cache(maxsize=8)
def environment(lang: str = "es") -> Environment:
    """One environment per language, its catalog installed for `_()` and
    `{% trans %}` (newstyle: arguments are escaped, `%(name)s` placeholders)."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
        auto_reload=False,  # the templates change with a release, which restarts
    )
    tr: gettext.NullTranslations = translations(lang)
    env.install_gettext_translations(tr, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(_html_gettext(tr))

    def card_face(card: int, design: Design) -> Any:
        return card_svg(card, design, lang)

    env.globals.update(
        lang=lang,
        html_lang=HTML_LANG.get(lang, "es"),
        languages=LANGUAGES,
        card_svg=card_face,
        card_back_svg=lambda: card_back_svg(lang),
        card_name=lambda card, design: card_name(card, design, lang),
        design_label=lambda design: design_label(design, lang),
        designs=tuple(Design),
        diamonds_word=lambda design: diamonds_word(design, lang),
        seven_of_diamonds_name=lambda design: seven_of_diamonds_name(design, lang),
        robot_labels=ROBOT_LABELS,
        who=lambda name, robot=False: who(name, robot, lang),
        who_list=lambda seats: _and([who(s.name, s.is_robot, lang) for s in seats], lang),
        TableStatus=TableStatus,
        Phase=Phase,
    )
    return env


def _html_gettext(tr: gettext.NullTranslations) -> dict[str, Callable[..., Markup]]:
    """`_`, `gettext` and `ngettext` for the (HTML, autoescaped) templates,
    as Jinja's newstyle gettext does them — the message as markup, its
    `%(name)s` arguments escaped, always formatted — but as plain functions
    over a cache of the catalog's messages. Jinja's own pass through two
    context calls each: at ~40 messages a board, they were most of its
    rendering time (bench/RESULTS-load.md)."""
    messages: dict[str, Markup] = {}
    plain: dict[str, Markup] = {}

    def message(text: str) -> Markup:
        found = messages.get(text)
        if found is None:
            found = messages[text] = Markup(tr.gettext(text))
        return found

    def html_gettext(text: str, /, **variables: Any) -> Markup:
        if variables:
            return message(text) % variables
        found = plain.get(text)
        if found is None:
            found = plain[text] = message(text) % {}
        return found

    def html_ngettext(singular: str, plural: str, num: int, /, **variables: Any) -> Markup:
        variables.setdefault("num", num)
        return Markup(tr.ngettext(singular, plural, num)) % variables

    return {"_": html_gettext, "gettext": html_gettext, "ngettext": html_ngettext}


def table_context(
    page: TablePage,
    design: Design,
    error: str | None = None,
    watching: bool = False,
    invite_url: str | None = None,
    lang: str = "es",
    continue_url: str | None = None,
) -> dict[str, Any]:
    return {
        "continue_url": continue_url,
        "page": page,
        "design": design,
        "board": board_model(page, design, lang),
        "error": error,
        "watching": watching,
        "invite_url": invite_url,
    }


def render_page(template: str, lang: str = "es", **context: Any) -> str:
    return environment(lang).get_template(template).render(**context)


def render_table(page: TablePage, design: Design, lang: str = "es", **extra: Any) -> str:
    """The whole table page."""
    context = table_context(page, design, lang=lang, **extra)
    return render_page("table.html", lang, next_path=f"/t/{page.invite}", **context)


def render_board(page: TablePage, design: Design, lang: str = "es", **extra: Any) -> str:
    """The `board` block plus the chat log as an out-of-band swap: what an
    HTMX request (a refresh after an SSE «update», or an action) gets back."""
    context = table_context(page, design, lang=lang, **extra)
    return str(render_blocks(environment(lang), "table.html", ["board", "chat"], **context))


def render_fragment(template: str, block: str, lang: str = "es", **context: Any) -> str:
    return str(render_block(environment(lang), template, block, **context))


# --------------------------------------------------------------------------
# The router: parse a form, call the service, render or redirect.

router = APIRouter(include_in_schema=False)
router.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

#: Front-end files served from the npm packages (package.json), never copied
#: into the repository: URL name → path inside node_modules.
VENDOR_FILES: Final = {
    "htmx.min.js": ("htmx.org", "dist", "htmx.min.js"),
    "htmx-ext-sse.js": ("htmx-ext-sse", "dist", "sse.min.js"),
    # Swagger UI, for /docs (web/apidocs.py)
    "swagger-ui-bundle.js": ("swagger-ui-dist", "swagger-ui-bundle.js"),
    "swagger-ui.css": ("swagger-ui-dist", "swagger-ui.css"),
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
        media_type="text/css" if path.suffix == ".css" else "text/javascript",
        headers={"Cache-Control": "public, max-age=86400"},
    )


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
