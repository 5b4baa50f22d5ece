"""The rules page, `/reglas`: the game explained to someone who never
played, in the viewer's language and deck design (its model and examples:
`rendering.rules_page`), and the deck chooser it carries."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from escoba.names import chosen_design
from escoba.web.frame.deps import DECK_COOKIE, ContextDep, lang_of
from escoba.web.html.routes import design_of, html_response, keep_choice, limits_of
from escoba.web.rendering.rules_page import page_words, rules_page
from escoba.web.rendering.templating import render_page

router = APIRouter(include_in_schema=False)


@router.get("/reglas", response_class=HTMLResponse)
async def rules(request: Request) -> HTMLResponse:
    lang, design = lang_of(request), design_of(request)
    body = render_page(
        "rules.html",
        lang,
        limits_of(request),
        rules=rules_page(design, lang),
        design=design,
        next_path="/reglas",
        **page_words(design, lang),
    )
    return html_response(body)


@router.post("/reglas/baraja")
async def choose_deck(ctx: ContextDep, design: Annotated[str, Form()] = "") -> Response:
    """The deck chooser of the rules page: the same `deck` cookie as the
    table's «Baraja» (an unknown design changes nothing), then back to the
    cards."""
    response = RedirectResponse("/reglas#cartas", status_code=303)
    chosen = chosen_design(design)
    if chosen is not None:
        keep_choice(response, DECK_COOKIE, chosen.value, ctx.settings)
    return response
