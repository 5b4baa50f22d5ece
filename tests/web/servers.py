"""Real app processes for the multi-process and crash tests: `uvicorn
escoba.web.asgi:app` in a subprocess, configured through the environment
only, as in production."""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url

from escoba.web.base.db import migrate
from escoba.web.base.settings import Settings

PG_URL = os.environ.get("ESCOBA_TEST_DATABASE_URL")
#: Under pytest-xdist, this process's worker ("gw0", "gw1", …): each worker
#: has PostgreSQL databases of its own, beside the configured one.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
#: Seconds a server has to answer /health. Two workers with their robots'
#: and analyses' pools start in about 3 s, up to 11 s beside the tests and
#: a robot benchmark; on a CI machine twice as slow, with the other half of
#: the suite beside it, one once did not answer within 30 (slow or stuck:
#: `start` now reports which). Only a server that never starts waits this long.
START_WAIT = 90.0


@contextmanager
def in_thread(app: Any) -> Iterator[str]:
    """`app` served by a real uvicorn in a thread of this process, on a free
    local port, with its lifespan (robots, dispatcher): its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=1,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    if not wait_until(lambda: server.started or not thread.is_alive(), 20) or not server.started:
        raise RuntimeError("the test server did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _pg_base() -> URL:
    """The configured test database's URL (ESCOBA_TEST_DATABASE_URL)."""
    assert PG_URL is not None
    return make_url(Settings(database_url=PG_URL).sqlalchemy_url)


def worker_pg_url() -> str | None:
    """The PostgreSQL database of this test process, migrated: the
    configured one, or under pytest-xdist one of the worker's own beside it
    (`test_gw0` for `test`), made when missing. Each worker truncates only
    its own between tests (conftest's `db_url`)."""
    if PG_URL is None:
        return None
    base = _pg_base()
    if WORKER:
        name = f"{base.database}_{WORKER}"
        admin = create_engine(base, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                found = conn.execute(
                    text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}
                ).first()
                if found is None:
                    conn.execute(text(f'CREATE DATABASE "{name}"'))
        finally:
            admin.dispose()
        base = base.set(database=name)
    url = base.render_as_string(hide_password=False)
    migrate(url)
    return url


def fresh_pg_database(name: str) -> str | None:
    """A database of its own on the test server (dropped and made anew), so
    that these tests never race the per-test truncation of the shared one.
    Its name starts with the configured database's and, under pytest-xdist,
    ends with the worker's (`test_escoba_test_crash_gw1`): no two test runs
    on one server, nor two workers of one run, share it."""
    if PG_URL is None:
        return None
    base = _pg_base()
    name = f"{base.database}_{name}" + (f"_{WORKER}" if WORKER else "")
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    url = base.set(database=name).render_as_string(hide_password=False)
    migrate(url)
    return url


def redis_url() -> str | None:
    """This machine's Redis, if it answers: database 15, or the one of
    `ESCOBA_TEST_REDIS_URL` (two checkouts testing at once each its own)."""
    url = os.environ.get("ESCOBA_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    try:
        import redis

        client = redis.Redis.from_url(url, socket_timeout=1)
        client.ping()
        client.close()
    except Exception:
        return None
    return url


@dataclass
class Server:
    """`uvicorn escoba.web.asgi:app`, or with `serve` set, `escoba serve`
    (its own protocol and shutdown bound; `workers` processes)."""

    database_url: str
    env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None
    serve: bool = False
    workers: int = 1
    #: every start's process group (start_new_session): what `stop` clears
    groups: list[int] = field(default_factory=list)

    def command(self) -> list[str]:
        if self.serve:
            escoba = str(Path(sys.executable).with_name("escoba"))
            port = ["--host", "127.0.0.1", "--port", str(self.port)]
            return [escoba, "serve", *port, "--workers", str(self.workers)]
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "escoba.web.asgi:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--no-access-log",
            *(["--workers", str(self.workers)] if self.workers > 1 else []),
        ]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, log_dir: Path, wait: float = START_WAIT) -> Server:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "ESCOBA_SECRET_KEY": "test-secret",
            "ESCOBA_LOG_LEVEL": "WARNING",
            "ESCOBA_RATE_LIMITS": "false",
            **self.env,
        }
        self.log_path = log_dir / f"server-{self.port}-{time.monotonic_ns()}.log"
        with self.log_path.open("wb") as out:
            self.proc = subprocess.Popen(
                self.command(),
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.groups.append(self.proc.pid)
        deadline = time.monotonic() + wait
        answer = "nothing"  # the last /health answer: a 503's body says what is missing
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                health = httpx.get(self.base + "/health", timeout=1)
                if health.status_code == 200:
                    return self
                answer = f"{health.status_code} {health.text[:500]}"
            except httpx.HTTPError as exc:
                answer = repr(exc)
            time.sleep(0.05)
        raise RuntimeError(
            f"server did not start in {wait} s: {self.log_path.read_text()[-3000:]}\n"
            f"/health's last answer: {answer}\nits processes:\n{self.processes()}"
        )

    def processes(self) -> str:
        """What `ps` says of every process this server started (its session):
        which one is stuck, and whether it is running or waiting."""
        if self.proc is None:
            return ""
        listed = subprocess.run(
            ["ps", "-o", "pid,ppid,stat,etime,time,wchan:20,args", "-s", str(self.proc.pid)],
            capture_output=True,
            text=True,
            check=False,
        )
        return listed.stdout or listed.stderr

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, as a crash."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        # What a killed server had started (its robots' pool) outlives it,
        # holding database connections: ended with the test, not left behind
        for group in self.groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
        self.groups.clear()

    def live_connections(self) -> int:
        count: int = httpx.get(self.base + "/health", timeout=5).json()["live_connections"]
        return count


@contextmanager
def servers(*items: Server, log_dir: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    try:
        for s in items:
            started.append(s.start(log_dir))
        yield started
    finally:
        for s in started:
            s.stop()


class Listener:
    """An SSE client in a thread: every `update` it hears, with the time."""

    def __init__(self, base: str, invite: str) -> None:
        self.events: queue.Queue[tuple[float, str]] = queue.Queue()
        self.newest: tuple[float, int] = (0.0, 0)  # (when, version) of the newest heard
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(base, invite), daemon=True)
        self._thread.start()

    def _run(self, base: str, invite: str) -> None:
        try:
            with (
                httpx.Client(base_url=base, timeout=httpx.Timeout(10, read=None)) as client,
                client.stream("GET", f"/t/{invite}/events") as stream,
            ):
                for line in stream.iter_lines():
                    if self._stop.is_set():
                        return
                    if line.startswith("data:"):
                        self.events.put((time.monotonic(), line[5:].strip()))
        except httpx.HTTPError:
            return

    def wait_for(self, version: int, deadline: float) -> float | None:
        """The time `version` (or a later one) arrived, or None past the deadline."""
        if self.newest[1] >= version:
            return self.newest[0]
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                at, data = self.events.get(timeout=left)
            except queue.Empty:
                return None
            if data.isdigit():
                self.newest = max(self.newest, (at, int(data)), key=lambda e: e[1])
                if int(data) >= version:
                    return at

    def close(self) -> None:
        self._stop.set()


def open_stream(port: int, invite: str, headers: str = "") -> socket.socket:
    """A raw live stream, read up to its first chunk (`retry:`)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET /t/{invite}/events HTTP/1.1\r\nHost: t\r\n{headers}\r\n".encode())
    seen = b""
    while b"retry: 2000" not in seen:
        chunk = sock.recv(4096)
        assert chunk, seen
        seen += chunk
    assert seen.startswith(b"HTTP/1.1 200"), seen[:200]
    return sock


def first_event(base: str, path: str, headers: dict[str, str]) -> list[str]:
    """The `id:` and `data:` lines of the first event of the stream at `path`
    (or none within a second and a half)."""
    lines: list[str] = []
    with httpx.Client(base_url=base, timeout=httpx.Timeout(10, read=1.5)) as c:
        try:
            with c.stream("GET", path, headers=headers) as stream:
                for line in stream.iter_lines():
                    if line.startswith(("id:", "data:")):
                        lines.append(line)
                    if line.startswith("data:"):
                        return lines
        except httpx.ReadTimeout:
            pass
    return lines


def wait_until(predicate: object, seconds: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(predicate) and predicate():
            return True
        time.sleep(step)
    return False
