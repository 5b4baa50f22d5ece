"""The server's own jobs on tables: the robots' moves (chosen from a seat's
view, played through the one command path), finding robots whose move was
lost with a process, and the expiry of idle tables."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select

from escoba.engine import Action, EndReason, View, end_game, view
from escoba.web.base.errors import Busy, Conflict
from escoba.web.base.models import TableRow
from escoba.web.table.command_path import SERVER, CommandPath
from escoba.web.table.pages import TableStatus
from escoba.web.table.play import Playing
from escoba.web.table.store import TableTx, robot_on_turn, seat_on_turn

_PLAYING_IDS = select(TableRow.id).where(TableRow.status == TableStatus.PLAYING.value)


@dataclass(frozen=True)
class RobotTurn:
    """A robot on turn, as its seat sees the table at `version`."""

    table_id: int
    invite: str
    version: int
    position: int
    robot: str
    view: View


class Jobs:
    """The server's jobs on tables, on the one path (`path`): a robot plays
    as a person does (`playing`)."""

    def __init__(self, path: CommandPath, playing: Playing) -> None:
        self.path = path
        self.playing = playing

    def robot_turn(self, table_id: int) -> RobotTurn | None:
        """The robot on turn at this table and what its seat sees, or None.
        A read: the move is chosen from `view` (anywhere, e.g. in another
        process) and then played with `robot_play`."""
        with self.path.db.snapshot() as conn:
            found = self.path.store.read(conn, "id", table_id)
            if found is None:
                return None
            table, state = found
            robot = seat_on_turn(table, state)
            if state is None or robot is None or robot.robot is None or robot.game_seat is None:
                return None
            turn = robot.game_seat
            return RobotTurn(
                table_id=table.id,
                invite=table.invite,
                version=table.version,
                position=robot.position,
                robot=robot.robot,
                view=view(state, turn),
            )

    def robot_play(self, turn: RobotTurn, action: Action) -> bool:
        """Play the robot's chosen action through the one command path, on the
        version it was chosen on. True when it was played; False when the
        table moved on meanwhile (nothing applied)."""

        def command(tx: TableTx) -> None:
            seat = next(s for s in tx.table.seats if s.position == turn.position)
            self.playing.play(tx, seat, action)

        try:
            self.path.run(turn.invite, None, turn.version, command)
        except Conflict:
            return False  # someone else moved the table on; nothing was applied
        return True

    def robot_move(self, table_id: int) -> bool:
        """If a robot is on turn at this table, let it choose and play one
        action at once. True when it played."""
        turn = self.robot_turn(table_id)
        if turn is None:
            return False
        action = self.path.brain(turn.robot, turn.view, random.Random(secrets.randbits(64)))
        return self.robot_play(turn, action)

    def play_robots(self, table_id: int, limit: int = 1000) -> int:
        """Robots play until a person is on turn (used inline in tests)."""
        moves = 0
        while moves < limit and self.robot_move(table_id):
            moves += 1
        return moves

    def robot_tables(self) -> list[int]:
        """Tables where a robot is on turn (for the runner after a restart)."""
        out = []
        with self.path.db.snapshot() as conn:
            for table_id in conn.scalars(_PLAYING_IDS).all():
                try:
                    found = self.path.store.read(conn, "id", table_id)
                except Busy:
                    out.append(table_id)  # robot_move looks again
                    continue
                if found is not None and robot_on_turn(*found):
                    out.append(table_id)
        return out

    def overdue_robot_tables(self, grace_seconds: float) -> list[int]:
        """Tables whose robot has been on turn longer than `grace_seconds`:
        its move was scheduled by a process that is gone."""
        cutoff = self.path.clock.now() - timedelta(seconds=grace_seconds)
        with self.path.db.read() as session:
            return list(
                session.scalars(
                    select(TableRow.id).where(
                        TableRow.robot_due.is_(True),
                        TableRow.status == TableStatus.PLAYING.value,
                        TableRow.turn_since < cutoff,
                    )
                )
            )

    def expire(self) -> int:
        """End every table with no game action for `expiry_days`, with no
        winner. Each table in its own transaction, re-checked under the lock,
        so two runs at once, or a run during play, leave each table in one
        consistent state."""
        cutoff = self.path.clock.now() - timedelta(days=self.path.settings.expiry_days)
        with self.path.db.read() as session:
            candidates = list(
                session.execute(
                    select(TableRow.invite).where(
                        TableRow.status.in_([TableStatus.LOBBY.value, TableStatus.PLAYING.value]),
                        TableRow.last_action_at < cutoff,
                    )
                ).scalars()
            )
        expired = 0
        for invite in candidates:

            def command(tx: TableTx) -> None:
                table = tx.table
                if table.status not in (TableStatus.LOBBY, TableStatus.PLAYING):
                    raise Conflict("ended")
                if table.last_action_at >= cutoff:
                    raise Conflict("active")
                current = self.path.current_state(tx)
                if current is not None and table.status == TableStatus.PLAYING:
                    state, _ = end_game(current, EndReason.EXPIRED)
                    self.path.save(tx, state)
                table.status = TableStatus.EXPIRED.value
                self.path.log_entry(tx, None, "expire", {})

            try:
                self.path.run(invite, None, None, command, SERVER)
                expired += 1
            except (Conflict, Busy):
                continue
        return expired
