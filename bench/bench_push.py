"""Web Push fan-out benchmark: how many notices, and pushes, the push channel
delivers per second, each encrypted for its subscription (RFC 8291) and
VAPID-signed (RFC 8292), to a local push service.

    .venv/bin/python bench/bench_push.py --subscriptions 2000 --workers 4 8 16

Set-up: a SQLite database with `--subscriptions` seats (two-seat tables made
through the table service), each subscribed with its own endpoint and keys at
one local push service (`tests/web/push_endpoint.py`, in a process of its
own, which answers 201). Each run hands the channel one TURN notice per seat
in one `deliver` call and waits until every push is answered; reported: the
time `deliver` itself took (the dispatcher's cost: reading the subscriptions
and queueing the pushes), notices/s and pushes/s from the call to the last
answer, and the channel's and the service's counts. `--check` makes the
service verify each push's VAPID signature and decrypt it, as the tests do
(on the same two cores: slower, but every one of the pushes proven sound).
Results are appended to bench/RESULTS-push.md with `--write`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests.web.push_endpoint import BrowserKeys, PushEndpoint  # noqa: E402

from escoba.web.app import build_core  # noqa: E402
from escoba.web.base.clock import SystemClock  # noqa: E402
from escoba.web.base.settings import Settings  # noqa: E402
from escoba.web.notices.notice import Notice, NoticeKind  # noqa: E402
from escoba.web.notices.push import PushChannel, Vapid  # noqa: E402

RESULTS = ROOT / "bench" / "RESULTS-push.md"
P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def keys_for(i: int) -> BrowserKeys:
    """Subscription i's browser keys, the same in both processes."""
    seed = hashlib.sha256(f"bench-push-{i}".encode()).digest()
    private = ec.derive_private_key(
        int.from_bytes(seed, "big") % (P256_ORDER - 1) + 1, ec.SECP256R1()
    )
    return BrowserKeys(private, hashlib.sha256(seed).digest()[:16])


def serve(count: int, check: bool) -> None:
    """The push service's process: prints its port, then answers `stats`
    lines on stdin with its counts, until stdin closes."""
    endpoint = PushEndpoint(check=check)
    with endpoint.running():
        for i in range(count):
            endpoint.subscribe(f"s{i}", keys_for(i) if check else BrowserKeys.new())
        print(endpoint.port, flush=True)
        for line in sys.stdin:
            if line.strip() == "stats":
                stats = {
                    "pushes": len(endpoint.pushes),
                    "requests": endpoint.requests.total(),
                    "errors": endpoint.errors[:3],
                    "error_count": len(endpoint.errors),
                }
                print(json.dumps(stats), flush=True)


def yardstick_ms() -> float:
    """The machine's speed: the best of three runs of a fixed pure-Python
    loop, in ms (as bench_load's; lower is faster)."""
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        total = 0
        for i in range(2_000_000):
            total += i
        best = min(best, time.perf_counter() - t)
    return round(best * 1000, 1)


def run(count: int, workers: int, check: bool, folder: Path) -> dict[str, Any]:
    service_proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--subscriptions", str(count)]
        + (["--check"] if check else []),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"},
    )
    assert service_proc.stdin is not None and service_proc.stdout is not None
    port = int(service_proc.stdout.readline())
    db_file = folder / f"push-{workers}-{int(check)}.db"
    settings = Settings(
        database_url=f"sqlite:///{db_file}",
        push_allow_private=True,
        push_workers=workers,
        secret_key="bench",
    )
    core = build_core(settings)
    clock = SystemClock()
    channel = PushChannel(core.db, settings, clock, Vapid.from_settings(settings, core.db))
    try:
        seats: list[tuple[int, int, str]] = []  # seat id, table id, invite
        for i in range(0, count, 2):
            joined = core.service.lobby.create_table(f"Ana{i}", 21)
            core.service.lobby.join(joined.invite, "Beto")
            with core.db.snapshot() as conn:
                rows = conn.exec_driver_sql(
                    "SELECT s.id, t.id FROM seats s JOIN tables t ON t.id = s.table_id "
                    "WHERE t.invite = ? ORDER BY s.position",
                    (joined.invite,),
                ).all()
            seats.extend((seat_id, table_id, joined.invite) for seat_id, table_id in rows)
        seats = seats[:count]
        for i, (seat_id, _, _) in enumerate(seats):
            keys = keys_for(i)
            data = {
                "endpoint": f"http://127.0.0.1:{port}/push/s{i}",
                "keys": {"p256dh": keys.p256dh, "auth": keys.auth},
            }
            channel.store.subscribe(seat_id, channel.guard.subscription(data), "es", None)
        now = clock.now()
        notices = [
            Notice(NoticeKind.TURN, seat_id, table_id, invite, ("Ana", "Beto"), "Beto", now)
            for seat_id, table_id, invite in seats
        ]
        channel.deliver(notices[:50])  # warm-up: connections, VAPID tokens
        assert channel.wait_idle(120)
        channel.outcomes.clear()
        before = _stats(service_proc)
        started = time.perf_counter()
        channel.deliver(notices)
        queued = time.perf_counter()
        assert channel.wait_idle(600), "pushes still under way"
        ended = time.perf_counter()
        stats = _stats(service_proc)
        stats["pushes"] -= before["pushes"]
        stats["requests"] -= before["requests"]
    finally:
        channel.close()
        core.close()
        service_proc.stdin.close()
        service_proc.wait(timeout=30)
    seconds = ended - started
    sent = channel.outcomes["sent"]
    return {
        "subscriptions": count,
        "workers": workers,
        "checked": check,
        "deliver_ms": round((queued - started) * 1000, 1),
        "seconds": round(seconds, 2),
        "notices_per_s": round(len(notices) / seconds),
        "pushes_per_s": round(sent / seconds),
        "sent": sent,
        "outcomes": dict(channel.outcomes),
        "service": stats,
    }


def _load() -> str:
    """The machine's 1-minute load average (other work on its two cores)."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def _stats(service_proc: subprocess.Popen[str]) -> dict[str, Any]:
    """The push service's counts so far."""
    assert service_proc.stdin is not None and service_proc.stdout is not None
    service_proc.stdin.write("stats\n")
    service_proc.stdin.flush()
    stats: dict[str, Any] = json.loads(service_proc.stdout.readline())
    return stats


def table(results: list[dict[str, Any]]) -> str:
    lines = [
        "| workers | service checks and decrypts | deliver() ms | all answered s | notices/s "
        "| pushes/s | sent | other outcomes | service received (errors) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        other = {k: v for k, v in r["outcomes"].items() if k != "sent"} or "—"
        service = f"{r['service']['pushes']} ({r['service']['error_count']})"
        lines.append(
            f"| {r['workers']} | {'yes' if r['checked'] else 'no'} | {r['deliver_ms']} "
            f"| {r['seconds']} | {r['notices_per_s']} | {r['pushes_per_s']} | {r['sent']} "
            f"| {other} | {service} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--subscriptions", type=int, default=2000)
    parser.add_argument("--workers", type=int, nargs="+", default=[8])
    parser.add_argument("--check", action="store_true", help="the service verifies and decrypts")
    parser.add_argument("--both", action="store_true", help="runs unchecked, then checked")
    parser.add_argument("--write", action="store_true", help=f"append to {RESULTS.name}")
    parser.add_argument("--note", default="", help="a line for the results section")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.subscriptions, args.check)
        return
    yardstick = yardstick_ms()
    load_before = _load()
    checks = [False, True] if args.both else [args.check]
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for check in checks:
            for workers in args.workers:
                result = run(args.subscriptions, workers, check, Path(folder))
                print(json.dumps(result), flush=True)
                results.append(result)
    text = table(results)
    print(text)
    if args.write:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        shown = ["--subscriptions", str(args.subscriptions), "--workers", *map(str, args.workers)]
        shown += ["--both"] if args.both else (["--check"] if args.check else [])
        command = " ".join(["bench/bench_push.py", *shown])
        loads = f"load average {load_before} before the runs, {_load()} after"
        with RESULTS.open("a", encoding="utf-8") as f:
            f.write(
                f"\n## {stamp}: {args.subscriptions} subscriptions (yardstick {yardstick} ms)\n\n"
                f"`{command}`; {loads}. {args.note}\n\n{text}\n"
            )


if __name__ == "__main__":
    main()
