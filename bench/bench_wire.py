"""Weight on the wire: the bytes a player's browser downloads for the table
page, through the app served by uvicorn on 127.0.0.1 (its own process, SQLite).

    .venv/bin/python bench/bench_wire.py
    PYTHONPATH=<other checkout>/src .venv/bin/python bench/bench_wire.py  # to compare

A player makes a table through the home page's form, seats Tito and Carmen
(robots) and starts; once it is her turn, with 4 cards on the table and 3 in
her hand, three visits are measured, each with `Accept-Encoding: gzip, br`
(compressed: what a browser asks) and with `identity` (uncompressed):

- *first load*: the HTML page and every file it makes a first-time browser
  fetch: its stylesheets, scripts, favicon and manifest, the files its HTML
  references as images or SVG sprites (`<img src>`, `<use href>`) and those
  its CSS references (`url(...)`);
- *update*: one live update, the `GET /t/{invite}/board` that follows an
  `sse:update` (as htmx sends it, `HX-Request: true`);
- *repeat visit*: the page again, with the first load's files in the cache:
  a file whose `Cache-Control` gives it a lifetime is not asked again, any
  other is revalidated (`If-None-Match` / `If-Modified-Since`; a 304 has no
  body), as the issue's «every load revalidates them» describes.

Counted: response bodies as they cross the wire (before decompression), and
requests; headers are left out (a few hundred bytes a response, the same
before and after). The event stream the page opens is left out too (it is
never compressed, and sends nothing until something happens).

Prints a markdown table and a JSON line (appended to `--json`).
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from bench_load import prepare_database, report
from bench_my_tables import Server

COMPRESSED = "gzip, br"
UNCOMPRESSED = "identity"
BROWSER = {
    "User-Agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/130.0 Mobile",
    "Accept-Language": "es",
}


class References(HTMLParser):
    """What the page makes a browser fetch: stylesheets, scripts, the icon,
    the manifest, images and external SVG `<use>` sprites."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        rel = set(a.get("rel", "").split())
        if tag == "link" and rel & {"stylesheet", "icon", "manifest", "modulepreload"}:
            self.urls.append(a["href"])
        elif tag in ("script", "img") and a.get("src"):
            self.urls.append(a["src"])
        elif tag == "use":
            href = a.get("href") or a.get("xlink:href") or ""
            if href and not href.startswith("#"):
                self.urls.append(href.split("#", 1)[0])


def page_references(html: str, base: str) -> list[str]:
    parser = References()
    parser.feed(html)
    return list(dict.fromkeys(urljoin(base, u) for u in parser.urls))


CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")


def css_references(css: str, base: str) -> list[str]:
    return [urljoin(base, u) for u in CSS_URL.findall(css) if not u.startswith("data:")]


@dataclass
class Fetched:
    url: str
    status: int
    wire: int  # body bytes as sent (compressed or not)
    size: int  # body bytes decoded
    encoding: str
    headers: httpx.Headers
    text: str = ""


@dataclass
class Visit:
    files: list[Fetched] = field(default_factory=list)

    @property
    def wire(self) -> int:
        return sum(f.wire for f in self.files)

    @property
    def requests(self) -> int:
        return len(self.files)


def decode(body: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "br":
        import brotli  # type: ignore[import-not-found, unused-ignore]

        return bytes(brotli.decompress(body))
    assert encoding in ("", "identity"), encoding
    return body


def fetch(
    client: httpx.Client, url: str, encoding: str, extra: dict[str, str] | None = None
) -> Fetched:
    headers = {"Accept-Encoding": encoding, **(extra or {})}
    with client.stream("GET", url, headers=headers) as r:
        raw = b"".join(r.iter_raw())
    assert r.status_code in (200, 304), (url, r.status_code)
    used = r.headers.get("content-encoding", "")
    body = decode(raw, used)
    text = body.decode("utf-8", "replace") if r.status_code == 200 else ""
    return Fetched(url, r.status_code, len(raw), len(body), used, r.headers, text)


def first_load(client: httpx.Client, page_url: str, encoding: str) -> Visit:
    visit = Visit()
    page = fetch(client, page_url, encoding)
    visit.files.append(page)
    queue = page_references(page.text, page_url)
    seen = set()
    while queue:
        url = queue.pop(0)
        if url in seen or urlsplit(url).netloc != urlsplit(page_url).netloc:
            continue
        seen.add(url)
        got = fetch(client, url, encoding)
        visit.files.append(got)
        if "css" in got.headers.get("content-type", ""):
            queue.extend(css_references(got.text, url))
    return visit


def fresh(headers: httpx.Headers) -> bool:
    """A lifetime of its own: not asked again on the next visit."""
    cache = headers.get("cache-control", "")
    if "no-cache" in cache or "no-store" in cache:
        return False
    m = re.search(r"max-age=(\d+)", cache)
    return bool(m and int(m.group(1)) > 0)


def repeat_visit(client: httpx.Client, first: Visit, encoding: str) -> Visit:
    """The page again; the first load's files from the cache, those without a
    lifetime revalidated (if the page still names them)."""
    visit = Visit()
    page = fetch(client, first.files[0].url, encoding)
    visit.files.append(page)
    named = set(page_references(page.text, page.url))
    for f in first.files[1:]:
        if f.url not in named:
            continue  # the page no longer names it
        if fresh(f.headers):
            continue  # from the cache, not asked
        conditional = {}
        if etag := f.headers.get("etag"):
            conditional["If-None-Match"] = etag
        if modified := f.headers.get("last-modified"):
            conditional["If-Modified-Since"] = modified
        visit.files.append(fetch(client, f.url, encoding, conditional))
    return visit


def version_of(html: str) -> str:
    m = re.search(r'name="version" value="(\d+)"', html)
    assert m, "no version on the page"
    return m.group(1)


def make_table(client: httpx.Client) -> str:
    """Through the forms, as a player does: the table's invite, once it is
    her turn."""
    r = client.post("/tables", data={"name": "Ana", "target": "21"})
    assert r.status_code == 303, r.text
    path = r.headers["location"]
    for robot in ("tito", "carmen"):
        html = client.get(path).text
        r = client.post(f"{path}/robots", data={"version": version_of(html), "robot": robot})
        assert r.status_code in (200, 303), r.text
    r = client.post(f"{path}/start", data={"version": version_of(client.get(path).text)})
    assert r.status_code in (200, 303), r.text
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if 'data-my-turn="true"' in client.get(f"{path}/board").text:
            return path
        time.sleep(0.2)
    raise RuntimeError("never her turn")


def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    url = prepare_database("sqlite", "", tmp)
    os.environ["ESCOBA_ROBOT_DELAY"] = "0.1"
    server = Server(url, tmp / "server.log")
    result: dict[str, Any] = {"bench": "wire"}
    try:
        with httpx.Client(base_url=server.base, headers=BROWSER, timeout=30) as client:
            path = make_table(client)
            page_url = server.base + path
            for label, encoding in (("compressed", COMPRESSED), ("uncompressed", UNCOMPRESSED)):
                first = first_load(client, page_url, encoding)
                update = fetch(
                    client,
                    page_url + "/board",
                    encoding,
                    {"HX-Request": "true", "HX-Trigger": "board", "HX-Current-URL": page_url},
                )
                again = repeat_visit(client, first, encoding)
                result[label] = {
                    "first_load": first.wire,
                    "first_load_requests": first.requests,
                    "update": update.wire,
                    "repeat_visit": again.wire,
                    "repeat_visit_requests": again.requests,
                    "files": {
                        urlsplit(f.url).path: [f.wire, f.size, f.encoding or "-"]
                        for f in first.files
                    },
                }
    finally:
        server.stop()
    result["load_average"] = round(os.getloadavg()[0], 1)
    return result


def kb(n: int) -> str:
    return f"{n / 1024:.1f}"


HEADER = (
    "| encoding | first load KB (requests) | one update KB | repeat visit KB (requests) |\n"
    "|---|---|---|---|"
)


def rows(r: dict[str, Any]) -> str:
    out = []
    for label in ("compressed", "uncompressed"):
        x = r[label]
        out.append(
            f"| {label} | {kb(x['first_load'])} ({x['first_load_requests']}) | "
            f"{kb(x['update'])} | {kb(x['repeat_visit'])} ({x['repeat_visit_requests']}) |"
        )
    return "\n".join(out)


def files_table(r: dict[str, Any]) -> str:
    out = ["| file | compressed KB on the wire | KB decoded | encoding |", "|---|---|---|---|"]
    for path, (wire, size, encoding) in r["compressed"]["files"].items():
        out.append(f"| `{path}` | {kb(wire)} | {kb(size)} | {encoding} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = run(args, Path(tmp))
    print(files_table(result))
    print()
    report(HEADER, rows(result), result, args.json)


if __name__ == "__main__":
    main()
