"""What a notice says: the table by its players, what happened, who waits —
in the seat's language, never a card."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from escoba.web.notices.notice import (
    DEFAULT_KINDS,
    Notice,
    NoticeKind,
    format_kinds,
    notice_text,
    parse_kinds,
)

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
PLAYERS = ("Ana", "Beto", "Carmen")


def _notice(kind: NoticeKind, who: str | None = "Beto") -> Notice:
    return Notice(
        kind,
        1,
        1,
        "inviteinvite",
        PLAYERS,
        who,
        NOW - timedelta(hours=24),
        NOW + timedelta(hours=8),
    )


def test_the_title_names_the_table_by_its_players_in_the_seats_language() -> None:
    assert (
        notice_text(_notice(NoticeKind.TURN), "es", NOW)[0] == "Escoba · mesa de Ana, Beto y Carmen"
    )
    assert (
        notice_text(_notice(NoticeKind.TURN), "en", NOW)[0]
        == "Escoba · table of Ana, Beto and Carmen"
    )


@pytest.mark.parametrize(
    ("kind", "lang", "body"),
    [
        (NoticeKind.TURN, "es", "Te toca jugar: Beto jugó."),
        (NoticeKind.ROUND, "en", "The round is over: they are waiting for your SIGUIENTE RONDA."),
        (
            NoticeKind.ABSENCE,
            "es",
            "Beto no juega desde hace 24 horas: ya puedes TERMINAR POR AUSENCIA.",
        ),
        (
            NoticeKind.WARNING,
            "pt_BR",
            "É sua vez há 24 horas: se você não jogar, poderão TERMINAR POR AUSÊNCIA em 8 horas.",
        ),
        (NoticeKind.EXPIRY, "en", "If nobody plays, the table expires in 8 hours."),
        (NoticeKind.CHAT, "es", "Beto escribió en el chat."),
    ],
)
def test_each_kind_says_what_happened(kind: NoticeKind, lang: str, body: str) -> None:
    assert notice_text(_notice(kind), lang, NOW)[1] == body


def test_a_turn_that_begins_a_round_names_nobody() -> None:
    assert notice_text(_notice(NoticeKind.TURN, who=None), "es", NOW)[1] == "Te toca jugar."


def test_kinds_are_stored_as_names_and_unknown_names_are_ignored() -> None:
    assert parse_kinds(None) == DEFAULT_KINDS
    assert NoticeKind.CHAT not in DEFAULT_KINDS
    kinds = frozenset({NoticeKind.TURN, NoticeKind.CHAT})
    assert parse_kinds(format_kinds(kinds)) == kinds
    assert parse_kinds("turn,bogus,") == frozenset({NoticeKind.TURN})
