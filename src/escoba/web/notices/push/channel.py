"""The Web Push channel: a notice, encrypted for each subscription of its
seat (RFC 8291, aes128gcm) and signed for the push service (VAPID, RFC 8292),
POSTed to the subscription's endpoint (RFC 8030).

`deliver` reads the subscriptions and hands one job per subscription and
event to the channel's own bounded thread pool, then returns: sending never
runs on the event loop or in a command, and the requests run side by side,
so an endpoint that hangs holds one thread (for its timeouts) and never the
others' pushes. A device that holds several seats an event concerns at one
table gets one push (one per subscription, table and kind in a `deliver`).

What the push service answers decides what follows:

* 2xx: delivered (the failures in a row start again from 0);
* 404, 410: the subscription is gone (unsubscribed, expired): it is deleted,
  with its links to seats;
* a timeout, a failed connection, 429 or 5xx: tried again later, after a
  wait that doubles each time (with jitter; a `Retry-After` is honoured, up
  to ESCOBA_PUSH_RETRY_MAX_SECONDS), ESCOBA_PUSH_TRIES times in all; a wait
  never holds a thread (a timer hands the job back to the pool);
* any other answer, or the last try failed: one more failure in a row; at
  ESCOBA_PUSH_MAX_FAILURES the subscription is deleted;
* an endpoint whose host now resolves to an address the server does not call
  (`EndpointGuard`): deleted, nothing sent.

Each outcome is logged with the subscription's id and the push service's
origin, never the endpoint's path (a capability), the payload or the keys.
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import logging
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import orjson
from pywebpush import WebPusher

from escoba.i18n import HTML_LANG
from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.settings import Settings
from escoba.web.notices.notice import Notice, NoticeKind, notice_text
from escoba.web.notices.push.endpoints import (
    BadSubscription,
    Endpoint,
    EndpointGuard,
    EndpointRefused,
    EndpointUnresolved,
)
from escoba.web.notices.push.sender import PushSender, SendError
from escoba.web.notices.push.store import PushStore, Target
from escoba.web.notices.push.subscribing import Subscribing
from escoba.web.notices.push.vapid import Vapid, b64url

log = logging.getLogger("escoba.push")

#: the kinds a person should hear of at once (RFC 8030 §5.3 Urgency)
URGENT = frozenset({NoticeKind.TURN, NoticeKind.WARNING})


def payload(notice: Notice, lang: str, now: datetime) -> bytes:
    """What the service worker shows: the table, what happened, where to go.
    Never a card (`notice_text`)."""
    title, body = notice_text(notice, lang, now)
    return orjson.dumps(
        {
            "title": title,
            "body": body,
            "url": f"/t/{notice.invite}",
            "tag": f"escoba-{notice.invite}",
            "kind": notice.kind.value,
            "lang": HTML_LANG.get(lang, "es"),  # the notification's language tag
        }
    )


def topic(invite: str) -> str:
    """The `Topic` of a table's pushes (RFC 8030 §5.4: at most 32 characters
    of base64url): a newer notice replaces one the push service still holds."""
    return b64url(hashlib.sha256(f"escoba-{invite}".encode()).digest())[:32]


def retry_after_seconds(value: str | None, now: float) -> float | None:
    """A `Retry-After` (seconds, or an HTTP date) as seconds from now."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, moment.timestamp() - now)


@dataclass(eq=False)
class _Job:
    """One push: a notice to one subscription, until it is done; `now`, the
    moment its words are written for (`deliver`'s)."""

    target: Target
    notice: Notice
    now: datetime
    tries: int = 0
    endpoint: Endpoint | None = None
    body: bytes | None = field(default=None, repr=False)


class _Timers:
    """Runs callbacks after a delay, from one thread (a retry's wait never
    holds a sending thread)."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self._cond = threading.Condition()
        self._stopped = False
        self._thread: threading.Thread | None = None

    def later(self, delay: float, callback: Callable[[], None]) -> bool:
        with self._cond:
            if self._stopped:
                return False
            due = time.monotonic() + max(0.0, delay)
            heapq.heappush(self._heap, (due, next(self._order), callback))
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="escoba-push-timers", daemon=True
                )
                self._thread.start()
            self._cond.notify()
        return True

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stopped:
                    if self._heap:
                        wait = self._heap[0][0] - time.monotonic()
                        if wait <= 0:
                            break
                        self._cond.wait(wait)
                    else:
                        self._cond.wait()
                if self._stopped:
                    return
                _, _, callback = heapq.heappop(self._heap)
            callback()

    def stop(self) -> int:
        """Stop; the number of callbacks that will not run."""
        with self._cond:
            self._stopped = True
            left = len(self._heap)
            self._heap.clear()
            self._cond.notify()
        if self._thread is not None:
            self._thread.join(timeout=5)
        return left


class PushChannel:
    """`escoba.web.notices.notice.Channel` for Web Push. `close()` stops it."""

    name = "push"

    def __init__(
        self,
        db: Database,
        settings: Settings,
        clock: Clock,
        vapid: Vapid,
        guard: EndpointGuard | None = None,
        sender: PushSender | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.vapid = vapid
        self.store = PushStore(db, clock)
        self.guard = guard or EndpointGuard(settings.push_allow_private)
        #: the routes' side: subscribing seats, checked
        self.subscribing = Subscribing(self.store, self.guard)
        workers = max(1, settings.push_workers)
        self.sender = sender or PushSender(
            settings.push_connect_timeout, settings.push_read_timeout, workers
        )
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="escoba-push")
        self._timers = _Timers()
        self._rng = random.Random()
        self._cond = threading.Condition()
        self._pending = 0
        self._closed = False
        #: how many pushes ended how (sent, gone, failed, dropped, refused),
        #: and how many tries were repeated (retried)
        self.outcomes: Counter[str] = Counter()

    # ------------------------------------------------------------------
    # The Channel

    def deliver(self, notices: Sequence[Notice]) -> None:
        """Queue one push per subscription of each notice's seat (one per
        subscription, table and kind) and return; never raises. Its cost on
        the caller's thread is one read of the subscriptions: the words, the
        encryption and the request are the pool's."""
        try:
            jobs = self._jobs(notices)
        except Exception:
            log.exception("push: could not read the subscriptions")
            return
        for job in jobs:
            with self._cond:
                if self._closed:
                    return
                self._pending += 1
            self._resubmit(job)

    def _jobs(self, notices: Sequence[Notice]) -> list[_Job]:
        targets = self.store.targets(n.seat_id for n in notices)
        now = self.clock.now()
        seen: set[tuple[int, int, NoticeKind]] = set()
        jobs = []
        for notice in notices:
            for target in targets.get(notice.seat_id, ()):
                key = (target.id, notice.table_id, notice.kind)
                if key not in seen:
                    seen.add(key)
                    jobs.append(_Job(target, notice, now))
        return jobs

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every queued push is done (retries included); False
        if `timeout` passed first."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pending == 0, timeout)

    def close(self) -> None:
        """Stop: retries not yet due are dropped, queued pushes cancelled;
        requests under way end by their timeouts."""
        with self._cond:
            self._closed = True
        self._timers.stop()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.sender.close()
        with self._cond:
            self._pending = 0
            self._cond.notify_all()

    # ------------------------------------------------------------------
    # One try

    def _run(self, job: _Job) -> None:
        try:
            done = self._try(job)
        except Exception:
            log.exception("push failed", extra=self._where(job))
            done = True
        if done:
            with self._cond:
                self._pending = max(0, self._pending - 1)
                self._cond.notify_all()

    def _try(self, job: _Job) -> bool:
        """One try of `job`; True when it is done (False: a retry is due)."""
        job.tries += 1
        target = job.target
        try:
            if job.endpoint is None:
                job.endpoint = self.guard.endpoint(target.endpoint)
            address = self.guard.address(job.endpoint)
        except EndpointUnresolved:
            return self._again(job, "unresolved", None)
        except (BadSubscription, EndpointRefused) as exc:
            self.store.drop(target.id)
            return self._end(job, "refused", logging.WARNING, why=exc.code)
        if job.body is None:
            subscription = {
                "endpoint": target.endpoint,
                "keys": {"p256dh": target.p256dh, "auth": target.auth},
            }
            message = payload(job.notice, target.lang, job.now)
            encoded = WebPusher(subscription).encode(message, "aes128gcm")
            job.body = bytes(encoded["body"])
        headers = {
            "Authorization": self.vapid.authorization(job.endpoint.origin),
            "TTL": str(self.settings.push_ttl_seconds),
            "Urgency": "high" if job.notice.kind in URGENT else "normal",
            "Topic": topic(job.notice.invite),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
        }
        try:
            reply = self.sender.post(job.endpoint, address, headers, job.body)
        except SendError as exc:
            return self._again(job, str(exc), None)
        status = reply.status
        if 200 <= status < 300:
            if target.failures:
                self.store.succeeded(target.id)
            return self._end(job, "sent", logging.INFO, status=status)
        if status in (404, 410):
            self.store.drop(target.id)
            return self._end(job, "gone", logging.INFO, status=status)
        if status == 429 or status >= 500:
            return self._again(job, str(status), reply.retry_after, status=status)
        return self._failed(job, status=status)

    def _again(self, job: _Job, why: str, retry_after: str | None, status: int = 0) -> bool:
        """Try `job` again after a while, unless it had its tries."""
        if job.tries >= max(1, self.settings.push_tries):
            return self._failed(job, why=why, status=status)
        cap = self.settings.push_retry_max_seconds
        wait = min(cap, self.settings.push_retry_seconds * 2 ** (job.tries - 1))
        wait *= self._rng.uniform(0.5, 1.0)
        asked = retry_after_seconds(retry_after, time.time())
        if asked is not None:
            wait = max(wait, min(asked, cap))
        extra = {**self._where(job), "why": why, "status": status, "wait": round(wait, 3)}
        log.info("push retry", extra=extra)
        with self._cond:
            self.outcomes["retried"] += 1
        # closing: the timers take no more, and the job is done
        return not self._timers.later(wait, lambda: self._resubmit(job))

    def _resubmit(self, job: _Job) -> None:
        """Hand `job` (counted as pending) to the pool."""
        try:
            self._pool.submit(self._run, job)
        except RuntimeError:  # the pool was shut down meanwhile
            with self._cond:
                self._pending = max(0, self._pending - 1)
                self._cond.notify_all()

    def _failed(self, job: _Job, why: str = "", status: int = 0) -> bool:
        count = self.store.failed(job.target.id, self.settings.push_max_failures)
        dropped = count >= self.settings.push_max_failures
        outcome = "dropped" if dropped else "failed"
        return self._end(job, outcome, logging.WARNING, status=status, why=why, failures=count)

    def _end(self, job: _Job, outcome: str, level: int, **extra: object) -> bool:
        with self._cond:
            self.outcomes[outcome] += 1
        log.log(level, f"push {outcome}", extra={**self._where(job), **extra})
        return True

    @staticmethod
    def _where(job: _Job) -> dict[str, object]:
        endpoint = job.endpoint
        return {
            "subscription": job.target.id,
            "origin": endpoint.origin if endpoint is not None else "?",
            "table_id": job.notice.table_id,
            "kind": job.notice.kind.value,
            "tries": job.tries,
        }
