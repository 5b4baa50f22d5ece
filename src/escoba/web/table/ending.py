"""How a game ends before its points: ABANDONAR (or SALIR DEL JUEGO) and
TERMINAR POR AUSENCIA, with who counts as absent."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import Connection

from escoba.engine import EndReason, GameState, IllegalAction, end_game
from escoba.web.base.errors import Conflict, Forbidden
from escoba.web.table.command_path import CommandPath, Outcome, logged_since
from escoba.web.table.pages import TableStatus
from escoba.web.table.store import (
    AnyTable,
    Credential,
    TableRecord,
    TableTx,
    person_on_turn,
)


class Ending:
    """ABANDONAR and TERMINAR POR AUSENCIA, commands of the one path (`path`)."""

    def __init__(self, path: CommandPath) -> None:
        self.path = path

    def abandon(self, invite: str, token: Credential, version: int) -> Outcome:
        """ABANDONAR or SALIR DEL JUEGO: the leaver's side loses; the game ends."""

        def command(tx: TableTx) -> None:
            seat = self.path.player(tx.table, token)
            self._end(tx, EndReason.ABANDON, seat.game_seat, seat.position)

        return self.path.run(invite, token, version, command)

    def end_for_absence(self, invite: str, token: Credential, version: int) -> Outcome:
        """TERMINAR POR AUSENCIA: the player on turn has been idle too long
        (`absence_hours`)."""

        def command(tx: TableTx) -> None:
            table = tx.table
            seat = self.path.player(table, token)
            absent = absent_seat(
                table,
                self.path.current_state(tx),
                self.path.clock.now(),
                self.path.settings.absence_hours,
            )
            if absent is None:
                raise Conflict("not_absent", hours=self.path.settings.absence_hours)
            if absent == seat.game_seat:
                raise Forbidden("self_absence")
            absent_pos = next(s.position for s in table.seats if s.game_seat == absent)
            self._end(tx, EndReason.ABSENCE, absent, seat.position, absent_pos)

        def done(conn: Connection, table: TableRecord, version: int) -> bool:
            """Pressed on `version`: someone else ended it for absence since."""
            self.path.player(table, token)
            return logged_since(conn, table, version, "end", EndReason.ABSENCE.value)

        return self.path.run(invite, token, version, command, done=done)

    def _end(
        self,
        tx: TableTx,
        reason: EndReason,
        loser_seat: int | None,
        by_position: int,
        loser_position: int | None = None,
    ) -> None:
        table = tx.table
        if table.status != TableStatus.PLAYING:
            raise Conflict("not_playing", words="no_game")
        state = self.path.state(tx)
        try:
            state, _ = end_game(state, reason, loser_seat)
        except IllegalAction as err:
            raise Conflict(err.code, **err.params) from err
        self.path.save(tx, state)
        table.status = TableStatus.FINISHED.value
        self.path.log_entry(
            tx,
            by_position,
            "end",
            {"reason": reason.value, "loser_seat": loser_seat, "loser_position": loser_position},
        )


def absent_seat(
    table: AnyTable, state: GameState | None, now: datetime, absence_hours: float
) -> int | None:
    """The engine seat on turn, if a person has let it sit over `absence_hours`."""
    moment = absence_moment(table, state, absence_hours)
    if moment is None or now <= moment or state is None:
        return None
    return int(state.round.turn)


def absence_moment(
    table: AnyTable, state: GameState | None, absence_hours: float
) -> datetime | None:
    """When TERMINAR POR AUSENCIA becomes possible against the seat on turn
    (it is, once this moment has passed): `absence_hours` after its turn
    began, if a person is on turn in a round being played."""
    if person_on_turn(table, state) is None:
        return None
    return table.turn_since + timedelta(hours=absence_hours)
