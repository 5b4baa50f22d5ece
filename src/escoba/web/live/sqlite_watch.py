"""Live news of changes made by another process on SQLite.

On SQLite one app process serves the pages, but other processes may write to
the same file: `escoba expire` from cron, a second app process, a script. They
have no channel to the serving process (no NOTIFY, maybe no Redis), so its
open pages would never hear of an expiry until their next action. SQLite
itself says when that happens: `PRAGMA data_version` changes, for one
connection, whenever any other connection has committed.

The watcher is a bridge like PostgreSQL's and Redis's (escoba.web.live.bridges, on
escoba.web.live.listening's thread): a
thread with its own read-only connection asks `data_version` every
`POLL_SECONDS`; when it moved, it reads what was appended since it last
looked (every command that changes a table appends to `action_log` the
version it made; chat lines are rows of `chat`) and tells the local streams.
The process's own commands also move `data_version` (its pool's connections
are other connections): they were delivered at their commit, so a version
this process has already published is not sent again; a chat line from this
process can reach the pages twice, which costs one board fetch."""

from __future__ import annotations

import logging
import sqlite3
import threading

from sqlalchemy import Connection
from sqlalchemy.engine import make_url

from escoba.web.live.listening import ListenerThread

log = logging.getLogger("escoba.live")

POLL_SECONDS = 0.5
KNOWN_TABLES = 100_000  # versions remembered (a few MB); past that, forgotten at once


class SqliteWatch(ListenerThread):
    name = "sqlite"

    def __init__(self, url: str, poll_seconds: float = POLL_SECONDS) -> None:
        super().__init__("escoba-live-sqlite")
        database = sqlite_file(url)
        if database is None:
            raise ValueError("the SQLite watcher needs a database file")
        self._path = database
        self._poll = poll_seconds
        self._lock = threading.Lock()
        self._known: dict[int, int] = {}  # table → newest version delivered here

    def _listen(self) -> None:
        conn = sqlite3.connect(f"file:{self._path}?mode=ro", uri=True, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 1000")
            seen = _data_version(conn)
            last_log = _scalar(conn, "SELECT COALESCE(MAX(id), 0) FROM action_log")
            last_chat = _scalar(conn, "SELECT COALESCE(MAX(id), 0) FROM chat")
            self._listening()
            while not self._stop.wait(self._poll):
                version = _data_version(conn)
                if version == seen:
                    continue
                seen = version
                last_log, last_chat = self._news(conn, last_log, last_chat)
        finally:
            conn.close()

    def _news(self, conn: sqlite3.Connection, last_log: int, last_chat: int) -> tuple[int, int]:
        """Tell the streams of the tables changed since the ids last seen."""
        with conn:  # one read transaction: the two queries see one moment
            changed = conn.execute(
                "SELECT table_id, MAX(version), MAX(id) FROM action_log WHERE id > ? "
                "GROUP BY table_id",
                (last_log,),
            ).fetchall()
            chatted = conn.execute(
                "SELECT c.table_id, t.version, MAX(c.id) FROM chat c "
                "JOIN tables t ON t.id = c.table_id WHERE c.id > ? GROUP BY c.table_id",
                (last_chat,),
            ).fetchall()
        for table_id, version, newest in changed:
            last_log = max(last_log, newest)
            if self._newer(table_id, version):
                self._receive(table_id, version)
        for table_id, version, newest in chatted:
            last_chat = max(last_chat, newest)
            self._receive(table_id, version)
        return last_log, last_chat

    def _newer(self, table_id: int, version: int) -> bool:
        with self._lock:
            if version <= self._known.get(table_id, 0):
                return False
            self._remember(table_id, version)
            return True

    def _remember(self, table_id: int, version: int) -> None:
        if len(self._known) >= KNOWN_TABLES:
            self._known.clear()
        self._known[table_id] = max(version, self._known.get(table_id, 0))

    @property
    def healthy(self) -> bool:
        """The watcher only brings other processes' news sooner; the database's
        own health is checked apart, so a watcher between two tries is no
        reason to take the process out of service."""
        return True

    def announce(self, conn: Connection, table_id: int, version: int) -> None:
        return None

    def publish(self, table_id: int, version: int) -> None:
        """A commit of this process, delivered already: not to be sent again."""
        with self._lock:
            self._remember(table_id, version)


def sqlite_file(url: str) -> str | None:
    """The database file of an SQLite URL (None for an in-memory database)."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file::memory:"):
        return None
    return database


def _data_version(conn: sqlite3.Connection) -> int:
    return _scalar(conn, "PRAGMA data_version")


def _scalar(conn: sqlite3.Connection, sql: str) -> int:
    row = conn.execute(sql).fetchone()
    return int(row[0]) if row and row[0] is not None else 0
