"""The app factory: settings, database, service, live updates (and their
bridge between processes), robots, rate limits and the security middleware
are made here, per app, never at import time."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

import anyio.to_thread
from fastapi import FastAPI, Header, Query, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from itsdangerous import URLSafeSerializer
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from escoba.web import api, apidocs, assets, routes
from escoba.web.clock import Clock, SystemClock
from escoba.web.db import Database
from escoba.web.deps import AppContext
from escoba.web.errors import Busy, RateLimited, ServiceError
from escoba.web.jobs import RobotBrain
from escoba.web.limits import DatabaseLimiter, Limiter, MemoryLimiter, RedisLimiter
from escoba.web.live import Broker, Hub, LiveStream, close_on_exit_signals, make_bridge
from escoba.web.robots import ClientTag, InlineRobots, RobotRunner, ThinkingPool
from escoba.web.security import BodyLimitMiddleware, GuardMiddleware
from escoba.web.service import TableService
from escoba.web.settings import Settings

log = logging.getLogger("escoba.web")
GC_YOUNG = 20_000
TOO_MANY_STREAMS = (
    "Hay demasiadas mesas abiertas a la vez desde tu conexión: cierra alguna pestaña "
    "de Escoba y esta volverá a conectarse sola."
)


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
    db = Database(settings.sqlalchemy_url, settings.sqlite_synchronous)
    if migrate:
        db.migrate()
    broker = Broker(streams_per_client=settings.live_streams_per_ip)
    hub = Hub(broker, make_bridge(settings.live, settings.sqlalchemy_url, settings.redis_url))
    service = TableService(db, settings, clock or SystemClock(), hub, brain=brain, rng=rng)
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
        signer=URLSafeSerializer(secret, salt="escoba-seat"),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        if isinstance(runner, RobotRunner):
            runner.start_pool()  # first: its worker processes fork from this one
        # Few worker threads for the routes that touch the database: more
        # would only queue on the GIL (and, on SQLite, on the write lock), and
        # each waiting thread delays the event loop that serves the streams.
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
        hub.stop()
        limiter.close()
        db.dispose()

    app = FastAPI(
        title="Escoba",
        summary="Escoba del 15 at your own pace: invite tables, robots, live play.",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's pages need a CDN and an inline script: web/apidocs.py
        redoc_url=None,
    )
    app.state.ctx = ctx
    app.state.hub = hub
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
        busy = Busy("El servidor no llegó a la base de datos: prueba otra vez.", "busy")
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

    @app.get("/health/live", tags=["ops"])
    async def alive() -> dict[str, str]:
        """Liveness: the process answers (no database work). Restart it if not."""
        return {"status": "alive"}

    @app.get("/health", tags=["ops"])
    def health() -> JSONResponse:
        """Ready to serve: the database answers and its schema is the newest
        migration, and the live bridge to the other processes listens. 503
        (with the reason) when not, so a load balancer takes this process out."""
        checks: dict[str, Any] = {}
        ok = True
        try:
            checks["schema"] = db.schema_revision()
            checks["database"] = "ok"
            if checks["schema"] != db.head_revision:
                ok = False
                checks["schema_expected"] = db.head_revision
        except Exception as err:
            ok = False
            checks["database"] = f"unreachable: {type(err).__name__}"
        checks["live"] = hub.backend
        checks["live_ok"] = hub.healthy
        ok = ok and hub.healthy
        body = {
            "status": "ok" if ok else "unavailable",
            **checks,
            "live_connections": broker.connections,
            "pid": os.getpid(),
        }
        return JSONResponse(body, status_code=200 if ok else 503)

    @app.get("/t/{invite}/events", tags=["live"], response_class=LiveStream, status_code=200)
    async def events(
        invite: str,
        request: Request,
        since: Annotated[int | None, Query(ge=0, description="The version you show.")] = None,
        last_event_id: Annotated[str | None, Header()] = None,
    ) -> LiveStream:
        """Server-sent events: `update` with the table's new version after each
        change. Fetch your own view on each one; no card travels here. With
        `since` (or a browser's `Last-Event-ID`) older than the table, the
        stream starts with an update: a client that was away catches up.
        One client IP holds at most `ESCOBA_LIVE_STREAMS_PER_IP` streams in a
        process; past that, 429 (a HEAD tells a page whether it would be let
        in, without holding a stream)."""
        table_id = service.table_id(invite)
        # no address (a Unix socket without forwarded headers): nothing to count by
        client = request.client.host if request.client else None
        if client is not None and not broker.admit(client):
            log.info("too many live streams", extra={"invite": invite})
            raise RateLimited(TOO_MANY_STREAMS, "too_many_streams")
        known = [v for v in (since, _int_or_none(last_event_id)) if v is not None]
        return LiveStream(
            broker,
            table_id,
            since=max(known) if known else None,
            current=lambda: service.version(invite),
            client=client,
        )

    # a page asks whether it would be let in (429 or 200, no stream held)
    app.add_api_route(
        "/t/{invite}/events",
        events,
        methods=["HEAD"],
        response_class=LiveStream,
        include_in_schema=False,
    )

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


def _int_or_none(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() and len(value) < 12 else None


def _error_page(message: str) -> str:
    from html import escape

    return (
        '<!doctype html><html lang="es"><meta charset="utf-8"><title>Escoba</title>'
        f'<main><p role="alert">{escape(message)}</p><p><a href="/">Volver</a></p></main></html>'
    )
