"""The picture of docs/architecture.md, made from the code: who imports whom
between the parts of `escoba`, as a Mermaid flowchart (GitHub draws it).

    python tools/import_graph.py           # rewrite the picture in docs/architecture.md
    python tools/import_graph.py --check   # exit 1 if the picture is out of date

The parts are the top-level packages of `escoba`, and inside `escoba.web` its
rooms: a subpackage is a room by itself; a module of web/'s own folder
belongs to the room ROOMS names for it. A web module no room names stops the
tool: whoever adds one says where it lives. Arrows count the imports
between two parts (lazy and type-only imports included, as lint-imports
counts them), read by grimp, import-linter's own graph.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- import-graph: made by tools/import_graph.py, do not edit -->"
END = "<!-- /import-graph -->"

#: the rooms of escoba.web, by module of its own folder
ROOMS: dict[str, tuple[str, ...]] = {
    # the table itself: the command path, its storage, the service and its
    # concerns, and the models of what a page shows (never a route)
    "table": (
        "command_path",
        "store",
        "service",
        "lobby",
        "play",
        "ending",
        "rematch",
        "chat",
        "jobs",
        "reads",
        "robots",
        "timekeeping",
        "watching",
        "spoofing",
        "story",
        "pages",
        "page_building",
        "analyses",
        "coaching",
    ),
    # the HTML pages: routes, the board's model for templates, templating
    "pages": ("routes", "board", "templating", "story_routes", "analysis_pages", "install"),
    # the JSON API: its routes and schema, its docs page
    "api": ("api", "apidocs"),
    # the live updates: the streams, the bridges between processes
    "live": ("live", "bridges", "listening", "sqlite_watch", "ops"),
    # the notices: who hears what, when, and the channels (push is a package)
    "notices": (
        "notices",
        "notice_choices",
        "notice_sweep",
        "dispatch",
        "mail",
        "email_channel",
        "email_seats",
        "email_routes",
        "email_address",
        "push_routes",
    ),
    # a browser's device: its seats, codes to move them, «Mis mesas»
    "devices": (
        "devices",
        "device_routes",
        "seat_devices",
        "transfers",
        "my_tables",
        "my_tables_live",
        "legacy_seats",
    ),
    # the app put together: start-up, the routes' shared dependencies, the
    # guards in front of every request
    "app": ("app", "asgi", "cli", "deps", "security", "protocol"),
    # what every room may use: settings, the database and its schema, errors,
    # clocks, logs, the static files
    "base": (
        "settings",
        "db",
        "models",
        "errors",
        "limits",
        "logs",
        "clock",
        "assets",
        "cards_svg",
    ),
}
#: a subpackage of escoba.web is a room of its own, kept inside another's box
SUBROOMS = {"push": "notices", "api_schema": "api"}


def part_of(module: str, rooms: dict[str, str]) -> str:
    parts = module.split(".")
    if len(parts) < 2:
        return "escoba"
    if parts[1] != "web":
        return parts[1]
    if len(parts) == 2:
        return "web"
    name = parts[2]
    if name in rooms:
        return f"web.{rooms[name]}"
    if name in SUBROOMS:
        return f"web.{SUBROOMS[name]}.{name}"
    raise SystemExit(f"escoba.web.{name}: no room in tools/import_graph.py's ROOMS says it lives")


def arrows() -> Counter[tuple[str, str]]:
    rooms = {m: room for room, ms in ROOMS.items() for m in ms}
    graph = grimp.build_graph("escoba", cache_dir=None)
    count: Counter[tuple[str, str]] = Counter()
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            a, b = part_of(importer, rooms), part_of(imported, rooms)
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
    for room in ROOMS:
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
