"""Pages built from real engine states, for rendering the templates without
a database: the service fills the same `TablePage` in production."""

from __future__ import annotations

import html
import random
import re
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from escoba.engine import (
    GameState,
    Phase,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    shuffled_deck,
    view,
)
from escoba.web.table.pages import Allowed, ChatLine, PageSeat, TablePage, TableStatus

NAMES = ("Ana", "Beto", "Carmen", "Dani")


def text_of(markup: str) -> str:
    """What a page reads as, tags dropped: names come in their own <bdi>,
    and robots with their mark."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def seat_rows(players: int, you: int | None) -> tuple[PageSeat, ...]:
    return tuple(
        PageSeat(
            position=p,
            name=NAMES[p],
            is_robot=NAMES[p] == "Carmen",
            robot="carmen" if NAMES[p] == "Carmen" else None,
            game_seat=p,
            is_creator=p == 0,
            is_you=p == you,
        )
        for p in range(players)
    )


def make_page(
    state: GameState | None,
    seat: int | None = 0,
    players: int = 2,
    status: TableStatus | None = None,
    can: dict[str, object] | None = None,
    **overrides: object,
) -> TablePage:
    """A page of `state` for the viewer at `seat`, its permissions as the
    service would give them (`can`: some changed; `with_can` after)."""
    seats = seat_rows(players, seat)
    if status is None:
        if state is None:
            status = TableStatus.LOBBY
        elif state.phase is Phase.GAME_OVER:
            status = TableStatus.FINISHED
        else:
            status = TableStatus.PLAYING
    over = state is not None and state.phase is Phase.GAME_OVER
    page = TablePage(
        invite="abc123",
        status=status,
        target=21,
        version=7,
        seats=seats,
        you=seats[seat] if seat is not None else None,
        view=None if state is None else view(state, seat),
        names=NAMES[:players] if state is not None else (),
        chat=(
            ChatLine(
                id=1,
                position=1,
                name="Beto",
                text="<b>hola</b> & suerte",
                at=datetime(2024, 5, 1, 12, 30, tzinfo=UTC),
            ),
        ),
        game_number=1,
        can=Allowed(
            join=state is None and players < 4 and seat is None,
            start=state is None and seat == 0 and players >= 2,
            manage=state is None and seat == 0,
            chat=seat is not None,
            leave=state is not None and seat is not None and state.phase is not Phase.GAME_OVER,
            next_round=state is not None and seat is not None and state.phase is Phase.ROUND_OVER,
            rematch_offered=over,
            rematch=over and seat is not None,
        ),
        partner_position=None,
    )
    page = replace(page, **overrides)  # type: ignore[arg-type]
    return replace(page, can=replace(page.can, **(can or {})))


def with_can(page: TablePage, **can: object) -> TablePage:
    """`page` with some of its viewer's permissions (`Allowed`) changed."""
    return replace(page, can=replace(page.can, **can))  # type: ignore[arg-type]


def start(players: int = 2, seed: int = 1, target: int = 21) -> GameState:
    return new_game(RuleSet(target=target), players, shuffled_deck(random.Random(seed)))


def play_until(state: GameState, done: object, seed: int = 3) -> GameState:
    """Random legal play until `done(state)` holds (or the game ends)."""
    rng = random.Random(seed)
    from escoba.engine import start_next_round

    while not done(state):  # type: ignore[operator]
        if state.phase is Phase.GAME_OVER:
            raise AssertionError("the game ended first")
        if state.phase is Phase.ROUND_OVER:
            state, _ = start_next_round(state, shuffled_deck(rng))
            continue
        seat = state.round.turn
        state, _ = apply(state, seat, rng.choice(legal_actions(state)))
    return state


@pytest.fixture
def playing() -> GameState:
    return start()
