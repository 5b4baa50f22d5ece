"""Playing: LLEVAR, DEJAR EN LA MESA and LLEVAR EL 15 (a person's or a
robot's), and SIGUIENTE RONDA."""

from __future__ import annotations

from sqlalchemy import Connection

from escoba.engine import Action, Card, GameState, IllegalAction, apply, start_next_round
from escoba.web.base.errors import Conflict, Forbidden
from escoba.web.table.command_path import CommandPath, Outcome, logged_since
from escoba.web.table.store import (
    Credential,
    SeatDraft,
    TableRecord,
    TableTx,
)


class Playing:
    """The plays and SIGUIENTE RONDA, each a command of the one path (`path`)."""

    def __init__(self, path: CommandPath) -> None:
        self.path = path

    def act(self, invite: str, token: Credential, version: int, action: Action) -> Outcome:
        """LLEVAR, DEJAR EN LA MESA or LLEVAR EL 15 by the seat that holds `token`."""

        def command(tx: TableTx) -> None:
            seat = self.path.player(tx.table, token)
            self.play(tx, seat, action)

        return self.path.run(invite, token, version, command)

    def next_round(self, invite: str, token: Credential, version: int) -> Outcome:
        """SIGUIENTE RONDA: any player of the game may deal the next round."""

        def command(tx: TableTx) -> None:
            seat = self.path.player(tx.table, token)
            state = self.path.state(tx)
            try:
                state, _ = start_next_round(state, self.path.shuffle())
            except IllegalAction as err:
                raise Conflict(err.code, **err.params) from err
            deck = [int(c) for c in round_deck(state)]
            self.path.save(tx, state, turn_started=True)
            self.path.log_entry(tx, seat.position, "next_round", {"deck": deck})

        def done(conn: Connection, table: TableRecord, version: int) -> bool:
            """Pressed on `version`: a round was dealt since (two pressed it
            together), so the wish is done — the fresh board, no error."""
            self.path.player(table, token)  # (a refusal of its own for anyone else)
            return logged_since(conn, table, version, "next_round")

        return self.path.run(invite, token, version, command, done=done)

    def play(self, tx: TableTx, seat: SeatDraft, action: Action) -> None:
        """In a command: `seat` plays `action` (a person's or a robot's)."""
        state = self.path.state(tx)
        if seat.game_seat is None:
            raise Forbidden("not_playing")
        try:
            state, _ = apply(state, seat.game_seat, action)
        except IllegalAction as err:
            raise Conflict(err.code, **err.params) from err
        self.path.save(tx, state)
        self.path.log_entry(
            tx,
            seat.position,
            "action",
            {"seat": seat.game_seat, "action": action.to_dict()},
        )


def round_deck(state: GameState) -> list[Card]:
    """The order the current round was dealt in (for the log)."""
    rs = state.round
    out: list[Card] = []
    for i, deal in enumerate(rs.deals):
        for k in range(1, state.players + 1):
            out.extend(deal.hands[(rs.dealer + k) % state.players])
        if i == 0:
            out.extend(deal.table)
    out.extend(rs.deck)
    return out
