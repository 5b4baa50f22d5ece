"""The installable app: the service worker and the web app manifest.

The service worker (`static/sw.js`: push notices, their clicks, renewed
subscriptions; no offline copies) is served at `/sw.js` so that its scope is
the whole site without a `Service-Worker-Allowed` header, and always
revalidated, so that a new version reaches browsers at their next visit. The
manifest lets Android and iPhone put Escoba on the home screen as an app of
its own, which is what iPhone asks before it lets a site notify.
"""

from __future__ import annotations

import json
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from escoba.i18n import HTML_LANG
from escoba.web.base.assets import STATIC_DIR
from escoba.web.frame.deps import lang_of
from escoba.words import say

router = APIRouter(include_in_schema=False)

SERVICE_WORKER: Final = STATIC_DIR / "sw.js"
#: The felt of escoba.css (--felt): the splash screen and the system bars.
FELT: Final = "#1b5e3b"
#: The PNGs tools/make_icons.py draws from static/favicon.svg, and the SVG.
ICONS: Final = (
    {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
    {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
    {
        "src": "/static/icons/icon-maskable-512.png",
        "sizes": "512x512",
        "type": "image/png",
        "purpose": "maskable",
    },
    {"src": "/static/favicon.svg", "sizes": "any", "type": "image/svg+xml"},
)
MANIFEST_TYPE: Final = "application/manifest+json"


@router.get("/sw.js")
def service_worker() -> FileResponse:
    return FileResponse(
        SERVICE_WORKER,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


def manifest(lang: str) -> dict[str, object]:
    """The manifest, its description in `lang`."""
    return {
        "id": "/",
        "name": "Escoba",
        "short_name": "Escoba",
        "description": say("app_description", lang),
        "lang": HTML_LANG.get(lang, "es"),
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": FELT,
        "theme_color": FELT,
        "categories": ["games"],
        "icons": list(ICONS),
    }


@router.get("/manifest.webmanifest")
def web_manifest(request: Request) -> Response:
    """In the viewer's language (the page links it with credentials, so the
    `lang` cookie comes along)."""
    body = json.dumps(manifest(lang_of(request)), ensure_ascii=False)
    return Response(
        body,
        media_type=MANIFEST_TYPE,
        headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"},
    )
