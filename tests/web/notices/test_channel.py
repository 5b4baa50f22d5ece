"""The channels' contract (`notice.Channel`): any object with a `name` and
`deliver` is a channel; the dispatcher, built alone on the service, hands it
the notices its seats chose and are not watching their table for, and a
channel that fails stops none of the others."""

from __future__ import annotations

from collections.abc import Sequence

from escoba.web.base.clock import ManualClock
from escoba.web.notices.choices import NoticeChoices
from escoba.web.notices.dispatch import Dispatcher
from escoba.web.notices.notice import Channel, Notice, NoticeKind
from escoba.web.table.service import TableService

from ..alone import playing, seat_id


class Kept:
    """A channel that keeps what it is handed."""

    name = "kept"

    def __init__(self) -> None:
        self.handed: list[Notice] = []

    def deliver(self, notices: Sequence[Notice]) -> None:
        self.handed.extend(notices)


class Down:
    """A channel whose server is down."""

    name = "down"

    def deliver(self, notices: Sequence[Notice]) -> None:
        raise ConnectionError("down")


def test_a_channel_is_handed_what_its_seats_chose_and_are_not_watching(
    bare_service: TableService, clock: ManualClock
) -> None:
    kept = Kept()
    channels: list[Channel] = [Down(), kept]
    dispatcher = Dispatcher(bare_service, channels)
    ana, beto = playing(bare_service)
    ana_seat, beto_seat = seat_id(bare_service, ana), seat_id(bare_service, beto)
    NoticeChoices(bare_service.db, bare_service.store).choose(beto.invite, beto.token, ["chat"])

    def notice(kind: NoticeKind, seat: int) -> Notice:
        return Notice(kind, seat, 1, ana.invite, ("Ana", "Beto"), None, clock.now())

    notices = [
        notice(NoticeKind.TURN, ana_seat),  # Ana hears the defaults
        notice(NoticeKind.CHAT, ana_seat),  # (not among them)
        notice(NoticeKind.TURN, beto_seat),  # Beto chose the chat alone
        notice(NoticeKind.CHAT, beto_seat),
    ]
    handed = dispatcher.deliver(notices)
    assert kept.handed == handed == [notices[0], notices[3]]

    kept.handed.clear()
    with dispatcher.watching.watch(ana_seat):  # Ana's table page is open
        assert dispatcher.deliver(notices) == [notices[3]]
    assert kept.handed == [notices[3]]
