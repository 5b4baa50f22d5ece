"""Makes the installed app's PNG icons from `static/favicon.svg`.

    PYTHONPATH=src .venv/bin/python tools/make_icons.py

Chromium (Debian's, through Playwright, as the browser tests drive it; or
$ESCOBA_CHROMIUM) draws the SVG at each size and screenshots it. The PNGs are
committed under `static/icons/` (web/html/install.py's manifest names them), so
the app itself never needs a browser; run this again when the favicon changes.

- `icon-192.png`, `icon-512.png`: the favicon as it is, on transparency.
- `icon-maskable-512.png`: on the felt, the favicon inside the safe circle
  (radius 40 % of the side) that a launcher's mask never cuts.
- `apple-touch-icon.png` (180): on the felt, since iOS fills transparency
  with black.
- `badge-96.png`: white on transparency, the «15» cut out of the coin: Android
  draws a notification's badge from its alpha channel only.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "escoba" / "static"
ICONS = STATIC / "icons"
CHROMIUM = os.environ.get("ESCOBA_CHROMIUM", "/usr/bin/chromium")
FELT = "#1b5e3b"  # --felt in escoba.css, the manifest's colours

#: The favicon's coin with its «15» cut out, white: the notification badge.
BADGE_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<mask id="cut"><rect width="32" height="32" fill="#fff"/>
<text x="16" y="21.5" text-anchor="middle" font-family="system-ui,Arial,sans-serif"
 font-weight="800" font-size="15" fill="#000">15</text></mask>
<circle cx="16" cy="16" r="16" fill="#fff" mask="url(#cut)"/></svg>"""


def specs(favicon: str) -> dict[str, tuple[int, str, float, str | None]]:
    """File name → (side in pixels, the SVG, its share of the side, background)."""
    return {
        "icon-192.png": (192, favicon, 1.0, None),
        "icon-512.png": (512, favicon, 1.0, None),
        "icon-maskable-512.png": (512, favicon, 0.74, FELT),
        "apple-touch-icon.png": (180, favicon, 0.84, FELT),
        "badge-96.png": (96, BADGE_SVG, 1.0, None),
    }


def page_html(svg: str, side: int, share: float, background: str | None) -> str:
    """One page the size of the icon, the SVG centred at `share` of it."""
    inner = round(side * share)
    svg = re.sub(r"<svg ", f'<svg width="{inner}" height="{inner}" ', svg, count=1)
    bg = background or "transparent"
    return (
        "<!doctype html><html><head><style>"
        f"html,body{{margin:0;width:{side}px;height:{side}px;background:{bg};}}"
        "body{display:flex;align-items:center;justify-content:center;}"
        "svg{display:block;}</style></head>"
        f"<body>{svg}</body></html>"
    )


def main() -> int:
    from playwright.sync_api import sync_playwright

    if not os.access(CHROMIUM, os.X_OK):
        print(f"no Chromium at {CHROMIUM} (set ESCOBA_CHROMIUM)", file=sys.stderr)
        return 1
    favicon = (STATIC / "favicon.svg").read_text(encoding="utf-8")
    ICONS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            for name, (side, svg, share, background) in specs(favicon).items():
                page = browser.new_page(viewport={"width": side, "height": side})
                page.set_content(page_html(svg, side, share, background))
                path = ICONS / name
                page.screenshot(path=str(path), omit_background=background is None)
                page.close()
                print(f"{path.relative_to(ROOT)}: {side}×{side}")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
