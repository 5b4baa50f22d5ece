"""The API's documentation pages, /docs (Swagger UI) and /redoc (Redoc).

FastAPI's own pages load their files from a CDN and start them with an
inline script, both of which the app's Content-Security-Policy (web/frame/security.py)
blocks, so they rendered blank. These pages load the pinned npm packages
(package.json) from this origin — Swagger UI through the same /vendor route as
htmx — and start them from a same-origin file, static/api-docs.js.

Scripts stay under the strict policy on both pages. Redoc needs three things
more, on its own page only:

* it styles itself by injecting <style> elements (styled-components): its
  page's policy lets in styles carrying a nonce made for that response, which
  Redoc puts on those elements, and the one stylesheet its bundle injects as
  it loads, before any nonce can reach it, by its hash (REDOC_LOAD_STYLES);
* its search runs in a worker made from a blob: URL, which the policy
  refuses: api-docs.js turns search off (the API is a dozen operations);
* its side menu shows Redocly's logo from their CDN: we serve its bundle with
  that image swapped for a blank one, so reading the docs tells no third party.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from html import escape
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from escoba.web.base.assets import REDOC_BUNDLE, package_path
from escoba.web.frame.security import CSP

router = APIRouter(include_in_schema=False)

REDOC_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"
BLANK_IMAGE = b"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E"
#: What redoc 2.5.4's bundle puts in the <style> element it injects as it
#: loads (perfect-scrollbar's stylesheet), empty first and then filled: a new
#: version of the package may change it (the browser test sees a violation).
REDOC_LOAD_STYLES = (
    "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
    "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='",
)

_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title}</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  {head}
</head>
<body>
  <div id="{root}" data-openapi-url="{openapi_url}"{data}></div>
  <script src="{bundle}"></script>
  <script src="/static/api-docs.js"></script>
</body>
</html>
"""


def _page(
    request: Request,
    title: str,
    root: str,
    bundle: str,
    head: str = "",
    style_nonce: str | None = None,
) -> HTMLResponse:
    openapi_url = request.app.openapi_url or "/openapi.json"
    body = _PAGE.format(
        title=escape(f"{request.app.title} API — {title}"),
        head=head,
        root=root,
        openapi_url=escape(openapi_url),
        data="" if style_nonce is None else f' data-style-nonce="{style_nonce}"',
        bundle=bundle,
    )
    headers = {"Cache-Control": "no-store"}  # a nonce is for one response
    if style_nonce is not None:
        # The security middleware adds its policy only where a route set none.
        allowed = " ".join(("'self'", f"'nonce-{style_nonce}'", *REDOC_LOAD_STYLES))
        headers["Content-Security-Policy"] = CSP.replace("style-src 'self'", f"style-src {allowed}")
    return HTMLResponse(body, headers=headers)


@router.get("/docs")
async def swagger_ui(request: Request) -> HTMLResponse:
    """Swagger UI: every operation, with «Try it out»."""
    return _page(
        request,
        "Swagger UI",
        "swagger-ui",
        "/vendor/swagger-ui-bundle.js",
        head='<link rel="stylesheet" href="/vendor/swagger-ui.css">',
    )


@router.get("/redoc")
async def redoc(request: Request) -> HTMLResponse:
    """Redoc: the same document, for reading."""
    return _page(request, "Redoc", "redoc", "/docs/redoc.js", style_nonce=secrets.token_urlsafe(18))


@router.get("/docs/redoc.js")
def redoc_bundle() -> Response:
    """Redoc's standalone bundle from its npm package, its logo swapped."""
    path = package_path(REDOC_BUNDLE)
    if path is not None:
        return Response(
            _without_logo(path),
            media_type="text/javascript",
            headers={"Cache-Control": "public, max-age=86400"},
        )
    return PlainTextResponse(
        "Front-end package missing: run `npm ci` (or `bash dev.sh run`).", status_code=404
    )


@lru_cache(maxsize=2)
def _without_logo(path: Path) -> bytes:
    return path.read_bytes().replace(REDOC_LOGO, BLANK_IMAGE)
