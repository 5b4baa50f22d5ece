"""The pages of the game's story (escoba.web.story): the replay of a finished
round, play by play (ANTERIOR / SIGUIENTE are plain links: `?paso=N`), and
the game record as a file to download.

    GET /t/{invite}/repeticion          the last finished round's replay
    GET /t/{invite}/ronda/{n}?paso=k     step k of round n (0: the deal)
    GET /t/{invite}/registro             escoba-record/1, as an attachment

Anyone with the table's link may open them, as they may watch the table:
a replay tells only finished rounds, the record only a finished game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup, escape

from escoba.engine.cards import NOTATION, Card
from escoba.engine.round_steps import RoundStep
from escoba.engine.scoring import leftover_check
from escoba.engine.seats import side_of
from escoba.engine.state import RoundAction
from escoba.i18n import translations
from escoba.names import Design, cards_phrase
from escoba.web.board import and_list, describe_action, who
from escoba.web.errors import NotFound, ServiceError
from escoba.web.routes import Visit, VisitDep, error_page, html_response, refusal
from escoba.web.story import RoundReplay
from escoba.web.templating import render_page
from escoba.words import leftover_sum, say

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True, slots=True)
class ReplaySeat:
    name: Markup
    pile: int
    escobas: int
    acting: bool


@dataclass(frozen=True, slots=True)
class ReplayPage:
    """One step of a round's replay, ready for `replay.html`."""

    invite: str
    round_number: int
    rounds: tuple[int, ...]  # the game's finished rounds (links to each)
    step: int
    last_step: int
    kind: str
    step_label: str  # «El reparto», «Jugada 3 de 24», «Fin de la ronda»
    text: Markup
    deal_note: Markup | None  # a new deal came after this step
    card: Card | None  # the card played
    taken: tuple[Card, ...]
    table_before: tuple[Card, ...]
    table: tuple[Card, ...]
    seats: tuple[ReplaySeat, ...]
    escoba: str | None  # «¡ESCOBA!» / «¡ESCOBA DOBLE!»
    totals: tuple[tuple[Markup, int, int], ...]  # at the end: side, points, total
    leftover_check: str | None = None  # at the end: «Restos: 25 = 10 + 15»

    @property
    def notations(self) -> str:
        return " ".join(NOTATION[c] for c in self.table)


def _names(replay: RoundReplay, lang: str) -> tuple[Markup, ...]:
    return tuple(who(n, s in replay.robots, lang) for s, n in enumerate(replay.names))


def _describe(step: RoundStep, names: tuple[Markup, ...], design: Design, lang: str) -> Markup:
    tr = translations(lang)

    def _(message: str) -> Markup:
        return escape(tr.gettext(message))

    seat_name = names[step.seat] if step.seat is not None else Markup("")
    if step.kind == "deal":
        if step.taken:
            return _("%(who)s reparte y se lleva la mesa: %(cards)s") % {
                "who": seat_name,
                "cards": cards_phrase(step.taken, design, lang),
            }
        return _("%(who)s reparte y pone cuatro cartas en la mesa.") % {"who": seat_name}
    if step.kind == "end":
        if not step.taken:
            return _("La ronda termina con la mesa vacía.")
        if step.seat is None:
            return _("Lo que queda en la mesa no es para nadie: %(cards)s.") % {
                "cards": cards_phrase(step.taken, design, lang)
            }
        return _("%(who)s se lleva lo que queda en la mesa: %(cards)s.") % {
            "who": seat_name,
            "cards": cards_phrase(step.taken, design, lang),
        }
    assert step.seat is not None and step.card is not None
    action = RoundAction(step.seat, step.kind, step.card, step.taken, step.escobas > 0)
    return describe_action(action, names, design, lang)


def _deal_note(step: RoundStep, lang: str) -> Markup | None:
    if not step.new_deal:
        return None
    tr = translations(lang)
    if step.last_deal:
        return escape(tr.gettext("Se reparten tres cartas a cada uno: ÚLTIMAS."))
    return escape(tr.gettext("Se reparten tres cartas a cada uno."))


def _step_label(step: RoundStep, plays: int, lang: str) -> str:
    tr = translations(lang)
    if step.kind == "deal":
        return tr.gettext("El reparto")
    if step.kind == "end":
        return tr.gettext("Fin de la ronda")
    return tr.gettext("Jugada %(k)s de %(n)s") % {"k": step.number, "n": plays}


def replay_page(replay: RoundReplay, number: int, design: Design, lang: str) -> ReplayPage:
    """Step `number` of the round (NotFound past its ends)."""
    story = replay.story
    if not 0 <= number < len(story.steps):
        raise NotFound("no_step")
    step = story.steps[number]
    names = _names(replay, lang)
    text = _describe(step, names, design, lang)
    escoba = None
    if step.escobas and step.kind != "end":
        escoba = "¡ESCOBA DOBLE!" if step.escobas >= 2 else "¡ESCOBA!"
        if escoba in text:  # the sentence says it already (the play log's words)
            escoba = None
    totals: tuple[tuple[Markup, int, int], ...] = ()
    if step.kind == "end":
        sides = len(story.scores)
        totals = tuple(
            (
                and_list(
                    [names[s] for s in range(story.players) if side_of(s, story.players) == side],
                    lang,
                ),
                story.scores[side].points,
                story.totals[side],
            )
            for side in range(sides)
        )
    return ReplayPage(
        invite=replay.invite,
        round_number=story.number,
        rounds=replay.finished,
        step=number,
        last_step=len(story.steps) - 1,
        kind=step.kind,
        step_label=_step_label(step, len(story.steps) - 2, lang),
        text=text,
        deal_note=_deal_note(step, lang),
        card=step.card,
        taken=step.taken,
        table_before=step.table_before,
        table=step.table,
        seats=tuple(
            ReplaySeat(
                name=names[s],
                pile=step.piles[s],
                escobas=step.seat_escobas[s],
                acting=step.seat == s,
            )
            for s in range(story.players)
        ),
        escoba=escoba,
        totals=totals,
        leftover_check=(
            say("leftover_check", lang, check=leftover_sum(*leftover_check(step.taken)))
            if step.kind == "end" and step.taken
            else None
        ),
    )


def _whole_number(text: str | None, default: int) -> int | None:
    """A step or round number as the URL writes it; None if it is not one."""
    if text is None:
        return default
    if not text.isascii() or not text.isdigit() or len(text) > 4:
        return None
    return int(text)


def _not_found(here: Visit, code: str) -> HTMLResponse:
    exc = NotFound(code)
    return error_page(
        here.refusal_text(exc),
        404,
        back_url=f"/t/{here.invite}",
        lang=here.lang,
        limits=here.limits,
        title="no_round_title",
    )


@router.get("/t/{invite}/repeticion")
async def last_round_replay(here: VisitDep) -> Response:
    """The replay of the game's last finished round."""
    try:
        number = here.service.last_finished_round(here.invite)
    except NotFound as exc:
        if exc.code == "no_table":
            return refusal(here.request, exc)
        return _not_found(here, exc.code)
    except ServiceError as exc:
        return refusal(here.request, exc, back_url=f"/t/{here.invite}")
    return RedirectResponse(f"/t/{here.invite}/ronda/{number}", status_code=303)


@router.get("/t/{invite}/ronda/{number}", response_class=HTMLResponse)
async def round_replay(here: VisitDep, number: str, paso: str | None = None) -> HTMLResponse:
    """One step of a finished round: `paso` 0 is the deal, the last its end."""
    round_number = _whole_number(number, 0)
    step = _whole_number(paso, 0)
    if round_number is None:
        return _not_found(here, "no_round")
    try:
        replay = here.service.round_replay(here.invite, round_number)
        if step is None:
            raise NotFound("no_step")
        model = replay_page(replay, step, here.design, here.lang)
    except NotFound as exc:
        if exc.code == "no_table":
            return refusal(here.request, exc)
        return _not_found(here, exc.code)
    except ServiceError as exc:
        return refusal(here.request, exc, back_url=f"/t/{here.invite}")
    body = render_page(
        "replay.html",
        here.lang,
        here.limits,
        r=model,
        design=here.design,
        notation=NOTATION.__getitem__,
        back_focus=here.request.query_params.get("ir"),
        next_path=f"/t/{here.invite}/ronda/{model.round_number}?paso={model.step}",
    )
    return html_response(body)


@router.get("/t/{invite}/registro")
async def record_file(here: VisitDep) -> Response:
    """The game record (escoba-record/1) as a file: the JSON API's record,
    given only once the game is over."""
    try:
        record, game_number = here.service.record_file(here.invite)
    except ServiceError as exc:
        if isinstance(exc, NotFound):
            return refusal(here.request, exc)
        return refusal(here.request, exc, back_url=f"/t/{here.invite}")
    name = f"escoba-partida-{game_number}.json"
    return Response(
        json.dumps(record, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "no-store",
        },
    )
