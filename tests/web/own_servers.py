"""Servers a test starts, stops and restarts itself (the fault tests and
the benches), never the machine's PostgreSQL or Redis, which other tests
share: a PostgreSQL made with initdb in a temporary folder, and a
redis-server (nothing saved), each on a free port. Tests run as root in CI
and PostgreSQL refuses to run as root: it runs as the `postgres` user then
(`runuser`). Where a server cannot be had, `OwnPostgres()`, `OwnRedis()` or
`start` raise `Unavailable`, and `own_postgres` / `own_redis` skip the test
with that reason.

    with own_postgres() as pg:                  # started
        url = pg.create_database("escoba")      # migrated: its URL
        ...; pg.stop(); ...; pg.start()         # or pg.restart()
        pg.sql("SELECT ...")                    # as the superuser
    with own_redis() as redis:                  # started; redis.url
        ...; redis.stop(); ...; redis.start()   # a crash, then the same port
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest


class Unavailable(RuntimeError):
    """This machine cannot run such a server here (the reason)."""


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


def _wait(predicate: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(predicate) and predicate():
            return True
        time.sleep(0.05)
    return False


class OwnPostgres:
    """A PostgreSQL cluster of the test's own: `start`, `stop` (a fast
    shutdown: every connection cut, as when the server restarts or fails
    over), `restart`, `sql` (as the superuser), `create_database` (migrated)
    and `url` of a database. The same port and data each time it starts."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise Unavailable("no PostgreSQL binaries in /usr/lib/postgresql/*/bin")
        self.bin = Path(found[-1]).parent
        self._as: list[str] = []
        owner = None
        if os.geteuid() == 0:
            if shutil.which("runuser") is None:
                raise Unavailable("running as root without runuser to run PostgreSQL")
            try:
                import pwd

                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable("running as root and no postgres user") from None
            self._as = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="escoba-pg-"))
        if owner is not None:
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
        self.data = self.root / "data"
        self.log = self.root / "log"
        try:
            self._run(
                [
                    str(self.bin / "initdb"),
                    *("-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "-N"),
                ],
                "initdb",
            )
        except Unavailable:
            shutil.rmtree(self.root, ignore_errors=True)
            raise

    def _run(self, command: list[str], what: str) -> None:
        try:
            done = subprocess.run(
                [*self._as, *command], capture_output=True, text=True, timeout=120, check=False
            )
        except OSError as err:
            raise Unavailable(f"{what} failed: {err}") from None
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-1500:] if self.log.exists() else ""
            output = done.stderr[-1500:] or done.stdout[-1500:]
            raise Unavailable(f"{what} failed: {output}{log}")

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            [
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.log),
                "-o",
                options,
                "-w",
                "start",
            ],
            "pg_ctl start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run(
            [str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"],
            "pg_ctl stop",
        )

    def running(self) -> bool:
        return _answers(self.port)

    def restart(self) -> None:
        self.stop()
        self.start()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str, database: str = "postgres") -> list[tuple[object, ...]]:
        """One statement, autocommitted, as the superuser: its rows."""
        import psycopg

        dsn = f"host=127.0.0.1 port={self.port} user=postgres dbname={database}"
        with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as conn:
            cur = conn.execute(statement.encode())
            return list(cur.fetchall()) if cur.description else []

    def create_database(self, name: str) -> str:
        """A new database, migrated: its URL."""
        from escoba.web.base.db import migrate

        self.sql(f'CREATE DATABASE "{name}"')
        url = self.url(name)
        migrate(url)
        return url

    def destroy(self) -> None:
        if self.running():
            with suppress(Unavailable, subprocess.TimeoutExpired):
                self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


class OwnRedis:
    """A redis-server of the test's own (nothing saved): `start`, `stop`
    (SIGKILL, as a crash) and `start` again on the same port."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not os.path.exists(binary):
            raise Unavailable("no redis-server")
        self.binary = binary
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        try:
            self.proc = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        except OSError as err:
            raise Unavailable(f"redis-server did not start: {err}") from None
        if not _wait(lambda: _answers(self.port), 15):
            self.stop()
            raise Unavailable("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None


@contextmanager
def own_postgres() -> Iterator[OwnPostgres]:
    """A started PostgreSQL of the test's own, destroyed after; skips the
    test (with the reason) where none can be had."""
    try:
        server = OwnPostgres()
    except Unavailable as why:
        pytest.skip(str(why))
    try:
        try:
            server.start()
        except Unavailable as why:
            pytest.skip(str(why))
        yield server
    finally:
        server.destroy()


@contextmanager
def own_redis() -> Iterator[OwnRedis]:
    """A started redis-server of the test's own, stopped after; skips the
    test where none can be had."""
    try:
        server = OwnRedis()
        server.start()
    except Unavailable as why:
        pytest.skip(str(why))
    try:
        yield server
    finally:
        server.stop()
