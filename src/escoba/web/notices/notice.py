"""Notices: what the server tells a seat that is not looking at its table.

After a command commits (never inside it), and when time passes (a sweep),
the server decides which seats a change concerns and hands each a `Notice`;
the channels (Web Push, e-mail) deliver them off the command path, so a
move's latency does not change. A notice names the table and who is waiting,
never a card.

This module is the contract between who decides (the dispatcher) and who
delivers (each `Channel`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from babel.dates import format_timedelta

from escoba.names import and_list
from escoba.words import say


class NoticeKind(StrEnum):
    """What happened. A seat chooses which kinds it hears of
    (`seat_notices.kinds`); `DEFAULT_KINDS` until it does."""

    TURN = "turn"  # its turn begins
    ROUND = "round"  # a round ended and waits for its SIGUIENTE RONDA
    END = "end"  # the game ended
    ABSENCE = "absence"  # TERMINAR POR AUSENCIA became possible against someone
    WARNING = "warning"  # it is the absent one: TERMINAR POR AUSENCIA comes soon
    EXPIRY = "expiry"  # the table expires soon for want of play
    CHAT = "chat"  # someone wrote in the chat (`who` wrote)


DEFAULT_KINDS = frozenset(
    {
        NoticeKind.TURN,
        NoticeKind.ROUND,
        NoticeKind.END,
        NoticeKind.ABSENCE,
        NoticeKind.WARNING,
        NoticeKind.EXPIRY,
    }
)


def parse_kinds(stored: str | None) -> frozenset[NoticeKind]:
    """The kinds a `seat_notices.kinds` value names (unknown names ignored)."""
    if stored is None:
        return DEFAULT_KINDS
    known = {kind.value for kind in NoticeKind}
    return frozenset(NoticeKind(k) for k in stored.split(",") if k in known)


def format_kinds(kinds: frozenset[NoticeKind]) -> str:
    return ",".join(sorted(kind.value for kind in kinds))


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing to tell one seat. `players` names the table (its seats'
    names, in order); `who` is the person the notice is about (whose turn,
    who is absent, who wrote); `at` the moment it happened; `deadline` the
    moment something comes (the absence button, the expiry). For TURN,
    `who` is who played last (None when a round or game began); for ABSENCE,
    the absent one, and `at` when their turn began; for WARNING, `at` when
    the seat's own turn began."""

    kind: NoticeKind
    seat_id: int
    table_id: int
    invite: str
    players: tuple[str, ...]
    who: str | None
    at: datetime
    deadline: datetime | None = None


def notice_text(notice: Notice, lang: str, now: datetime) -> tuple[str, str]:
    """A notice's title (the table, named by its players) and body (what
    happened, who is waiting) in `lang`: plain text, never a card."""
    title = say("notice_title", lang, players=and_list(list(notice.players), lang))
    who = notice.who or "?"

    def since() -> str:
        return _span(notice.at - now, lang)

    def left() -> str:
        return _span(notice.deadline - now, lang) if notice.deadline is not None else ""

    match notice.kind:
        case NoticeKind.TURN:
            body = say("notice_turn_who", lang, who=who) if notice.who else say("notice_turn", lang)
        case NoticeKind.ROUND:
            body = say("notice_round", lang)
        case NoticeKind.END:
            body = say("notice_end", lang)
        case NoticeKind.ABSENCE:
            body = say("notice_absence", lang, who=who, since=since())
        case NoticeKind.WARNING:
            body = say("notice_warning", lang, since=since(), left=left())
        case NoticeKind.EXPIRY:
            body = say("notice_expiry", lang, left=left())
        case NoticeKind.CHAT:
            body = say("notice_chat", lang, who=who)
    return title, body


def _span(delta: timedelta, lang: str) -> str:
    """«5 h» of a past moment, «dentro de 8 h» («in 8 hr.») of a coming one."""
    if delta <= timedelta(0):
        return format_timedelta(-delta, threshold=1.5, locale=lang)
    return format_timedelta(delta, add_direction=True, threshold=1.5, locale=lang)


class Channel(Protocol):
    """A way to reach a seat (Web Push, e-mail). `deliver` runs on the
    dispatcher's own thread, never on the event loop or in a command; it
    must not raise (a failed delivery is logged and retried or dropped)."""

    name: str

    def deliver(self, notices: Sequence[Notice]) -> None: ...
