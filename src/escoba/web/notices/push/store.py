"""Push subscriptions in the database: one row per endpoint
(`push_subscriptions`), linked to the seats it serves (`seat_pushes`). A
browser that subscribes again (new keys, another seat) updates its row;
a subscription that serves no seat any more is deleted."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Connection, Table, delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.errors import NotFound
from escoba.web.base.models import PushSubscriptionRow, SeatPushRow, SeatRow, TableRow
from escoba.web.notices.push.endpoints import Subscription
from escoba.web.table.store import Credential, HeldSeat, hash_token, is_invite

_P = cast(Table, PushSubscriptionRow.__table__)
_SP = cast(Table, SeatPushRow.__table__)
_S = cast(Table, SeatRow.__table__)
_T = cast(Table, TableRow.__table__)
_TARGET_COLUMNS = ("id", "endpoint", "p256dh", "auth", "lang", "failures")


@dataclass(frozen=True, slots=True)
class Target:
    """A subscription a notice goes to."""

    id: int
    endpoint: str
    p256dh: str
    auth: str
    lang: str
    failures: int


class PushStore:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    def seat_id(self, invite: str, credential: Credential) -> int | None:
        """The id of the seat `credential` holds at table `invite` (None: it
        holds none there); `NotFound` when no table has that invite."""
        if not is_invite(invite):
            raise NotFound("no_table")
        if isinstance(credential, HeldSeat):
            digest = credential.token_hash
        elif not credential or len(credential) > 128:
            digest = None
        else:
            digest = hash_token(credential)
        with self.db.snapshot() as conn:
            table_id = conn.scalar(select(_T.c.id).where(_T.c.invite == invite))
            if table_id is None:
                raise NotFound("no_table")
            if digest is None:
                return None
            seat_id = conn.scalar(
                select(_S.c.id).where(_S.c.table_id == table_id, _S.c.token_hash == digest)
            )
        return None if seat_id is None else int(seat_id)

    def subscribe(
        self, seat_id: int, subscription: Subscription, lang: str, device_id: int | None
    ) -> int:
        """Link `subscription` to the seat (its row made, or its keys, language
        and device brought up to date); its id."""
        values = {
            "endpoint": subscription.endpoint.url,
            "p256dh": subscription.p256dh,
            "auth": subscription.auth,
            "lang": lang,
            "device_id": device_id,
            "created_at": self.clock.now(),
            "failures": 0,
        }
        changed = {
            "p256dh": subscription.p256dh,
            "auth": subscription.auth,
            "lang": lang,
            "failures": 0,
        }
        if device_id is not None:  # an API client's keeps the device that made it
            changed["device_id"] = device_id
        upsert = sqlite_insert if self.db.is_sqlite else pg_insert
        with self.db.write() as conn:
            sub_id = conn.scalar(
                upsert(_P)
                .values(values)
                .on_conflict_do_update(index_elements=["endpoint"], set_=changed)
                .returning(_P.c.id)
            )
            assert sub_id is not None
            conn.execute(
                upsert(_SP)
                .values(seat_id=seat_id, subscription_id=sub_id)
                .on_conflict_do_nothing(index_elements=["seat_id", "subscription_id"])
            )
        return int(sub_id)

    def unsubscribe(self, seat_id: int, endpoint: str) -> bool:
        """Unlink the subscription of `endpoint` from the seat, and delete it
        if it serves no other seat. False: it was not linked to the seat."""
        with self.db.write() as conn:
            sub_id = conn.scalar(select(_P.c.id).where(_P.c.endpoint == endpoint))
            if sub_id is None:
                return False
            gone = conn.execute(
                delete(_SP).where(_SP.c.seat_id == seat_id, _SP.c.subscription_id == sub_id)
            ).rowcount
            _delete_if_unused(conn, sub_id)
        return bool(gone)

    def targets(self, seat_ids: Iterable[int]) -> dict[int, list[Target]]:
        """The subscriptions of each seat."""
        ids = sorted(set(seat_ids))
        out: dict[int, list[Target]] = {seat_id: [] for seat_id in ids}
        if not ids:
            return out
        query = (
            select(_SP.c.seat_id, *(_P.c[c] for c in _TARGET_COLUMNS))
            .join(_P, _P.c.id == _SP.c.subscription_id)
            .where(_SP.c.seat_id.in_(ids))
            .order_by(_SP.c.seat_id, _P.c.id)
        )
        with self.db.snapshot() as conn:
            for row in conn.execute(query):
                out[row.seat_id].append(
                    Target(row.id, row.endpoint, row.p256dh, row.auth, row.lang, row.failures)
                )
        return out

    def drop(self, sub_id: int) -> None:
        """Delete a subscription (the push service no longer knows it, or
        it failed too often) and its links to seats."""
        with self.db.write() as conn:
            conn.execute(delete(_SP).where(_SP.c.subscription_id == sub_id))
            conn.execute(delete(_P).where(_P.c.id == sub_id))

    def failed(self, sub_id: int, max_failures: int) -> int:
        """Count one more failure in a row; the subscription is dropped at
        `max_failures`. The count (0: no such subscription any more)."""
        with self.db.write() as conn:
            conn.execute(update(_P).where(_P.c.id == sub_id).values(failures=_P.c.failures + 1))
            count = conn.scalar(select(_P.c.failures).where(_P.c.id == sub_id))
            if count is None:
                return 0
            if count >= max_failures:
                conn.execute(delete(_SP).where(_SP.c.subscription_id == sub_id))
                conn.execute(delete(_P).where(_P.c.id == sub_id))
            return int(count)

    def succeeded(self, sub_id: int) -> None:
        """A push went through: the failures in a row start again from 0."""
        with self.db.write() as conn:
            conn.execute(update(_P).where(_P.c.id == sub_id, _P.c.failures > 0).values(failures=0))

    def count(self) -> tuple[int, int]:
        """(subscriptions, seat links): for tests and the operator."""
        with self.db.snapshot() as conn:
            subs = conn.scalar(select(func.count()).select_from(_P)) or 0
            links = conn.scalar(select(func.count()).select_from(_SP)) or 0
        return int(subs), int(links)


def _delete_if_unused(conn: Connection, sub_id: int) -> None:
    used = conn.scalar(select(_SP.c.seat_id).where(_SP.c.subscription_id == sub_id).limit(1))
    if used is None:
        conn.execute(delete(_P).where(_P.c.id == sub_id))
