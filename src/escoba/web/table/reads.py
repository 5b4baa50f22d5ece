"""Reads of a table outside the pages: a seat by its token (and the one a
live stream marks as watching), the version, the card left on a 15, the
game record, and (for the server's own checks, never a client) the whole
game and the action log."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select

from escoba.engine import Card, GameState, spectator_view, to_record
from escoba.web.base.db import Database
from escoba.web.base.errors import Conflict
from escoba.web.base.models import ActionLogRow, TableRow
from escoba.web.table.page_building import page_seat
from escoba.web.table.pages import PageSeat
from escoba.web.table.store import Credential, TableStore, find_seat, names


class Reads:
    """A table's reads outside its pages, on the database and the store."""

    def __init__(self, db: Database, store: TableStore) -> None:
        self.db = db
        self.store = store

    def seat_for(self, invite: str, token: Credential) -> PageSeat | None:
        if not token:
            return None
        with self.db.snapshot() as conn:
            table = self.store.snap(conn, invite)
            seat = find_seat(table.seats, token)
            return None if seat is None else page_seat(table, seat, seat)

    def watch_target(self, invite: str, token: Credential) -> tuple[int, int | None]:
        """The table's id, and the seat `token` holds there (None: none): what
        a table page's live stream marks as watching (notices/watching.py)."""
        with self.db.snapshot() as conn:
            table = self.store.snap(conn, invite)
        seat = find_seat(table.seats, token) if token else None
        return table.id, None if seat is None else seat.id

    def table_id(self, invite: str) -> int:
        with self.db.snapshot() as conn:
            return self.store.snap(conn, invite).id

    def left_card(self, invite: str) -> Card | None:
        """The card left on a 15 that may be taken now (LLEVAR EL 15), as
        every view of the table shows it (`View.claimable`): what a claim
        that names every card it takes is read against."""
        with self.db.snapshot() as conn:
            _, state = self.store.read_invite(conn, invite)
            return None if state is None else spectator_view(state).claimable

    def version(self, invite: str) -> int:
        with self.db.snapshot() as conn:
            return self.store.snap(conn, invite).version

    def record(self, invite: str) -> dict[str, Any]:
        """The game record (escoba-record/1) of the table's last finished game."""
        with self.db.snapshot() as conn:
            table, state = self.store.read_invite(conn, invite)
            if state is None:
                raise Conflict("not_started")
            if state.result is None:
                raise Conflict("not_finished", words="record_not_ready")
            return to_record(state, names(table))

    def game_state(self, invite: str) -> GameState | None:
        """The whole current game, hidden cards included: for the server's own
        jobs and checks, never for a client (clients get `page`)."""
        with self.db.snapshot() as conn:
            return self.store.read_invite(conn, invite)[1]

    def log(self, invite: str) -> list[ActionLogRow]:
        """The server-side action log (holds decks: never for clients)."""
        with self.db.read() as session:
            table_id = self.table_id(invite)
            rows = session.scalars(
                select(ActionLogRow)
                .where(ActionLogRow.table_id == table_id)
                .order_by(ActionLogRow.id)
            ).all()
            session.expunge_all()
            return list(rows)


#: Ids a statement of `table_versions` names at most (SQLite's old limit on
#: a statement's parameters is 999): more tables take one statement a chunk.
VERSIONS_CHUNK = 900
_VERSIONS = select(TableRow.id, TableRow.version).where(
    TableRow.id.in_(bindparam("ids", expanding=True))
)


def table_versions(db: Database, table_ids: list[int]) -> dict[int, int]:
    """The version of each of these tables now, in one statement (a chunk
    of `VERSIONS_CHUNK` ids each): what a process's live streams should
    have been told (escoba.web.live.resync). A table that is gone is left out."""
    found: dict[int, int] = {}
    with db.snapshot() as conn:
        for start in range(0, len(table_ids), VERSIONS_CHUNK):
            chunk = table_ids[start : start + VERSIONS_CHUNK]
            for table_id, version in conn.execute(_VERSIONS, {"ids": chunk}):
                found[table_id] = version
    return found
