"""The console of every page stays clean (issue 25, item 3): conftest's
watch fails a test on a console error, an uncaught exception or a
Content-Security-Policy violation; here the watch itself is checked, and a
board swapped in by a live update writes no inline style."""

from __future__ import annotations

import pytest

from .conftest import MISSING, ConsoleWatch, LiveServer

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

from .helpers import add_robot, board_version, create_table, start_game  # noqa: E402


def test_the_watch_reports_an_inline_style_an_error_and_an_exception(
    server: LiveServer, desktop: Page, clean_console: ConsoleWatch
) -> None:
    desktop.goto(server.url)
    with (
        desktop.expect_console_message(lambda m: "Content Security Policy" in m.text),
        desktop.expect_console_message(lambda m: m.text == "a console error"),
        desktop.expect_event("pageerror"),
    ):
        desktop.evaluate(
            """() => {
              const p = document.createElement("p");
              p.setAttribute("style", "color: red");
              document.body.append(p);
              console.error("a console error");
              setTimeout(() => { throw new Error("an uncaught exception"); });
            }"""
        )
    expect(desktop.locator("body")).to_be_visible()
    seen = "\n".join(clean_console.problems)
    assert "Content Security Policy violation: style-src-attr" in seen
    assert "a console error" in seen
    assert "an uncaught exception" in seen
    clean_console.problems.clear()  # seen: this test's teardown passes


def test_a_board_swap_writes_no_inline_style(server: LiveServer, desktop: Page) -> None:
    """htmx settles a fresh element with an id by giving it first the old
    one's class and style attributes; a style the page set through the CSSOM
    (allowed by the CSP) would come back as an inline style attribute,
    which the CSP blocks, on every live update. The page's htmx settles
    only classes."""
    create_table(desktop, server.url, "Ana")
    add_robot(desktop, "Tito")
    start_game(desktop)
    version = board_version(desktop)
    desktop.evaluate("() => document.getElementById('felt').style.setProperty('--lit', '1')")
    desktop.evaluate("() => htmx.trigger('#board', 'board:retry')")
    desktop.wait_for_function(
        "() => !document.getElementById('felt').hasAttribute('style')"
        " && !document.querySelector('#board.htmx-settling, #board.htmx-swapping')"
    )
    assert board_version(desktop) >= version
