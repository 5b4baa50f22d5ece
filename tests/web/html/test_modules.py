"""The page script's ES modules as served (web/base/assets.py `link_modules`):
each import names the content-named file, so a module's name changes with
anything it imports, near or far; a missing file or an import circle stops
the app at start instead of breaking the page in a browser. The stylesheet's
parts, written into `escoba.css` as served (`bundle_styles`). And the page
as it loads them: one module script, its imports preloaded, the deferred
scripts in their order."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin

import pytest
import rcssmin
from fastapi.testclient import TestClient

from escoba.web.base.assets import (
    STATIC_DIR,
    ModuleError,
    bundle_styles,
    hashed_name,
    link_modules,
    module_imports,
    module_urls,
    static_url,
    vendor_url,
)

from ..helpers import page_table

PLAY = b'import { say } from "./words.js";\nimport "./parts/chat.js";\nexport const play = say;'
WORDS = b'export function say() { return import("./parts/chat.js"); }'
CHAT = b"export const chat = 1;"


def _files(**changes: bytes) -> dict[str, bytes]:
    files = {"js/play.js": PLAY, "js/words.js": WORDS, "js/parts/chat.js": CHAT, "x.css": b"a{}"}
    files.update({f"js/{k}.js": v for k, v in changes.items()})
    return files


def test_imports_name_the_content_named_files() -> None:
    assets = link_modules(_files())
    chat = hashed_name("chat.js", assets["js/parts/chat.js"].digest)
    words = hashed_name("words.js", assets["js/words.js"].digest)
    assert assets["js/play.js"].body.decode() == (
        f'import {{ say }} from "./{words}";\nimport "./parts/{chat}";\nexport const play = say;'
    )
    assert f'import("./parts/{chat}")' in assets["js/words.js"].body.decode()
    assert assets["x.css"].body == b"a{}"


def test_a_modules_name_changes_with_what_it_imports_however_far() -> None:
    before = link_modules(_files())
    after = link_modules(_files(**{"parts/chat": b"export const chat = 2;"}))
    for name in ("js/parts/chat.js", "js/words.js", "js/play.js"):
        assert before[name].digest != after[name].digest, name
    assert before["x.css"].digest == after["x.css"].digest


def test_a_module_that_imports_a_missing_file_stops_the_start() -> None:
    with pytest.raises(ModuleError, match=r"static/js/play\.js imports \./gone\.js"):
        link_modules(_files(play=b'import "./gone.js";'))


def test_modules_that_import_in_a_circle_stop_the_start() -> None:
    circle = _files(**{"parts/chat": b'import { say } from "../words.js";'})
    said = re.escape("js/words.js → js/parts/chat.js → js/words.js")
    with pytest.raises(ModuleError, match=said):
        link_modules(circle)


def test_only_our_relative_imports_are_read() -> None:
    body = b'import x from "https://example.org/x.js"; const s = "from ./not-an-import";'
    assert module_imports("js/a.js", body) == []
    assert module_imports("js/a.js", b"export * from '../b.js';") == ["b.js"]


# ---------------------------------------------------------------- stylesheets

STYLES = {
    "all.css": b'@import "css/a.css";@import url("css/b.css");.last{}',
    "css/a.css": b".a{}",
    "css/b.css": b"@import 'parts/c.css';.b{}",
    "css/parts/c.css": b".c{}",
    "x.js": b'import "./y.js";',
}


def test_a_stylesheet_is_served_with_the_parts_it_imports_written_in() -> None:
    bundled = bundle_styles(STYLES)
    assert bundled["all.css"] == b".a{}.c{}.b{}.last{}"
    assert bundled["css/b.css"] == b".c{}.b{}"
    assert bundled["x.js"] == STYLES["x.js"]
    other = {**STYLES, "all.css": b'@import "https://example.org/x.css";@import "p.css" print;'}
    assert bundle_styles(other)["all.css"] == other["all.css"]  # not ours, or for print only


def test_a_stylesheet_that_imports_a_missing_part_or_in_a_circle_stops_the_start() -> None:
    with pytest.raises(ModuleError, match=r"static/all\.css imports css/gone\.css"):
        bundle_styles({**STYLES, "all.css": b'@import "css/gone.css";'})
    with pytest.raises(ModuleError, match=re.escape("css/b.css → css/parts/c.css → css/b.css")):
        bundle_styles({**STYLES, "css/parts/c.css": b'@import "../b.css";'})


def test_escoba_css_is_its_parts_in_order(site: TestClient) -> None:
    """One stylesheet for the page, as if it were one file."""
    index = (STATIC_DIR / "escoba.css").read_text(encoding="utf-8")
    parts = re.findall(r'@import "([^"]+)";', index)
    assert len(parts) >= 4
    served = site.get(static_url("escoba.css")).text
    assert "@import" not in served
    assert served == "".join(
        rcssmin.cssmin((STATIC_DIR / part).read_text(encoding="utf-8")) for part in parts
    )


# ---------------------------------------------------------------- the page


class Head(HTMLParser):
    """The page's scripts and module preloads, in their order."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[str, str]] = []  # (src, "module" or "defer")
        self.preloads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script":
            kind = "module" if a.get("type") == "module" else "defer" if "defer" in a else "?"
            self.scripts.append((a.get("src") or "", kind))
        elif tag == "link" and a.get("rel") == "modulepreload":
            self.preloads.append(a.get("href") or "")


def test_the_page_runs_its_script_as_modules_every_import_preloaded(site: TestClient) -> None:
    head = Head()
    head.feed(site.get(f"/t/{page_table(site)}").text)
    # htmx first, then the page script (a module: deferred, in this order
    # among the deferred scripts), then time.js and share.js
    assert head.scripts == [
        (vendor_url("htmx.min.js"), "defer"),
        (vendor_url("htmx-ext-sse.js"), "defer"),
        (static_url("escoba.js"), "module"),
        (static_url("time.js"), "defer"),
        (static_url("share.js"), "defer"),
    ]
    assert head.preloads == list(module_urls("escoba.js"))
    assert len(head.preloads) == len(list((STATIC_DIR / "js").glob("*.js")))
    # every import, as served, names a preloaded file that answers: the
    # browser fetches nothing more, and nothing one import after another
    imported = set()
    for url in [static_url("escoba.js"), *head.preloads]:
        r = site.get(url)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
        for name in re.findall(r"""(?:from|import)\s*["']([^"']+)["']""", r.text):
            assert urljoin(url, name) in head.preloads, (url, name)
            imported.add(urljoin(url, name))
    assert imported == set(head.preloads)  # and nothing preloaded that no one imports


def test_no_static_file_is_long_and_no_module_longer_than_400_lines() -> None:
    """Issue 26: the page script and its styles in parts a reader can hold."""
    for path in sorted(p for p in STATIC_DIR.rglob("*") if p.suffix in (".js", ".css")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 600, (path, lines)
        if path.parent.name == "js":
            assert lines <= 400, (path, lines)
