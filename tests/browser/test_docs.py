"""The API's documentation in a real browser: /docs (Swagger UI) and /redoc
(Redoc) render every operation of the OpenAPI document under the app's
strict Content-Security-Policy, with no violation and nothing loaded from
another origin."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from .conftest import DESKTOP, MISSING, LiveServer, new_context

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.browser

# Set before any of the page's scripts runs (through DevTools, so the page's
# CSP does not apply to it): every violation the policy reports.
WATCH_CSP = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`);
});
"""


def _api_operations(server: LiveServer) -> list[tuple[str, str, str]]:
    """(method, path, summary) of every operation under /api."""
    with urllib.request.urlopen(server.url + "/openapi.json") as r:
        schema: dict[str, Any] = json.load(r)
    return [
        (method.upper(), path, op["summary"])
        for path, item in schema["paths"].items()
        if path.startswith("/api/")
        for method, op in item.items()
    ]


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_api_docs_render_every_operation_under_the_strict_csp(
    server: LiveServer, browser: Browser, path: str
) -> None:
    operations = _api_operations(server)
    assert len(operations) >= 14
    context = new_context(browser, DESKTOP)
    page = context.new_page()
    problems: list[str] = []
    requests: list[str] = []
    page.add_init_script(WATCH_CSP)
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server.url + path)
    if path == "/docs":
        blocks = page.locator(".opblock")
        expect(blocks.first).to_be_visible()
        for method, api_path, _ in operations:
            block = page.locator(f".opblock-{method.lower()}").filter(
                has=page.locator(f'[data-path="{api_path}"]')
            )
            expect(block).to_have_count(1)
    else:
        expect(page.locator("h1")).to_contain_text("Escoba")
        for _, _, summary in operations:
            expect(page.locator("h2", has_text=summary).first).to_be_attached()
        # its styles applied: the side menu is laid out beside the content
        menu = page.locator(".menu-content").bounding_box()
        content = page.locator(".api-content").bounding_box()
        assert menu and content and menu["x"] + menu["width"] <= content["x"] + 1
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__violations") == []
    assert problems == []
    others = [u for u in requests if not u.startswith((server.url, "data:"))]
    assert others == [], others
    context.close()
