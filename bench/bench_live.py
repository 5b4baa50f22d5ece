"""What a player feels when another moves: a move made on one seat's page,
and the time until the other seat's page shows it, in real Chromium.

    .venv/bin/python bench/bench_live.py --moves 60

With `--against DIR`, another commit's sources are served as well, at a
table of their own in the same browser, a move there after each move here:
before and after in one run, under the same load (`git archive COMMIT src
migrations | tar -x -C /tmp/before`, then `--against /tmp/before/src`).
`--src DIR` serves other sources instead of this checkout's.

Set-up: the app in a uvicorn process of its own over a temporary SQLite
database (as `escoba serve` runs it), and Debian's Chromium through
Playwright (as the browser tests drive it: /usr/bin/chromium or
$ESCOBA_CHROMIUM) with two pages, each its own browser context (its own
cookies: its own seat), at a phone's size. Ana makes a table, Beto sits
through its invitation, Ana starts, both through the pages. Then, `--moves`
times, the seat on turn plays through its own page (the play form, sent as
a tap sends it: htmx, `hx-post`), the biggest capture its hand offers, else
a card left; a round's end is passed through the page (SIGUIENTE RONDA) and
not measured; `--pause` seconds between moves, as people leave them.

Measured in the pages themselves (a script injected through the DevTools
protocol, so the pages' strict CSP stays on), on one clock
(`performance.timeOrigin + performance.now()`, the same for every page of
one browser):

- **server**: the move's request, from its start to the end of its answer
  (Resource Timing of the `POST /play`), the server's own answer;
- **mover**: from the move's start until the mover's own page has the new
  version on its board, its scripts after the swap run and the next frame
  drawn;
- **other**: from the move's start until the OTHER page has it on its board,
  its scripts run and the next frame drawn: what the other player feels.

And where the other page's time goes: the stream's event (its arrival), the
board's fetch when there is one (request to answer, the server's time in it,
its bytes), the swap (the new version in the DOM), the scripts after the
swap (htmx's settle and escoba.js's `afterSettle`), the frame.

Prints a table, and writes the figures to bench/results/live-<time>.json;
`--label` names the run (before / after). The machine's load (`uptime`)
before and after is in both.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
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
PHONE = {"width": 390, "height": 844}
#: How often the harness looks at a page while it waits, ms: on a timer, not
#: Playwright's default of every animation frame (which keeps both pages
#: drawing frames all the time, on the cores the pages measure).
POLL_MS = 25

# Injected into every document before its own scripts. It records, per
# board version: when the stream's event for it was made (`sse`), when it
# appeared in #board (`dom`: a MutationObserver), when the page's scripts
# after the swap began and ended (`settle0`: a capturing listener, before
# escoba.js's; `settle1`: one added after escoba.js's), and the frame after
# them (`shown`: a task queued from the next animation frame, so after it is
# drawn). And every request the page made (Resource Timing).
PROBE = r"""
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const B = (window.__live = {
    sse: {}, swap0: {}, swap1: {}, dom: {}, settle0: {}, settle1: {}, shown: {}, res: [],
  });
  const version = () => {
    const b = document.querySelector("#board .board");
    return b ? b.getAttribute("data-version") : null;
  };
  const afterFrame = (fn) =>
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = fn;
      ch.port2.postMessage(0);
    });
  const seen = (v) => v !== null && v !== undefined && /^\d+$/.test(String(v));
  document.addEventListener(
    "htmx:sseMessage",
    (e) => {
      const d = e.detail || {};
      const v = d.lastEventId || d.data;
      if (seen(v) && !(v in B.sse)) {
        B.sse[v] = performance.timeOrigin + (d.timeStamp || performance.now());
      }
    },
    true
  );
  // the swap: from htmx's beforeSwap (an answer) or sseBeforeMessage (an
  // event that carries the board), before escoba.js's listeners, to afterSwap
  ["htmx:beforeSwap", "htmx:sseBeforeMessage"].forEach((name) =>
    document.addEventListener(name, (e) => {
      if (e.target && e.target.id === "board") B.swapStart = now();
    }, true)
  );
  document.addEventListener("htmx:afterSwap", (e) => {
    const v = version();
    if (!(e.target && e.target.id === "board") || !seen(v) || v in B.swap1) return;
    B.swap0[v] = B.swapStart;
    B.swap1[v] = now();
  }, true);
  document.addEventListener(
    "htmx:afterSettle",
    (e) => {
      const v = version();
      if (e.target && e.target.id === "board" && seen(v) && !(v in B.settle0)) B.settle0[v] = now();
    },
    true
  );
  document.addEventListener("DOMContentLoaded", () => {
    try { performance.setResourceTimingBufferSize(100000); } catch (e) {}
    new PerformanceObserver((list) => {
      for (const r of list.getEntries()) {
        B.res.push({
          name: r.name, start: performance.timeOrigin + r.startTime,
          requestStart: performance.timeOrigin + r.requestStart,
          responseStart: performance.timeOrigin + r.responseStart,
          end: performance.timeOrigin + r.responseEnd,
          bytes: r.transferSize, body: r.decodedBodySize, encoded: r.encodedBodySize,
        });
      }
    }).observe({ type: "resource", buffered: true });
    const root = document.getElementById("board");
    if (!root) return;
    new MutationObserver(() => {
      const v = version();
      if (seen(v) && !(v in B.dom)) B.dom[v] = now();
    }).observe(root, {
      childList: true, subtree: true, attributes: true, attributeFilter: ["data-version"],
    });
    // after escoba.js's own listener (its script ran before this event)
    document.addEventListener("htmx:afterSettle", (e) => {
      const v = version();
      if (!(e.target && e.target.id === "board") || !seen(v) || v in B.settle1) return;
      B.settle1[v] = now();
      afterFrame(() => { B.shown[v] = now(); });
    });
  });
})();
"""

# The move, as a tap on a hand card then LLEVAR (or DEJAR EN LA MESA) sends
# it: the play form's fields, and its submit (htmx's hx-post). Returns when
# it was sent, on the page's clock.
PLAY = r"""
([card, capture]) => {
  const form = document.getElementById("play-form");
  form.querySelector('[name="card"]').value = card;
  form.querySelector('[name="capture"]').value = capture.join(" ");
  let mode = form.querySelector('input[name="mode"]');
  if (!mode) {
    mode = document.createElement("input");
    mode.type = "hidden";
    mode.name = "mode";
    form.appendChild(mode);
  }
  mode.value = capture.length ? "capture" : "leave";
  const t = performance.timeOrigin + performance.now();
  form.requestSubmit();
  return t;
}
"""

# The hand card to play and the table cards it takes: the biggest capture
# the engine offers (data-groups), else a card it may leave.
CHOOSE = r"""
() => {
  let best = null, leave = null;
  for (const el of document.querySelectorAll("#hand .hand-card")) {
    const groups = JSON.parse(el.dataset.groups || "[]");
    for (const g of groups) if (!best || g.length > best[1].length) best = [el.dataset.card, g];
    if (!leave && el.dataset.canLeave === "true") leave = [el.dataset.card, []];
  }
  return best || leave;
}
"""

STATE = r"""
() => {
  const b = document.querySelector("#board .board");
  if (!b || document.querySelector("#board form.htmx-request")) return null;
  if (document.querySelector("#board .winner")) return "over";
  if (document.querySelector("#board .summary form")) return "summary";
  return b.dataset.myTurn === "true" ? "turn" : "wait";
}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


class Server:
    """The app in a uvicorn process of its own (the pages' browser is busy
    enough in this one), on a migrated SQLite database."""

    def __init__(self, tmp: Path, src: Path = ROOT / "src") -> None:
        sys.path.insert(0, str(src))
        from escoba.web.base.db import migrate

        url = f"sqlite:///{tmp / 'escoba.db'}"
        migrate(url)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "PYTHONPATH": str(src),
            "DATABASE_URL": url,
            "ESCOBA_SECRET_KEY": "bench-live",
            "ESCOBA_RATE_LIMITS": "false",
            "ESCOBA_LIVE_STREAMS_PER_IP": "0",
            "ESCOBA_NODE_MODULES": os.environ.get(
                "ESCOBA_NODE_MODULES", str(ROOT / "node_modules")
            ),
        }
        self.log = (tmp / "server.log").open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "escoba.web.asgi:app", "--host", "127.0.0.1",
             "--port", str(self.port), "--no-access-log"],
            env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: see {tmp / 'server.log'}")
            try:
                if httpx.get(self.base + "/health/live", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def seat_two(ana: Any, beto: Any, base: str) -> None:
    """Ana's table, Beto seated by its invitation, the game started: through
    the pages, as people do it."""
    ana.goto(base + "/")
    ana.fill("#name", "Ana")
    ana.get_by_role("button", name="CREAR MESA").click()
    ana.wait_for_selector("#lobby-title")
    invite = ana.url.rsplit("/", 1)[1]
    beto.goto(f"{base}/t/{invite}")
    beto.fill("#join-name", "Beto")
    beto.get_by_role("button", name="SENTARME").click()
    ana.locator(".seat-slot .seat-name", has_text="Beto").wait_for()
    ana.get_by_role("button", name="EMPEZAR").click()
    ana.wait_for_selector(".game")
    beto.wait_for_selector(".game")


def state_of(pages: list[Any]) -> tuple[str, Any]:
    """What the table waits for, from the pages: ("turn", the page on turn),
    ("summary", a page that may start the next round) or ("over", None)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        states = [p.evaluate(STATE) for p in pages]
        if "over" in states:
            return "over", None
        for state, page in zip(states, pages, strict=True):
            if state in ("turn", "summary"):
                return state, page
        time.sleep(0.02)
    raise RuntimeError(f"the table waits for nothing: {states}")


def version_of(page: Any) -> int:
    return int(page.locator("#board .board").get_attribute("data-version") or "0")


def wait_shown(page: Any, version: int, timeout: float = 20_000) -> None:
    page.wait_for_function(
        "v => window.__live && window.__live.shown[v] !== undefined", arg=str(version),
        timeout=timeout, polling=POLL_MS,
    )  # fmt: skip


def one_move(mover: Any, other: Any) -> dict[str, Any]:
    """One play on `mover`'s page, and what each page recorded of it."""
    before = version_of(mover)
    choice = mover.evaluate(CHOOSE)
    if choice is None:
        raise RuntimeError("no card to play")
    sent = mover.evaluate(PLAY, choice)
    mover.wait_for_function(
        "v => Number(document.querySelector('#board .board').dataset.version) > v",
        arg=before,
        polling=POLL_MS,
    )
    version = version_of(mover)
    wait_shown(mover, version)
    wait_shown(other, version)
    m, o = mover.evaluate("() => window.__live"), other.evaluate("() => window.__live")
    v = str(version)
    post = [r for r in m["res"] if "/play" in r["name"] and r["start"] >= sent - 1]
    if not post:
        raise RuntimeError("the play's request is not in the mover's Resource Timing")
    request = post[0]
    row: dict[str, Any] = {
        "version": version,
        "server": request["end"] - sent,
        "server_wait": request["responseStart"] - request["requestStart"],
        "mover": m["shown"][v] - sent,
        "mover_dom": m["dom"][v] - sent,
        "other": o["shown"][v] - sent,
        "other_dom": o["dom"][v] - sent,
        "other_swap0": o["swap0"][v] - sent,
        "other_swap": o["swap1"][v] - o["swap0"][v],
        "other_settle0": o["settle0"][v] - sent,
        "other_settle1": o["settle1"][v] - sent,
        "other_scripts": o["settle1"][v] - o["settle0"][v],
        "mover_bytes": request["body"],
    }
    if v in o["sse"]:
        row["other_event"] = o["sse"][v] - sent
    fetch = [r for r in o["res"] if "/board" in r["name"] and r["start"] >= sent - 1]
    if fetch:
        f = fetch[0]
        row["other_fetch_start"] = f["start"] - sent
        row["other_fetch_end"] = f["end"] - sent
        row["other_fetch_server"] = f["responseStart"] - f["requestStart"]
        row["other_fetch_bytes"] = f["body"]
        row["other_fetches"] = len(fetch)
    return row


def summarize(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    keys = sorted({k for r in rows for k in r if k != "version"})
    out = {}
    for k in keys:
        values = [r[k] for r in rows if k in r]
        out[k] = {
            "n": len(values),
            "p50": percentile(values, 50),
            "p95": percentile(values, 95),
            "mean": statistics.fmean(values),
        }
    return out


LABELS = {
    "server": "server: the move's request, start → answer",
    "server_wait": "  of which the server's (request sent → first byte)",
    "mover": "mover's page shows it (scripts run, frame drawn)",
    "mover_dom": "  mover: new version in the DOM",
    "other_event": "other: the stream's event arrives",
    "other_fetch_start": "other: its board fetch starts",
    "other_fetch_server": "  the fetch's server time (sent → first byte)",
    "other_fetch_end": "other: the fetch's answer ends",
    "other_swap0": "other: the swap begins (htmx)",
    "other_swap": "  the swap's own time (escoba.js beforeSwap, parse, swap)",
    "other_dom": "other: new version in the DOM (the swap)",
    "other_settle0": "other: the scripts after the swap begin",
    "other_settle1": "other: the scripts after the swap end",
    "other_scripts": "  the scripts' own time (escoba.js afterSettle)",
    "other": "OTHER PAGE SHOWS IT (scripts run, frame drawn)",
    "other_fetch_bytes": "the other's board, bytes (decoded)",
    "mover_bytes": "the mover's answer, bytes (decoded)",
    "other_fetches": "board fetches per move (other page)",
}


def print_table(summary: dict[str, dict[str, float]]) -> None:
    print(f"{'':56} {'p50':>9} {'p95':>9} {'n':>4}")
    for key, label in LABELS.items():
        if key in summary:
            s = summary[key]
            print(f"{label:56} {s['p50']:9.1f} {s['p95']:9.1f} {s['n']:4d}")


class Table:
    """One server and its two seats' pages, and the moves measured there."""

    def __init__(self, label: str, src: Path, tmp: Path, browser: Any, options: Any) -> None:
        self.label = label
        self.server = Server(tmp, src)
        self.pages = []
        for _ in range(2):
            context = browser.new_context(**options)
            context.set_default_timeout(20_000)
            context.add_init_script(PROBE)
            self.pages.append(context.new_page())
        seat_two(*self.pages, self.server.base)
        self.moves = 0
        self.rows: list[dict[str, Any]] = []

    def step(self, warmup: int) -> bool:
        """What the table waits for next; True when it was a move."""
        ana, beto = self.pages
        state, page = state_of(self.pages)
        if state == "over":
            seat_two(ana, beto, self.server.base)
            return False
        if state == "summary":
            version = version_of(page)
            page.locator("#board .summary form button").first.click()
            page.wait_for_function(
                "v => Number(document.querySelector('#board .board').dataset.version) > v",
                arg=version,
                polling=POLL_MS,
            )
            return False
        row = one_move(page, beto if page is ana else ana)
        self.moves += 1
        if self.moves > warmup:
            self.rows.append(row)
        return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--pause", type=float, default=0.6, help="seconds between moves")
    parser.add_argument("--warmup", type=int, default=4, help="moves not counted, first")
    parser.add_argument("--label", default="")
    parser.add_argument("--desktop", action="store_true", help="1280×860 instead of a phone")
    parser.add_argument(
        "--src",
        type=Path,
        default=ROOT / "src",
        help="the app's sources to serve (another commit's, checked out: `git archive`)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="other sources, served as well: a move there after each move here, "
        "on the same machine at the same moments (before/after in one run)",
    )
    parser.add_argument("--against-label", default="before")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    load_before = uptime()
    options: dict[str, Any] = {"locale": "es-ES"}
    if args.desktop:
        options["viewport"] = {"width": 1280, "height": 860}
    else:
        options.update(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    sources = [(args.label or "this", args.src.resolve())]
    if args.against is not None:
        sources.append((args.against_label, args.against.resolve()))
    tables: list[Table] = []
    with tempfile.TemporaryDirectory(prefix="bench-live-") as tmp_name, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            for i, (label, src) in enumerate(sources):
                tmp = Path(tmp_name) / str(i)
                tmp.mkdir()
                tables.append(Table(label, src, tmp, browser, options))
            while any(t.moves < args.moves + args.warmup for t in tables):
                for table in tables:
                    if table.moves < args.moves + args.warmup:
                        while not table.step(args.warmup):
                            time.sleep(args.pause)
                        time.sleep(args.pause)
        finally:
            browser.close()
            for table in tables:
                table.server.stop()
    load_after = uptime()
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    report: dict[str, Any] = {
        "at": stamp,
        "pause": args.pause,
        "viewport": "desktop" if args.desktop else "phone",
        "load_before": load_before,
        "load_after": load_after,
        "tables": {},
    }
    for table, (_, src) in zip(tables, sources, strict=True):
        summary = summarize(table.rows)
        ratio = summary["other"]["p50"] / summary["server"]["p50"]
        print(f"\nbench_live {table.label} ({src}): {len(table.rows)} moves")
        print_table(summary)
        print(f"other page p50 / server p50: {ratio:.2f}×")
        report["tables"][table.label] = {
            "src": str(src),
            "moves": len(table.rows),
            "ratio_other_server_p50": ratio,
            "summary": summary,
            "rows": table.rows,
        }
    print(f"\nload before: {load_before}\nload after:  {load_after}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"live-{stamp}{'-' + args.label if args.label else ''}.json"
    out.write_text(json.dumps(report, indent=1))
    print(f"written: {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
