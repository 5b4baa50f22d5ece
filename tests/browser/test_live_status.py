"""The table page without its live stream, in a real browser against real
server processes: while the server restarts the page says «Reconectando…»,
and once a process is back it catches up with what changed meanwhile; a
stream refused for too many open pages says so, and connects once a page
closes."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from .conftest import MISSING, ROOT, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, expect

from web.servers import Server, free_port, wait_until

from .helpers import create_table

pytestmark = pytest.mark.browser


def _database(tmp_path: Path) -> str:
    from escoba.web.base.db import migrate

    url = f"sqlite:///{tmp_path / 'escoba.db'}"
    migrate(url)
    return url


ENV = {"ESCOBA_NODE_MODULES": str(ROOT / "node_modules"), "ESCOBA_ROBOT_DELAY": "0"}


# the server away on purpose: the stream's refused connections, and htmx
# logging each error event of the stream ("[object Event]")
@pytest.mark.console_errors_expected("net::ERR_CONNECTION_REFUSED", "[object Event]")
def test_the_page_says_reconnecting_while_the_server_restarts_and_catches_up(
    browser: Browser, tmp_path: Path
) -> None:
    url = _database(tmp_path)
    port = free_port()
    first = Server(url, ENV, port=port).start(tmp_path)
    context = new_context(browser)
    page = context.new_page()
    try:
        invite = create_table(page, first.base)
        status = page.locator("#live-status")
        assert wait_until(lambda: first.live_connections() == 1, 10)
        expect(status).to_be_hidden()

        first.stop()  # SIGTERM: the stream ends at once, the process exits
        expect(status).to_have_text("Reconectando…")

        # Beto joins through another process while the page has no stream
        other = Server(url, ENV).start(tmp_path)
        joined = httpx.post(f"{other.base}/api/tables/{invite}/seats", json={"name": "Beto"})
        assert joined.status_code == 201, joined.text
        other.stop()
        beto = page.locator(".seat-slot .seat-name", has_text="Beto")
        page.wait_for_timeout(2500)  # a reconnection attempt or more, refused
        expect(beto).to_have_count(0)
        expect(status).to_be_visible()

        again = Server(url, ENV, port=port).start(tmp_path)
        try:
            expect(beto).to_be_visible()  # the first event of the new stream
            expect(status).to_be_hidden()
        finally:
            again.stop()
    finally:
        context.close()
        first.stop()


# the streams refused on purpose (429), and htmx logging each error event
# of the stream ("[object Event]")
@pytest.mark.console_errors_expected("the server responded with a status of 429", "[object Event]")
def test_a_stream_refused_for_too_many_pages_says_why_and_connects_later(
    browser: Browser, tmp_path: Path
) -> None:
    url = _database(tmp_path)
    server = Server(url, {**ENV, "ESCOBA_LIVE_STREAMS_PER_IP": "1"}).start(tmp_path)
    context = new_context(browser)
    try:
        first = context.new_page()
        invite = create_table(first, server.base)
        assert wait_until(lambda: server.live_connections() == 1, 10)
        second = context.new_page()
        second.goto(f"{server.base}/t/{invite}")
        status = second.locator("#live-status")
        expect(status).to_contain_text("demasiadas mesas abiertas")
        first.close()
        # the extension retries ever more slowly (0.5, 1, 2, 4, 8… s)
        expect(status).to_be_hidden(timeout=40_000)
        assert wait_until(lambda: server.live_connections() == 1, 10)
    finally:
        context.close()
        server.stop()
