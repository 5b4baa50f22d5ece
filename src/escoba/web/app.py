"""The app factory: settings, database, service, live updates and robots are
made here, per app, never at import time."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from itsdangerous import URLSafeSerializer
from sse_starlette.sse import EventSourceResponse

from escoba.web import api, html
from escoba.web.clock import Clock, SystemClock
from escoba.web.db import Database
from escoba.web.deps import AppContext
from escoba.web.live import Broker
from escoba.web.robots import InlineRobots, RobotRunner
from escoba.web.service import RobotBrain, ServiceError, TableService
from escoba.web.settings import Settings

log = logging.getLogger("escoba.web")


def create_app(
    settings: Settings | None = None,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    brain: RobotBrain | None = None,
    migrate: bool = True,
) -> FastAPI:
    settings = settings or Settings()
    db = Database(settings.sqlalchemy_url)
    if migrate:
        db.migrate()
    broker = Broker()
    service = TableService(db, settings, clock or SystemClock(), broker, brain=brain, rng=rng)
    runner: RobotRunner | InlineRobots
    if settings.robot_inline:
        runner = InlineRobots(service.play_robots)
    else:
        runner = RobotRunner(service.robot_move, settings.robot_delay)
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
        broker.bind(loop)
        if isinstance(runner, RobotRunner):
            runner.bind(loop)
            for table_id in service.robot_tables():
                runner.schedule(table_id)
        yield
        if isinstance(runner, RobotRunner):
            await runner.stop()
        db.dispose()

    app = FastAPI(
        title="Escoba",
        summary="Escoba del 15 at your own pace: invite tables, robots, live play.",
        lifespan=lifespan,
    )
    app.state.ctx = ctx

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": exc.code, "message": exc.message}, status_code=exc.status)
        return HTMLResponse(_error_page(exc.message), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        if request.url.path.startswith("/api/"):
            first = exc.errors()[0] if exc.errors() else {}
            where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
            message = f"Dato no válido: {where} ({first.get('msg', 'revisa la petición')})"
            return JSONResponse({"error": "invalid", "message": message}, status_code=422)
        return HTMLResponse(_error_page("Faltan datos o no son válidos."), status_code=422)

    @app.get("/health", tags=["ops"])
    def health() -> dict[str, Any]:
        """Liveness and database reachability."""
        with db.read() as session:
            session.execute(_select_one())
        return {"status": "ok", "live_connections": broker.connections}

    @app.get("/t/{invite}/events", tags=["live"])
    async def events(invite: str, request: Request) -> EventSourceResponse:
        """Server-sent events: `update` with the table's new version after each
        change. Fetch your own view on each one; no card travels here."""
        table_id = await asyncio.to_thread(service.table_id, invite)

        async def stream() -> AsyncIterator[dict[str, Any]]:
            async for version in broker.subscribe(table_id):
                if await request.is_disconnected():
                    return
                yield {"event": "update", "data": str(version)}

        return EventSourceResponse(stream(), ping=15)

    app.include_router(api.router)
    app.include_router(html.router)
    return app


def _select_one() -> Any:
    from sqlalchemy import text

    return text("SELECT 1")


def _error_page(message: str) -> str:
    from html import escape

    return (
        '<!doctype html><html lang="es"><meta charset="utf-8"><title>Escoba</title>'
        f'<main><p role="alert">{escape(message)}</p><p><a href="/">Volver</a></p></main></html>'
    )
