"""Every game of a table, each at an address of its own (issue 34, point 5):
a rematch never takes a finished game's pages away (escoba.web.table.history).

    GET /t/{invite}/partidas                        the table's games: the series,
                                                    each game's result and date
    GET /t/{invite}/partidas/{g}                    game g told whole (as /partida)
    GET /t/{invite}/partidas/{g}/registro           its record, escoba-record/1
    GET /t/{invite}/partidas/{g}/ronda/{n}?paso=k   step k of its round n
    GET /t/{invite}/partidas/{g}/ronda/{n}/analisis?paso=k   that step's analysis (htmx)
    GET /t/{invite}/partidas/{g}/analisis           the game's analysis block (htmx)

The pages are the story's (escoba.web.html.story_routes), under the game's
own path; the game in play answers there as on its table's paths (a
finished round, a finished game only). A game the table never played is a
404 that says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup, escape

from escoba.i18n import translations
from escoba.web.base.errors import NotFound, ServiceError
from escoba.web.html.routes import Visit, VisitDep, error_page, html_response, refusal
from escoba.web.html.story_routes import (
    game_analysis_response,
    game_base,
    record_file_response,
    record_page_response,
    replay_response,
    round_analysis_response,
)
from escoba.web.rendering.board import side_name, who
from escoba.web.rendering.templating import render_page
from escoba.web.table.history import GameLine, TableGames
from escoba.words import Limits, say_result_html

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True, slots=True)
class GameItem:
    """One game of the list."""

    number: int
    base: str  # its pages' path
    in_play: bool
    sides: Markup  # «Ana contra Tito robot»
    result: Markup | None  # how it ended, in words (None while it is played)
    score: tuple[tuple[Markup, int], ...]  # each side and its points
    rounds: tuple[int, ...]  # its finished rounds
    began: datetime | None
    ended: datetime | None


@dataclass(frozen=True, slots=True)
class GamesPage:
    """The list of a table's games (`games.html`)."""

    invite: str
    games: tuple[GameItem, ...]
    series: tuple[tuple[Markup, int], ...]  # each person (or robot) and the games won
    decided: int


def _item(invite: str, line: GameLine, lang: str, limits: Limits) -> GameItem:
    names = tuple(who(n, s in line.robots, lang) for s, n in enumerate(line.names))
    sides = tuple(side_name(side, line.players, names, lang) for side in range(len(line.totals)))
    against = escape(translations(lang).gettext("%(a)s contra %(b)s"))
    played = sides[0]
    for side in sides[1:]:
        played = against % {"a": played, "b": side}
    result = None
    if line.result is not None:
        result = say_result_html(line.result, names, line.players, lang, limits=limits)
    return GameItem(
        number=line.number,
        base=game_base(invite, line.number),
        in_play=line.in_play,
        sides=played,
        result=result,
        score=tuple(zip(sides, line.totals, strict=True)),
        rounds=tuple(number for number, _, _ in line.rounds),
        began=line.began,
        ended=line.ended,
    )


def games_page(games: TableGames, lang: str, limits: Limits) -> GamesPage:
    names = {p: who(n, robot, lang) for p, n, robot in games.seats}
    return GamesPage(
        invite=games.invite,
        games=tuple(_item(games.invite, g, lang, limits) for g in reversed(games.games)),
        series=tuple((names[p], wins) for p, wins in games.wins if p in names),
        decided=games.decided,
    )


def _game_number(text: str) -> int | None:
    """A game's number as the URL writes it; None if it is not one."""
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        return None
    return int(text)


def _no_game(here: Visit) -> HTMLResponse:
    exc = NotFound("no_such_game")
    return error_page(
        here.refusal_text(exc),
        404,
        back_url=f"/t/{here.invite}/partidas",
        lang=here.lang,
        limits=here.limits,
        title="no_such_game_title",
    )


@router.get("/t/{invite}/partidas", response_class=HTMLResponse)
async def table_games(here: VisitDep) -> HTMLResponse:
    """The table's games, the last first: the series, each game's result,
    points and date, and the links to its pages."""
    try:
        games = here.service.history.table_games(here.invite)
    except ServiceError as exc:
        return refusal(here.request, exc)
    body = render_page(
        "games.html",
        here.lang,
        here.limits,
        g=games_page(games, here.lang, here.limits),
        next_path=f"/t/{here.invite}/partidas",
    )
    return html_response(body)


@router.get("/t/{invite}/partidas/{game}", response_class=HTMLResponse)
async def game_page(here: VisitDep, game: str) -> HTMLResponse:
    """Game `game` told whole (the page of `/t/{invite}/partida`)."""
    number = _game_number(game)
    if number is None:
        return _no_game(here)
    return record_page_response(here, number)


@router.get("/t/{invite}/partidas/{game}/registro")
async def game_record_file(here: VisitDep, game: str) -> Response:
    """Game `game`'s record (escoba-record/1), as a file."""
    number = _game_number(game)
    if number is None:
        return _no_game(here)
    return record_file_response(here, number)


@router.get("/t/{invite}/partidas/{game}/ronda/{number}", response_class=HTMLResponse)
async def game_round_replay(
    here: VisitDep, game: str, number: str, paso: str | None = None
) -> HTMLResponse:
    """Step `paso` of round `number` of game `game`."""
    game_number = _game_number(game)
    if game_number is None:
        return _no_game(here)
    return replay_response(here, game_number, number, paso)


@router.get("/t/{invite}/partidas/{game}/ronda/{number}/analisis", response_class=HTMLResponse)
async def game_round_analysis(
    here: VisitDep, game: str, number: str, paso: str | None = None
) -> HTMLResponse:
    """The analysis block of a step of game `game` (htmx)."""
    game_number = _game_number(game)
    if game_number is None:
        return _no_game(here)
    return round_analysis_response(here, game_number, number, paso)


@router.get("/t/{invite}/partidas/{game}/analisis", response_class=HTMLResponse)
async def game_analysis(here: VisitDep, game: str) -> HTMLResponse:
    """The analysis block of game `game` (htmx)."""
    number = _game_number(game)
    if number is None:
        return _no_game(here)
    return game_analysis_response(here, number)
