"""The notices time brings (`NoticeSweep`), built alone on the service's
database, store, clock and settings and the command path's hook: the player
on turn warned at 24 h and at 40 h, the others told of TERMINAR POR AUSENCIA
past 48 h (and the table's pages with them, through the hook), a quiet table
warned a day before it expires; each notice claimed once."""

from __future__ import annotations

from datetime import timedelta

from escoba.web.base.clock import ManualClock
from escoba.web.notices.notice import NoticeKind
from escoba.web.notices.sweep import NoticeSweep
from escoba.web.table.service import TableService

from ..alone import Heard, on_turn, playing, seat_id


def _sweep(service: TableService) -> NoticeSweep:
    return NoticeSweep(
        service.db, service.store, service.clock, service.settings, service.path.write
    )


def test_the_player_on_turn_is_warned_then_the_others_hear_of_the_absence(
    bare_service: TableService, clock: ManualClock
) -> None:
    sweep = _sweep(bare_service)
    heard = Heard()
    bare_service.after_commit.add(heard)
    ana, beto = playing(bare_service)
    absent = on_turn(bare_service, ana, beto)
    other = beto if absent is ana else ana
    assert sweep.due() == []

    clock.advance(hours=24, minutes=1)
    warned = sweep.due()
    assert [(n.kind, n.seat_id) for n in warned] == [
        (NoticeKind.WARNING, seat_id(bare_service, absent))
    ]
    assert warned[0].deadline is not None
    assert warned[0].deadline - warned[0].at == timedelta(hours=48)
    assert sweep.due() == []  # claimed: told once
    clock.advance(hours=16)  # 40 h: the second warning
    assert [n.kind for n in sweep.due()] == [NoticeKind.WARNING]

    version = bare_service.reads.version(ana.invite)
    heard.changes.clear()
    clock.advance(hours=8, minutes=1)  # past 48 h
    told = sweep.due()
    absent_name = "Ana" if absent is ana else "Beto"
    assert [(n.kind, n.seat_id, n.who) for n in told] == [
        (NoticeKind.ABSENCE, seat_id(bare_service, other), absent_name)
    ]
    # the table's pages hear of it (the button shows), on the same version
    assert [(c.table_id, c.version, c.commit) for c in heard.changes] == [
        (told[0].table_id, version, None)
    ]
    assert bare_service.reads.version(ana.invite) == version
    assert sweep.due() == []


def test_a_quiet_table_is_told_a_day_before_it_expires(
    bare_service: TableService, clock: ManualClock
) -> None:
    sweep = _sweep(bare_service)
    ana = bare_service.lobby.create_table("Ana", 21)
    made = clock.now()
    clock.advance(days=6, hours=-1)
    assert sweep.due() == []
    clock.advance(hours=1, minutes=1)  # 24 h before the expiry of a 7-day quiet spell
    told = sweep.due()
    assert [(n.kind, n.seat_id, n.deadline) for n in told] == [
        (NoticeKind.EXPIRY, seat_id(bare_service, ana), made + timedelta(days=7))
    ]
    assert sweep.due() == []  # once per quiet spell
