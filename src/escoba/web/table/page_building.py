"""Page building: everything one viewer may see of a table (through their
seat's view, never the game state) and what they may do there."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta

from escoba.engine import GameState, view
from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.settings import Settings
from escoba.web.table.allowed import allowed
from escoba.web.table.chat import read_chat
from escoba.web.table.coaching import coach_status
from escoba.web.table.ending import absence_moment
from escoba.web.table.pages import ChatLine, PageSeat, SeriesScore, TablePage, TableStatus
from escoba.web.table.store import (
    Credential,
    SeatRecord,
    TableRecord,
    TableStore,
    creators_partner,
    find_seat,
    has_game,
    names,
    rules_of,
    turn_is_played,
)
from escoba.web.table.story import StoryReads, round_points


class PageBuilding:
    """What one viewer sees of a table, on the database, the store, the
    clock, the settings and the game's story (`story`: the series)."""

    def __init__(
        self, db: Database, store: TableStore, clock: Clock, settings: Settings, story: StoryReads
    ) -> None:
        self.db = db
        self.store = store
        self.clock = clock
        self.settings = settings
        self.story = story

    def page(self, invite: str, token: Credential, with_chat: bool = True) -> TablePage:
        """Everything one viewer may see of a table, and what they may do
        (without the chat when `with_chat` is false: the page's `chat` is empty)."""
        with self.db.snapshot() as conn:
            table, state = self.store.read_invite(conn, invite)
            chat: list[ChatLine] = []
            if with_chat:
                chat = read_chat(conn, table.id, 0)
            series = self.story.series(conn, table, state)
            you = find_seat(table.seats, token)
            page = self._page(table, you, chat, state, series)
            if you is not None and page.status == TableStatus.PLAYING:
                page = replace(page, coach=coach_status(conn, table, you))
            return page

    def _page(
        self,
        table: TableRecord,
        you: SeatRecord | None,
        chat: Sequence[ChatLine],
        state: GameState | None,
        series: SeriesScore | None = None,
    ) -> TablePage:
        status = TableStatus(table.status)
        seats = tuple(page_seat(table, s, you) for s in table.seats)
        me = next((s for s in seats if s.is_you), None)
        plays = state is not None and me is not None and me.game_seat is not None
        seat_view = None
        if state is not None:
            seat_view = view(state, me.game_seat if plays and me is not None else None)
        now = self.clock.now()
        return TablePage(
            invite=table.invite,
            status=status,
            target=table.target,
            version=table.version,
            seats=seats,
            you=me,
            view=seat_view,
            names=tuple(names(table)) if state is not None else (),
            chat=tuple(chat),
            game_number=table.game_number,
            can=allowed(table, you, state, now, self.settings.absence_hours),
            partner_position=creators_partner(table),
            now=now,
            turn_since=table.turn_since if turn_is_played(table, state) else None,
            absence_at=absence_moment(table, state, self.settings.absence_hours),
            expires_at=(
                table.last_action_at + timedelta(days=self.settings.expiry_days)
                if status in (TableStatus.LOBBY, TableStatus.PLAYING)
                else None
            ),
            rounds=round_points(state),
            series=series,
            rules=rules_of(table),
        )


def page_seat(table: TableRecord, seat: SeatRecord, you: SeatRecord | None) -> PageSeat:
    """A seat as a page shows it to the viewer who holds `you`."""
    return PageSeat(
        position=seat.position,
        name=seat.name,
        is_robot=seat.robot is not None,
        robot=seat.robot,
        game_seat=seat.game_seat if has_game(table) else None,
        is_creator=seat.position == 0,
        is_you=you is not None and seat.id == you.id,
        rematch_accepted=seat.rematch,
    )
