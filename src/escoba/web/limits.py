"""Rate limits shared by every process: fixed-window counters kept in the
database (one upsert per check, no extra service) or in Redis when one is
configured. A key counts the requests of one client IP or one seat in the
current window; past the limit the request is refused with 429."""

from __future__ import annotations

import time
from typing import Any, Protocol

from sqlalchemy import delete
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from escoba.web.db import Database
from escoba.web.models import RateLimitRow


class Limiter(Protocol):
    def hit(self, keys: list[tuple[str, int]], window_seconds: int) -> str | None:
        """Count one request against each `(key, limit)`; the first key over
        its limit, or None when all are within."""
        ...


class DatabaseLimiter:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._insert = sqlite_insert if db.is_sqlite else pg_insert
        self._last_purge = 0

    def hit(self, keys: list[tuple[str, int]], window_seconds: int) -> str | None:
        window = int(time.time() // window_seconds)
        over = None
        with self.db.write() as session:
            for key, limit in keys:
                insert = self._insert(RateLimitRow).values(key=key, slot=window, hits=1)
                same = RateLimitRow.slot == insert.excluded.slot
                stmt = insert.on_conflict_do_update(
                    index_elements=[RateLimitRow.key],
                    set_={
                        "hits": _case(same, RateLimitRow.hits + 1, 1),
                        "slot": insert.excluded.slot,
                    },
                ).returning(RateLimitRow.hits)
                hits = session.execute(stmt).scalar_one()
                if hits > limit and over is None:
                    over = key
            if window - self._last_purge > 1:  # old windows, now and then
                self._last_purge = window
                session.execute(delete(RateLimitRow).where(RateLimitRow.slot < window - 1))
        return over


def _case(condition: Any, then: Any, otherwise: Any) -> Any:
    from sqlalchemy import case

    return case((condition, then), else_=otherwise)


class RedisLimiter:
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
