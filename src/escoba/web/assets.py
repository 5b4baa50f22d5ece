"""Static files and the front-end packages: our CSS and script from
`static/`, and htmx, its SSE extension and the API docs' pages from the npm
packages (package.json), served from node_modules, never copied into the
repository."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from fastapi import APIRouter
from fastapi.responses import (
    FileResponse,
    PlainTextResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles

PACKAGE_DIR: Final = Path(__file__).resolve().parent.parent
STATIC_DIR: Final = PACKAGE_DIR / "static"

router = APIRouter(include_in_schema=False)
router.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

#: Front-end files served from the npm packages (package.json), never copied
#: into the repository: URL name → path inside node_modules.
VENDOR_FILES: Final = {
    "htmx.min.js": ("htmx.org", "dist", "htmx.min.js"),
    "htmx-ext-sse.js": ("htmx-ext-sse", "dist", "sse.min.js"),
    # Swagger UI, for /docs (web/apidocs.py)
    "swagger-ui-bundle.js": ("swagger-ui-dist", "swagger-ui-bundle.js"),
    "swagger-ui.css": ("swagger-ui-dist", "swagger-ui.css"),
}


def node_modules_dirs() -> list[Path]:
    """Where `npm ci` put the packages: $ESCOBA_NODE_MODULES, the working
    directory, or the repository root of an editable install."""
    dirs = []
    if env := os.environ.get("ESCOBA_NODE_MODULES"):
        dirs.append(Path(env))
    dirs.append(Path.cwd() / "node_modules")
    dirs.append(PACKAGE_DIR.parent.parent / "node_modules")
    return dirs


def vendor_path(name: str) -> Path | None:
    parts = VENDOR_FILES.get(name)
    if parts is None:
        return None
    for base in node_modules_dirs():
        path = base.joinpath(*parts)
        if path.is_file():
            return path
    return None


@router.get("/vendor/{name}")
def vendor(name: str) -> Response:
    path = vendor_path(name)
    if path is None:
        return PlainTextResponse(
            "Front-end package missing: run `npm ci` (or `bash dev.sh run`).", status_code=404
        )
    return FileResponse(
        path,
        media_type="text/css" if path.suffix == ".css" else "text/javascript",
        headers={"Cache-Control": "public, max-age=86400"},
    )
