"""The first run: from a fresh clone, how long `bash dev.sh run` takes before
the app answers, and what it says meanwhile.

    .venv/bin/python bench/bench_first_run.py               # this checkout's HEAD
    .venv/bin/python bench/bench_first_run.py --ref 5c8e2bf # an older commit

1. `git clone` of this repository (its committed HEAD, or `--ref`) into a
   temporary directory: no `.venv`, no `node_modules`, as a newcomer has it;
2. `bash dev.sh run --port P` in it, in its own session, with its own SQLite
   file; `/health/live` asked every 0.1 s until it answers 200;
3. the time to that answer, and every line the command wrote on stderr with
   the second it came (the operator's view of the wait); then SIGTERM.

pip's and npm's caches are used as they are (`--no-pip-cache` to go without
pip's; npm's is always on): the figure is then the set-up's own work —
making the virtualenv, installing the wheels, `npm ci`, the migrations —
not the network. Prints one markdown row and the JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from bench_load import free_port, report, yardstick_ms

REPO = Path(__file__).resolve().parent.parent


def first_run(ref: str, pip_cache: bool, timeout: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="escoba-first-run-") as tmp:
        clone = Path(tmp) / "escoba"
        subprocess.run(
            ["git", "clone", "--quiet", str(REPO), str(clone)], check=True, capture_output=True
        )
        if ref != "HEAD":
            subprocess.run(
                ["git", "-C", str(clone), "checkout", "--quiet", ref],
                check=True,
                capture_output=True,
            )
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ESCOBA_", "VIRTUAL_ENV"))}
        env["PATH"] = os.pathsep.join(
            p for p in env.get("PATH", "").split(os.pathsep) if not p.endswith("/.venv/bin")
        )
        env["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'first-run.db'}"
        if not pip_cache:
            env["PIP_NO_CACHE_DIR"] = "1"
        lines: list[tuple[float, str]] = []
        start = time.perf_counter()
        proc = subprocess.Popen(
            ["bash", "dev.sh", "run", "--port", str(port)],
            cwd=clone,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )

        def read_stderr() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                lines.append((time.perf_counter() - start, line.rstrip()))

        reader = threading.Thread(target=read_stderr, daemon=True)
        reader.start()
        answered: float | None = None
        try:
            while time.perf_counter() - start < timeout and proc.poll() is None:
                try:
                    with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/health/live", timeout=1
                    ) as answer:
                        if answer.status == 200:
                            answered = time.perf_counter() - start
                            break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    pass
                time.sleep(0.1)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            reader.join(timeout=5)
        head = subprocess.run(
            ["git", "-C", str(clone), "rev-parse", "--short", "HEAD"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    return {
        "commit": head,
        "pip_cache": pip_cache,
        "answered_s": None if answered is None else round(answered, 1),
        "exit_code": proc.returncode if answered is None else None,
        "stderr": [f"{t:6.1f} s  {line}" for t, line in lines],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", default="HEAD", help="the commit to clone (default HEAD)")
    parser.add_argument("--no-pip-cache", action="store_true", help="install without pip's cache")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--json", type=Path, help="append the result to this file")
    args = parser.parse_args()
    yardstick = yardstick_ms()
    result = first_run(args.ref, not args.no_pip_cache, args.timeout)
    result["yardstick_ms"] = yardstick
    result["load_average"] = os.getloadavg()[0]
    for line in result["stderr"]:
        print(line, file=sys.stderr)
    answered = result["answered_s"]
    report(
        "| commit | pip cache | app answers after | lines on stderr | yardstick ms |\n"
        "|---|---|---|---|---|",
        f"| {result['commit']} | {'yes' if result['pip_cache'] else 'no'} "
        f"| {'never' if answered is None else f'{answered} s'} "
        f"| {len(result['stderr'])} | {yardstick} |",
        result,
        args.json,
    )


if __name__ == "__main__":
    main()
