"""Rate limits shared by every process: fixed-window counters kept where the
processes already meet — Redis when one is configured, else PostgreSQL
(counted in memory and flushed in batches far from a limit, checked at once
near it), or the memory of the single process that SQLite allows
without Redis. A key counts the requests of one client IP or one seat in the
current window; past the limit the request is refused with 429."""

from __future__ import annotations

import logging
import threading
from typing import Any, Protocol

from sqlalchemy import bindparam, create_engine, delete, text

from escoba.web.base.clock import Clock, SystemClock
from escoba.web.base.db import Database
from escoba.web.base.models import RateLimitRow

log = logging.getLogger("escoba.limits")


def window_of(clock: Clock, window_seconds: int) -> int:
    """The number of the current window: by the app's clock (the wall's in
    production, so that every process agrees; a test's that only moves when
    told, so that four requests never straddle two windows by chance)."""
    return int(clock.now().timestamp() // window_seconds)


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
    """Counters in the app's database, shared by every process. Far from its
    limit (under a quarter of it), a key counts in memory and a background
    flush adds the counts to the database every `flush_seconds`, learning the
    other processes' totals; nearer, each check goes to the database at once
    and is exact. So the hot path never waits on a shared counter row, and a
    flood is refused as exactly as before (the other processes' last
    `flush_seconds` of counts aside). On PostgreSQL the counters commit on a
    connection that does not wait for the WAL to reach the disk (a counter
    needs no durability, a move does)."""

    CHUNK = 64  # keys per statement when flushing

    def __init__(
        self, db: Database, flush_seconds: float = 0.1, clock: Clock | None = None
    ) -> None:
        self.db = db
        self._clock = clock or SystemClock()
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
        self._flush_seconds = flush_seconds
        self._lock = threading.Lock()
        self._window = -1
        self._known: dict[str, int] = {}  # a key's total in the database, last seen
        self._unsent: dict[str, int] = {}  # counted here, not yet in the database
        self._stop = threading.Event()
        self._flusher: threading.Thread | None = None

    def _upsert(self, count: int) -> Any:
        """One statement that adds to `count` keys (bind parameters k0, n0,
        k1, n1…): plain SQL, the same on SQLite and PostgreSQL, made once."""
        statement = self._upserts.get(count)
        if statement is None:
            rows = ", ".join(f"(:k{i}, :slot, :n{i})" for i in range(count))
            statement = text(
                f"INSERT INTO rate_limits (key, slot, hits) VALUES {rows} "
                "ON CONFLICT (key) DO UPDATE SET "
                "hits = CASE WHEN rate_limits.slot = excluded.slot "
                "THEN rate_limits.hits + excluded.hits ELSE excluded.hits END, "
                "slot = excluded.slot RETURNING key, hits"
            )
            self._upserts[count] = statement
        return statement

    def _add(self, counts: dict[str, int], window: int) -> dict[str, int]:
        """Add to the keys' counters in the database; their new totals."""
        items = list(counts.items())
        totals: dict[str, int] = {}
        with self._engine.begin() as conn:
            for start in range(0, len(items), self.CHUNK):
                chunk = items[start : start + self.CHUNK]
                params: dict[str, Any] = {"slot": window}
                for i, (key, n) in enumerate(chunk):
                    params[f"k{i}"], params[f"n{i}"] = key, n
                totals.update(
                    (key, hits) for key, hits in conn.execute(self._upsert(len(chunk)), params)
                )
            if window - self._last_purge > 1:  # old windows, now and then
                self._last_purge = window
                conn.execute(self._purge, {"before": window - 1})
        return totals

    def hit(self, keys: list[tuple[str, int]], window_seconds: int) -> str | None:
        window = window_of(self._clock, window_seconds)
        with self._lock:
            if window != self._window:
                self._window, self._known, self._unsent = window, {}, {}
            near = any(
                (self._known.get(key, 0) + self._unsent.get(key, 0) + 1) * 4 > limit
                for key, limit in keys
            )
            if not near:
                for key, _limit in keys:
                    self._unsent[key] = self._unsent.get(key, 0) + 1
                self._start_flusher()
                return None
            counts = {key: self._unsent.pop(key, 0) + 1 for key, _limit in keys}
        totals = self._add(counts, window)
        self._learn(totals, window)
        return next((key for key, limit in keys if totals[key] > limit), None)

    def _learn(self, totals: dict[str, int], window: int) -> None:
        """The database's totals, as one statement returned them: a total
        only grows in its window, so an older answer arriving late (the
        flush's and a check's statements race) never lowers what is known."""
        with self._lock:
            if window == self._window:
                for key, total in totals.items():
                    self._known[key] = max(self._known.get(key, 0), total)

    def flush(self) -> None:
        """Send what was counted here since the last flush. While they are
        on their way the counts stay known here, so a check meanwhile does
        not take the key for fresh and wave it through uncounted."""
        with self._lock:
            counts, window, self._unsent = self._unsent, self._window, {}
            for key, n in counts.items():
                self._known[key] = self._known.get(key, 0) + n
        if counts:
            self._learn(self._add(counts, window), window)

    def _start_flusher(self) -> None:
        if self._flusher is None:
            self._flusher = threading.Thread(
                target=self._flush_loop, name="escoba-rate-limits", daemon=True
            )
            self._flusher.start()

    def _flush_loop(self) -> None:
        while not self._stop.wait(self._flush_seconds):
            try:
                self.flush()
            except Exception:  # the database is away: these counts are lost
                log.warning("rate limit counts not saved", exc_info=True)

    def close(self) -> None:
        self._stop.set()
        if self._flusher is not None:
            self._flusher.join(timeout=5)
        if self._engine is not self.db.write_engine:
            self._engine.dispose()


class MemoryLimiter:
    """For one process on SQLite (no Redis): counters in memory, exact there,
    and no write transaction on the database's single write lock."""

    def __init__(self, clock: Clock | None = None) -> None:
        self._clock = clock or SystemClock()
        self._lock = threading.Lock()
        self._slot = -1
        self._hits: dict[str, int] = {}

    def hit(self, keys: list[tuple[str, int]], window_seconds: int) -> str | None:
        window = window_of(self._clock, window_seconds)
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
    def __init__(self, url: str, clock: Clock | None = None) -> None:
        import redis

        self._clock = clock or SystemClock()
        self._client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    def hit(self, keys: list[tuple[str, int]], window_seconds: int) -> str | None:
        window = window_of(self._clock, window_seconds)
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
