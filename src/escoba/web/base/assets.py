"""Static files and the front-end packages: our CSS, scripts and images from
`static/`, the card sprites drawn by `cards_svg`, and htmx, its SSE extension
and the API docs' pages from the npm packages (package.json), served from
node_modules, never copied into the repository.

Every file is read once, at start (`load`), and named by its content: pages
link `/static/escoba.3f2a9c1b04.css` (`static_url("escoba.css")`), which is
kept a year (`IMMUTABLE`); the next release's file has another name, so a
browser never keeps a stale one. The plain name (`/static/escoba.css`) still
answers, kept a little while (`SHORT`), for pages made before a release and
for the few that must keep a fixed name (the service worker's and the
manifest's icons); a name with another content's hash is not found (404). A
file that compresses is gzipped once, at start, and sent so to a browser that
takes gzip: the pages' middleware leaves an answer already encoded alone.
Our CSS and scripts are minified first (rcssmin, rjsmin: comments and
spaces out, nothing renamed), so the repository keeps them commented and a
browser gets about a third less.

The page script is native ES modules (`static/js/`, loaded with
`<script type="module">`). A module names another plainly
(`import { x } from "./play.js"`); as served, each such name is the other's
content-named one (`./play.3f2a9c1b04.js`), so a module's hash covers the
modules it imports: a change anywhere renames every module above it, and a
browser never mixes two releases' modules. `module_urls(entry)` lists a
module and all it imports, for the page's `<link rel="modulepreload">`: the
browser fetches them at once instead of one import after another.

Our stylesheet is parts (`static/css/`, each a part of the page), which
`escoba.css` lists by `@import`: as served, the parts are written into it
(`bundle_styles`), in that order, so a page loads one stylesheet and gzip
sees it whole.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

import rcssmin
import rjsmin
from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response
from starlette.exceptions import HTTPException

from escoba.names import Design
from escoba.web.base.cards_svg import sprite, sprite_name

PACKAGE_DIR: Final = Path(__file__).resolve().parents[2]
STATIC_DIR: Final = PACKAGE_DIR / "static"

#: A content-named file: the same name always has the same content.
IMMUTABLE: Final = "public, max-age=31536000, immutable"
#: A plain name: its content changes with a release.
SHORT: Final = "public, max-age=600"
#: Hex digits of the content's SHA-256 in a file's name.
HASH_LENGTH: Final = 10
#: What is worth gzipping (images in PNG are compressed already).
COMPRESSIBLE: Final = frozenset({".css", ".js", ".svg", ".json", ".webmanifest", ".txt"})
MEDIA_TYPES: Final = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
}

router = APIRouter(include_in_schema=False)

#: Front-end files served from the npm packages (package.json), never copied
#: into the repository: URL name → path inside node_modules.
VENDOR_FILES: Final = {
    "htmx.min.js": ("htmx.org", "dist", "htmx.min.js"),
    "htmx-ext-sse.js": ("htmx-ext-sse", "dist", "sse.min.js"),
    # Swagger UI, for /docs (web/api/docs.py)
    "swagger-ui-bundle.js": ("swagger-ui-dist", "swagger-ui-bundle.js"),
    "swagger-ui.css": ("swagger-ui-dist", "swagger-ui.css"),
}
#: Redoc's bundle, for /redoc (web/api/docs.py serves it with its logo swapped).
REDOC_BUNDLE: Final = ("redoc", "bundles", "redoc.standalone.js")


@dataclass(frozen=True)
class Asset:
    """One file as it is served: its bytes, gzipped when that pays, and the
    hash of its content that names it."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    digest: str

    @classmethod
    def of(cls, name: str, body: bytes) -> Asset:
        suffix = Path(name).suffix
        media_type = MEDIA_TYPES.get(suffix) or (
            mimetypes.guess_type(name)[0] or "application/octet-stream"
        )
        gzipped = None
        if suffix in COMPRESSIBLE:
            packed = gzip.compress(body, compresslevel=9, mtime=0)
            gzipped = packed if len(packed) < len(body) else None
        digest = hashlib.sha256(body).hexdigest()[:HASH_LENGTH]
        return cls(body, gzipped, media_type, digest)


def hashed_name(name: str, digest: str) -> str:
    """`escoba.css` → `escoba.<digest>.css` (before the last suffix)."""
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{digest}.{suffix}" if dot else f"{name}.{digest}"


def split_hash(name: str) -> tuple[str, str] | None:
    """`escoba.<digest>.css` → (`escoba.css`, `<digest>`); None if the name
    has no place for a hash."""
    stem, dot, suffix = name.rpartition(".")
    base, dot2, digest = stem.rpartition(".")
    if not (dot and dot2 and base) or "/" in digest:
        return None
    return f"{base}.{suffix}", digest


class Shelf:
    """The files under one URL prefix, by their plain names."""

    def __init__(self, prefix: str, files: Mapping[str, Asset]) -> None:
        self.prefix = prefix
        self.files = dict(files)

    def url(self, name: str) -> str:
        """The content-named URL of `name`, or its plain URL if there is no
        such file (it answers 404, as it would have)."""
        asset = self.files.get(name)
        if asset is None:
            return f"{self.prefix}/{name}"
        return f"{self.prefix}/{hashed_name(name, asset.digest)}"

    def find(self, path: str) -> tuple[Asset, bool] | None:
        """The file a URL path names, and whether by its content's hash."""
        if (asset := self.files.get(path)) is not None:
            return asset, False
        split = split_hash(path)
        if split is not None:
            asset = self.files.get(split[0])
            if asset is not None and asset.digest == split[1]:
                return asset, True
        return None


def minified(name: str, body: bytes) -> bytes:
    """Our CSS or script as served: without comments and needless spaces."""
    if name.endswith(".css"):
        return str(rcssmin.cssmin(body.decode())).encode()
    if name.endswith(".js"):
        return str(rjsmin.jsmin(body.decode())).encode()
    return body


#: A static import or re-export of one of our modules, by a relative name:
#: `from "./play.js"`, `import "./x.js"`, `import("./x.js")`.
_MODULE_NAME: Final = re.compile(r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}/[\w./-]+\.js)\2""")


class ModuleError(ValueError):
    """A module (or a stylesheet) imports a file that is not in `static/`,
    or imports round in a circle: the app refuses to start rather than
    serve a page whose script (or styles) fail in the browser."""


def module_imports(name: str, body: bytes) -> list[str]:
    """The static files a module imports, by their names in `static/`."""
    here = posixpath.dirname(name)
    return [
        posixpath.normpath(posixpath.join(here, m[3])) for m in _MODULE_NAME.finditer(body.decode())
    ]


def link_modules(files: Mapping[str, bytes]) -> dict[str, Asset]:
    """Every file as an `Asset`, each module's imports renamed to the
    content-named files (after theirs, so a hash covers what it imports)."""
    assets: dict[str, Asset] = {}

    def visit(name: str, path: tuple[str, ...]) -> Asset:
        done = assets.get(name)
        if done is not None:
            return done
        if name in path:
            circle = " → ".join((*path[path.index(name) :], name))
            raise ModuleError(f"the page's modules import in a circle: {circle}")
        body = files[name]
        if name.endswith(".js"):
            here = posixpath.dirname(name)

            def renamed(m: re.Match[str]) -> str:
                wanted = posixpath.normpath(posixpath.join(here, m[3]))
                if wanted not in files:
                    raise ModuleError(f"static/{name} imports {m[3]}, which is not in static/")
                target = hashed_name(wanted, visit(wanted, (*path, name)).digest)
                relative = posixpath.relpath(target, here or ".")
                if not relative.startswith("."):
                    relative = f"./{relative}"
                return f"{m[1]}{m[2]}{relative}{m[2]}"

            body = _MODULE_NAME.sub(renamed, body.decode()).encode()
        asset = assets[name] = Asset.of(name, body)
        return asset

    for name in files:
        visit(name, ())
    return assets


#: An `@import` of one of our stylesheets by a relative name, without media
#: or layer (`@import "css/cards.css";`, as rcssmin leaves it): the rule is
#: the same as the stylesheet's own rules written in its place.
_STYLE_IMPORT: Final = re.compile(
    r"""@import\s*(?:url\(\s*)?(["'])([\w.-][\w./-]*\.css)\1\s*\)?\s*;"""
)


def bundle_styles(files: Mapping[str, bytes]) -> dict[str, bytes]:
    """Every file, each stylesheet's `@import`s of our stylesheets replaced by
    their content (theirs first: a part may import parts)."""
    done: dict[str, bytes] = {}

    def visit(name: str, path: tuple[str, ...]) -> bytes:
        if name in done:
            return done[name]
        if name in path:
            circle = " → ".join((*path[path.index(name) :], name))
            raise ModuleError(f"the stylesheets import in a circle: {circle}")
        here = posixpath.dirname(name)

        def written_in(m: re.Match[str]) -> str:
            wanted = posixpath.normpath(posixpath.join(here, m[2]))
            if wanted not in files:
                raise ModuleError(f"static/{name} imports {m[2]}, which is not in static/")
            return visit(wanted, (*path, name)).decode()

        body = _STYLE_IMPORT.sub(written_in, files[name].decode()).encode()
        done[name] = body
        return body

    return {name: visit(name, ()) if name.endswith(".css") else b for name, b in files.items()}


def _static_files() -> Iterator[tuple[str, bytes]]:
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.is_file():
            name = path.relative_to(STATIC_DIR).as_posix()
            yield name, minified(name, path.read_bytes())
    for design in Design:
        yield sprite_name(design), sprite(design).encode()


def node_modules_dirs() -> list[Path]:
    """Where `npm ci` put the packages: $ESCOBA_NODE_MODULES alone when it
    is set (an operator who names the place means that place), else the
    working directory's or the repository root's of an editable install."""
    if env := os.environ.get("ESCOBA_NODE_MODULES"):
        return [Path(env)]
    return [Path.cwd() / "node_modules", PACKAGE_DIR.parent.parent / "node_modules"]


def package_path(parts: tuple[str, ...]) -> Path | None:
    """Where a front-end package's file is (the first of `node_modules_dirs`
    that has it), or None."""
    for base in node_modules_dirs():
        path = base.joinpath(*parts)
        if path.is_file():
            return path
    return None


def vendor_path(name: str) -> Path | None:
    parts = VENDOR_FILES.get(name)
    return None if parts is None else package_path(parts)


class FrontEndMissing(RuntimeError):
    """The front-end packages are not installed: pages would load, and then
    every htmx request would answer 404, so the app refuses to start."""


def missing_front_end() -> list[str]:
    """The front-end files the app serves that are not in node_modules (as
    `htmx.org/dist/htmx.min.js`): none after `npm ci`."""
    wanted = [*VENDOR_FILES.values(), REDOC_BUNDLE]
    return ["/".join(parts) for parts in wanted if package_path(parts) is None]


def require_front_end() -> None:
    """Raise `FrontEndMissing`, naming the fix, unless every front-end file
    is there: a server without them would serve pages that cannot play."""
    missing = missing_front_end()
    if missing:
        places = ", ".join(str(d) for d in node_modules_dirs())
        raise FrontEndMissing(
            f"the front-end packages are not installed ({', '.join(missing)} not found in "
            f"{places}): run `npm ci` in the repository (or `bash dev.sh run`), or point "
            "ESCOBA_NODE_MODULES at the node_modules that has them"
        )


@lru_cache(maxsize=1)
def static_shelf() -> Shelf:
    """`static/` and the card sprites, read once."""
    return Shelf("/static", link_modules(bundle_styles(dict(_static_files()))))


@lru_cache(maxsize=1)
def vendor_shelf() -> Shelf:
    """The npm packages' files that are there, read once."""
    files = {}
    for name in VENDOR_FILES:
        if (path := vendor_path(name)) is not None:
            files[name] = Asset.of(name, path.read_bytes())
    return Shelf("/vendor", files)


def load() -> None:
    """Read and hash every file now (the app's start), not on a first page."""
    static_shelf()
    vendor_shelf()


def static_url(name: str) -> str:
    """The URL pages give for `static/<name>` (or a card sprite)."""
    return static_shelf().url(name)


@lru_cache(maxsize=16)
def module_urls(entry: str) -> tuple[str, ...]:
    """The content-named URLs of the modules `static/<entry>` imports, near
    or far, each once (the page preloads them beside the entry's own
    `<script type="module">`); found once, as the files are read once."""
    shelf = static_shelf()
    found: list[str] = []

    def walk(name: str) -> None:
        if name not in shelf.files or not name.endswith(".js"):
            return
        for wanted in module_imports(name, _plain_body(name)):
            if wanted not in found:
                found.append(wanted)
                walk(wanted)

    walk(entry)
    return tuple(shelf.url(name) for name in found)


@lru_cache(maxsize=64)
def _plain_body(name: str) -> bytes:
    """A module minified, its imports by their plain names (comments out:
    an import in a comment is no import)."""
    return minified(name, (STATIC_DIR / name).read_bytes())


def vendor_url(name: str) -> str:
    """The URL pages give for a front-end package's file (VENDOR_FILES)."""
    return vendor_shelf().url(name)


def takes_gzip(accept_encoding: str) -> bool:
    """Whether `Accept-Encoding` takes gzip (by name or `*`, not `q=0`)."""
    for item in accept_encoding.lower().split(","):
        coding, _, params = item.partition(";")
        if coding.strip() not in ("gzip", "*"):
            continue
        q = params.strip()
        if q.startswith("q="):
            try:
                return float(q[2:]) > 0
            except ValueError:
                return False
        return True
    return False


def serve(request: Request, asset: Asset, hashed: bool) -> Response:
    """The file, gzipped when that pays and the browser takes it; a 304 to
    a browser that has this very content."""
    headers = {"Cache-Control": IMMUTABLE if hashed else SHORT, "ETag": f'"{asset.digest}"'}
    if asset.gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    if asset.digest in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    body = asset.body
    if asset.gzipped is not None and takes_gzip(request.headers.get("accept-encoding", "")):
        body = asset.gzipped
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type=asset.media_type, headers=headers)


@router.api_route("/static/{path:path}", methods=["GET", "HEAD"])
def static(path: str, request: Request) -> Response:
    found = static_shelf().find(path)
    if found is None:
        raise HTTPException(404)
    return serve(request, *found)


@router.api_route("/vendor/{name}", methods=["GET", "HEAD"])
def vendor(name: str, request: Request) -> Response:
    found = vendor_shelf().find(name)
    if found is None:
        return PlainTextResponse(
            "Front-end package missing: run `npm ci` (or `bash dev.sh run`).", status_code=404
        )
    return serve(request, *found)
