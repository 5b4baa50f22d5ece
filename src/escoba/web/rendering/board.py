"""The board model: what a table's board shows one viewer, computed from
their `TablePage` so that the templates stay plain and the rules stay in the
engine: the groups a hand card may take come from `View.legal`, never from a
sum done in a template. The sentences about play (who took what, who won)
are made here, in the viewer's language, with people's names escaped; how
the game ended is the catalog's (`escoba.words.say_result_html`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from markupsafe import Markup, escape

from escoba.bots import SEATABLE
from escoba.engine import Claim, Phase, Play, RuleSet, View
from escoba.engine.cards import NOTATION, VALUE
from escoba.engine.scoring import leftover_check
from escoba.engine.seats import seats_of_side
from escoba.engine.state import RoundAction, RoundSummary
from escoba.i18n import translations
from escoba.names import (
    AND,
    Design,
    card_name,
    the_card,
    the_cards,
)
from escoba.web.base.settings import DEFAULT_LIMITS
from escoba.web.rendering.score_lines import WhyLine, rules_sentence, why_lines
from escoba.web.table.pages import RoundPoints, TablePage
from escoba.web.table.story import series_names
from escoba.words import Limits, leftover_sum, say, say_html, say_result_html

RECENT_PLAYS: Final = 6


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
    robot_level: str | None = None  # how well the robot of the seat plays (RobotInfo.level)


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
    # what each line gave (the engine's scoring): they add up to `points`
    points_escobas: int = 0
    points_cards: int = 0
    points_diamonds: int = 0
    points_sevens: int = 0
    points_seven_of_diamonds: int = 0
    # under la setenta the sevens' line is the side's setenta (None: «coja»)
    setenta: int | None = None


@dataclass(frozen=True, slots=True)
class RoundTable:
    number: int
    rows: tuple[SummaryRow, ...]
    leftover: Markup | None
    setenta: bool = False  # la setenta replaced «most sevens» in this round
    leftover_check: str | None = None  # «Cuenta de los restos: suman 25 = 10 + 15 (…)»
    # which rules the round was played under (say_rules' sentence, its words
    # linked to the rules page: score_lines.rules_sentence)
    rules: str = ""
    # why each line gave its points, with its paragraph of /reglas (score_lines)
    why: tuple[WhyLine, ...] = ()


@dataclass(frozen=True, slots=True)
class LastStep:
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
class GameRounds:
    """The points of every finished round of the game, per side (the game's
    end shows them): `labels` name the sides, `winners` the sides that won."""

    labels: tuple[Markup, ...]
    rows: tuple[RoundPoints, ...]
    winners: tuple[int, ...]
    yours: int | None


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
    # LLEVAR EL 15 as the engine's claims name it (their `group`, the other
    # table cards): what the claim form sends back
    claim_groups: tuple[tuple[str, ...], ...]
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
    move: LastStep | None = None
    rounds: GameRounds | None = None
    series: tuple[tuple[Markup, int], ...] = ()  # «Serie»: who, games won

    @property
    def claim_groups_json(self) -> str:
        return json.dumps([list(g) for g in self.claim_groups])


def who(name: str, robot: bool = False, lang: str = "es", level: str | None = None) -> Markup:
    """A name as the pages show it: in its own <bdi>, so that letters written
    right to left in it cannot reorder the words around it, and followed by
    the robot mark when a robot plays the seat. No person's name may look
    like a robot's or say «robot» (`escoba.spoofing`), so the mark
    cannot be forged. `level`: the robot's (`RobotInfo.level`), a tag after
    the mark as the lobby's seats and the board's have it («aprende»), its
    description in the title."""
    html = Markup('<bdi class="who">{}</bdi>').format(name)
    if robot:
        mark = translations(lang).gettext("robot")
        html += Markup(' <span class="tag tag-robot">{}</span>').format(mark)
        if level is not None:
            html += Markup(' <span class="tag tag-level" title="{}">{}</span>').format(
                say(f"robot_about_{level}", lang), say(f"robot_level_{level}", lang)
            )
    return html


def robot_level(robot: str | None) -> str | None:
    """The level of a seat's robot (by its key), None for a person."""
    info = SEATABLE.get(robot) if robot is not None else None
    return None if info is None else info.level


def _names_shown(page: TablePage, lang: str = "es") -> tuple[Markup, ...]:
    """Each engine seat's name as shown (`who`), robots marked."""
    robots = {s.game_seat for s in page.seats if s.is_robot and s.game_seat is not None}
    return tuple(who(name, seat in robots, lang) for seat, name in enumerate(page.names))


def and_list(items: list[Markup], lang: str = "es") -> Markup:
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
    return side_name(side, view.players, names, lang)


def side_name(side: int, players: int, names: tuple[Markup, ...], lang: str = "es") -> Markup:
    """A side of a game of `players` by its players' names (`side_label`)."""
    members = [_name(names, s, lang) for s in seats_of_side(side, players)]
    return and_list(members, lang)


def _name(names: tuple[Markup, ...], seat: int, lang: str = "es") -> Markup:
    if 0 <= seat < len(names):
        return names[seat]
    return say_html("nameless_player", lang, n=seat + 1)


def _move(view: View) -> LastStep | None:
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
        return LastStep(f"{key_base}-{len(view.history)}", kind, last.seat, card, taken, splash)
    take = view.table_take
    if take is not None and view.phase is Phase.PLAYING:
        splash = "¡ESCOBA DOBLE!" if take.escobas >= 2 else "¡ESCOBA!"
        taken = tuple(NOTATION[c] for c in take.cards)
        return LastStep(f"{view.round_number}-take", "deal", take.seat, "", taken, splash)
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
    return describe_action(view.history[index], names, design, lang)


def describe_action(
    action: RoundAction, names: tuple[Markup, ...], design: Design, lang: str = "es"
) -> Markup:
    """A play of a round in words (the play log, the replay of a round)."""

    def _(message: str) -> Markup:
        return _text(translations(lang).gettext(message))

    who = _name(names, action.seat, lang)
    if action.kind == "claim":
        text = _("%(who)s lleva el 15: %(cards)s") % {
            "who": who,
            "cards": the_cards(action.cards, design, lang),
        }
    elif action.cards:
        text = _("%(who)s juega %(card)s y lleva %(cards)s") % {
            "who": who,
            "card": the_card(action.card, design, lang),
            "cards": the_cards(action.cards, design, lang),
        }
    else:
        text = _("%(who)s deja %(card)s en la mesa") % {
            "who": who,
            "card": the_card(action.card, design, lang),
        }
    return text + " — ¡ESCOBA!" if action.escoba else text


def round_table(
    summary: RoundSummary,
    players: int,
    rules: RuleSet,
    names: tuple[Markup, ...],
    winners: tuple[int, ...] = (),
    my_side: int | None = None,
    lang: str = "es",
) -> RoundTable:
    """A finished round's score table, per side: the round's summary on the
    board, and each round of the game's readable record."""
    tr = translations(lang)
    rows = tuple(
        SummaryRow(
            label=side_name(side, players, names, lang),
            escobas=score.escobas,
            cards=score.cards,
            diamonds=score.diamonds,
            sevens=score.sevens,
            seven_of_diamonds=score.seven_of_diamonds,
            points=score.points,
            total=summary.totals[side],
            is_yours=my_side == side,
            is_winner=side in winners,
            points_escobas=score.points_escobas,
            points_cards=score.points_cards,
            points_diamonds=score.points_diamonds,
            points_sevens=score.points_sevens,
            points_seven_of_diamonds=score.points_seven_of_diamonds,
            setenta=score.setenta,
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
    return RoundTable(
        number=summary.number,
        rows=rows,
        leftover=leftover,
        setenta=rules.setenta,
        leftover_check=(
            say("leftover_check", lang, check=leftover_sum(*leftover_check(left.cards)))
            if left.cards
            else None
        ),
        rules=rules_sentence(rules, lang),
        why=why_lines(summary.scores, [row.label for row in rows], rules, lang),
    )


def board_model(
    page: TablePage, design: Design, lang: str = "es", limits: Limits = DEFAULT_LIMITS
) -> Board | None:
    """What `page.view` shows, in the viewer's design and language (the
    hours and days it quotes from `limits`); None in the lobby."""
    view = page.view
    if view is None:
        return None
    _ = translations(lang).gettext
    names = _names_shown(page, lang)
    robots = {s.game_seat for s in page.seats if s.is_robot and s.game_seat is not None}
    levels = {
        s.game_seat: SEATABLE[s.robot].level
        for s in page.seats
        if s.robot is not None and s.robot in SEATABLE and s.game_seat is not None
    }
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
            absent=info.seat == page.can.absent_seat,
            flash=flashes.get(info.seat),
            robot_level=levels.get(info.seat),
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
            "cards": the_cards(take.cards, design, lang),
        }
        recent = (*recent, line + double)
    winners = view.result.winners if view.result is not None else ()
    summary = None
    if view.phase is not Phase.PLAYING and view.last_round is not None:
        summary = round_table(
            view.last_round, view.players, view.rules, names, winners, view.my_side, lang
        )
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
        winners_text=(
            None
            if view.result is None
            else say_result_html(view.result, names, view.players, lang, limits=limits)
        ),
        spectator=view.seat is None,
        move=_move(view),
        rounds=(
            GameRounds(
                labels=tuple(side_label(s, view, names, lang) for s in range(view.sides)),
                rows=page.rounds,
                winners=winners,
                yours=view.my_side,
            )
            if page.rounds
            else None
        ),
        series=_series(page, view, lang),
    )


def _series(page: TablePage, view: View, lang: str) -> tuple[tuple[Markup, int], ...]:
    """«Serie: Ana 2 – Tito 1»: the games won at the table, per side of the
    game in play (each player alone when partners' counts differ)."""
    if page.series is None:
        return ()
    by_seat = {s.game_seat: s for s in page.seats if s.game_seat is not None}
    by_position = {s.position: s for s in page.seats}
    sides = [
        [by_seat[g].position for g in seats_of_side(side, view.players) if g in by_seat]
        for side in range(view.sides)
    ]
    return tuple(
        (
            and_list(
                [who(by_position[p].name, by_position[p].is_robot, lang) for p in group], lang
            ),
            wins,
        )
        for group, wins in series_names(page.series, sides)
    )


# --------------------------------------------------------------------------
# Templates
