"""The installable app: the service worker at the site's root, the web app
manifest and its icons, and what every page says to install it."""

from __future__ import annotations

import html as html_lib
import json
import random
import re
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from escoba.web.app import create_app
from escoba.web.base.assets import STATIC_DIR, split_hash
from escoba.web.base.clock import ManualClock
from escoba.web.base.settings import Settings
from escoba.words import say

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'install.db'}",
        robot_inline=True,
        robot_delay=0,
        secret_key="install-test-secret",
    )
    with TestClient(create_app(settings, clock=ManualClock(), rng=random.Random(5))) as c:
        yield c


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (the first, by the format)."""
    head = path.read_bytes()[:24]
    assert head[:8] == PNG_SIGNATURE, path
    assert head[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def static_file(src: str) -> Path:
    assert src.startswith("/static/"), src
    name = src.removeprefix("/static/")
    if not (STATIC_DIR / name).is_file():  # named by its content (web/base/assets.py)
        plain = split_hash(name)
        assert plain is not None, src
        name = plain[0]
    return STATIC_DIR / name


def test_the_service_worker_is_served_at_the_root_always_revalidated(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    assert "service-worker-allowed" not in r.headers  # the root is its own scope
    for event in ("push", "notificationclick", "pushsubscriptionchange"):
        assert f'addEventListener("{event}"' in r.text
    assert 'addEventListener("fetch"' not in r.text  # no offline copies of the live pages
    # the worker's own CSP (its response's) lets it fetch from this origin only
    csp = r.headers["content-security-policy"]
    assert "connect-src 'self'" in csp and "unsafe-eval" not in csp


def test_the_csp_of_every_page_lets_in_the_worker_and_the_manifest(client: TestClient) -> None:
    for path in ("/", "/t/nonexistent-table", "/manifest.webmanifest"):
        csp = client.get(path).headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["worker-src"] == "'self'"
        assert directives["manifest-src"] == "'self'"
        assert directives["script-src"] == "'self'"


def test_the_manifest_makes_an_installable_app(client: TestClient) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/manifest+json"
    assert r.headers["cache-control"] == "no-cache"
    m = r.json()
    assert m["name"] == "Escoba" and m["short_name"] == "Escoba"
    assert m["start_url"] == "/" and m["scope"] == "/" and m["id"] == "/"
    assert m["display"] == "standalone"
    css = (STATIC_DIR / "css" / "base.css").read_text(encoding="utf-8")  # escoba.css's first part
    felt = re.search(r"--felt: (#[0-9a-f]{6});", css)
    assert felt is not None
    assert m["theme_color"] == m["background_color"] == felt.group(1)
    pngs = {(i["sizes"], i.get("purpose", "any")) for i in m["icons"] if i["type"] == "image/png"}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= pngs
    assert any(i["type"] == "image/svg+xml" and i["sizes"] == "any" for i in m["icons"])
    for icon in m["icons"]:
        path = static_file(icon["src"])
        assert path.is_file(), icon
        assert client.get(icon["src"]).status_code == 200
        if icon["type"] == "image/png":
            width, height = png_size(path)
            assert f"{width}x{height}" == icon["sizes"], icon


def test_the_manifest_speaks_the_viewers_language(client: TestClient) -> None:
    spanish = client.get("/manifest.webmanifest").json()
    assert spanish["lang"] == "es"
    assert spanish["description"] == say("app_description", "es")
    english = client.get("/manifest.webmanifest", headers={"Accept-Language": "en"}).json()
    assert english["lang"] == "en" and english["description"] == say("app_description", "en")
    client.cookies.set("lang", "pt_BR")
    brazilian = client.get("/manifest.webmanifest").json()
    assert brazilian["lang"] == "pt-BR"
    assert brazilian["description"] == say("app_description", "pt_BR")
    assert len({spanish["description"], english["description"], brazilian["description"]}) == 3


def test_every_page_links_the_manifest_and_the_home_screen_icons(client: TestClient) -> None:
    html = client.get("/").text
    manifest = re.search(r'<link rel="manifest" href="([^"]+)" crossorigin="([^"]+)">', html)
    assert manifest is not None and manifest.group(1) == "/manifest.webmanifest"
    assert manifest.group(2) == "use-credentials"  # the lang cookie comes along
    assert '<meta name="theme-color" content="#1b5e3b">' in html
    assert '<meta name="mobile-web-app-capable" content="yes">' in html
    assert '<meta name="apple-mobile-web-app-capable" content="yes">' in html
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)" sizes="180x180">', html)
    assert touch is not None
    assert png_size(static_file(touch.group(1))) == (180, 180)
    assert client.get(touch.group(1)).status_code == 200


def test_the_notification_badge_is_a_white_silhouette(client: TestClient) -> None:
    """The service worker's icon and badge exist; Android draws the badge from
    its alpha channel only, so it is drawn white on transparency (colour
    type 6: RGBA)."""
    worker = client.get("/sw.js").text
    for name, side in (("icon-192.png", 192), ("badge-96.png", 96)):
        assert f"/static/icons/{name}" in worker
        assert png_size(STATIC_DIR / "icons" / name) == (side, side)
    ihdr = (STATIC_DIR / "icons" / "badge-96.png").read_bytes()[16:26]
    assert ihdr[9] == 6  # colour type RGBA


def test_a_seated_page_says_so_for_the_script_and_a_spectators_does_not(
    client: TestClient,
) -> None:
    r = client.post("/tables", data={"name": "Ana", "target": "21"}, follow_redirects=False)
    invite = r.headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/t/{invite}").text
    assert f'data-invite="{invite}" data-seated="true"' in page
    messages = re.search(r'data-messages="([^"]+)"', page)
    assert messages is not None
    words = json.loads(html_lib.unescape(messages.group(1)))
    for key in ("notifyOn", "notifyOff", "notifyBlocked", "notifyIphone", "notifyFailed"):
        assert words[key], key
    client.cookies.clear()
    spectator = client.get(f"/t/{invite}?mirar=1").text
    assert f'data-invite="{invite}"' in spectator and "data-seated" not in spectator
