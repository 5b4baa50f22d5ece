"""The picture of docs/architecture.md, made from the code: who imports whom
between the parts of `escoba`, as a Mermaid flowchart (GitHub draws it).

    python tools/import_graph.py           # rewrite the picture in docs/architecture.md
    python tools/import_graph.py --check   # exit 1 if the picture is out of date

The parts are the top-level packages of `escoba`, and inside `escoba.web` its
rooms, each a subpackage (a subpackage of a room is drawn inside its box),
in the order of their layers contract in pyproject.toml; the modules of
web/'s own folder (the app put together) are the part `app`. Arrows count the imports
between two parts (lazy and type-only imports included, as lint-imports
counts them), read by grimp, import-linter's own graph.
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- import-graph: made by tools/import_graph.py, do not edit -->"
END = "<!-- /import-graph -->"

WEB = ROOT / "src" / "escoba" / "web"
#: the modules of web/'s own folder: the app (and the analyses' worker) put together (one part of the picture)
FRAME_MODULES = ("app", "asgi", "cli", "worker")


def rooms() -> list[str]:
    """escoba.web's rooms, top to bottom: the layers of pyproject.toml's
    contract for them (whose order the picture keeps)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract.get("containers") == ["escoba.web"]:
            names = [n.strip() for layer in contract["layers"] for n in layer.split("|")]
            return ["app" if n in FRAME_MODULES else n for n in dict.fromkeys(names)]
    raise SystemExit("pyproject.toml: no layers contract for escoba.web's rooms")


def part_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) < 2:
        return "escoba"
    if parts[1] != "web":
        return parts[1]
    if len(parts) == 2:
        return "web"
    name = parts[2]
    if name in FRAME_MODULES:
        return "web.app"
    if not (WEB / name).is_dir():
        raise SystemExit(f"escoba.web.{name}: a module of web/'s own folder belongs in a room")
    if len(parts) > 3 and (WEB / name / parts[3]).is_dir():
        return f"web.{name}.{parts[3]}"  # a room inside a room: notices' push, the API's schema
    return f"web.{name}"


def arrows() -> Counter[tuple[str, str]]:
    graph = grimp.build_graph("escoba", cache_dir=None)
    count: Counter[tuple[str, str]] = Counter()
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            a, b = part_of(importer), part_of(imported)
            if a != b and "escoba" not in (a, b) and "web" not in (a, b):
                count[a, b] += (
                    len(graph.get_import_details(importer=importer, imported=imported)) or 1
                )
    return count


def _id(part: str) -> str:
    return part.replace(".", "_")


def mermaid() -> str:
    count = arrows()
    parts = sorted({p for pair in count for p in pair})
    lines = ["```mermaid", "flowchart TD"]
    lines.append('  subgraph web["escoba.web"]')
    for room in rooms():
        subs = [p for p in parts if p.startswith(f"web.{room}.")]
        if subs:
            lines.append(f'    subgraph {_id("web." + room)}_box["{room}"]')
            lines.append(f'      {_id("web." + room)}["{room}"]')
            lines.extend(f'      {_id(s)}["{s.rsplit(".", 1)[1]}"]' for s in subs)
            lines.append("    end")
        else:
            lines.append(f'    {_id("web." + room)}["{room}"]')
    lines.append("  end")
    for part in parts:
        if not part.startswith("web."):
            lines.append(f'  {_id(part)}["{part}"]')
    for (a, b), n in sorted(count.items()):
        lines.append(f"  {_id(a)} -->|{n}| {_id(b)}")
    lines.append("```")
    return "\n".join(lines)


def updated(text: str) -> str:
    head, sep, rest = text.partition(BEGIN)
    _, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        raise SystemExit(f"{DOC}: the markers {BEGIN} … {END} are missing")
    return f"{head}{BEGIN}\n{mermaid()}\n{END}{tail}"


def main(argv: list[str]) -> int:
    text = DOC.read_text()
    new = updated(text)
    if "--check" in argv:
        if new != text:
            print(f"{DOC.relative_to(ROOT)} is out of date: python tools/import_graph.py")
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
