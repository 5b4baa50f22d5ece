"""The screen models of the game's story (escoba.web.table.story): a
finished round's replay, step by step (`replay_page`), and the game told
whole to read or print (`record_page`). The routes that serve them are
escoba.web.html.story_routes.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from escoba.engine.cards import NOTATION, Card
from escoba.engine.round_steps import RoundStep, RoundStory
from escoba.engine.scoring import leftover_check
from escoba.engine.seats import side_of
from escoba.engine.state import RoundAction, RoundSummary
from escoba.i18n import translations
from escoba.names import Design, cards_phrase
from escoba.web.base.errors import NotFound
from escoba.web.rendering.board import (
    GameRounds,
    RoundTable,
    and_list,
    describe_action,
    round_table,
    side_name,
    who,
)
from escoba.web.table.story import CutShortRound, GameStory, RoundReplay
from escoba.words import Limits, leftover_sum, say, say_result_html, say_rules


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
