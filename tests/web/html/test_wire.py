"""Weight on the wire (issue 15): answers gzipped for a browser that takes
it, never an event stream; static files under names made of their content,
kept a year, their plain names still answering; and the table page's first
load and one live update within their budgets (bytes, compressed)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin

import httpx
import pytest
from fastapi.testclient import TestClient

from escoba.web.base.assets import IMMUTABLE, SHORT, static_url, takes_gzip, vendor_url

from ..helpers import page_game_on_my_turn, page_table, version_of

GZIP = {"Accept-Encoding": "gzip, br"}
IDENTITY = {"Accept-Encoding": "identity"}
HX = {"HX-Request": "true"}
#: The issue's goals, in bytes as they cross the wire (compressed).
FIRST_LOAD_BUDGET = 50 * 1024
UPDATE_BUDGET = 4 * 1024
CONTENT_NAMED = re.compile(r"^/(static|vendor)/[\w./-]+\.[0-9a-f]{10}\.\w+$")


def table_on_my_turn(site: TestClient) -> str:
    """A table made through the forms, as a player does: Ana, Tito and Carmen
    (robots, who play at once here); its path, on Ana's turn."""
    return f"/t/{page_game_on_my_turn(site, ('tito', 'carmen'))}"


def wire_bytes(client: TestClient, url: str, headers: dict[str, str]) -> tuple[int, bytes]:
    """The body's bytes as sent, and as decoded."""
    with client.stream("GET", url, headers=headers) as r:
        raw = b"".join(r.iter_raw())
        assert r.status_code == 200, url
    return len(raw), httpx.Response(200, headers=r.headers, content=raw).content


class References(HTMLParser):
    """What a page makes a first-time browser fetch (as bench/bench_wire.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        rel = set(a.get("rel", "").split())
        # modulepreload: the modules the page script imports, which a browser
        # fetches as well (all of them, preloaded or not)
        if tag == "link" and rel & {"stylesheet", "icon", "manifest", "modulepreload"}:
            self.urls.append(a["href"])
        elif tag in ("script", "img") and a.get("src"):
            self.urls.append(a["src"])
        elif tag == "use" and not a.get("href", "#").startswith("#"):
            self.urls.append(a["href"].split("#", 1)[0])


def references(html: str) -> list[str]:
    parser = References()
    parser.feed(html)
    return list(dict.fromkeys(parser.urls))


def static_urls(html: str) -> list[str]:
    return sorted(
        set(re.findall(r'(?:href|src|data-turn-href)="(/(?:static|vendor)/[^"#]+)', html))
    )


# ---------------------------------------------------------------- compression


def test_pages_fragments_and_json_are_gzipped_for_a_browser_that_takes_it(
    site: TestClient,
) -> None:
    path = table_on_my_turn(site)
    for url, headers in ((path, {}), (f"{path}/board", HX), ("/", {}), ("/openapi.json", {})):
        zipped = site.get(url, headers={**GZIP, **headers})
        assert zipped.status_code == 200, url
        assert zipped.headers["content-encoding"] == "gzip", url
        assert "accept-encoding" in zipped.headers["vary"].lower(), url
        plain = site.get(url, headers={**IDENTITY, **headers})
        assert plain.status_code == 200 and "content-encoding" not in plain.headers, url
        assert "accept-encoding" in plain.headers["vary"].lower(), url  # caches keep both
        if url != path:  # (the page's clock moves nothing; the board holds `data-now`)
            assert zipped.content == plain.content, url
    # the API keeps answering, compressed or not
    made = site.post("/api/tables", json={"name": "Beto", "target": 21}, headers=GZIP)
    assert made.status_code == 201 and made.json()["invite"]
    table = site.get(f"/api/tables/{made.json()['invite']}", headers=GZIP)
    assert table.status_code == 200 and table.json()["version"] >= 1


def test_a_small_answer_goes_as_it_is(site: TestClient) -> None:
    r = site.get("/health/live", headers=GZIP)
    assert r.status_code == 200 and "content-encoding" not in r.headers


def test_head_requests_still_answer(site: TestClient) -> None:
    """The files and the streams (a page asks whether it would be let in)."""
    invite = page_table(site, "Ana")
    urls = (
        static_url("escoba.css"),
        "/static/escoba.css",
        vendor_url("htmx.min.js"),
        f"/t/{invite}/events",
        "/my-tables/events",
    )
    for url in urls:
        r = site.head(url, headers=GZIP)
        assert r.status_code == 200, url
        assert r.content == b"", url
    assert site.head(static_url("escoba.css")).headers["cache-control"] == IMMUTABLE
    assert "content-encoding" not in site.head(f"/t/{invite}/events", headers=GZIP).headers


def _stream_head_and_first_event(
    base: str, path: str, cookies: httpx.Cookies
) -> tuple[httpx.Headers, str]:
    with (
        httpx.Client(base_url=base, cookies=cookies, timeout=httpx.Timeout(10, read=5)) as c,
        c.stream("GET", path, headers=GZIP) as stream,
    ):
        assert stream.status_code == 200
        # the first event arrives by itself, while the stream stays open: it
        # is not held back in a compressor's block
        data = next(line for line in stream.iter_lines() if line.startswith("data:"))
        return stream.headers, data


def test_event_streams_are_never_compressed_and_still_stream(live_server: str) -> None:
    with httpx.Client(base_url=live_server, timeout=10, follow_redirects=False) as browser:
        r = browser.post("/tables", data={"name": "Ana", "target": "21"}, headers=GZIP)
        assert r.status_code == 303
        path = r.headers["location"]
        page = browser.get(path, headers=GZIP)
        assert page.headers["content-encoding"] == "gzip"
        old = version_of(page.text)
        r = browser.post(f"{path}/robots", data={"version": str(old), "robot": "tito"})
        assert r.status_code in (200, 303)
        for events in (f"{path}/events?since={old}", "/my-tables/events?since=0"):
            headers, data = _stream_head_and_first_event(live_server, events, browser.cookies)
            assert headers["content-type"].startswith("text/event-stream"), events
            assert "content-encoding" not in headers, events
            assert data[5:].strip().isdigit(), events


# --------------------------------------------------------------- static files


def test_pages_link_static_files_by_their_content_kept_a_year(site: TestClient) -> None:
    path = table_on_my_turn(site)
    linked = static_urls(site.get("/").text) + static_urls(site.get(path).text)
    assert any("/static/escoba." in u for u in linked)
    assert any("/vendor/htmx.min." in u for u in linked)
    assert any("/static/cards-french." in u for u in linked)  # the board's card sprite
    for url in sorted(set(linked)):
        assert CONTENT_NAMED.match(url), url
        r = site.get(url, headers=GZIP)
        assert r.status_code == 200, url
        assert r.headers["cache-control"] == IMMUTABLE, url
        etag = r.headers["etag"]
        if url.endswith((".css", ".js", ".svg")):
            assert r.headers["content-encoding"] == "gzip", url
            assert "accept-encoding" in r.headers["vary"].lower(), url
        again = site.get(url, headers={**GZIP, "If-None-Match": etag})
        assert again.status_code == 304 and again.content == b"", url
    css = site.get(static_url("escoba.css"), headers=IDENTITY)
    assert "content-encoding" not in css.headers and ".hand-card" in css.text
    assert css.headers["content-type"].startswith("text/css")
    assert site.get(vendor_url("htmx.min.js")).headers["content-type"].startswith("text/javascript")
    sprite = site.get(static_url("cards-spanish.svg"))
    assert sprite.headers["content-type"].startswith("image/svg+xml")
    assert '<symbol id="c7D"' in sprite.text


def test_the_plain_names_still_answer_for_a_short_while(site: TestClient) -> None:
    """Pages made before a release name the files plainly; so do the service
    worker and the manifest (their icons)."""
    for url in (
        "/static/escoba.css",
        "/static/escoba.js",
        "/static/icons/icon-192.png",
        "/static/cards-french.svg",
        "/vendor/htmx.min.js",
    ):
        r = site.get(url, headers=GZIP)
        assert r.status_code == 200, url
        assert r.headers["cache-control"] == SHORT, url
    assert "content-encoding" not in site.get("/static/icons/icon-192.png", headers=GZIP).headers


@pytest.mark.parametrize(
    "url",
    [
        "/static/escoba.0123456789.css",  # another content's name
        "/static/escoba.zz.css",
        "/static/escoba..css",
        "/static/nothing.css",
        "/static/nothing.0123456789.css",
        "/static/../web/app.py",
        "/static/%2e%2e/web/app.py",
        "/static/",
        "/static/icons",
        "/vendor/htmx.min.0123456789.js",
        "/vendor/nothing.js",
    ],
)
def test_an_unknown_name_is_not_found(site: TestClient, url: str) -> None:
    assert site.get(url).status_code == 404


def test_the_service_worker_keeps_its_name_and_is_always_revalidated(site: TestClient) -> None:
    r = site.get("/sw.js", headers=GZIP)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    for icon in re.findall(r'"(/static/[^"]+)"', r.text):  # its icons, by their plain names
        assert site.get(icon).status_code == 200, icon
    for icon in site.get("/manifest.webmanifest").json()["icons"]:
        assert site.get(icon["src"]).status_code == 200, icon


def test_accept_encoding_is_read_as_browsers_write_it() -> None:
    assert takes_gzip("gzip, deflate, br, zstd")
    assert takes_gzip("br;q=1.0, gzip;q=0.8, *;q=0.1")
    assert takes_gzip("*")
    assert not takes_gzip("gzip;q=0")
    assert not takes_gzip("identity")
    assert not takes_gzip("")
    assert not takes_gzip("gzip;q=nonsense")


# -------------------------------------------------------------------- budgets


def test_the_first_load_and_one_update_stay_within_their_budgets(site: TestClient) -> None:
    """Issue 15's goals: the table page as a first-time browser fetches it
    (the page and every file it names) ≤ 50 KB, one live update (the board
    fetched after an `sse:update`) ≤ 4 KB, compressed as a browser asks."""
    path = table_on_my_turn(site)
    page_wire, page = wire_bytes(site, path, GZIP)
    total = page_wire
    fetched = references(page.decode())
    assert len(fetched) >= 8  # stylesheets, scripts, icon, manifest, card sprite
    for url in fetched:
        wire, body = wire_bytes(site, url, GZIP)
        total += wire
        if url.endswith(".css"):
            for inner in re.findall(r"url\(\s*['\"]?([^'\")]+)", body.decode()):
                if not inner.startswith("data:"):
                    total += wire_bytes(site, urljoin(url, inner), GZIP)[0]
    assert total <= FIRST_LOAD_BUDGET, total
    update, board = wire_bytes(site, f"{path}/board", {**GZIP, **HX})
    assert b'data-my-turn="true"' in board and b"hand-card" in board
    assert update <= UPDATE_BUDGET, update
