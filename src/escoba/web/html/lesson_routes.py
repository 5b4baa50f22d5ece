"""«Aprender a jugar»: the first lesson's pages (escoba.lessons).

    GET  /aprender              the stages, and EMPEZAR
    GET  /aprender/{n}          stage n: its position on the table's board
    POST /aprender/{n}          a play, LLEVAR EL 15 or an answer: the stage
                                again, with what was right or wrong in it
    POST /aprender/jugar        a first game against Tito, the coach on

Stateless: the stage is in the address and the answer in the form; nothing
is stored until the person asks for the game. A play the engine refuses, a
form that cannot be read or a stage that does not exist get a clear message
(422, 404), never a change.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from escoba.engine import Action, IllegalAction, InputError, RuleSet, apply, verify
from escoba.lessons import (
    STAGES,
    YOU,
    Stage,
    Verdict,
    answer_of,
    judge,
    judge_answer,
    position,
    stage_at,
)
from escoba.web.base.errors import ServiceError
from escoba.web.frame.deps import ContextDep, device_of, hold_seat, lang_of
from escoba.web.html.forms import parse_claim, parse_play
from escoba.web.html.routes import design_of, error_page, html_response, limits_of
from escoba.web.rendering.board import board_model
from escoba.web.rendering.lesson import (
    TITO_KEY,
    LessonPage,
    lesson_summary,
    point_reasons,
    stage_title,
    stage_titles,
    table_page,
    task_text,
    verdict_text,
)
from escoba.web.rendering.templating import refusal_text, render_page
from escoba.words import say

router = APIRouter(include_in_schema=False)

#: the first game's target: the site's shorter one
FIRST_GAME_TARGET = 21


def _lesson(
    request: Request,
    number: int,
    stage: Stage,
    verdict: Verdict | None = None,
    error: str | None = None,
) -> LessonPage:
    """Stage `number` as this viewer sees it: the position (or, after a
    right play, the position that play made), and what was said of the
    answer."""
    lang, design = lang_of(request), design_of(request)
    state = position(stage)
    right = verdict is not None and verdict.right
    if right and verdict is not None and verdict.action is not None:
        state, _ = apply(state, YOU, verdict.action)
    board = None
    summary = None
    if stage.question is None:
        board = board_model(table_page(state, lang), design, lang, limits_of(request))
    else:
        summary = lesson_summary(state, lang)
    return LessonPage(
        number=number,
        count=len(STAGES),
        stage=stage,
        title=stage_title(stage, lang),
        task=task_text(stage, design, lang),
        board=board,
        summary=summary,
        active=not right and stage.question is None,
        verdict=None if verdict is None else verdict_text(verdict, design, lang),
        right=right,
        error=error,
        reasons=point_reasons(stage, design, lang) if right and stage.question else (),
    )


def _show(request: Request, lesson: LessonPage, status_code: int = 200) -> HTMLResponse:
    lang = lang_of(request)
    device = device_of(request)
    body = render_page(
        "lesson/stage.html",
        lang,
        limits_of(request),
        lesson=lesson,
        design=design_of(request),
        name=None if device is None else device.name,
        next_path=lesson.action,
    )
    return html_response(body, status_code)


def _no_stage(request: Request) -> HTMLResponse:
    lang, limits = lang_of(request), limits_of(request)
    return error_page(
        say("page_not_found", lang), 404, "/aprender", lang, limits, title="error_title"
    )


@router.get("/aprender", response_class=HTMLResponse)
async def lesson_index(request: Request) -> HTMLResponse:
    lang = lang_of(request)
    body = render_page(
        "lesson/index.html",
        lang,
        limits_of(request),
        titles=stage_titles(lang),
        next_path="/aprender",
    )
    return html_response(body)


@router.get("/aprender/{number:int}", response_class=HTMLResponse)
async def lesson_stage(request: Request, number: int) -> HTMLResponse:
    stage = stage_at(number)
    if stage is None:
        return _no_stage(request)
    return _show(request, _lesson(request, number, stage))


@router.post("/aprender/{number:int}", response_class=HTMLResponse)
async def lesson_answer(
    request: Request,
    number: int,
    kind: Annotated[str, Form()] = "",
    card: Annotated[str, Form()] = "",
    capture: Annotated[str, Form()] = "",
    mode: Annotated[str, Form()] = "capture",
    group: Annotated[str, Form()] = "",
    answer: Annotated[str, Form()] = "",
) -> HTMLResponse:
    """The player's tap, checked by the engine and judged: the stage again
    with its verdict (a right play shown made); a refused one with why."""
    stage = stage_at(number)
    if stage is None:
        return _no_stage(request)
    lang = lang_of(request)
    if stage.question is not None:
        if kind != "answer" or not answer.strip().isdigit() or int(answer) not in stage.choices:
            lesson = _lesson(request, number, stage, error=say("bad_form", lang))
            return _show(request, lesson, 422)
        verdict = judge_answer(stage, int(answer))
        return _show(request, _lesson(request, number, stage, verdict))
    action: Action
    try:
        if kind == "claim":
            action = parse_claim(group)
        elif kind == "play":
            action = parse_play(card, capture, mode)
        else:
            raise InputError("bad_form")
        verify(position(stage), YOU, action)
    except (InputError, IllegalAction) as exc:
        error = say(exc.code, lang, limits=limits_of(request), **exc.params)
        return _show(request, _lesson(request, number, stage, error=error), 422)
    return _show(request, _lesson(request, number, stage, judge(stage, action)))


@router.post("/aprender/jugar")
async def lesson_game(
    request: Request,
    ctx: ContextDep,
    name: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    """The lesson's end: a table with this person and Tito, the coach on
    for the person's seat, the game started."""
    service = ctx.service
    try:
        joined = service.lobby.create_table(name, RuleSet(target=FIRST_GAME_TARGET))
        added = service.lobby.add_robot(joined.invite, joined.token, 1, TITO_KEY)
        service.coaching.choose_coach(joined.invite, joined.token, True)
        service.lobby.start(joined.invite, joined.token, added.version)
    except ServiceError as exc:
        lang, limits = lang_of(request), limits_of(request)
        number = len(STAGES)
        stage = STAGES[-1]
        done = judge_answer(stage, answer_of(stage))
        lesson = _lesson(request, number, stage, done, error=refusal_text(exc, lang, limits))
        return _show(request, lesson, exc.status)
    response = RedirectResponse(f"/t/{joined.invite}", status_code=303)
    hold_seat(request, response, joined.invite, joined.token)
    return response
