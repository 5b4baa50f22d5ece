"""Which notices a seat hears of (`NoticeChoices`), built alone on the
service's database and store: the defaults until the seat chooses, then its
choice; a name that is no kind, or a token that holds no seat, changes
nothing. It is no table command: the table's version stays."""

from __future__ import annotations

import pytest

from escoba.web.base.errors import Forbidden, Invalid
from escoba.web.notices.choices import MAX_KINDS, NoticeChoices
from escoba.web.notices.notice import DEFAULT_KINDS, NoticeKind
from escoba.web.table.service import TableService


def test_a_seat_hears_the_defaults_until_it_chooses_then_its_choice(
    bare_service: TableService,
) -> None:
    choices = NoticeChoices(bare_service.db, bare_service.store)
    ana = bare_service.lobby.create_table("Ana", 21)
    version = bare_service.reads.version(ana.invite)
    assert choices.of(ana.invite, ana.token) == DEFAULT_KINDS

    chosen = choices.choose(ana.invite, ana.token, ["chat", "turn"])
    assert chosen == {NoticeKind.CHAT, NoticeKind.TURN}
    assert choices.of(ana.invite, ana.token) == chosen
    # none at all is a choice too
    assert choices.choose(ana.invite, ana.token, []) == frozenset()
    assert choices.of(ana.invite, ana.token) == frozenset()
    assert bare_service.reads.version(ana.invite) == version


def test_no_kind_or_no_seat_changes_nothing(bare_service: TableService) -> None:
    choices = NoticeChoices(bare_service.db, bare_service.store)
    ana = bare_service.lobby.create_table("Ana", 21)
    choices.choose(ana.invite, ana.token, ["turn"])

    with pytest.raises(Invalid) as refused:
        choices.choose(ana.invite, ana.token, ["turn", "sms"])
    assert refused.value.code == "unknown_notice"
    with pytest.raises(Invalid):
        choices.choose(ana.invite, ana.token, ["turn"] * (MAX_KINDS + 1))
    assert choices.of(ana.invite, ana.token) == {NoticeKind.TURN}

    # a spectator, or a token of no seat here, has no choice to read or keep
    assert choices.of(ana.invite, None) is None
    assert choices.of(ana.invite, "x" * 43) is None
    with pytest.raises(Forbidden):
        choices.choose(ana.invite, "x" * 43, ["turn"])
