"""Rate limits shared by every process: fixed-window counters kept where the
processes already meet — Redis when one is configured, else PostgreSQL (one
upsert per check), or the memory of the single process that SQLite allows
without Redis. A key counts the requests of one client IP or one seat in the
current window; past the limit the request is refused with 429."""

from __future__ import annotations

import threading
import time
from typing import Any, Protocol

from sqlalchemy import bindparam, delete
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from escoba.web.db import Database
from escoba.web.models import RateLimitRow


class Limiter(Protocol):
    blocking: bool  # does a check wait on I/O (then it runs in a worker thread)

    def hit(self, keys: list[tuple[str, int]], window_seconds: int) -> str | None:
        """Count one request against each `(key, limit)`; the first key over
        its limit, or None when all are within."""
        ...


class DatabaseLimiter:
    blocking = True

    def __init__(self, db: Database) -> None:
        self.db = db
        insert = (sqlite_insert if db.is_sqlite else pg_insert)(RateLimitRow).values(
            key=bindparam("key"), slot=bindparam("slot"), hits=1
        )
        same = RateLimitRow.slot == insert.excluded.slot
        # built once: a check is one prepared upsert per key, no ORM session
        self._upsert = insert.on_conflict_do_update(
            index_elements=[RateLimitRow.key],
            set_={"hits": _case(same, RateLimitRow.hits + 1, 1), "slot": insert.excluded.slot},
        ).returning(RateLimitRow.hits)
        self._purge = delete(RateLimitRow).where(RateLimitRow.slot < bindparam("before"))
        self._last_purge = 0

    def hit(self, keys: list[tuple[str, int]], window_seconds: int) -> str | None:
        window = int(time.time() // window_seconds)
        over = None
        with self.db.write_engine.begin() as conn:
            for key, limit in keys:
                hits = conn.execute(self._upsert, {"key": key, "slot": window}).scalar_one()
                if hits > limit and over is None:
                    over = key
            if window - self._last_purge > 1:  # old windows, now and then
                self._last_purge = window
                conn.execute(self._purge, {"before": window - 1})
        return over


def _case(condition: Any, then: Any, otherwise: Any) -> Any:
    from sqlalchemy import case

    return case((condition, then), else_=otherwise)


class MemoryLimiter:
    """For one process on SQLite (no Redis): counters in memory, exact there,
    and no write transaction on the database's single write lock."""

    blocking = False

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._slot = -1
        self._hits: dict[str, int] = {}

    def hit(self, keys: list[tuple[str, int]], window_seconds: int) -> str | None:
        window = int(time.time() // window_seconds)
        over = None
        with self._lock:
            if window != self._slot:
                self._slot = window
                self._hits = {}
            for key, limit in keys:
                hits = self._hits.get(key, 0) + 1
                self._hits[key] = hits
                if hits > limit and over is None:
                    over = key
        return over


class RedisLimiter:
    blocking = True

    def __init__(self, url: str) -> None:
        import redis

        self._client = redis.Redis.from_url(url)

    def hit(self, keys: list[tuple[str, int]], window_seconds: int) -> str | None:
        window = int(time.time() // window_seconds)
        pipe = self._client.pipeline(transaction=False)
        for key, _limit in keys:
            name = f"escoba:rate:{key}:{window}"
            pipe.incr(name)
            pipe.expire(name, window_seconds * 2)
        results = pipe.execute()
        for (key, limit), hits in zip(keys, results[::2], strict=True):
            if int(hits) > limit:
                return key
        return None
