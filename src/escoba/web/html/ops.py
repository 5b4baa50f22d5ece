"""The operations routes: liveness for the orchestrator, readiness for a load
balancer, and the live stream of a table's versions (server-sent events)."""

from __future__ import annotations

import logging
import os
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse

from escoba.web.base.assets import takes_gzip
from escoba.web.base.errors import RateLimited
from escoba.web.frame.deps import ContextDep, device_of, held_seat
from escoba.web.html.routes import visit
from escoba.web.live.my_tables_live import ElsewhereNews
from escoba.web.live.streams import LiveStream

log = logging.getLogger("escoba.web")

router = APIRouter()


@router.get("/health/live", tags=["ops"])
async def alive() -> dict[str, str]:
    """Liveness: the process answers (no database work). Restart it if not."""
    return {"status": "alive"}


@router.get("/health", tags=["ops"])
def health(ctx: ContextDep) -> JSONResponse:
    """Readiness, for a load balancer: 503 only when this process cannot
    serve (its database does not answer, or its schema is not the newest
    migration). What only degrades it answers 200 with `status`
    «degraded» and the parts named in `degraded`: the live bridge to the
    other processes (`live`: their pages fall back to the periodic check),
    the SMTP server (`mail`: e-mails wait in the outbox). `analyses` says
    who runs the rounds' analyses (`runs`: web or worker), how many rounds
    wait for theirs or are being analysed (`waiting`) and how old the
    oldest of them is (`oldest_seconds`). `/health/live` is the liveness
    check."""
    db, hub = ctx.service.db, ctx.hub
    checks: dict[str, Any] = {}
    ok = True
    try:
        checks["schema"] = db.schema_revision()
        checks["database"] = "ok"
        if checks["schema"] != db.head_revision:
            ok = False
            checks["schema_expected"] = db.head_revision
        waiting, oldest = ctx.service.analysis_queue.backlog()
        checks["analyses"] = {
            "runs": ctx.settings.analyses,
            "waiting": waiting,
            "oldest_seconds": None if oldest is None else round(oldest, 1),
        }
    except Exception as err:
        ok = False
        checks["database"] = f"unreachable: {type(err).__name__}"
    checks["live"] = hub.backend
    checks["live_ok"] = hub.healthy
    degraded = [] if hub.healthy else ["live"]
    if ctx.email is not None:
        trouble = ctx.email.outbox.smtp_trouble
        checks["mail"] = "ok" if trouble is None else f"unreachable: {trouble}"
        if trouble is not None:
            degraded.append("mail")
    body = {
        "status": "unavailable" if not ok else "degraded" if degraded else "ok",
        **checks,
        "degraded": degraded,
        "live_connections": ctx.broker.connections,
        "pid": os.getpid(),
    }
    return JSONResponse(body, status_code=200 if ok else 503)


@router.get("/t/{invite}/events", tags=["live"], response_class=LiveStream, status_code=200)
async def events(
    invite: str,
    request: Request,
    ctx: ContextDep,
    since: Annotated[int | None, Query(ge=0, description="The version you show.")] = None,
    last_event_id: Annotated[str | None, Header()] = None,
    elsewhere: Annotated[int | None, Query(ge=0, le=2**32, include_in_schema=False)] = None,
    board: Annotated[bool, Query(include_in_schema=False)] = False,
) -> LiveStream:
    """Server-sent events: `update` with the table's new version after each
    change. Fetch your own view on each one; no card travels here. With
    `since` (or a browser's `Last-Event-ID`) older than the table, the
    stream starts with an update: a client that was away catches up.
    One client IP holds at most `ESCOBA_LIVE_STREAMS_PER_IP` streams in a
    process; past that, 429 (a HEAD tells a page whether it would be let
    in, without holding a stream). While a browser whose device holds a
    seat here has the stream open, that seat is watching its table and
    gets no push or e-mail. A browser's device hears its other tables on
    the same stream (`elsewhere` events: web/live/my_tables_live.py). A table
    page asks for its board in each event instead (`board=1`: `event:
    board`, rendered for this request's cookies, as its fetch would be)."""
    service, broker = ctx.service, ctx.broker
    table_id, seat_id = service.reads.watch_target(invite, held_seat(request, invite))
    # no address (a Unix socket without forwarded headers): nothing to count by
    client = request.client.host if request.client else None
    if client is not None and not broker.admit(client):
        log.info("too many live streams", extra={"invite": invite})
        raise RateLimited("too_many_streams")
    known = [v for v in (since, _int_or_none(last_event_id)) if v is not None]
    device = device_of(request)
    side = None
    if device is not None:
        device_id = device.id
        side = ElsewhereNews(
            broker,
            lambda: ctx.my_tables.elsewhere(device_id, invite, listening=True),
            elsewhere,
            device_id=device_id,
        )
    here = await visit(invite, request, ctx) if board else None
    return LiveStream(
        broker,
        table_id,
        since=max(known) if known else None,
        current=lambda: service.reads.version(invite),
        client=client,
        watching=None if seat_id is None else ctx.dispatcher.watching.watch(seat_id),
        side=side,
        board=None if here is None else here.board_now,
        seat=seat_id,
        # boards are worth compressing (a board ~11 KB, the next one mostly the same)
        gzip=board and takes_gzip(request.headers.get("accept-encoding", "")),
    )


# a page asks whether it would be let in (429 or 200, no stream held)
router.add_api_route(
    "/t/{invite}/events",
    events,
    methods=["HEAD"],
    response_class=LiveStream,
    include_in_schema=False,
)


def _int_or_none(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() and len(value) < 12 else None
