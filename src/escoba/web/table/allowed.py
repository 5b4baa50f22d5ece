"""What may happen now at a table, for one viewer: computed once from the
table, its game, the time and who looks (`allowed`, an `Allowed`), and read
by the commands' guards, the pages, the API's `can` and the templates —
none of them works it out again (issue 36; lila's `Game.playable`,
`resignable`…).

What the seats are doing, which these rest on, is worked out once in
`store`: the seat on turn in a round being played (`seat_on_turn`,
`person_on_turn`, `robot_on_turn`), the robots' seats (`robot_seats`) and
the creator's partner (`creators_partner`). Which cards the seat on turn may
play or claim is the engine's word alone (`View.legal`, `View.claimable`):
the board, the API and the commands all read it there."""

from __future__ import annotations

from datetime import datetime

from escoba.engine import EndReason, GameState, Phase
from escoba.web.base.errors import Conflict
from escoba.web.table.ending import absent_seat
from escoba.web.table.pages import Allowed, TableStatus
from escoba.web.table.store import (
    MAX_SEATS,
    AnyTable,
    SeatDraft,
    SeatRecord,
    free_position,
)


def rematch_refusal(
    table: AnyTable, seat: SeatRecord | SeatDraft, state: GameState | None
) -> Conflict | None:
    """Why `seat` may not ask for the rematch now (the refusal the command
    raises), or None: it may."""
    if table.status != TableStatus.FINISHED or state is None or state.result is None:
        return Conflict("not_finished")
    if state.result.reason is not EndReason.TARGET:
        return Conflict("no_rematch")
    if seat.rematch:
        return Conflict("already_accepted")
    return None


def allowed(
    table: AnyTable,
    you: SeatRecord | SeatDraft | None,
    state: GameState | None,
    now: datetime,
    absence_hours: float,
) -> Allowed:
    """What the viewer holding `you` (None: nobody's seat) may do now."""
    status = TableStatus(table.status)
    in_lobby = status == TableStatus.LOBBY
    creator = you is not None and you.position == 0
    plays = state is not None and you is not None and you.game_seat is not None
    playing = plays and status == TableStatus.PLAYING
    absent = absent_seat(table, state, now, absence_hours)
    result = state.result if state is not None else None
    offered = status == TableStatus.FINISHED and result is not None
    offered = offered and result is not None and result.reason is EndReason.TARGET
    return Allowed(
        join=in_lobby and you is None and free_position(table) is not None,
        start=in_lobby and creator and len(table.seats) >= 2,
        manage=in_lobby and creator,
        chat=you is not None,
        leave=playing,
        next_round=playing and state is not None and state.phase is Phase.ROUND_OVER,
        absence=plays and absent is not None and you is not None and you.game_seat != absent,
        absent_seat=absent,
        rematch_offered=offered,
        rematch_asked=you is not None and you.rematch,
        rematch=you is not None and offered and rematch_refusal(table, you, state) is None,
        pairs_choice=len(table.seats) == MAX_SEATS and creator,
    )
