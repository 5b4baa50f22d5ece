"""`/metrics`: the server's metrics in Prometheus's text format
(web/base/metrics.py), for whom ESCOBA_METRICS names (a client network or a
bearer token); anybody else, and everybody while it is `off` (the default),
gets the site's plain 404, as for a page that does not exist."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from escoba.web.base import metrics
from escoba.web.base.metrics_access import MetricsAccess
from escoba.web.frame.deps import ContextDep

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
def scrape(
    request: Request,
    ctx: ContextDep,
    authorization: Annotated[str | None, Header()] = None,
) -> Response:
    """Off the event loop (a thread): it reads the database (the analyses'
    queue) and, with several processes, their files."""
    access = MetricsAccess(ctx.settings.metrics)
    client = request.client.host if request.client else None
    if not access.allows(client, authorization):
        raise StarletteHTTPException(status_code=404)
    backlog = metrics.QueueCollector(ctx.service.analysis_queue.backlog)
    return Response(
        metrics.scrape(backlog),
        media_type=metrics.CONTENT_TYPE,
        headers={"cache-control": "no-store"},
    )
