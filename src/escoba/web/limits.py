"""Rate limits shared by every process: fixed-window counters kept where the
processes already meet — Redis when one is configured, else PostgreSQL (one
upsert per check), or the memory of the single process that SQLite allows
without Redis. A key counts the requests of one client IP or one seat in the
current window; past the limit the request is refused with 429."""

from __future__ import annotations

import threading
import time
from typing import Any, Protocol

from sqlalchemy import bindparam, create_engine, delete, text

from escoba.web.db import Database
from escoba.web.models import RateLimitRow


class Limiter(Protocol):
    """Checks run on the event loop: a counter is one quick round trip, far
    cheaper there than a trip to the thread pool and back."""

    def hit(self, keys: list[tuple[str, int]], window_seconds: int) -> str | None:
        """Count one request against each `(key, limit)`; the first key over
        its limit, or None when all are within."""
        ...

    def close(self) -> None:
        """At shutdown: let go of connections."""
        ...


class DatabaseLimiter:
    """Counters in the app's database. On PostgreSQL each upsert commits on
    its own, on a connection that does not wait for the WAL to reach the disk
    (a counter needs no durability, a move does)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._engine = db.write_engine
        if not db.is_sqlite:
            self._engine = create_engine(
                db.url,
                pool_size=2,
                max_overflow=8,
                pool_recycle=1800,
                isolation_level="AUTOCOMMIT",
                connect_args={"options": "-c synchronous_commit=off"},
            )
        self._upserts: dict[int, Any] = {}  # by number of keys, each made once
        self._purge = delete(RateLimitRow).where(RateLimitRow.slot < bindparam("before"))
        self._last_purge = 0

    def _upsert(self, count: int) -> Any:
        """One statement that counts `count` keys (bind parameters k0, k1…):
        plain SQL, the same on SQLite and PostgreSQL, compiled once."""
        statement = self._upserts.get(count)
        if statement is None:
            rows = ", ".join(f"(:k{i}, :slot, 1)" for i in range(count))
            statement = text(
                f"INSERT INTO rate_limits (key, slot, hits) VALUES {rows} "
                "ON CONFLICT (key) DO UPDATE SET "
                "hits = CASE WHEN rate_limits.slot = excluded.slot "
                "THEN rate_limits.hits + 1 ELSE 1 END, slot = excluded.slot "
                "RETURNING key, hits"
            )
            self._upserts[count] = statement
        return statement

    def hit(self, keys: list[tuple[str, int]], window_seconds: int) -> str | None:
        window = int(time.time() // window_seconds)
        params: dict[str, Any] = {f"k{i}": key for i, (key, _limit) in enumerate(keys)}
        with self._engine.begin() as conn:
            counts = dict(conn.execute(self._upsert(len(keys)), params | {"slot": window}).all())
            if window - self._last_purge > 1:  # old windows, now and then
                self._last_purge = window
                conn.execute(self._purge, {"before": window - 1})
        return next((key for key, limit in keys if counts[key] > limit), None)

    def close(self) -> None:
        if self._engine is not self.db.write_engine:
            self._engine.dispose()


class MemoryLimiter:
    """For one process on SQLite (no Redis): counters in memory, exact there,
    and no write transaction on the database's single write lock."""

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

    def close(self) -> None:
        pass


class RedisLimiter:
    def __init__(self, url: str) -> None:
        import redis

        self._client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

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

    def close(self) -> None:
        self._client.close()
