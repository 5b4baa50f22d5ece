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
from datetime import datetime
from enum import StrEnum
from typing import Protocol


class NoticeKind(StrEnum):
    """What happened. A seat chooses which kinds it hears of
    (`seat_notices.kinds`); `DEFAULT_KINDS` until it does."""

    TURN = "turn"  # its turn begins
    ROUND = "round"  # a round ended and waits for its SIGUIENTE RONDA
    END = "end"  # the game ended
    ABSENCE = "absence"  # TERMINAR POR AUSENCIA became possible against someone
    WARNING = "warning"  # it is the absent one: TERMINAR POR AUSENCIA comes soon
    EXPIRY = "expiry"  # the table expires soon for want of play
    CHAT = "chat"  # someone wrote in the chat


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
    moment something comes (the absence button, the expiry)."""

    kind: NoticeKind
    seat_id: int
    table_id: int
    invite: str
    players: tuple[str, ...]
    who: str | None
    at: datetime
    deadline: datetime | None = None


class Channel(Protocol):
    """A way to reach a seat (Web Push, e-mail). `deliver` runs on the
    dispatcher's own thread, never on the event loop or in a command; it
    must not raise (a failed delivery is logged and retried or dropped)."""

    name: str

    def deliver(self, notices: Sequence[Notice]) -> None: ...
