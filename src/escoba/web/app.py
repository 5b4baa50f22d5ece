"""The app factory: settings, database, service, live updates (and their
bridge between processes), robots, rate limits and the security middleware
are made here, per app, never at import time."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Final, Protocol

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from itsdangerous import URLSafeSerializer
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware

from escoba.web.api import docs as apidocs
from escoba.web.api import email_routes as api_email
from escoba.web.api import game_routes as api_games
from escoba.web.api import routes as api
from escoba.web.api.refusals import ApiErrors
from escoba.web.base import assets, metrics
from escoba.web.base.clock import Clock, SystemClock
from escoba.web.base.db import Database
from escoba.web.base.errors import Busy, ServiceError, speaks_json
from escoba.web.base.limits import DatabaseLimiter, Limiter, MemoryLimiter, RedisLimiter
from escoba.web.base.settings import Settings
from escoba.web.devices.devices import Devices
from escoba.web.devices.my_tables import MyTables
from escoba.web.devices.seat_devices import SeatDevices
from escoba.web.devices.transfers import Transfers
from escoba.web.frame.deps import AppContext
from escoba.web.frame.legacy_seats import LegacySeatsMiddleware
from escoba.web.frame.security import BodyLimitMiddleware, GuardMiddleware, HeaderLimitMiddleware
from escoba.web.html import (
    device_routes,
    email_routes,
    install,
    ops,
    push_routes,
    routes,
)
from escoba.web.html.error_pages import PageErrors
from escoba.web.html.game_pages import router as games_router
from escoba.web.html.lesson_routes import router as lesson_router
from escoba.web.html.metrics_routes import router as metrics_router
from escoba.web.html.rules_routes import router as rules_router
from escoba.web.html.story_routes import router as story_router
from escoba.web.live.bridges import Hub, make_bridge
from escoba.web.live.my_tables_live import DeviceNews
from escoba.web.live.resync import Resync
from escoba.web.live.streams import Broker, close_on_exit_signals
from escoba.web.notices.choices import NoticeChoices
from escoba.web.notices.dispatch import Dispatcher
from escoba.web.notices.email.channel import EmailChannel
from escoba.web.notices.notice import Channel
from escoba.web.notices.push import PushChannel, Vapid
from escoba.web.notices.push.worker import PushWorker
from escoba.web.table.command_path import RobotBrain
from escoba.web.table.reads import table_versions
from escoba.web.table.service import TableService
from escoba.web.workers.analyses import AnalysisRunner
from escoba.web.workers.robots import ClientTag, InlineRobots, RobotRunner, ThinkingPool

log = logging.getLogger("escoba.web")

#: how long stopping waits for the pushes under way (their retries are dropped)
PUSH_DRAIN_SECONDS = 5.0
GC_YOUNG = 20_000
#: FastAPI's and Starlette's own errors outside the API, by status: the words.
#: Answers smaller than this go as they are (gzip's frame would eat the gain).
GZIP_MIN_BYTES: Final = 512
#: zlib's default (a board, ~10 KB, in ~0.2 ms); 9 saves under 1 % more, slower.
GZIP_LEVEL: Final = 6
#: Never compressed here: an event stream (a compressor would hold its events
#: back until enough of them filled a block; a table page's stream gzips
#: itself, flushed at each event: web/live/streams.py), nor what is compressed already.
GZIP_NEVER: Final = tuple(sorted({*DEFAULT_EXCLUDED_CONTENT_TYPES, "text/event-stream"}))


class ErrorFace(Protocol):
    """How errors are said: the API's JSON (`api.refusals.ApiErrors`) or pages
    (`html.error_pages.PageErrors`); `face` picks one per request, once."""

    def refused(self, request: Request, exc: ServiceError) -> Response: ...
    def bad_input(self, request: Request, exc: RequestValidationError) -> Response: ...
    def http(self, request: Request, exc: StarletteHTTPException) -> Response: ...
    def bug(self, request: Request) -> Response: ...


@dataclass
class Core:
    """What the app and the operator commands (`escoba expire`) share: the
    database, the live hub that tells every process of a change, the table
    service over them, and the notices' dispatcher (started by whoever runs
    commands: the app's lifespan, `escoba expire`)."""

    settings: Settings
    db: Database
    broker: Broker
    hub: Hub
    service: TableService
    dispatcher: Dispatcher
    #: signs the cookies and the links the app hands out (ESCOBA_SECRET_KEY,
    #: else a key kept in the database)
    secret: str
    #: Web Push: the dispatcher's channel (unless a test gave its own), and
    #: the subscriptions' store for the routes
    push: PushChannel

    def channel(self, name: str) -> Channel | None:
        """The dispatcher's channel of that name, if this server has it."""
        return next((c for c in self.dispatcher.channels if c.name == name), None)

    def close(self) -> None:
        self.dispatcher.stop()  # what is queued is handed to the channels
        for channel in self.dispatcher.channels:
            if isinstance(channel, PushWorker):
                channel.close()  # sends what it was given (PushWorker.STOP_SECONDS)
        self.push.wait_idle(PUSH_DRAIN_SECONDS)  # and the pushes under way sent
        self.push.close()
        self.hub.stop()
        self.db.dispose()


def make_channels(
    settings: Settings, service: TableService, secret: str, push: PushChannel
) -> list[Channel]:
    """The ways this server reaches a seat away from its table: Web Push,
    and e-mail where the settings name an SMTP server."""
    channels: list[Channel] = [PushWorker(settings) if settings.push_processes > 0 else push]
    if settings.email:
        channels.append(EmailChannel(service, settings, secret))
    return channels


def build_core(
    settings: Settings,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    brain: RobotBrain | None = None,
    migrate: bool = True,
    channels: Sequence[Channel] | None = None,
) -> Core:
    """The database (migrated unless told not to), the hub, the service and
    the dispatcher of its notices (to `channels`, or the configured ones)."""
    db = Database(
        settings.sqlalchemy_url, settings.sqlite_synchronous, settings.sqlite_busy_seconds
    )
    if migrate:
        db.migrate()
    broker = Broker(streams_per_client=settings.live_streams_per_ip)
    resync = Resync(broker, partial(table_versions, db), settings.live_check_seconds)
    bridge = make_bridge(settings.live, settings.sqlalchemy_url, settings.redis_url)
    hub = Hub(broker, bridge, resync)
    service = TableService(db, settings, clock or SystemClock(), hub, brain=brain, rng=rng)
    secret = settings.secret_key or db.secret("cookie")
    push = PushChannel(db, settings, service.clock, Vapid.from_settings(settings, db))
    if channels is None:
        channels = make_channels(settings, service, secret, push)
    dispatcher = Dispatcher(service, channels)
    # a page counts as watching only while this process hears its table's news
    dispatcher.watching.hearing = lambda: hub.listening
    resync.on_state.append(lambda listening: dispatcher.watching.renew())
    service.after_commit.add(dispatcher)
    return Core(settings, db, broker, hub, service, dispatcher, secret, push)


def analysis_runner(service: TableService, settings: Settings) -> AnalysisRunner:
    """The runner of the rounds' analyses the settings describe (a web
    process's with ESCOBA_ANALYSES=web, or `escoba worker`'s)."""
    return AnalysisRunner(
        service.analysis_queue,
        settings.analysis_processes,
        settings.analysis_worlds,
        nice=settings.analysis_nice,
        poll_seconds=settings.analysis_poll_seconds,
    )


def create_app(
    settings: Settings | None = None,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    brain: RobotBrain | None = None,
    migrate: bool = True,
    serving: bool = False,
    channels: Sequence[Channel] | None = None,
) -> FastAPI:
    """`serving`: this app is the process's only one, serving people (the
    ASGI entry point): it refuses to start without the front-end packages
    (`assets.require_front_end`: a loud error, not pages whose every htmx
    request answers 404), and may tune the process's garbage collector at
    start-up; `channels`: where notices go (default: those the settings
    configure)."""
    settings = settings or Settings()
    core = build_core(settings, clock, rng, brain, migrate, channels)
    db, broker, hub, service = core.db, core.broker, core.hub, core.service
    runner: RobotRunner | InlineRobots
    analyses: AnalysisRunner | None = None
    if settings.robot_inline:
        runner = InlineRobots(
            service.jobs.play_robots
        )  # analyses: service.analysis_queue.run_all()
    else:
        pool = ThinkingPool(settings.robot_processes)
        if settings.analyses == "web":  # else `escoba worker` processes run them
            analyses = analysis_runner(service, settings)
        runner = RobotRunner(
            service.jobs.robot_turn,
            service.jobs.robot_play,
            service.path.brain,
            pool,
            settings.robot_delay,
            overdue=service.jobs.overdue_robot_tables,
            sweep_seconds=settings.robot_sweep_seconds,
        )
    limiter: Limiter
    if settings.redis_url:
        limiter = RedisLimiter(settings.redis_url, service.clock)
    elif db.is_sqlite:
        limiter = MemoryLimiter(service.clock)  # one process: SQLite without Redis
    else:
        limiter = DatabaseLimiter(db, clock=service.clock)
    service.after_commit.add(runner)
    if analyses is not None:
        service.after_commit.add(analyses)
    secret = core.secret
    signer = URLSafeSerializer(secret, salt="escoba-seat")
    ctx = AppContext(
        settings=settings,
        service=service,
        broker=broker,
        hub=hub,
        signer=signer,
        devices=Devices(db, service.clock, signer, DeviceNews(hub)),
        my_tables=MyTables(db, service.store, service.clock, settings),
        transfers=Transfers(service.path),
        seat_devices=SeatDevices(db),
        dispatcher=core.dispatcher,
        notice_choices=NoticeChoices(db, service.store),
        email=email if isinstance(email := core.channel("email"), EmailChannel) else None,
        push=core.push,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if serving:
            try:
                assets.require_front_end()
            except assets.FrontEndMissing as exc:
                log.critical("not started: %s", exc)
                raise
        loop = asyncio.get_running_loop()
        if isinstance(runner, RobotRunner):
            runner.start_pool()  # first: its worker processes fork from this one
        if analyses is not None:
            # forked before the app's own threads; the robots' pool's threads
            # (and, with --workers, uvicorn's health-check thread) already run;
            # none of them holds a lock the forked workers take, as far as we read
            analyses.start_pool()
        # Routes run the service on the event loop (docs/deploy.md says what
        # a wait on a lock then costs); the few sync routes (readiness, files)
        # take worker threads, few of them: more would only queue on the GIL.
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        broker.bind(loop)
        hub.start()
        core.dispatcher.start()  # a thread: after the robots' pool forked
        db.start_checkpoints()
        if isinstance(runner, RobotRunner):
            runner.bind(loop)
            for table_id in await asyncio.to_thread(service.jobs.robot_tables):
                runner.schedule(table_id)
            runner.start_sweeping()
        if analyses is not None:
            analyses.start(loop)  # takes up the rounds left queued or running
        if ctx.email is not None:
            ctx.email.start()
        log.info("started", extra={"live": hub.backend, "database": db.engine_name})
        if serving:
            tune_collector()
        # last, so that no process forked at start-up inherits the hook
        restore_signals = close_on_exit_signals(broker, loop)
        yield
        restore_signals()
        if analyses is not None:
            await analyses.stop()
        if isinstance(runner, RobotRunner):
            await runner.stop()
        if ctx.email is not None:
            ctx.email.stop()
        broker.close()
        limiter.close()
        core.close()
        metrics.process_stopped()

    app = FastAPI(
        title="Escoba",
        summary="Escoba del 15 at your own pace: invite tables, robots, live play.",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's pages need a CDN and an inline script: web/api/docs.py
        redoc_url=None,
    )
    app.state.ctx = ctx
    add_middleware(app, settings, limiter, ctx)
    assets.load()  # every static file read and named by its content, now
    add_error_faces(app, settings)
    include_routes(app)
    return app


def add_middleware(app: FastAPI, settings: Settings, limiter: Limiter, ctx: AppContext) -> None:
    """Every request's way in, innermost first: old per-table cookies moved to
    the device, the guards (limits, origins, the device), the caps on a
    request's body and head, the client's name for the robots' fairness,
    and gzip outermost."""
    app.add_middleware(LegacySeatsMiddleware, devices=ctx.devices, settings=settings)
    app.add_middleware(
        GuardMiddleware,
        settings=settings,
        limiter=limiter,
        signer=ctx.signer,
        devices=ctx.devices,
    )
    app.add_middleware(  # outside the guard: an oversized body is refused before anything
        BodyLimitMiddleware,
        max_bytes=settings.max_body_bytes,
        timeout_seconds=settings.request_timeout_seconds,
    )
    # outside the body's cap: a head over its cap is refused before any header is read
    app.add_middleware(HeaderLimitMiddleware, max_bytes=settings.max_header_bytes)
    app.add_middleware(ClientTag)
    # outermost: every answer that is worth it, gzipped for a browser that
    # takes it (pages, fragments, the API's JSON, refusals); the static files
    # come gzipped already (web/base/assets.py) and go through untouched
    app.add_middleware(
        GZipMiddleware,
        minimum_size=GZIP_MIN_BYTES,
        compresslevel=GZIP_LEVEL,
        exclude_content_types=GZIP_NEVER,
    )


def add_error_faces(app: FastAPI, settings: Settings) -> None:
    """Every error said once, in the face its address takes (`ErrorFace`)."""
    faces: tuple[ErrorFace, ErrorFace] = (ApiErrors(), PageErrors(settings.limits))

    def face(request: Request) -> ErrorFace:
        """How this request's errors are said: the API's JSON or a page."""
        return faces[0] if speaks_json(request.url.path) else faces[1]

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> Response:
        log.info(
            "refused",
            extra={"path": request.url.path, "code": exc.code, "status": exc.status},
        )
        return face(request).refused(request, exc)

    @app.exception_handler(OperationalError)
    async def database_unavailable(request: Request, exc: OperationalError) -> Response:
        """The database dropped a connection (a restart) or cannot be reached:
        nothing was written; the pool renews its connections."""
        log.warning("database unavailable", extra={"path": request.url.path})
        busy = Busy("busy", words="database_unavailable")
        return await service_error(request, busy)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        return face(request).bad_input(request, exc)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """FastAPI's and Starlette's own errors (no such path, wrong method, a
        body that cannot be decoded)."""
        return face(request).http(request, exc)

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> Response:
        """A bug: Starlette logs it (and raises it on, after this answer).
        The API keeps Starlette's plain answer."""
        return face(request).bug(request)


def include_routes(app: FastAPI) -> None:
    """The routers, the operations' and the API's first."""
    app.include_router(ops.router)
    app.include_router(metrics_router)
    app.include_router(api.router)
    app.include_router(api_games.router)
    app.include_router(api_email.router)
    app.include_router(apidocs.router)
    app.include_router(routes.router)
    app.include_router(story_router)
    app.include_router(games_router)
    app.include_router(rules_router)
    app.include_router(email_routes.router)
    app.include_router(push_routes.router)
    app.include_router(device_routes.router)
    app.include_router(assets.router)
    app.include_router(install.router)
    app.include_router(lesson_router)


def tune_collector() -> None:
    """For a serving process, after start-up. What start-up made lives as
    long as the process: frozen, out of the collector's sight. A request makes
    thousands of short-lived objects and few reference cycles, so the youngest
    generation is collected every GC_YOUNG allocations instead of 700: the
    collector's pauses were the load benchmark's tail latency (p99 32–175 ms
    → 9–27 ms, bench/RESULTS-load.md)."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
