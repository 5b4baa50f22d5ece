"""Load benchmark of the web app: K concurrent four-seat tables, each with
four simulated people acting through the JSON API and four live streams
(one per seat's browser), against a real server on 127.0.0.1.

    .venv/bin/python bench/bench_load.py --db sqlite --workers 1 --tables 500 --rate 300
    .venv/bin/python bench/bench_load.py --db postgres --workers 2 --tables 500 --rate 300

The server runs in its own processes (`uvicorn escoba.web.asgi:app
--workers N`), this script is the load generator (aiohttp, one process).
Phases, all in one run so the figures compare on a noisy machine:

1. set-up: K tables made, joined and started through the API; 4·K streams
   opened on /t/{invite}/events;
2. paced: `--rate` actions per second for `--seconds` (after a warm-up), each
   action being what a browser does on its turn: GET the seat's view, POST
   the move. Reported: actions/s, POST latency p50/p95/p99, live-update
   delivery latency (POST sent → `update` heard on a stream) p99 over every
   stream, errors (any non-2xx, exception or update never heard);
3. saturated: `--concurrency` tables act back to back for `--burst` seconds:
   the most actions per second the server gives (with `--boards`, over the
   time until every page shows the last move);
4. bare: the same concurrency on GET /health/live (no database work): the
   ceiling of the app's HTTP stack on this machine, to compare with 3.

With `--boards`, each stream also does what the table page does on an
`update`: it fetches its board fragment (GET /t/{invite}/board, as its
seat's browser, with the seat's cookie), so a move costs its four renders;
the board's latency (POST sent → the board showing it fetched) is reported
beside the delivery's.

Each row also gives the machine's yardstick: a fixed pure-Python loop timed
before the run (the machines here differ by 2–3× from one session to the
next, and within one; compare rows by their yardsticks). Bounded: every
phase has a fixed length, and the server is stopped at the end (or on
Ctrl-C). Prints one markdown table row and writes JSON next to it.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/escoba_bench"


def push_keys() -> dict[str, str]:
    """A browser's subscription keys (a P-256 public key, an auth secret):
    the local push service of the bench takes pushes without decrypting."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    point = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = point.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()  # noqa: E731
    return {"p256dh": b64(raw), "auth": b64(os.urandom(16))}


class PushService:
    """The local push service (bench/bench_push.py's, in a process of its
    own, taking every push with 201): where `--push` subscribes the seats."""

    def __init__(self, count: int) -> None:
        script = str(ROOT / "bench" / "bench_push.py")
        self.proc = subprocess.Popen(
            [sys.executable, script, "--serve", "--subscriptions", str(count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"},
        )
        assert self.proc.stdout is not None
        self.port = int(self.proc.stdout.readline())

    def pushes(self) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("stats\n")
        self.proc.stdin.flush()
        stats: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return int(stats["pushes"])

    def stop(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# ---------------------------------------------------------------------------
# The server


def prepare_database(db: str, pg_url: str, tmp: Path) -> str:
    from escoba.web.base.db import migrate

    if db == "sqlite":
        url = f"sqlite:///{tmp / 'bench.db'}"
    else:
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        target = make_url(pg_url)
        admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{target.database}"'))
        admin.dispose()
        url = target.render_as_string(hide_password=False)
    migrate(url)
    return url


class Server:
    def __init__(self, url: str, workers: int, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        full_env = {
            **os.environ,
            "DATABASE_URL": url,
            "ESCOBA_SECRET_KEY": "bench",
            "ESCOBA_RATE_JOIN_PER_IP": "1000000",
            "ESCOBA_RATE_ACT_PER_IP": "1000000",
            "ESCOBA_RATE_ACT_PER_SEAT": "1000000",
            "ESCOBA_LIVE_STREAMS_PER_IP": "0",  # every stream comes from this one address
            **env,
        }
        self._log = log.open("wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "escoba.web.asgi:app",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--workers",
                str(workers),
                "--no-access-log",
                "--backlog",
                "4096",
            ],
            env=full_env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    async def wait(self, session: aiohttp.ClientSession, workers: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited; see its log")
            with contextlib.suppress(aiohttp.ClientError, OSError):
                async with session.get(self.base + "/health") as r:
                    if r.status == 200 and len(self.pids()) >= workers:
                        return
            await asyncio.sleep(0.1)
        raise RuntimeError("the server did not start")

    def pids(self) -> list[int]:
        """The uvicorn processes (the supervisor and its workers)."""
        out = [self.proc.pid]
        with contextlib.suppress(OSError):
            children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
            out += [int(p) for p in children.read_text().split()]
        return out

    def rss_mb(self) -> float:
        total = 0
        for pid in self.pids():
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        return total / 1024

    def cpu_seconds(self) -> float:
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for pid in self.pids():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / ticks
        return total

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self._log.close()


# ---------------------------------------------------------------------------
# The tables and their people


@dataclass
class Stats:
    action_ms: list[float] = field(default_factory=list)
    view_ms: list[float] = field(default_factory=list)
    delivery_ms: list[float] = field(default_factory=list)
    board_ms: list[float] = field(default_factory=list)  # POST sent → board fetched
    actions: int = 0
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    expected_deliveries: int = 0
    recording: bool = False

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


@dataclass
class Table:
    invite: str
    tokens: list[str]  # by lobby position
    version: int = 0
    by_game_seat: dict[int, str] = field(default_factory=dict)
    turn: int = 0
    sent_at: dict[int, float] = field(default_factory=dict)  # version → POST sent
    counted: set[int] = field(default_factory=set)  # versions that count for delivery
    busy: bool = False
    cookies: list[str] = field(default_factory=list)  # each seat's, by position
    shown: dict[int, int] = field(default_factory=dict)  # stream → last version handled


class Load:
    def __init__(
        self, base: str, session: aiohttp.ClientSession, seed: int, boards: bool = False
    ) -> None:
        self.base = base
        self.session = session
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.tables: list[Table] = []
        self.streams: list[asyncio.Task[None]] = []
        self.opened = 0
        self.streams_per_table = 0
        self.boards = boards

    async def call(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.session.request(method, self.base + path, json=body, headers=headers) as r:
            data = await r.json(content_type=None)
            return r.status, data

    async def make_table(self, index: int) -> Table:
        status, made = await self.call("POST", "/api/tables", None, {"name": f"A{index}"})
        assert status == 201, made
        invite = made["invite"]
        tokens = [made["token"]]
        for name in ("B", "C", "D"):
            status, joined = await self.call(
                "POST", f"/api/tables/{invite}/seats", None, {"name": f"{name}{index}"}
            )
            assert status == 201, joined
            tokens.append(joined["token"])
        table = Table(invite, tokens)
        status, page = await self.call("GET", f"/api/tables/{invite}", tokens[0])
        status, started = await self.call(
            "POST", f"/api/tables/{invite}/start", tokens[0], {"version": page["version"]}
        )
        assert status == 200, started
        status, page = await self.call("GET", f"/api/tables/{invite}", tokens[0])
        table.version = page["version"]
        table.by_game_seat = {s["game_seat"]: tokens[s["position"]] for s in page["seats"]}
        table.turn = page["view"]["turn"]
        return table

    async def setup(self, count: int) -> None:
        gate = asyncio.Semaphore(16)

        async def one(i: int) -> Table:
            async with gate:
                return await self.make_table(i)

        self.tables = list(await asyncio.gather(*(one(i) for i in range(count))))

    async def seat_cookies(self, table: Table) -> None:
        """Each seat's browser cookie, from its «continue» link (as a person
        opening it gets), for the board fetches."""
        for token in table.tokens:
            url = f"{self.base}/t/{table.invite}/continue/{token}"
            async with self.session.get(url, allow_redirects=False) as r:
                morsel = r.cookies.get("device")
                assert r.status == 303 and morsel is not None, r.status
                table.cookies.append(f"{morsel.key}={morsel.value}")

    async def subscribe(self, port: int) -> int:
        """Every seat subscribed to Web Push at the local push service on
        `port` (its own endpoint, `s<i>`), through the API: each move then
        sends its turn notice to a seat whose page (a stream without the
        seat's cookie) does not count as watching."""
        keys = push_keys()
        gate = asyncio.Semaphore(16)
        count = 0

        async def one(i: int, table: Table, token: str) -> None:
            nonlocal count
            body = {"endpoint": f"http://127.0.0.1:{port}/push/s{i}", "keys": keys}
            async with gate:
                status, data = await self.call(
                    "POST", f"/api/tables/{table.invite}/push", token, body
                )
            assert status == 204, data
            count += 1

        seats = [(t, token) for t in self.tables for token in t.tokens]
        await asyncio.gather(*(one(i, t, token) for i, (t, token) in enumerate(seats)))
        return count

    async def board(self, table: Table, seat: int) -> None:
        """What the page's HTMX does on an `update`: GET the board fragment,
        as the seat's browser (a spectator's past the seats)."""
        headers = {"HX-Request": "true"}
        if seat < len(table.cookies):
            headers["Cookie"] = table.cookies[seat]
        url = f"{self.base}/t/{table.invite}/board"
        async with self.session.get(url, headers=headers) as r:
            await r.read()
            if r.status != 200:
                raise RuntimeError(f"board {r.status}")

    async def settle(self, timeout: float = 120.0) -> float:
        """Until every stream has handled (and, with `boards`, shown) its
        table's last move: a saturated phase leaves them behind. Returns the
        seconds that took; the next phase then has the server to itself."""
        start = time.perf_counter()
        deadline = start + timeout
        while time.perf_counter() < deadline and any(
            table.shown.get(seat, -1) < table.version
            for table in self.tables
            for seat in range(self.streams_per_table)
        ):
            await asyncio.sleep(0.05)
        return time.perf_counter() - start

    async def stream(self, table: Table, seat: int) -> None:
        """One browser's live stream: every `update` heard is matched with the
        moves it announces; with `boards`, the board is then fetched as the
        page does, and the move counts as shown when it arrives."""
        last = table.version
        try:
            async with self.session.get(
                f"{self.base}/t/{table.invite}/events",
                timeout=aiohttp.ClientTimeout(total=None, sock_read=None),
            ) as r:
                self.opened += 1
                async for raw in r.content:
                    line = raw.decode().strip()
                    if not line.startswith("data:"):
                        continue
                    now = time.perf_counter()
                    version = int(line[5:].strip())
                    heard = [
                        sent
                        for v in range(last + 1, version + 1)
                        if v in table.counted and (sent := table.sent_at.get(v)) is not None
                    ]
                    self.stats.delivery_ms.extend((now - sent) * 1000 for sent in heard)
                    last = max(last, version)
                    if self.boards:
                        try:
                            await self.board(table, seat)
                        except (aiohttp.ClientError, RuntimeError) as err:
                            if self.stats.recording:  # an error of the run; the stream goes on
                                self.stats.error(f"board {type(err).__name__}: {err}")
                            continue
                        now = time.perf_counter()
                        self.stats.board_ms.extend((now - sent) * 1000 for sent in heard)
                    table.shown[seat] = last
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a dropped stream is an error of the run
            if self.stats.recording:
                self.stats.error(f"stream {type(err).__name__}")

    async def open_streams(self, per_table: int) -> None:
        self.streams_per_table = per_table
        for i, table in enumerate(self.tables):
            if self.boards:
                await self.seat_cookies(table)
            for seat in range(per_table):
                self.streams.append(asyncio.create_task(self.stream(table, seat)))
            if i % 50 == 49:
                await asyncio.sleep(0.2)  # open gradually, as people arrive
        deadline = time.monotonic() + 60
        while self.opened < len(self.streams) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)  # let the server register the last subscriptions

    async def act(self, table: Table) -> None:
        """One turn as a browser plays it: the seat's view, then the move."""
        base = f"/api/tables/{table.invite}"
        table.busy = True
        recording = self.stats.recording
        try:
            token = table.by_game_seat.get(table.turn, table.tokens[0])
            t0 = time.perf_counter()
            status, page = await self.call("GET", base, token)
            if recording:
                self.stats.view_ms.append((time.perf_counter() - t0) * 1000)
            if status != 200:
                if recording:
                    self.stats.error(f"view {status}")
                return
            view = page["view"]
            table.version = page["version"]
            path, body = self.choose(table, page, view)
            if path is None:
                return
            expected = table.version + 1
            t1 = time.perf_counter()
            table.sent_at[expected] = t1
            if recording:
                table.counted.add(expected)
            status, done = await self.call("POST", base + path, body.pop("_token"), body)
            if recording:
                self.stats.action_ms.append((time.perf_counter() - t1) * 1000)
            if status != 200:
                table.counted.discard(expected)
                if recording:
                    self.stats.error(f"{path} {status} {done.get('error')}")
                return
            table.version = done["version"]
            if recording:
                self.stats.actions += 1
                self.stats.expected_deliveries += self.streams_per_table
        except asyncio.CancelledError:
            raise
        except Exception as err:
            if recording:
                self.stats.error(type(err).__name__)
        finally:
            table.busy = False

    def choose(
        self, table: Table, page: dict[str, Any], view: dict[str, Any] | None
    ) -> tuple[str | None, dict[str, Any]]:
        if page["status"] == "finished":
            # a rematch: every person accepts (the creator keeps the pairs)
            seat = next(
                (s for s in page["seats"] if not s.get("rematch") and s["you"]), page["seats"][0]
            )
            for s in page["seats"]:
                if s["position"] == seat["position"]:
                    break
            pos = self.rng.randrange(4)
            return "/rematch", {
                "version": table.version,
                "pairs": "keep",
                "_token": table.tokens[pos],
            }
        assert view is not None
        if view["phase"] == "round_over":
            return "/next-round", {"version": table.version, "_token": table.tokens[0]}
        table.turn = view["turn"]
        mine = table.by_game_seat[view["turn"]]
        legal = view.get("legal_actions") or []
        if not legal:  # we asked with the wrong seat: ask again next time
            return None, {}
        action = self.rng.choice(legal)
        if action["type"] == "play":
            table.turn = (view["turn"] + 1) % 4
        return "/actions", {"version": table.version, "action": action, "_token": mine}

    async def paced(self, rate: float, seconds: float) -> float:
        """Open loop: an action every 1/rate s on the next idle table."""
        interval = 1.0 / rate
        start = time.perf_counter()
        next_at = start
        index = 0
        tasks: set[asyncio.Task[None]] = set()
        while True:
            now = time.perf_counter()
            if now - start >= seconds:
                break
            if now < next_at:
                await asyncio.sleep(next_at - now)
                continue
            next_at += interval
            for _ in range(len(self.tables)):
                table = self.tables[index % len(self.tables)]
                index += 1
                if not table.busy:
                    table.busy = True  # before the task starts: never two at once
                    task = asyncio.create_task(self.act(table))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
                    break
            else:
                if self.stats.recording:
                    self.stats.error("no idle table")
        await asyncio.gather(*tasks)
        return time.perf_counter() - start

    async def saturate(self, concurrency: int, seconds: float) -> tuple[int, float]:
        stop = time.perf_counter() + seconds

        async def loop(tables: list[Table]) -> None:
            i = 0
            while time.perf_counter() < stop:
                table = tables[i % len(tables)]
                i += 1
                await self.act(table)

        groups = [self.tables[i::concurrency] for i in range(concurrency)]
        start = time.perf_counter()
        await asyncio.gather(*(loop(g) for g in groups if g))
        return self.stats.actions, time.perf_counter() - start

    async def bare(self, concurrency: int, seconds: float) -> tuple[int, int, float]:
        stop = time.perf_counter() + seconds
        ok = 0
        bad = 0

        async def loop() -> None:
            nonlocal ok, bad
            while time.perf_counter() < stop:
                async with self.session.get(self.base + "/health/live") as r:
                    await r.read()
                    if r.status == 200:
                        ok += 1
                    else:
                        bad += 1

        start = time.perf_counter()
        await asyncio.gather(*(loop() for _ in range(concurrency)))
        return ok, bad, time.perf_counter() - start


async def run(args: argparse.Namespace, url: str, log: Path) -> dict[str, Any]:
    env = {"ESCOBA_LOG_LEVEL": args.log_level}
    if (args.db == "sqlite" and args.workers > 1) or args.redis:
        env["ESCOBA_REDIS_URL"] = args.redis_url
    if args.redis:
        env["ESCOBA_LIVE_BACKEND"] = "redis"
    if args.sqlite_synchronous:
        env["ESCOBA_SQLITE_SYNCHRONOUS"] = args.sqlite_synchronous
    if args.no_rate_limits:
        env["ESCOBA_RATE_LIMITS"] = "false"
    push = PushService(args.tables * 4) if args.push else None
    if push is not None:
        env["ESCOBA_PUSH_ALLOW_PRIVATE"] = "true"
    pushes = subscribed = 0
    server = Server(url, args.workers, env, log)
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=30)
    try:
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            await server.wait(session, args.workers + (1 if args.workers > 1 else 0))
            load = Load(server.base, session, args.seed, boards=args.boards)
            t = time.perf_counter()
            await load.setup(args.tables)
            setup_s = time.perf_counter() - t
            if push is not None:
                subscribed = await load.subscribe(push.port)
            await load.open_streams(args.streams)
            rss_streams = server.rss_mb()
            await load.paced(args.rate, args.warmup)
            load.stats = Stats(recording=True)
            cpu0, machine0 = server.cpu_seconds(), machine_ticks()
            pushes0 = push.pushes() if push is not None else 0
            elapsed = await load.paced(args.rate, args.seconds)
            cpu, machine1 = server.cpu_seconds() - cpu0, machine_ticks()
            await asyncio.sleep(1.0)  # the last updates arrive
            pushes = push.pushes() - pushes0 if push is not None else 0
            paced = load.stats
            load.stats = Stats(recording=True)
            cpu0, gen0 = server.cpu_seconds(), time.process_time()
            sat_count, sat_s = await load.saturate(args.concurrency, args.burst)
            sat = load.stats
            if args.boards:  # a move is made once every page shows it
                sat_s += await load.settle()
            sat_cpu = server.cpu_seconds() - cpu0, time.process_time() - gen0
            await load.settle()  # the streams have caught up
            await asyncio.sleep(0.5)
            cpu0, gen0 = server.cpu_seconds(), time.process_time()
            bare_ok, bare_bad, bare_s = await load.bare(args.concurrency, args.burst)
            bare_cpu = server.cpu_seconds() - cpu0, time.process_time() - gen0
            opened = load.opened
            for task in load.streams:
                task.cancel()
            await asyncio.gather(*load.streams, return_exceptions=True)
    finally:
        server.stop()
        if push is not None:
            push.stop()
    delivered = len(paced.delivery_ms)
    undelivered = max(0, paced.expected_deliveries - delivered)
    return {
        "db": args.db,
        "workers": args.workers,
        "boards": args.boards,
        "tables": args.tables,
        "push_subscriptions": subscribed,
        "pushes_per_s": round(pushes / elapsed, 1) if args.push else None,
        "streams": opened,
        "setup_s": round(setup_s, 1),
        "rss_mb_with_streams": round(rss_streams, 1),
        "target_rate": args.rate,
        "seconds": round(elapsed, 1),
        "actions_per_s": round(paced.actions / elapsed, 1),
        "action_ms": {
            p: round(percentile(paced.action_ms, q), 2)
            for p, q in (("p50", 50), ("p95", 95), ("p99", 99))
        },
        "view_ms_p99": round(percentile(paced.view_ms, 99), 2),
        "delivery_ms": {
            p: round(percentile(paced.delivery_ms, q), 2) for p, q in (("p50", 50), ("p99", 99))
        },
        "board_ms": (
            {p: round(percentile(paced.board_ms, q), 2) for p, q in (("p50", 50), ("p99", 99))}
            if args.boards
            else None
        ),
        "deliveries": delivered,
        "undelivered": undelivered,
        "errors": paced.errors + undelivered,
        "error_kinds": paced.error_kinds,
        "server_cpu_per_action_ms": round(cpu / max(1, paced.actions) * 1000, 2),
        "machine_during_paced": machine_share(machine0, machine1),
        "saturated_actions_per_s": round(sat_count / sat_s, 1),
        "saturated_p99_ms": round(percentile(sat.action_ms, 99), 2),
        "saturated_errors": sat.errors,
        "saturated_cpu_ms_per_action": {
            "server": round(sat_cpu[0] / max(1, sat_count) * 1000, 3),
            "generator": round(sat_cpu[1] / max(1, sat_count) * 1000, 3),
        },
        "bare_cpu_ms_per_request": {
            "server": round(bare_cpu[0] / max(1, bare_ok) * 1000, 3),
            "generator": round(bare_cpu[1] / max(1, bare_ok) * 1000, 3),
        },
        "bare_per_s": round(bare_ok / bare_s, 1),
        "bare_errors": bare_bad,
        "saturated_over_bare": round(sat_count / sat_s / max(1.0, bare_ok / bare_s), 3),
        "concurrency": args.concurrency,
    }


def report(header: str, row: str, result: dict[str, Any], json_path: Path | None) -> None:
    """Every benchmark's ending: its markdown row under the header, the
    result as one JSON line, and that line appended to `--json` if given."""
    print(header)
    print(row)
    print(json.dumps(result))
    if json_path is not None:
        with json_path.open("a") as out:
            out.write(json.dumps(result) + "\n")


def yardstick_ms() -> float:
    """The machine's speed for this kind of work: the best of three runs of a
    fixed pure-Python loop, in ms (lower is faster). Machines here differ by
    2–3× from session to session; compare runs with their yardsticks."""
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        total = 0
        for i in range(2_000_000):
            total += i
        best = min(best, time.perf_counter() - t)
    return round(best * 1000, 1)


def machine_ticks() -> list[int]:
    """The machine's CPU time by kind (/proc/stat's first line; empty if none)."""
    try:
        with open("/proc/stat") as f:
            return [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return []


def machine_share(before: list[int], after: list[int]) -> dict[str, float]:
    """Percent of the machine's CPU time that was busy, idle, or stolen by the
    hypervisor (a noisy neighbour: read the run's figures with it)."""
    if not before or len(before) < 8 or len(after) != len(before):
        return {}
    delta = [b - a for a, b in zip(before, after, strict=True)]
    total = sum(delta[:8]) or 1
    idle, steal = delta[3] + delta[4], delta[7]
    return {
        "busy_pct": round(100 * (total - idle - steal) / total, 1),
        "idle_pct": round(100 * idle / total, 1),
        "steal_pct": round(100 * steal / total, 1),
    }


def row(r: dict[str, Any]) -> str:
    a = r["action_ms"]
    board = f" (board {r['board_ms']['p99']})" if r.get("board_ms") else ""
    return (
        f"| {r['db']} | {r['workers']} | {r['tables']} | {r['streams']} | "
        f"{r['target_rate']:g} | {r['actions_per_s']} | {a['p50']} / {a['p95']} / {a['p99']} | "
        f"{r['delivery_ms']['p99']}{board} | {r['errors']} | {r['server_cpu_per_action_ms']} | "
        f"{r['saturated_actions_per_s']} | {r['bare_per_s']} | {r['saturated_over_bare']} | "
        f"{r['rss_mb_with_streams']} | {r.get('machine_during_paced', {}).get('steal_pct', '')} | "
        f"{r.get('yardstick_ms', '')} |"
    )


HEADER = (
    "| database | processes | tables | live streams | target actions/s | actions/s | "
    "action ms p50 / p95 / p99 | delivery ms p99 | errors | server CPU ms / action | "
    "saturated actions/s | bare req/s | saturated ÷ bare | server RSS MB | steal % | "
    "yardstick ms |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--streams", type=int, default=4, help="live streams per table")
    parser.add_argument("--rate", type=float, default=300.0, help="actions per second")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--burst", type=float, default=10.0, help="saturated and bare phases")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--pg-url", default=PG_DEFAULT, help="a database the bench may drop")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument(
        "--redis", action="store_true", help="rate limits and live updates through Redis"
    )
    parser.add_argument("--sqlite-synchronous", default="", help="FULL (default) or NORMAL")
    parser.add_argument(
        "--boards",
        action="store_true",
        help="each stream fetches its board on every update, as the page does",
    )
    parser.add_argument("--no-rate-limits", action="store_true")
    parser.add_argument(
        "--push",
        action="store_true",
        help="subscribe every seat to Web Push at a local push service (4 per table)",
    )
    parser.add_argument("--log-level", default="INFO")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="append the result here")
    args = parser.parse_args()
    yardstick = yardstick_ms()  # before the server starts: a quiet machine
    with tempfile.TemporaryDirectory(prefix="escoba-bench-") as tmp:
        url = prepare_database(args.db, args.pg_url, Path(tmp))
        result = asyncio.run(run(args, url, Path(tmp) / "server.log"))
    result["yardstick_ms"] = yardstick
    report(HEADER, row(result), result, args.json)


if __name__ == "__main__":
    main()
