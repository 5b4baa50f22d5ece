"""The table's chat: writing a line (seated people only, at a human pace)
and reading the last lines."""

from __future__ import annotations

import unicodedata
from datetime import timedelta

from sqlalchemy import Connection, bindparam, func, select

from escoba.spoofing import (
    MAX_MARKS_PER_LETTER,
    most_marks_on_a_letter,
    shows_something,
    strip_bidi_controls,
    strip_invisible,
)
from escoba.web.base.errors import Forbidden, Invalid, RateLimited
from escoba.web.base.models import ChatRow
from escoba.web.table.command_path import NOTE, CommandPath, Outcome
from escoba.web.table.pages import ChatLine
from escoba.web.table.store import Credential, TableTx, find_seat

CHAT_SHOWN = 50

_CHAT_RECENT = select(func.count(ChatRow.id)).where(
    ChatRow.table_id == bindparam("table_id"),
    ChatRow.position == bindparam("position"),
    ChatRow.created_at > bindparam("since"),
)
_CHAT_AFTER = (
    select(*(ChatRow.__table__.c[c] for c in ("id", "position", "name", "text", "created_at")))
    .where(ChatRow.table_id == bindparam("table_id"), ChatRow.id > bindparam("after"))
    .order_by(ChatRow.id.desc())
    .limit(CHAT_SHOWN)
)


class Chat:
    """The chat: a line written (a note on the one path, `path`: no new
    version) and the last lines read."""

    def __init__(self, path: CommandPath) -> None:
        self.path = path

    def chat(self, invite: str, token: Credential, text: str) -> Outcome:
        if not text.strip():
            raise Invalid("empty_chat")
        text = clean_chat(text)
        if not shows_something(text):  # only what draws nothing
            raise Invalid("invisible_chat")
        if most_marks_on_a_letter(text) > MAX_MARKS_PER_LETTER:
            raise Invalid("too_many_marks", limit=MAX_MARKS_PER_LETTER)
        if len(text) > self.path.settings.chat_max_length:
            raise Invalid("chat_too_long", limit=self.path.settings.chat_max_length)
        now = self.path.clock.now()

        def command(tx: TableTx) -> None:
            table = tx.table
            seat = find_seat(table.seats, token)
            if seat is None:
                raise Forbidden("spectator")
            since = now - timedelta(seconds=self.path.settings.chat_window_seconds)
            recent = tx.conn.scalar(
                _CHAT_RECENT,
                {"table_id": table.id, "position": seat.position, "since": since},
            )
            if (recent or 0) >= self.path.settings.chat_burst:
                raise RateLimited("chat_rate")
            tx.chat_rows.append(
                {
                    "table_id": table.id,
                    "position": seat.position,
                    "name": seat.name,
                    "text": text,
                    "created_at": now,
                }
            )

        return self.path.run(invite, token, None, command, NOTE)

    def chat_lines(self, invite: str, after: int = 0) -> list[ChatLine]:
        with self.path.db.snapshot() as conn:
            return read_chat(conn, self.path.store.snap(conn, invite).id, after)


def read_chat(conn: Connection, table_id: int, after: int) -> list[ChatLine]:
    """The last lines of the chat after line `after`, oldest first."""
    rows = conn.execute(_CHAT_AFTER, {"table_id": table_id, "after": after}).all()
    return [
        ChatLine(
            id=r.id,
            position=r.position,
            name=r.name,
            text=strip_invisible(strip_bidi_controls(r.text)),  # lines kept before the cleaning
            at=r.created_at,
        )
        for r in reversed(rows)
    ]


def clean_chat(text: str) -> str:
    """A chat line as it is kept: a line break or tab becomes a space, other
    control characters go (PostgreSQL refuses a NUL byte), and so do the
    bidi embeddings, overrides and isolates, which would turn around what
    follows them on screen, and the characters that draw nothing (zero-width
    spaces, a byte-order mark, U+3164 and its kin: `strip_invisible`). What
    shapes visible text stays: the joiner inside an emoji such as 👨‍💻,
    ZWNJ in Persian, a direction mark."""
    kept = (
        (" " if ch.isspace() else "") if unicodedata.category(ch) == "Cc" else ch for ch in text
    )
    return strip_invisible(strip_bidi_controls("".join(kept))).strip()
