"""The server's metrics, for Prometheus (`/metrics`: web/html/metrics_routes.py;
docs/deploy.md lists them). Every metric is defined here, and each room
records through the small functions below, so none of them needs more of
prometheus_client than this module.

With several processes (`escoba serve --workers N`) prometheus_client's
multiprocess mode is on: `escoba serve` sets PROMETHEUS_MULTIPROC_DIR (a
directory of its own per run, emptied at start: web/cli.py) before this
module is first imported, each process writes its values there, and a
scrape of any process sums the counters and histograms of all of them; the
gauges say in `multiprocess_mode` how the processes' values add up."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST

#: Seconds: a command is a few milliseconds, a wait on a locked table or a
#: busy database up to the busy timeout (30 s).
_COMMAND_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
#: Seconds: a robot's choice is milliseconds to a couple of seconds (Luna).
_ROBOT_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30)

COMMANDS = Counter(
    "escoba_commands",
    "Table commands by kind (the service's method: act, next_round, chat, robot_play…) "
    "and outcome (ok, or the refusal's code: stale, busy, not_seated…; error: a fault).",
    ["kind", "outcome"],
)
COMMAND_SECONDS = Histogram(
    "escoba_command_seconds",
    "Time a table command took, from its call to its answer (after its commit's hooks).",
    ["kind"],
    buckets=_COMMAND_BUCKETS,
)
STREAMS = Gauge(
    "escoba_streams_open",
    "Live streams (open table pages and «Mis mesas») held open now.",
    multiprocess_mode="livesum",
)
BUS_UP = Gauge(
    "escoba_bus_up",
    "1 while the live bus between processes (PostgreSQL LISTEN, Redis, the SQLite "
    "watcher) listens; with several processes, the lowest of them.",
    ["backend"],
    multiprocess_mode="livemin",
)
BUS_RESYNCS = Counter(
    "escoba_bus_resyncs",
    "Times a process caught its streams up from the database after the live bus (re)connected.",
    ["backend"],
)
ROBOT_QUEUE_SECONDS = Histogram(
    "escoba_robot_queue_seconds",
    "Time a robot's move waited for a free thinking worker.",
    buckets=_ROBOT_BUCKETS,
)
ROBOT_THINKING_SECONDS = Histogram(
    "escoba_robot_thinking_seconds",
    "Time a robot took to choose its move, in its thinking worker.",
    buckets=_ROBOT_BUCKETS,
)
NOTICES = Counter(
    "escoba_notices",
    "Notices handed to a channel (push, email): sent (the channel took them) or failed.",
    ["channel", "outcome"],
)
MAIL = Counter(
    "escoba_mail_messages",
    "E-mails of the outbox the SMTP server took (sent), or refused or could not be "
    "reached for (failed: tried again later).",
    ["outcome"],
)
DATABASE_ERRORS = Counter(
    "escoba_database_errors",
    "Errors the database or its driver raised (connection lost, busy, …), by SQLAlchemy's class.",
    ["error"],
)


def command_done(kind: str, outcome: str, seconds: float) -> None:
    COMMANDS.labels(kind, outcome).inc()
    COMMAND_SECONDS.labels(kind).observe(seconds)


def stream_opened() -> None:
    STREAMS.inc()


def stream_closed() -> None:
    STREAMS.dec()


def bus_state(backend: str, up: bool) -> None:
    """The live bus of this process connected (True) or lost its connection."""
    BUS_UP.labels(backend).set(1 if up else 0)


def bus_resynced(backend: str) -> None:
    """Call once each time the streams were caught up after the bus (re)connected."""
    BUS_RESYNCS.labels(backend).inc()


def robot_waited(seconds: float) -> None:
    ROBOT_QUEUE_SECONDS.observe(seconds)


def robot_thought(seconds: float) -> None:
    ROBOT_THINKING_SECONDS.observe(seconds)


def notices_handed(channel: str, count: int, ok: bool) -> None:
    NOTICES.labels(channel, "sent" if ok else "failed").inc(count)


def mail_sent(ok: bool) -> None:
    MAIL.labels("sent" if ok else "failed").inc()


def database_error(error: str) -> None:
    DATABASE_ERRORS.labels(error).inc()


def process_stopped() -> None:
    """At an app process's clean stop, with several processes: its «live»
    gauges (open streams, the bus) leave the sums, as its streams did."""
    if os.environ.get(MULTIPROC_ENV):
        mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


# ----------------------------------------------------------------------
# Scraping


class QueueCollector(Collector):
    """Gauges computed when scraped: `depth_and_oldest()` gives the rows
    waiting and the age in seconds of the oldest (None: none waits)."""

    def __init__(self, depth_and_oldest: Callable[[], tuple[int, float | None]]) -> None:
        self._read = depth_and_oldest

    def collect(self) -> Iterator[Metric]:
        try:
            depth, oldest = self._read()
        except Exception:
            database_error("scrape")
            return
        yield GaugeMetricFamily(
            "escoba_analyses_queued",
            "Rounds waiting for their analysis, or being analysed.",
            value=depth,
        )
        yield GaugeMetricFamily(
            "escoba_analyses_oldest_seconds",
            "Age of the oldest round waiting for its analysis (0: none).",
            value=0.0 if oldest is None else max(0.0, oldest),
        )


class _Together(Collector):
    def __init__(self, parts: Iterable[Collector]) -> None:
        self._parts = list(parts)

    def collect(self) -> Iterator[Metric]:
        for part in self._parts:
            yield from part.collect()


def scrape(*extra: Collector) -> bytes:
    """The metrics in the text format: this process's (or, in multiprocess
    mode, every process's, summed), and those of `extra`, read now."""
    registry = CollectorRegistry(auto_describe=False)
    if os.environ.get(MULTIPROC_ENV):
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        registry.register(_Together(extra))
    else:
        registry.register(_Together([REGISTRY, *extra]))
    return generate_latest(registry)
