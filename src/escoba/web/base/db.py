"""Connections and transactions. SQLite runs in WAL mode; a write transaction
begins IMMEDIATE, so two racing writers queue for the lock instead of failing
half-way with «database is locked». On PostgreSQL a command locks its table row
(SELECT … FOR UPDATE). Reads run each statement on its own (no transaction
round trips); the service makes them safe against a commit in between.
Migrations (Alembic) make the schema, in tests too."""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from functools import cached_property
from pathlib import Path
from typing import Any, cast

import orjson
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, Table, create_engine, event, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import DisconnectionError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from escoba.web.base import metrics
from escoba.web.base.models import SecretRow

log = logging.getLogger("escoba.db")

# the repository's migrations/ (the package is installed in editable mode)
MIGRATIONS = Path(__file__).resolve().parents[4] / "migrations"


def _json_dumps(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


# The JSON columns (a game's state is rewritten by every move) with orjson.
JSON_CODEC: dict[str, Any] = {"json_serializer": _json_dumps, "json_deserializer": orjson.loads}


#: PostgreSQL: a pooled connection idle this long is pinged before use.
IDLE_PING_SECONDS = 1.0
BACKSTOP_PAGES = 10_000
CHECKPOINT_SECONDS = 1.0


def _sqlite_engine(
    url: str, immediate: bool, synchronous: str = "FULL", busy_seconds: float = 30.0
) -> Engine:
    engine = create_engine(
        url,
        **JSON_CODEC,
        connect_args={"check_same_thread": False, "timeout": busy_seconds},
        pool_size=8,
        max_overflow=16,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        # Checkpoints run in the background (Database.start_checkpoints); a
        # writer does one itself only if the WAL grows past ~40 MB.
        cursor.execute(f"PRAGMA wal_autocheckpoint={BACKSTOP_PAGES}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
        cursor.close()

    if immediate:  # the writers' engine; readers run each statement on its own

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Any) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _count_error(context: Any) -> None:
    """Every error the database or its driver raised, in the metrics (by
    SQLAlchemy's class: OperationalError for a lost or busy database)."""
    error = context.sqlalchemy_exception or context.original_exception
    metrics.database_error(type(error).__name__)


class Database:
    """`write()`: a command's transaction on a plain connection; `snapshot()`:
    a connection for the hot reads; `read()`: an ORM session for the rare ones
    (on SQLite the read side never takes the write lock)."""

    def __init__(
        self, url: str, sqlite_synchronous: str = "FULL", sqlite_busy_seconds: float = 30.0
    ) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        #: PostgreSQL: when a statement last failed on the database (monotonic)
        self.trouble_at = 0.0
        if self.is_sqlite:
            if sqlite_synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
                raise ValueError("ESCOBA_SQLITE_SYNCHRONOUS is FULL, NORMAL or EXTRA")
            sync = sqlite_synchronous.upper()
            busy = sqlite_busy_seconds
            self.write_engine = _sqlite_engine(url, True, sync, busy)
            self.read_engine = _sqlite_engine(url, False, sync, busy)
        else:
            # No ping before each use of a busy connection (a round trip per
            # request): only one idle for a second, or used before a
            # statement failed on the database, is pinged when taken from
            # either pool (`_watch_for_trouble`), so none that died with the
            # old server fails a request when the database is back. A
            # command retries once on a connection that died before it
            # wrote anything (`command_path`).
            self.write_engine = create_engine(
                url, pool_size=5, max_overflow=10, pool_recycle=1800, **JSON_CODEC
            )
            # Reads run each statement on its own (no BEGIN/COMMIT round
            # trips): the service's reads are made safe against a commit in
            # between (TableStore.committed checks the version it read).
            self.read_engine = create_engine(
                url,
                pool_size=5,
                max_overflow=10,
                pool_recycle=1800,
                isolation_level="AUTOCOMMIT",
                **JSON_CODEC,
            )
            for engine in (self.write_engine, self.read_engine):
                self._watch_for_trouble(engine)
        self._write_lock = threading.Lock() if self.is_sqlite else None
        self._checkpoints: threading.Thread | None = None
        self._stop = threading.Event()
        self._read = sessionmaker(self.read_engine, expire_on_commit=False)
        for engine in (self.write_engine, self.read_engine):
            event.listen(engine, "handle_error", _count_error)

    def _watch_for_trouble(self, engine: Engine) -> None:
        """PostgreSQL: a pooled connection is pinged when taken from the
        pool if it lay idle for `IDLE_PING_SECONDS` (a quiet server: the
        database may have restarted meanwhile) or a statement failed on the
        database since its last use (the server down or restarted); one that
        died with the old server is renewed (the pool tries a fresh one)."""

        @event.listens_for(engine, "handle_error")
        def _on_error(context: ExceptionContext) -> None:
            if context.is_disconnect or isinstance(context.sqlalchemy_exception, OperationalError):
                self.trouble_at = time.monotonic()

        @event.listens_for(engine, "connect")
        @event.listens_for(engine, "checkin")
        def _on_use(_dbapi_connection: Any, record: Any) -> None:
            record.info["used_at"] = time.monotonic()

        @event.listens_for(engine, "checkout")
        def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
            used_at = record.info.get("used_at", 0.0)
            if used_at > self.trouble_at and time.monotonic() - used_at < IDLE_PING_SECONDS:
                return
            try:
                engine.dialect.do_ping(dbapi_connection)
            except Exception as err:
                log.info("a pooled connection died with the database: renewed")
                raise DisconnectionError("the connection died with the database") from err

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction on a plain connection (commands write with
        Core statements). On SQLite the writers of this process queue on a
        lock, and the next one starts the moment it is free; left to SQLite's
        busy handler they would sleep in steps of up to 100 ms (the long tail
        of the latency). Writers of other processes still wait in the busy
        handler."""
        with self._write_lock or nullcontext(), self.write_engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self._read() as session, session.begin():
            yield session

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A plain connection for the hot reads, which build no mapped
        objects; each statement sees the newest committed data."""
        with self.read_engine.connect() as conn:
            yield conn

    def migrate(self) -> None:
        migrate(self.url)

    def upsert(self, table: Table) -> Any:
        """This database's INSERT for `table`, which takes `on_conflict_do_…`
        (SQLite and PostgreSQL spell it alike)."""
        if self.is_sqlite:
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            return sqlite_insert(table)
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table)

    @property
    def engine_name(self) -> str:
        return self.write_engine.dialect.name

    @cached_property
    def head_revision(self) -> str | None:
        """The newest migration in migrations/."""
        return ScriptDirectory.from_config(alembic_config(self.url)).get_current_head()

    def schema_revision(self) -> str | None:
        """The migration the database is at (raises if it cannot be reached)."""
        with self.read() as session:
            value = session.execute(text("SELECT version_num FROM alembic_version")).scalar()
            return None if value is None else str(value)

    def secret(self, name: str = "cookie", make: Callable[[], str] | None = None) -> str:
        """A site secret kept in the database, made on first use (`make`, by
        default 32 random bytes in hex), so every process on the same
        database signs alike. Race-safe: when two processes make one at
        once, the first insert wins and both return its value."""
        secrets_table = cast(Table, SecretRow.__table__)
        with self.read() as session:
            row = session.get(SecretRow, name)
            if row is not None:
                return row.value
        candidate = (make or (lambda: secrets.token_hex(32)))()
        upsert = sqlite_insert if self.is_sqlite else pg_insert
        with self.write() as conn:
            conn.execute(
                upsert(secrets_table)
                .values(name=name, value=candidate)
                .on_conflict_do_nothing(index_elements=["name"])
            )
            value = conn.scalar(select(secrets_table.c.value).where(secrets_table.c.name == name))
            return str(value)

    def start_checkpoints(self, every: float = CHECKPOINT_SECONDS) -> None:
        """SQLite: copy the WAL into the database from a background thread
        (PASSIVE: it never waits for or blocks a reader or a writer), so no
        request pays for a checkpoint's writes and syncs."""
        if not self.is_sqlite or self._checkpoints is not None:
            return

        def run() -> None:
            while not self._stop.wait(every):
                try:
                    self.checkpoint()
                except Exception:
                    log.warning("WAL checkpoint failed", exc_info=True)

        self._checkpoints = threading.Thread(target=run, name="escoba-checkpoints", daemon=True)
        self._checkpoints.start()

    def checkpoint(self) -> tuple[int, int, int]:
        """One PASSIVE checkpoint: (busy, WAL frames, frames copied)."""
        with self.read_engine.connect() as conn:
            row = conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
            return int(row[0]), int(row[1]), int(row[2])

    def dispose(self) -> None:
        self._stop.set()
        if self._checkpoints is not None:
            self._checkpoints.join(timeout=5)
        self.write_engine.dispose()
        if self.read_engine is not self.write_engine:
            self.read_engine.dispose()


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def migrate(url: str) -> None:
    """Bring the schema to the newest migration (idempotent)."""
    command.upgrade(alembic_config(url), "head")
