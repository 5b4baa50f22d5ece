"""The app factory: settings, database, service, live updates (and their
bridge between processes), robots, rate limits and the security middleware
are made here, per app, never at import time."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from itsdangerous import URLSafeSerializer
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from escoba.web import api, apidocs, assets, ops, routes
from escoba.web.bridges import Hub, make_bridge
from escoba.web.clock import Clock, SystemClock
from escoba.web.command_path import RobotBrain
from escoba.web.db import Database
from escoba.web.deps import AppContext
from escoba.web.errors import Busy, ServiceError
from escoba.web.limits import DatabaseLimiter, Limiter, MemoryLimiter, RedisLimiter
from escoba.web.live import Broker, close_on_exit_signals
from escoba.web.robots import ClientTag, InlineRobots, RobotRunner, ThinkingPool
from escoba.web.security import BodyLimitMiddleware, GuardMiddleware
from escoba.web.service import TableService
from escoba.web.settings import Settings

log = logging.getLogger("escoba.web")
GC_YOUNG = 20_000


@dataclass
class Core:
    """What the app and the operator commands (`escoba expire`) share: the
    database, the live hub that tells every process of a change, and the
    table service over them."""

    settings: Settings
    db: Database
    broker: Broker
    hub: Hub
    service: TableService

    def close(self) -> None:
        self.hub.stop()
        self.db.dispose()


def build_core(
    settings: Settings,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    brain: RobotBrain | None = None,
    migrate: bool = True,
) -> Core:
    """The database (migrated unless told not to), the hub and the service."""
    db = Database(settings.sqlalchemy_url, settings.sqlite_synchronous)
    if migrate:
        db.migrate()
    broker = Broker(streams_per_client=settings.live_streams_per_ip)
    hub = Hub(broker, make_bridge(settings.live, settings.sqlalchemy_url, settings.redis_url))
    service = TableService(db, settings, clock or SystemClock(), hub, brain=brain, rng=rng)
    return Core(settings, db, broker, hub, service)


def create_app(
    settings: Settings | None = None,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    brain: RobotBrain | None = None,
    migrate: bool = True,
    serving: bool = False,
) -> FastAPI:
    """`serving`: this app is the process's only one (the ASGI entry point),
    so it may tune the process's garbage collector at start-up."""
    settings = settings or Settings()
    core = build_core(settings, clock, rng, brain, migrate)
    db, broker, hub, service = core.db, core.broker, core.hub, core.service
    runner: RobotRunner | InlineRobots
    if settings.robot_inline:
        runner = InlineRobots(service.play_robots)
    else:
        runner = RobotRunner(
            service.robot_turn,
            service.robot_play,
            service.brain,
            ThinkingPool(settings.robot_processes),
            settings.robot_delay,
            overdue=service.overdue_robot_tables,
            sweep_seconds=settings.robot_sweep_seconds,
        )
    limiter: Limiter
    if settings.redis_url:
        limiter = RedisLimiter(settings.redis_url)
    elif db.is_sqlite:
        limiter = MemoryLimiter()  # one process: SQLite without Redis
    else:
        limiter = DatabaseLimiter(db)
    service.on_robot_turn = runner.schedule
    secret = settings.secret_key or db.secret("cookie")
    ctx = AppContext(
        settings=settings,
        service=service,
        broker=broker,
        hub=hub,
        signer=URLSafeSerializer(secret, salt="escoba-seat"),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        if isinstance(runner, RobotRunner):
            runner.start_pool()  # first: its worker processes fork from this one
        # Routes run the service on the event loop (docs/deploy.md says what
        # a wait on a lock then costs); the few sync routes (readiness, files)
        # take worker threads, few of them: more would only queue on the GIL.
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        broker.bind(loop)
        hub.start()
        db.start_checkpoints()
        if isinstance(runner, RobotRunner):
            runner.bind(loop)
            for table_id in await asyncio.to_thread(service.robot_tables):
                runner.schedule(table_id)
            runner.start_sweeping()
        log.info("started", extra={"live": hub.backend, "database": db.engine_name})
        if serving:
            tune_collector()
        # last, so that no process forked at start-up inherits the hook
        restore_signals = close_on_exit_signals(broker, loop)
        yield
        restore_signals()
        if isinstance(runner, RobotRunner):
            await runner.stop()
        broker.close()
        limiter.close()
        core.close()

    app = FastAPI(
        title="Escoba",
        summary="Escoba del 15 at your own pace: invite tables, robots, live play.",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's pages need a CDN and an inline script: web/apidocs.py
        redoc_url=None,
    )
    app.state.ctx = ctx
    app.add_middleware(GuardMiddleware, settings=settings, limiter=limiter, signer=ctx.signer)
    app.add_middleware(  # outside the guard: an oversized body is refused before anything
        BodyLimitMiddleware,
        max_bytes=settings.max_body_bytes,
        timeout_seconds=settings.request_timeout_seconds,
    )
    app.add_middleware(ClientTag)

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> Response:
        log.info(
            "refused",
            extra={"path": request.url.path, "code": exc.code, "status": exc.status},
        )
        if request.url.path.startswith("/api/"):
            return api.refusal(exc.status, exc.code, exc.message)
        return HTMLResponse(_error_page(exc.message), status_code=exc.status)

    @app.exception_handler(OperationalError)
    async def database_unavailable(request: Request, exc: OperationalError) -> Response:
        """The database dropped a connection (a restart) or cannot be reached:
        nothing was written; the pool renews its connections."""
        log.warning("database unavailable", extra={"path": request.url.path})
        busy = Busy("busy", words="database_unavailable")
        return await service_error(request, busy)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        if request.url.path.startswith("/api/"):
            return api.validation_refusal(request, exc)
        return HTMLResponse(_error_page("Faltan datos o no son válidos."), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """FastAPI's and Starlette's own errors (no such path, wrong method, a
        body that cannot be decoded): in the API's shape under /api/."""
        if request.url.path.startswith("/api/"):
            return api.http_refusal(exc)
        return await http_exception_handler(request, exc)

    app.include_router(ops.router)
    app.include_router(api.router)
    app.include_router(apidocs.router)
    app.include_router(routes.router)
    app.include_router(assets.router)
    return app


def tune_collector() -> None:
    """For a serving process, after start-up. What start-up made lives as
    long as the process: frozen, out of the collector's sight. A request makes
    thousands of short-lived objects and few reference cycles, so the youngest
    generation is collected every GC_YOUNG allocations instead of 700: the
    collector's pauses were the load benchmark's tail latency (p99 32–175 ms
    → 9–27 ms, bench/RESULTS-load.md)."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


def _error_page(message: str) -> str:
    from html import escape

    return (
        '<!doctype html><html lang="es"><meta charset="utf-8"><title>Escoba</title>'
        f'<main><p role="alert">{escape(message)}</p><p><a href="/">Volver</a></p></main></html>'
    )
