"""The pages of the game's story (escoba.web.table.story): the replay of a finished
round, play by play (ANTERIOR / SIGUIENTE are plain links: `?paso=N`), the
game record as a file to download, and the same game as a page to read and
print: every round's plays in words and its points.

    GET /t/{invite}/repeticion          the last finished round's replay
    GET /t/{invite}/ronda/{n}?paso=k     step k of round n (0: the deal)
    GET /t/{invite}/registro             escoba-record/1, as an attachment
    GET /t/{invite}/partida              the game told whole, to read or print
    GET /t/{invite}/ronda/{n}/analisis?paso=k   step k's analysis block (htmx)
    GET /t/{invite}/analisis             the game's analysis block (htmx)

Each but the first is also a game's own page, under `/t/{invite}/partidas/{n}`
(escoba.web.html.game_pages): these paths tell the game in play, those any
game the table played, a rematch's predecessors included.

Anyone with the table's link may open them, as they may watch the table:
a replay tells only finished rounds, the record and its page only a
finished game.
"""

from __future__ import annotations

import json
from dataclasses import replace

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from escoba.engine.cards import NOTATION
from escoba.names import Design
from escoba.web.base.errors import NotFound, ServiceError
from escoba.web.html.routes import Visit, VisitDep, error_page, html_response, refusal
from escoba.web.rendering.analysis import (
    Position,
    RoundAnalysisBlock,
    game_block,
    position_of,
    round_block,
)
from escoba.web.rendering.story import ReplayPage, record_page, replay_page
from escoba.web.rendering.templating import render_page

router = APIRouter(include_in_schema=False)


def _whole_number(text: str | None, default: int) -> int | None:
    """A step or round number as the URL writes it; None if it is not one."""
    if text is None:
        return default
    if not text.isascii() or not text.isdigit() or len(text) > 4:
        return None
    return int(text)


def _refused(here: Visit, exc: ServiceError) -> HTMLResponse:
    """A story page refused: no such table (the app's page), nothing to tell
    there (a 404 that says so), or not yet (back to the table)."""
    if isinstance(exc, NotFound):
        if exc.code == "no_table":
            return refusal(here.request, exc)
        return _not_found(here, exc.code)
    return refusal(here.request, exc, back_url=f"/t/{here.invite}")


def _not_found(here: Visit, code: str) -> HTMLResponse:
    exc = NotFound(code)
    return error_page(
        here.refusal_text(exc),
        404,
        back_url=f"/t/{here.invite}",
        lang=here.lang,
        limits=here.limits,
        title="no_such_game_title" if code == "no_such_game" else "no_round_title",
    )


@router.get("/t/{invite}/repeticion")
async def last_round_replay(here: VisitDep) -> Response:
    """The replay of the game's last finished round."""
    try:
        number = here.service.story.last_finished_round(here.invite)
    except ServiceError as exc:
        return _refused(here, exc)
    return RedirectResponse(f"/t/{here.invite}/ronda/{number}", status_code=303)


def game_base(invite: str, game: int | None) -> str:
    """The path of a game's pages: the game in play's (`/t/{invite}`), or a
    game's own address (`/t/{invite}/partidas/{n}`)."""
    return f"/t/{invite}" if game is None else f"/t/{invite}/partidas/{game}"


@router.get("/t/{invite}/ronda/{number}", response_class=HTMLResponse)
async def round_replay(here: VisitDep, number: str, paso: str | None = None) -> HTMLResponse:
    """One step of a finished round: `paso` 0 is the deal, the last its end."""
    return replay_response(here, None, number, paso)


def replay_response(here: Visit, game: int | None, number: str, paso: str | None) -> HTMLResponse:
    """Step `paso` of round `number` of game `game` (None: the game in play)."""
    round_number = _whole_number(number, 0)
    step = _whole_number(paso, 0)
    if round_number is None:
        return _not_found(here, "no_round")
    base = game_base(here.invite, game)
    try:
        replay = here.service.story.round_replay(here.invite, round_number, game)
        if step is None:
            raise NotFound("no_step")
        model = replay_page(replay, step, here.design, here.lang, base)
    except ServiceError as exc:
        return _refused(here, exc)
    block = _analysis_block(here, model.round_number, model.step, game, base)
    body = render_page(
        "replay.html",
        here.lang,
        here.limits,
        r=model,
        a=block,
        position=_position(model, block, here.design, here.lang),
        design=here.design,
        notation=NOTATION.__getitem__,
        back_focus=here.request.query_params.get("ir"),
        next_path=f"{base}/ronda/{model.round_number}?paso={model.step}",
    )
    return html_response(body)


@router.get("/t/{invite}/registro")
async def record_file(here: VisitDep) -> Response:
    """The game record (escoba-record/1) as a file: the JSON API's record,
    given only once the game is over."""
    return record_file_response(here, None)


def record_file_response(here: Visit, game: int | None) -> Response:
    """The record of game `game` (None: the game in play) as a file."""
    try:
        record, game_number = here.service.story.record_file(here.invite, game)
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


@router.get("/t/{invite}/partida", response_class=HTMLResponse)
async def game_record_page(here: VisitDep) -> HTMLResponse:
    """The game told whole, to read and to print: every round's plays in
    words and its points (the record file's game, once it is over)."""
    return record_page_response(here, None)


def record_page_response(here: Visit, game: int | None) -> HTMLResponse:
    """Game `game` (None: the game in play) told whole."""
    base = game_base(here.invite, game)
    try:
        story = here.service.story.game_story(here.invite, game)
    except ServiceError as exc:
        return _refused(here, exc)
    body = render_page(
        "record.html",
        here.lang,
        here.limits,
        rec=record_page(story, here.design, here.lang, here.limits, base),
        design=here.design,
        next_path=f"{base}/partida" if game is None else base,
    )
    return html_response(body)


# --------------------------------------------------------------------------
# The analysis (escoba.web.rendering.analysis)


def _position(
    model: ReplayPage, block: RoundAnalysisBlock | None, design: Design, lang: str
) -> Position | None:
    """The position before the step's play, the robot's marked once the
    analysis is done."""
    step = model.step_data
    if step is None or step.seat is None:
        return None
    verdict = None if block is None else block.verdict
    return position_of(step, verdict, model.seats[step.seat].name, design, lang)


def _analysis_block(
    here: Visit, round_number: int, step: int, game: int | None, base: str
) -> RoundAnalysisBlock | None:
    """The replay's analysis block; None where there is none to tell."""
    try:
        read = here.service.analyses.round_analysis(here.invite, round_number, game, here.token)
    except ServiceError:
        return None
    return round_block(read, step, here.design, here.lang, base)


@router.get("/t/{invite}/ronda/{number}/analisis", response_class=HTMLResponse)
async def round_analysis_block(
    here: VisitDep, number: str, paso: str | None = None
) -> HTMLResponse:
    """The analysis block of step `paso` of a round's replay: what the
    replay's page asks for every 2 s while the analysis runs."""
    return round_analysis_response(here, None, number, paso)


def round_analysis_response(
    here: Visit, game: int | None, number: str, paso: str | None
) -> HTMLResponse:
    """The analysis block of a step of game `game` (None: the game in play)."""
    round_number = _whole_number(number, 0)
    step = _whole_number(paso, 0)
    if round_number is None or step is None:
        return _not_found(here, "no_round")
    try:
        read = here.service.analyses.round_analysis(here.invite, round_number, game, here.token)
    except ServiceError as exc:
        return _refused(here, exc)
    base = game_base(here.invite, game)
    block = round_block(read, step, here.design, here.lang, base)
    if block.verdict is not None:  # the position again, with the robot's play marked
        try:
            replay = here.service.story.round_replay(here.invite, round_number, game)
            model = replay_page(replay, step, here.design, here.lang, base)
        except ServiceError:
            model = None
        if model is not None:
            block = replace(block, position=_position(model, block, here.design, here.lang))
    body = render_page(
        "_analysis.html",
        here.lang,
        here.limits,
        a=block,
        design=here.design,
        notation=NOTATION.__getitem__,
    )
    return html_response(body)


@router.get("/t/{invite}/analisis", response_class=HTMLResponse)
async def game_analysis_block(here: VisitDep) -> HTMLResponse:
    """The game's analysis at its end: each player's points given away per
    round and their three costliest plays (a link to each one's step)."""
    return game_analysis_response(here, None)


def game_analysis_response(here: Visit, game: int | None) -> HTMLResponse:
    """The analysis block of game `game` (None: the game in play)."""
    try:
        reads = here.service.analyses.game_analyses(here.invite, game)
    except ServiceError as exc:
        return _refused(here, exc)
    body = render_page(
        "_game_analysis.html",
        here.lang,
        here.limits,
        g=game_block(here.invite, reads, here.lang, game_base(here.invite, game)),
    )
    return html_response(body)
