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
from dataclasses import dataclass, replace

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup, escape

from escoba.engine.cards import NOTATION, Card
from escoba.engine.round_steps import RoundStep, RoundStory
from escoba.engine.scoring import leftover_check
from escoba.engine.seats import side_of
from escoba.engine.state import RoundAction, RoundSummary
from escoba.i18n import translations
from escoba.names import Design, cards_phrase
from escoba.web.base.errors import NotFound, ServiceError
from escoba.web.html.analysis_pages import (
    Position,
    RoundAnalysisBlock,
    game_block,
    position_of,
    round_block,
)
from escoba.web.html.routes import Visit, VisitDep, error_page, html_response, refusal
from escoba.web.rendering.board import (
    GameRounds,
    RoundTable,
    and_list,
    describe_action,
    round_table,
    side_name,
    who,
)
from escoba.web.rendering.templating import render_page
from escoba.web.table.story import CutShortRound, GameStory, RoundReplay
from escoba.words import Limits, leftover_sum, say, say_result_html, say_rules

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
    leftover_check: str | None = None  # at the end: «Cuenta de los restos: suman 25 = 10 + 15 (…)»
    base: str = ""  # the game's pages' path: /t/{invite}, or /t/{invite}/partidas/{n}
    game_number: int = 0
    game_over: bool = False
    step_data: RoundStep | None = None  # the engine's step (its position before a play)

    @property
    def notations(self) -> str:
        return " ".join(NOTATION[c] for c in self.table)


def _names(replay: RoundReplay | GameStory, lang: str) -> tuple[Markup, ...]:
    return tuple(who(n, s in replay.robots, lang) for s, n in enumerate(replay.names))


def _deal_text(dealer: Markup, taken: tuple[Card, ...], design: Design, lang: str) -> Markup:
    """A round's first deal: the dealer, and the table taken when it made 15 or 30."""
    tr = translations(lang)
    if taken:
        return escape(tr.gettext("%(who)s reparte y se lleva la mesa: %(cards)s")) % {
            "who": dealer,
            "cards": cards_phrase(taken, design, lang),
        }
    return escape(tr.gettext("%(who)s reparte y pone cuatro cartas en la mesa.")) % {"who": dealer}


def _describe(step: RoundStep, names: tuple[Markup, ...], design: Design, lang: str) -> Markup:
    tr = translations(lang)

    def _(message: str) -> Markup:
        return escape(tr.gettext(message))

    seat_name = names[step.seat] if step.seat is not None else Markup("")
    if step.kind == "deal":
        return _deal_text(seat_name, step.taken, design, lang)
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
    return _next_deal(step.last_deal, lang)


def _next_deal(last: bool, lang: str) -> Markup:
    tr = translations(lang)
    if last:
        return escape(tr.gettext("Se reparten tres cartas a cada uno: ÚLTIMAS."))
    return escape(tr.gettext("Se reparten tres cartas a cada uno."))


def _step_label(step: RoundStep, plays: int, lang: str) -> str:
    tr = translations(lang)
    if step.kind == "deal":
        return tr.gettext("El reparto")
    if step.kind == "end":
        return tr.gettext("Fin de la ronda")
    return tr.gettext("Jugada %(k)s de %(n)s") % {"k": step.number, "n": plays}


def replay_page(
    replay: RoundReplay, number: int, design: Design, lang: str, base: str | None = None
) -> ReplayPage:
    """Step `number` of the round (NotFound past its ends); `base` is the
    path of the game's pages (by default the game in play's)."""
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
        leftover_check=_leftover_check(step.taken, lang) if step.kind == "end" else None,
        base=f"/t/{replay.invite}" if base is None else base,
        game_number=replay.game_number,
        game_over=replay.game_over,
        step_data=step,
    )


def _leftover_check(left: tuple[Card, ...], lang: str) -> str | None:
    """«Cuenta de los restos: …» of the cards left at a round's end, if any."""
    if not left:
        return None
    return say("leftover_check", lang, check=leftover_sum(*leftover_check(left)))


# --------------------------------------------------------------------------
# The game told whole: the readable record


@dataclass(frozen=True, slots=True)
class RecordLine:
    """One line of a round's plays: a play or a claim in words, or a new deal."""

    kind: str  # "play" | "claim" | "deal"
    text: Markup
    number: int | None = None  # the play's number in its round (a step of its replay)


@dataclass(frozen=True, slots=True)
class RecordRound:
    number: int
    finished: bool
    deal: Markup  # «Ana reparte y pone cuatro cartas en la mesa.»
    table: Markup | None  # «En la mesa: …», the four dealt face up (unless taken)
    plays: tuple[RecordLine, ...]
    end: Markup | None  # where the cards left went
    leftover_check: str | None
    points: RoundTable | None  # None for a round cut short


@dataclass(frozen=True, slots=True)
class RecordPage:
    """The game told whole, ready for `record.html`."""

    invite: str
    game_number: int
    sides: Markup  # «Ana contra Carmen robot contra Luna robot»
    rules: str
    result: Markup
    overview: GameRounds
    rounds: tuple[RecordRound, ...]
    base: str = ""  # the game's pages' path: /t/{invite}, or /t/{invite}/partidas/{n}


def _on_table(cards: tuple[Card, ...], design: Design, lang: str) -> Markup | None:
    if not cards:
        return None
    text = escape(translations(lang).gettext("En la mesa: %(cards)s."))
    return text % {"cards": cards_phrase(tuple(sorted(cards)), design, lang)}


def _dealt(text: Markup, escobas: int) -> Markup:
    """The deal's words, with the escobas the dealer's take made, as the play
    log says a play's («— ¡ESCOBA!»)."""
    if not escobas:
        return text
    return text + (" — ¡ESCOBA DOBLE!" if escobas >= 2 else " — ¡ESCOBA!")


def _finished_round(
    story: RoundStory,
    summary: RoundSummary,
    game: GameStory,
    names: tuple[Markup, ...],
    design: Design,
    lang: str,
) -> RecordRound:
    deal, *plays, end = story.steps
    lines: list[RecordLine] = []
    for step in plays:
        lines.append(RecordLine(step.kind, _describe(step, names, design, lang), step.number))
        note = _deal_note(step, lang)
        if note is not None:
            lines.append(RecordLine("deal", note))
    return RecordRound(
        number=story.number,
        finished=True,
        deal=_dealt(_describe(deal, names, design, lang), deal.escobas),
        table=None if deal.taken else _on_table(deal.table_before, design, lang),
        plays=tuple(lines),
        end=_describe(end, names, design, lang),
        leftover_check=_leftover_check(end.taken, lang),
        points=round_table(summary, game.players, game.rules, names, lang=lang),
    )


def _cut_short(
    cut: CutShortRound, players: int, names: tuple[Markup, ...], design: Design, lang: str
) -> RecordRound:
    """A round the game ended in: its public plays, and each new deal where
    it came (after every `players` × 3 cards played, as far as it was dealt)."""
    take = cut.table_take
    lines: list[RecordLine] = []
    played = 0
    for number, action in enumerate(cut.plays, 1):
        text = describe_action(action, names, design, lang)
        lines.append(RecordLine(action.kind, text, number))
        if action.kind == "claim":
            continue  # a claim plays no card from a hand
        played += 1
        dealt = played // (players * 3)
        if played % (players * 3) == 0 and dealt < len(cut.deals):
            lines.append(RecordLine("deal", _next_deal(cut.deals[dealt], lang)))
    return RecordRound(
        number=cut.number,
        finished=False,
        deal=_dealt(
            _deal_text(names[cut.dealer], take.cards if take else (), design, lang),
            take.escobas if take else 0,
        ),
        table=None if take else _on_table(cut.table, design, lang),
        plays=tuple(lines),
        end=None,
        leftover_check=None,
        points=None,
    )


def record_page(
    game: GameStory, design: Design, lang: str, limits: Limits, base: str | None = None
) -> RecordPage:
    names = _names(game, lang)
    sides = tuple(side_name(side, game.players, names, lang) for side in range(len(game.totals)))
    rounds = [
        _finished_round(story, summary, game, names, design, lang) for story, summary in game.rounds
    ]
    if game.cut_short is not None:
        rounds.append(_cut_short(game.cut_short, game.players, names, design, lang))
    against = escape(translations(lang).gettext("%(a)s contra %(b)s"))
    played = sides[0]
    for side in sides[1:]:
        played = against % {"a": played, "b": side}
    return RecordPage(
        invite=game.invite,
        game_number=game.game_number,
        sides=played,
        rules=say_rules(game.rules, lang),
        result=say_result_html(game.result, names, game.players, lang, limits=limits),
        overview=GameRounds(
            labels=sides, rows=game.points, winners=game.result.winners, yours=None
        ),
        rounds=tuple(rounds),
        base=f"/t/{game.invite}" if base is None else base,
    )


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
        number = here.service.last_finished_round(here.invite)
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
        replay = here.service.round_replay(here.invite, round_number, game)
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
        record, game_number = here.service.record_file(here.invite, game)
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
        story = here.service.game_story(here.invite, game)
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
# The analysis (escoba.web.html.analysis_pages)


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
        read = here.service.round_analysis(here.invite, round_number, game, here.token)
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
        read = here.service.round_analysis(here.invite, round_number, game, here.token)
    except ServiceError as exc:
        return _refused(here, exc)
    base = game_base(here.invite, game)
    block = round_block(read, step, here.design, here.lang, base)
    if block.verdict is not None:  # the position again, with the robot's play marked
        try:
            replay = here.service.round_replay(here.invite, round_number, game)
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
        reads = here.service.game_analyses(here.invite, game)
    except ServiceError as exc:
        return _refused(here, exc)
    body = render_page(
        "_game_analysis.html",
        here.lang,
        here.limits,
        g=game_block(here.invite, reads, here.lang, game_base(here.invite, game)),
    )
    return html_response(body)
