"""A real Chromium (Debian's, through Playwright) against the real app, served
by uvicorn on 127.0.0.1 with a temporary SQLite database.

Playwright cannot download its own browsers here, so the tests drive
/usr/bin/chromium (or $ESCOBA_CHROMIUM); without it (or without the
`playwright` package) every test here is skipped with the reason.

Every page of every test keeps a clean console (issue 25): an error logged,
an uncaught exception or a Content-Security-Policy violation fails the test
at its teardown, with the messages. A test that causes some on purpose (a
server stopped, the network cut) names what it expects with
`@pytest.mark.console_errors_expected("Failed to load resource", ...)`.
"""

from __future__ import annotations

import importlib.util
import os
import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

CHROMIUM = os.environ.get("ESCOBA_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
# Every run saves its screenshots in test-artifacts/ (not tracked); with
# ESCOBA_UPDATE_SCREENSHOTS=1 it refreshes the README's ones in docs/screenshots/.
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("ESCOBA_UPDATE_SCREENSHOTS") == "1"
    else ROOT / "test-artifacts" / "screenshots"
)
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

    from .notifications import NotificationCenter

# A CSP violation said in the console in words a failure can show (Chromium
# logs some, but not all, by itself).
CSP_WATCH = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error("Content Security Policy violation: " + e.violatedDirective + " blocked "
    + (e.blockedURI || "?") + " at " + (e.sourceFile || e.documentURI) + ":" + e.lineNumber
    + (e.sample ? " (" + e.sample + ")" : ""));
}, true);
"""


class ConsoleWatch:
    """The console errors, page errors and CSP violations of one test's
    browser contexts."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def watch(self, context: BrowserContext) -> None:
        context.add_init_script(CSP_WATCH)
        context.on("console", self._console)
        context.on("weberror", lambda e: self.problems.append(f"page error: {e.error}"))

    def _console(self, message: Any) -> None:
        if message.type == "error":
            page = message.page.url if message.page else "?"
            where = (message.location or {}).get("url") or page
            self.problems.append(f"console error: {message.text} ({where})")


_watch: list[ConsoleWatch] = []  # the running test's, when it has one


def _missing() -> str:
    """Why the browser tests cannot run here, or "" when they can."""
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed (bash dev.sh test installs it)"
    if not os.access(CHROMIUM, os.X_OK):
        return f"no Chromium at {CHROMIUM}: install Debian's chromium (dev.sh does, as root)"
    return ""


MISSING = _missing()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """The app under uvicorn in a background thread; `seed` seeds its
    shuffles, `more` are more of its settings."""

    def __init__(self, db: Path, robot_delay: float, seed: int = 11, **more: Any) -> None:
        import uvicorn

        from escoba.web.app import create_app
        from escoba.web.base.settings import Settings

        settings = Settings(
            database_url=f"sqlite:///{db}",
            robot_delay=robot_delay,
            secret_key="browser-test-secret",
            **more,
        )
        app = create_app(settings, rng=random.Random(seed))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the app did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    os.environ.setdefault("ESCOBA_NODE_MODULES", str(ROOT / "node_modules"))
    live = LiveServer(tmp_path_factory.mktemp("browser") / "escoba.db", robot_delay=0.0)
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield b
        b.close()


def new_context(browser: Browser, viewport: dict[str, int] = PHONE, **kw: Any) -> BrowserContext:
    options: dict[str, Any] = {"viewport": viewport, "locale": "es-ES"}
    if viewport == PHONE:
        options.update(has_touch=True, is_mobile=True, device_scale_factor=2)
    options.update(kw)
    context = browser.new_context(**options)
    context.set_default_timeout(15_000)
    if _watch:
        _watch[-1].watch(context)
    return context


@pytest.fixture(autouse=True)
def clean_console(request: pytest.FixtureRequest) -> Iterator[ConsoleWatch]:
    """Fail the test (at teardown, once its contexts are closed) on any
    console error, page error or CSP violation it did not declare."""
    watch = ConsoleWatch()
    _watch.append(watch)
    try:
        yield watch
    finally:
        _watch.remove(watch)
    expected = [
        pattern
        for marker in request.node.iter_markers("console_errors_expected")
        for pattern in marker.args
    ]
    unexpected = [p for p in watch.problems if not any(e in p for e in expected)]
    if unexpected:
        pytest.fail("the browser console was not clean:\n" + "\n".join(unexpected), pytrace=False)


@pytest.fixture
def notification_center(tmp_path: Path) -> Iterator[NotificationCenter]:
    """A desktop's notification server, where Chromium's notifications can be
    clicked (notifications.py); skipped with the reason where it cannot run."""
    from .notifications import NotificationCenter, missing

    why = missing()
    if why:
        pytest.skip(why)
    center = NotificationCenter(tmp_path)
    yield center
    center.stop()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = new_context(browser)
    yield context.new_page()
    context.close()


@pytest.fixture
def desktop(browser: Browser) -> Iterator[Page]:
    context = new_context(browser, DESKTOP)
    yield context.new_page()
    context.close()
