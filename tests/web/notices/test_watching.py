"""The seats whose table page is open (`Watching`), built alone on the
database and the clock: marked while a stream of theirs is open here, for
as long as it is renewed and the pages hear their tables; forgotten when
nobody renews them."""

from __future__ import annotations

from sqlalchemy import func, select

from escoba.web.base.clock import ManualClock
from escoba.web.base.models import WatchingRow
from escoba.web.notices.watching import Watching
from escoba.web.table.service import TableService

from ..alone import seat_id


def _watched(service: TableService, watching: Watching, seat: int) -> bool:
    with service.db.snapshot() as conn:
        return watching.watched(conn, [seat]) == {seat}


def test_a_seat_is_watched_while_a_stream_of_it_is_open(
    bare_service: TableService, clock: ManualClock
) -> None:
    watching = Watching(bare_service.db, clock, seconds=30)
    seat = seat_id(bare_service, bare_service.lobby.create_table("Ana", 21))
    assert not _watched(bare_service, watching, seat)
    with watching.watch(seat):
        assert _watched(bare_service, watching, seat)
        with watching.watch(seat):  # a second page of the seat, closed first
            pass
        assert _watched(bare_service, watching, seat) and watching.seats == [seat]
    assert not _watched(bare_service, watching, seat) and watching.seats == []


def test_a_mark_lasts_while_renewed_and_while_the_pages_hear_their_table(
    bare_service: TableService, clock: ManualClock
) -> None:
    watching = Watching(bare_service.db, clock, seconds=30)
    seat = seat_id(bare_service, bare_service.lobby.create_table("Ana", 21))
    watching.open(seat)
    clock.advance(seconds=31)
    assert not _watched(bare_service, watching, seat)  # nobody renewed it
    watching.renew()
    assert _watched(bare_service, watching, seat)

    watching.hearing = lambda: False  # the bridge between processes is down
    watching.renew()
    assert not _watched(bare_service, watching, seat)
    watching.hearing = lambda: True
    watching.renew()
    assert _watched(bare_service, watching, seat)

    # a process that died with its marks: the next prune forgets them
    clock.advance(seconds=31)
    watching.prune()
    with bare_service.db.snapshot() as conn:
        assert conn.scalar(select(func.count()).select_from(WatchingRow)) == 0
