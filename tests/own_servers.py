"""Servers a test owns, to stop and start as it likes: a PostgreSQL cluster
of its own (initdb + pg_ctl, in a temporary directory, on a free port) and a
Redis server (on a free port, nothing saved). Never the machine's own
PostgreSQL or Redis, which other tests share.

PostgreSQL refuses to run as root: as root (CI), the cluster runs as the
`postgres` user (`runuser`). Where a server cannot be started the test is
skipped with the reason.

    with own_postgres() as pg:          # pg.url: a migrated, empty database
        ...; pg.stop(); ...; pg.start()
    with own_redis() as redis:          # redis.url
        ...; redis.stop(); ...; redis.start()
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

PG_BINS = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
NO_DISK = ("--save", "", "--appendonly", "no")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class OwnPostgres:
    """A PostgreSQL cluster of the test's own, stopped and started at will
    (the same port and data each time: a restart, as an operator's)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.data = root / "data"
        self.log = root / "server.log"
        self.port = free_port()
        self.bin = Path(PG_BINS[-1])
        self.as_postgres = os.geteuid() == 0

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/escoba"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        if done.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{args[0]} failed: {done.stderr}{done.stdout}{log[-2000:]}")

    def init(self) -> None:
        if self.as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "-N"
        )
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "escoba")

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        """A fast shutdown: every connection is cut, as when the server
        restarts or fails over."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def running(self) -> bool:
        return _answers(self.port)


@contextmanager
def own_postgres(migrated: bool = True) -> Iterator[OwnPostgres]:
    """A PostgreSQL of the test's own, running, its database `escoba`
    migrated; stopped and removed afterwards."""
    if not PG_BINS:
        pytest.skip("no PostgreSQL server binaries (/usr/lib/postgresql/*/bin)")
    if os.geteuid() == 0 and not shutil.which("runuser"):
        pytest.skip("as root, PostgreSQL needs runuser to run as postgres")
    root = Path(tempfile.mkdtemp(prefix="escoba-pg-"))
    server = OwnPostgres(root)
    try:
        try:
            server.init()
        except (RuntimeError, OSError, KeyError) as err:
            pytest.skip(f"cannot start a PostgreSQL of our own: {err}")
        if migrated:
            from escoba.web.base.db import migrate
            from escoba.web.base.settings import Settings

            migrate(Settings(database_url=server.url).sqlalchemy_url)
        yield server
    finally:
        if server.running():
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                server._run("pg_ctl", "-D", str(server.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(root, ignore_errors=True)


class OwnRedis:
    """A Redis server of the test's own, stopped and started at will."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, wait: float = 10.0) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", *NO_DISK],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + wait
        while not _answers(self.port):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


@contextmanager
def own_redis() -> Iterator[OwnRedis]:
    """A Redis server of the test's own, running; stopped afterwards."""
    if not os.path.exists(REDIS_SERVER):
        pytest.skip("no redis-server")
    server = OwnRedis()
    try:
        server.start()
    except (RuntimeError, OSError) as err:
        pytest.skip(f"cannot start a Redis of our own: {err}")
    try:
        yield server
    finally:
        server.stop()
