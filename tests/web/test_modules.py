"""The page script's ES modules as served (web/base/assets.py `link_modules`):
each import names the content-named file, so a module's name changes with
anything it imports, near or far; a missing file or an import circle stops
the app at start instead of breaking the page in a browser."""

from __future__ import annotations

import re

import pytest

from escoba.web.base.assets import ModuleError, hashed_name, link_modules, module_imports

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
