"""Each seat chooses which notices it hears of (`seat_notices.kinds`; the
defaults, `notice.DEFAULT_KINDS`, until it does), from its table page or
the JSON API. Not a table command: the table's version stays."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from sqlalchemy import Table, select

from escoba.web.base.db import Database
from escoba.web.base.errors import Forbidden, Invalid
from escoba.web.base.models import SeatNoticeRow
from escoba.web.notices.notice import NoticeKind, format_kinds, parse_kinds
from escoba.web.table.store import Credential, SeatRecord, TableStore, find_seat

_SN = cast(Table, SeatNoticeRow.__table__)
_KNOWN = {kind.value: kind for kind in NoticeKind}
MAX_KINDS = 32  # more names than kinds exist is no choice


class NoticeChoices:
    """A seat's choice of notices, read and kept: on the database, finding
    the seat through the table store (the service's, so its caches serve)."""

    def __init__(self, db: Database, store: TableStore) -> None:
        self.db = db
        self.store = store

    def of(self, invite: str, token: Credential) -> frozenset[NoticeKind] | None:
        """The kinds the seat of `token` hears of (None: no seat here)."""
        seat = self._seat(invite, token)
        if seat is None or seat.id is None:
            return None
        with self.db.snapshot() as conn:
            stored = conn.scalar(select(_SN.c.kinds).where(_SN.c.seat_id == seat.id))
        return parse_kinds(stored)

    def choose(self, invite: str, token: Credential, kinds: Iterable[str]) -> frozenset[NoticeKind]:
        """Keep the kinds the seat of `token` hears of from now on: every
        name a kind (else nothing changes)."""
        names = list(kinds)
        if len(names) > MAX_KINDS:
            raise Invalid("unknown_notice", text=names[MAX_KINDS])
        unknown = next((k for k in names if k not in _KNOWN), None)
        if unknown is not None:
            raise Invalid("unknown_notice", text=unknown[:40])
        chosen = frozenset(_KNOWN[k] for k in names)
        seat = self._seat(invite, token)
        if seat is None or seat.id is None:
            raise Forbidden("not_seated")
        insert = self.db.upsert(_SN)
        with self.db.write() as conn:
            conn.execute(
                insert.values(
                    seat_id=seat.id, kinds=format_kinds(chosen), warned_level=0
                ).on_conflict_do_update(
                    index_elements=[_SN.c.seat_id], set_={"kinds": insert.excluded.kinds}
                )
            )
        return chosen

    def _seat(self, invite: str, token: Credential) -> SeatRecord | None:
        if not token:
            return None
        with self.db.snapshot() as conn:
            return find_seat(self.store.snap(conn, invite).seats, token)
