"""The table service: the one path every command takes, whoever sends it (a
person's browser, the JSON API, a robot, the absence button or the expiry job).

A command runs in one write transaction: load the table (locked), check who is
acting and the version the command was made on, apply it through the engine,
append it to the action log, bump the version, commit — and only after the
commit tell the watchers. A repeated or stale command changes nothing and gets
a clear message.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import random
import re
import secrets
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, Protocol, TypeVar, cast

from sqlalchemy import Connection, Table, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import OperationalError

from escoba import engine as eng
from escoba.engine.serialize import (
    live_state_to_dict,
    rounds_from_list,
    rounds_to_list,
    state_from_dict,
    state_from_parts,
    stored_rounds_count,
)
from escoba.web.clock import Clock
from escoba.web.db import Database
from escoba.web.models import ActionLogRow, ChatRow, SeatRow, TableRow
from escoba.web.pages import ChatLine, TablePage, TableStatus
from escoba.web.pages import SeatRow as SeatInfo
from escoba.web.settings import Settings
from escoba.web.spoofing import (
    has_visible_letter_or_digit,
    look_alike,
    looks_like_a_robot,
    strip_bidi_controls,
)

log = logging.getLogger("escoba.service")

ROBOT_NAMES: dict[str, str] = {"carmen": "Carmen", "tito": "Tito", "luna": "Luna"}
MAX_SEATS = 4
CHAT_SHOWN = 50
STALE = "La mesa cambió desde que la viste: mira cómo quedó y vuelve a jugar."
NAME_TAKEN = "Ya hay alguien en la mesa con ese nombre o uno que se le parece: elige otro."
STATE_CACHE = 4096  # parsed states kept per process (a few MB)
ROUNDS_CACHE = 1024  # parsed finished rounds of games, the same way
READ_TRIES = 5  # a read that raced a commit (PostgreSQL) loads the table again


class ServiceError(Exception):
    """A refused command: `message` is for people, `code` for programs and
    `status` is the HTTP status the API answers with."""

    status = 400

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    """The table moved on: a stale or repeated command."""

    status = 409


class Invalid(ServiceError):
    status = 422


class RateLimited(ServiceError):
    status = 429


class Busy(ServiceError):
    status = 503


# The hot statements, made once: a prepared statement skips building the
# query and its cache key on every request.
_TABLE_FIELDS = (
    "status",
    "target",
    "version",
    "game_number",
    "partner_position",
    "turn_since",
    "last_action_at",
    "robot_due",
)
_SEAT_FIELDS = ("name", "robot", "token_hash", "game_seat", "rematch")
_UNSET: Any = object()


_T = cast(Table, TableRow.__table__)
_S = cast(Table, SeatRow.__table__)
_AT_VERSION = (_T.c.id == bindparam("id"), _T.c.version == bindparam("version"))
_STATE_AT = select(_T.c.state).where(*_AT_VERSION)
_ROUNDS_AT = select(_T.c.rounds).where(*_AT_VERSION)
_ROW_AT = select(_T.c.id).where(*_AT_VERSION)
_TABLE_COLUMNS = tuple(c for c in _T.c if c.name not in ("state", "rounds", "created_at"))
_SEAT_COLUMNS = ("id", "position", *_SEAT_FIELDS)
_SNAP_BY_ID = (
    select(*_TABLE_COLUMNS, *(_S.c[c].label(f"seat_{c}") for c in _SEAT_COLUMNS))
    .select_from(_T.outerjoin(_S, _S.c.table_id == _T.c.id))
    .where(_T.c.id == bindparam("key"))
    .order_by(_S.c.position)
)
# A table's id and version, by "invite" or "id": all a read needs when the
# table at that version is in the cache. A command's load locks the row on
# PostgreSQL (SQLite's writers queue for its write lock; it has no FOR UPDATE).
_VERSION_BY = {
    column: select(_T.c.id, _T.c.version).where(_T.c[column] == bindparam("key"))
    for column in ("invite", "id")
}
_LOCK_BY = {column: query.with_for_update() for column, query in _VERSION_BY.items()}
# The writes of a command (TableTx.write): the SET clause is the keys given.
_UPDATE_TABLE = update(_T).where(
    _T.c.id == bindparam("key_id"), _T.c.version == bindparam("key_version")
)
_UPDATE_SEAT = update(_S).where(_S.c.id == bindparam("key_id"))
_DELETE_SEAT = delete(_S).where(_S.c.id == bindparam("key_id"))
# inline(): the new rows' ids are not needed (no RETURNING round trip)
_INSERT_SEAT = insert(_S).inline()
_INSERT_LOG = insert(cast(Table, ActionLogRow.__table__)).inline()
_INSERT_CHAT = insert(cast(Table, ChatRow.__table__)).inline()
_INSERT_TABLE = insert(_T)
_CHAT_RECENT = select(func.count(ChatRow.id)).where(
    ChatRow.table_id == bindparam("table_id"),
    ChatRow.position == bindparam("position"),
    ChatRow.created_at > bindparam("since"),
)
_PLAYING_IDS = select(_T.c.id).where(_T.c.status == TableStatus.PLAYING.value)
_CHAT_AFTER = (
    select(*(ChatRow.__table__.c[c] for c in ("id", "position", "name", "text", "created_at")))
    .where(ChatRow.table_id == bindparam("table_id"), ChatRow.id > bindparam("after"))
    .order_by(ChatRow.id.desc())
    .limit(CHAT_SHOWN)
)


@dataclass(slots=True, eq=False)
class SeatRecord:
    """A seat as read from its row (`id` is None until a command inserts it)."""

    id: int | None
    position: int
    name: str
    robot: str | None
    token_hash: str | None
    game_seat: int | None
    rematch: bool


@dataclass(slots=True, eq=False)
class TableRecord:
    """A table and its seats. For reads, a committed snapshot, shared through
    the cache and never changed; for a command, its own working copy, which
    `TableTx` writes back."""

    id: int
    invite: str
    status: str
    target: int
    version: int
    game_number: int
    partner_position: int | None
    turn_since: datetime
    last_action_at: datetime
    robot_due: bool
    seats: list[SeatRecord]


class TableTx:
    """One command's unit of work on one locked table: the command changes
    `table` (and its seats) and adds log entries, seats and chat lines here;
    `TableService._command` then writes back only what changed, with Core
    statements made once (no ORM identity map or flush on the hot path)."""

    def __init__(self, conn: Connection, table: TableRecord) -> None:
        self.conn = conn
        self.table = table
        self.state: Any = _UNSET  # the game as the command has left it so far
        self.state_json: Any = _UNSET  # to write to tables.state
        self.rounds_json: Any = _UNSET  # to write to tables.rounds
        self.new_seats: list[dict[str, Any]] = []
        self.removed_seats: list[int] = []
        self.log_rows: list[dict[str, Any]] = []
        self.chat_rows: list[dict[str, Any]] = []
        self._table_before = tuple(getattr(table, f) for f in _TABLE_FIELDS)
        self._seats_before = {s.id: tuple(getattr(s, f) for f in _SEAT_FIELDS) for s in table.seats}

    def add_seat(self, seat: SeatRecord, joined_at: datetime) -> None:
        self.table.seats.append(seat)
        self.table.seats.sort(key=lambda s: s.position)
        self.new_seats.append(
            {"table_id": self.table.id, "joined_at": joined_at, "position": seat.position}
            | {f: getattr(seat, f) for f in _SEAT_FIELDS}
        )

    def remove_seat(self, seat: SeatRecord) -> None:
        self.table.seats.remove(seat)
        if seat.id is not None:
            self.removed_seats.append(seat.id)

    def write(self) -> None:
        """Write back what the command changed, in this transaction. The
        table's UPDATE also checks the version it was loaded at."""
        table, conn = self.table, self.conn
        changes: dict[str, Any] = {
            f: getattr(table, f)
            for f, before in zip(_TABLE_FIELDS, self._table_before, strict=True)
            if getattr(table, f) != before
        }
        if self.state_json is not _UNSET:
            changes["state"] = self.state_json
        if self.rounds_json is not _UNSET:
            changes["rounds"] = self.rounds_json
        if changes:
            if table.version == self._table_before[2]:
                raise RuntimeError("a table changed without a new version")  # see _Lru use
            done = conn.execute(
                _UPDATE_TABLE, {"key_id": table.id, "key_version": self._table_before[2], **changes}
            )
            if done.rowcount != 1:
                raise Conflict(STALE, "stale")
        if self.removed_seats:
            conn.execute(_DELETE_SEAT, [{"key_id": i} for i in self.removed_seats])
        if self.new_seats:
            conn.execute(_INSERT_SEAT, self.new_seats)
        for seat in table.seats:
            before = self._seats_before.get(seat.id)
            if before is None:
                continue
            now = tuple(getattr(seat, f) for f in _SEAT_FIELDS)
            if now != before:
                seat_changes = {
                    f: v for f, v, b in zip(_SEAT_FIELDS, now, before, strict=True) if v != b
                }
                conn.execute(_UPDATE_SEAT, {"key_id": seat.id, **seat_changes})
        if self.log_rows:
            conn.execute(_INSERT_LOG, self.log_rows)
        if self.chat_rows:
            conn.execute(_INSERT_CHAT, self.chat_rows)


_K = TypeVar("_K")
_V = TypeVar("_V")


class _Moved(Exception):
    """The table's row moved on to another version between two statements of
    a read (PostgreSQL's READ COMMITTED): load it again."""


class Notifier(Protocol):
    def announce(self, conn: Connection, table_id: int, version: int) -> None:
        """Inside the command's transaction, before it commits (PostgreSQL's
        NOTIFY rides it: sent only if it commits, on no connection of its own)."""

    def publish(self, table_id: int, version: int) -> None:
        """Once the command has committed."""


@dataclass(frozen=True)
class RobotTurn:
    """A robot on turn, as its seat sees the table at `version`."""

    table_id: int
    invite: str
    version: int
    position: int
    robot: str
    view: eng.View


class RobotBrain(Protocol):
    def __call__(self, robot: str, view: eng.View, rng: random.Random) -> eng.Action: ...


def robot_brain(robot: str, view: eng.View, rng: random.Random) -> eng.Action:
    """The robots of escoba.bots, each seeing only its seat's view."""
    from escoba.bots import get_robot

    return get_robot(robot).choose(view, rng)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A seat or invite secret: 192 bits from the OS's CSPRNG."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True, slots=True)
class Joined:
    invite: str
    token: str
    position: int


@dataclass(frozen=True, slots=True)
class Outcome:
    table_id: int
    version: int


class _Lru(Generic[_K, _V]):
    """A small thread-safe LRU map (the service's caches of committed data)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[_K, _V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: _K) -> _V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: _K, value: _V) -> None:
        with self._lock:
            self._put(key, value)

    def raise_to(self, key: _K, value: _V) -> None:
        """Keep `value` unless a greater one is kept (one step, under the lock)."""
        with self._lock:
            kept = self._items.get(key)
            if kept is None or kept < value:  # type: ignore[operator]
                self._put(key, value)

    def _put(self, key: _K, value: _V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        if len(self._items) > self._size:
            self._items.popitem(last=False)


class TableService:
    def __init__(
        self,
        db: Database,
        settings: Settings,
        clock: Clock,
        notifier: Notifier,
        brain: RobotBrain | None = None,
        rng: random.Random | None = None,
        on_robot_turn: Callable[[int], None] | None = None,
    ) -> None:
        self.db = db
        self.settings = settings
        self.clock = clock
        self.notifier = notifier
        self.brain: RobotBrain = brain or robot_brain
        # Shuffles come from the OS's CSPRNG unless a test injects a seed.
        self.rng = rng or random.SystemRandom()
        self.on_robot_turn = on_robot_turn
        # Committed tables (with their seats) and states by (table id,
        # version), for reads and commands alike: every change to a table's
        # row or seats bumps its version, so a version names exactly one
        # committed row and state and an entry never goes stale (a command
        # reads the row's version under the lock before it uses one, and only
        # committed data is ever put here). The finished rounds of a game by
        # (table id, game number, count): within a game they only grow.
        self._tables: _Lru[tuple[int, int], TableRecord] = _Lru(STATE_CACHE)
        self._states: _Lru[tuple[int, int], eng.GameState] = _Lru(STATE_CACHE)
        self._rounds: _Lru[tuple[int, int, int], tuple[eng.RoundSummary, ...]] = _Lru(ROUNDS_CACHE)
        # The newest committed version this process has seen of a table, by
        # invite. Versions only grow, so a command made on an older one is
        # stale for sure: it is refused from here, without the write lock (a
        # double tap or a replayed request never queues behind the writers).
        self._newest: _Lru[str, int] = _Lru(STATE_CACHE)

    # ------------------------------------------------------------------
    # Creating and joining

    def create_table(self, name: str, target: int) -> Joined:
        name = self._clean_name(name)
        if target not in eng.rules.SITE_TARGETS:
            raise Invalid("La partida se juega a 21 o a 31 puntos.", "bad_target")
        now = self.clock.now()
        token = new_token()
        invite = secrets.token_urlsafe(16)  # 128 bits: the link is the key
        with self.db.write() as conn:
            key = conn.execute(
                _INSERT_TABLE,
                {
                    "invite": invite,
                    "status": TableStatus.LOBBY.value,
                    "target": target,
                    "version": 1,
                    "game_number": 0,
                    "partner_position": None,
                    "state": None,
                    "rounds": None,
                    "created_at": now,
                    "last_action_at": now,
                    "turn_since": now,
                    "robot_due": False,
                },
            ).inserted_primary_key
            assert key is not None
            table_id: int = key[0]
            seat = {"table_id": table_id, "position": 0, "name": name, "robot": None}
            seat |= {"token_hash": hash_token(token), "game_seat": None, "rematch": False}
            conn.execute(_INSERT_SEAT, seat | {"joined_at": now})
            conn.execute(
                _INSERT_LOG,
                {
                    "table_id": table_id,
                    "version": 1,
                    "game_number": 0,
                    "position": 0,
                    "kind": "create",
                    "payload": {"target": target, "name": name},
                    "created_at": now,
                },
            )
            self.notifier.announce(conn, table_id, 1)
        self.notifier.publish(table_id, 1)
        return Joined(invite=invite, token=token, position=0)

    def join(self, invite: str, name: str) -> Joined:
        name = self._clean_name(name)
        token = new_token()

        def command(tx: TableTx) -> None:

            table = tx.table
            if table.status != TableStatus.LOBBY:
                raise Conflict("La partida ya empezó: puedes mirarla.", "already_started")
            position = self._free_position(table)
            if position is None:
                raise Conflict("La mesa está completa: puedes mirar la partida.", "table_full")
            if any(look_alike(name, s.name) for s in table.seats):
                raise Conflict(NAME_TAKEN, "name_taken")
            tx.add_seat(
                SeatRecord(None, position, name, None, hash_token(token), None, False),
                self.clock.now(),
            )
            self._log(tx, position, "join", {"name": name})

        self._command(invite, None, None, command)
        seat = self.seat_for(invite, token)
        assert seat is not None
        return Joined(invite=invite, token=token, position=seat.position)

    def add_robot(self, invite: str, token: str | None, version: int, robot: str) -> Outcome:
        if robot not in ROBOT_NAMES:
            raise Invalid("Los robots son Carmen, Tito y Luna.", "unknown_robot")

        def command(tx: TableTx) -> None:

            table = tx.table
            self._require_creator_in_lobby(table, token)
            position = self._free_position(table)
            if position is None:
                raise Conflict("No quedan lugares libres.", "table_full")
            # a person named so before the name rules (`_clean_name`) existed
            if any(s.robot is None and look_alike(ROBOT_NAMES[robot], s.name) for s in table.seats):
                raise Conflict(NAME_TAKEN, "name_taken")
            tx.add_seat(
                SeatRecord(None, position, ROBOT_NAMES[robot], robot, None, None, False),
                self.clock.now(),
            )
            self._log(tx, 0, "add_robot", {"robot": robot, "position": position})

        return self._command(invite, token, version, command)

    def remove_robot(self, invite: str, token: str | None, version: int, position: int) -> Outcome:
        def command(tx: TableTx) -> None:
            table = tx.table
            self._require_creator_in_lobby(table, token)
            seat = next((s for s in table.seats if s.position == position), None)
            if seat is None or seat.robot is None:
                raise Invalid("Ahí no hay un robot.", "not_a_robot")
            tx.remove_seat(seat)
            if table.partner_position == position:
                table.partner_position = None
            self._log(tx, 0, "remove_robot", {"position": position})

        return self._command(invite, token, version, command)

    def choose_partner(
        self, invite: str, token: str | None, version: int, position: int
    ) -> Outcome:
        """LAS PAREJAS: with four, the creator picks the partner who sits opposite."""

        def command(tx: TableTx) -> None:

            table = tx.table
            self._require_creator_in_lobby(table, token)
            if not any(s.position == position for s in table.seats) or position == 0:
                raise Invalid("Elige a otro jugador de la mesa como pareja.", "bad_partner")
            table.partner_position = position
            self._log(tx, 0, "partner", {"position": position})

        return self._command(invite, token, version, command)

    def start(self, invite: str, token: str | None, version: int) -> Outcome:
        def command(tx: TableTx) -> None:
            table = tx.table
            self._require_creator_in_lobby(table, token)
            if not 2 <= len(table.seats) <= MAX_SEATS:
                raise Conflict("Hacen falta de 2 a 4 jugadores para empezar.", "not_enough")
            self._begin_game(tx)

        return self._command(invite, token, version, command)

    # ------------------------------------------------------------------
    # Playing

    def act(self, invite: str, token: str | None, version: int, action: eng.Action) -> Outcome:
        """LLEVAR, DEJAR EN LA MESA or LLEVAR EL 15 by the seat that holds `token`."""

        def command(tx: TableTx) -> None:

            table = tx.table
            seat = self._player(table, token)
            self._play(tx, seat, action)

        return self._command(invite, token, version, command)

    def next_round(self, invite: str, token: str | None, version: int) -> Outcome:
        """SIGUIENTE RONDA: any player of the game may deal the next round."""

        def command(tx: TableTx) -> None:

            table = tx.table
            seat = self._player(table, token)
            state = self._state(tx)
            try:
                state, _ = eng.start_next_round(state, self._shuffle())
            except eng.IllegalAction as err:
                raise Conflict(err.message, err.code) from err
            deck = [int(c) for c in _round_deck(state)]
            self._save(tx, state, turn_started=True)
            self._log(tx, seat.position, "next_round", {"deck": deck})

        return self._command(invite, token, version, command)

    def abandon(self, invite: str, token: str | None, version: int) -> Outcome:
        """ABANDONAR or SALIR DEL JUEGO: the leaver's side loses; the game ends."""

        def command(tx: TableTx) -> None:

            table = tx.table
            seat = self._player(table, token)
            self._end(tx, eng.EndReason.ABANDON, seat.game_seat, seat.position)

        return self._command(invite, token, version, command)

    def end_for_absence(self, invite: str, token: str | None, version: int) -> Outcome:
        """TERMINAR POR AUSENCIA: the player on turn has been idle over 48 hours."""

        def command(tx: TableTx) -> None:

            table = tx.table
            seat = self._player(table, token)
            absent = self._absent_seat(table, self._current_state(tx))
            if absent is None:
                raise Conflict(
                    "Todavía no: el jugador de turno tiene 48 horas para jugar.", "not_absent"
                )
            if absent == seat.game_seat:
                raise Forbidden("Eres tú quien tiene el turno: juega una carta.", "self_absence")
            absent_pos = next(s.position for s in table.seats if s.game_seat == absent)
            self._end(tx, eng.EndReason.ABSENCE, absent, seat.position, absent_pos)

        return self._command(invite, token, version, command)

    def accept_rematch(
        self, invite: str, token: str | None, version: int, pairs: str | None = None
    ) -> Outcome:
        """Revancha: when every person accepts, a new game at the same table.
        With four, the creator's acceptance carries MANTENER (`keep`) or
        CAMBIAR (`change`) for the pairs."""

        def command(tx: TableTx) -> None:

            table = tx.table
            seat = self._player(table, token)
            state = self._state(tx)
            if table.status != TableStatus.FINISHED or state.result is None:
                raise Conflict("La partida todavía no terminó.", "not_finished")
            if state.result.reason is not eng.EndReason.TARGET:
                raise Conflict(
                    "No hay revancha después de un abandono, una ausencia o una mesa vencida.",
                    "no_rematch",
                )
            if seat.rematch:
                raise Conflict("Ya aceptaste la revancha.", "already_accepted")
            if len(table.seats) == MAX_SEATS and seat.position == 0:
                if pairs not in ("keep", "change"):
                    raise Invalid("Elige MANTENER o CAMBIAR las parejas.", "choose_pairs")
                if pairs == "change":
                    table.partner_position = self._next_partner(table)
            seat.rematch = True
            self._log(tx, seat.position, "rematch", {"pairs": pairs})
            humans = [s for s in table.seats if s.robot is None]
            if all(s.rematch for s in humans):
                for s in table.seats:
                    s.rematch = False
                self._begin_game(tx)

        return self._command(invite, token, version, command)

    def chat(self, invite: str, token: str | None, text: str) -> Outcome:
        text = _clean_chat(text)
        if not text:
            raise Invalid("Escribe algo antes de enviar.", "empty_chat")
        if len(text) > self.settings.chat_max_length:
            raise Invalid(
                f"El mensaje es muy largo (máximo {self.settings.chat_max_length} letras).",
                "chat_too_long",
            )
        now = self.clock.now()

        def command(tx: TableTx) -> None:

            table = tx.table
            seat = self._seat(table, token)
            if seat is None:
                raise Forbidden("Solo quienes están sentados pueden escribir.", "spectator")
            since = now - timedelta(seconds=self.settings.chat_window_seconds)
            recent = tx.conn.scalar(
                _CHAT_RECENT,
                {"table_id": table.id, "position": seat.position, "since": since},
            )
            if (recent or 0) >= self.settings.chat_burst:
                raise RateLimited("Vas muy rápido: espera unos segundos.", "chat_rate")
            tx.chat_rows.append(
                {
                    "table_id": table.id,
                    "position": seat.position,
                    "name": seat.name,
                    "text": text,
                    "created_at": now,
                }
            )

        return self._command(invite, token, None, command, game_action=False, bump_version=False)

    # ------------------------------------------------------------------
    # Robots and jobs

    def robot_turn(self, table_id: int) -> RobotTurn | None:
        """The robot on turn at this table and what its seat sees, or None.
        A read: the move is chosen from `view` (anywhere, e.g. in another
        process) and then played with `robot_play`."""
        with self.db.snapshot() as conn:
            found = self._read_table(conn, "id", table_id)
            if found is None:
                return None
            table, state = found
            if table.status != TableStatus.PLAYING or state is None:
                return None
            turn = state.turn
            robot = next(
                (s for s in table.seats if s.game_seat == turn and s.robot is not None), None
            )
            if robot is None or turn is None or robot.robot is None:
                return None
            return RobotTurn(
                table_id=table.id,
                invite=table.invite,
                version=table.version,
                position=robot.position,
                robot=robot.robot,
                view=eng.view(state, turn),
            )

    def robot_play(self, turn: RobotTurn, action: eng.Action) -> bool:
        """Play the robot's chosen action through the one command path, on the
        version it was chosen on. True when it was played; False when the
        table moved on meanwhile (nothing applied)."""

        def command(tx: TableTx) -> None:
            seat = next(s for s in tx.table.seats if s.position == turn.position)
            self._play(tx, seat, action)

        try:
            self._command(turn.invite, None, turn.version, command)
        except Conflict:
            return False  # someone else moved the table on; nothing was applied
        return True

    def robot_move(self, table_id: int) -> bool:
        """If a robot is on turn at this table, let it choose and play one
        action at once. True when it played."""
        turn = self.robot_turn(table_id)
        if turn is None:
            return False
        action = self.brain(turn.robot, turn.view, random.Random(secrets.randbits(64)))
        return self.robot_play(turn, action)

    def play_robots(self, table_id: int, limit: int = 1000) -> int:
        """Robots play until a person is on turn (used inline in tests)."""
        moves = 0
        while moves < limit and self.robot_move(table_id):
            moves += 1
        return moves

    def robot_tables(self) -> list[int]:
        """Tables where a robot is on turn (for the runner after a restart)."""
        out = []
        with self.db.snapshot() as conn:
            for table_id in conn.scalars(_PLAYING_IDS).all():
                try:
                    found = self._read_table(conn, "id", table_id)
                except Busy:
                    out.append(table_id)  # robot_move looks again
                    continue
                if found is not None and self._robot_on_turn(*found):
                    out.append(table_id)
        return out

    def overdue_robot_tables(self, grace_seconds: float) -> list[int]:
        """Tables whose robot has been on turn longer than `grace_seconds`:
        its move was scheduled by a process that is gone."""
        cutoff = self.clock.now() - timedelta(seconds=grace_seconds)
        with self.db.read() as session:
            return list(
                session.scalars(
                    select(TableRow.id).where(
                        TableRow.robot_due.is_(True),
                        TableRow.status == TableStatus.PLAYING.value,
                        TableRow.turn_since < cutoff,
                    )
                )
            )

    def expire(self) -> int:
        """End every table with no game action for 7 days, with no winner. Each
        table in its own transaction, re-checked under the lock, so two runs at
        once, or a run during play, leave each table in one consistent state."""
        cutoff = self.clock.now() - timedelta(days=self.settings.expiry_days)
        with self.db.read() as session:
            candidates = list(
                session.execute(
                    select(TableRow.invite).where(
                        TableRow.status.in_([TableStatus.LOBBY.value, TableStatus.PLAYING.value]),
                        TableRow.last_action_at < cutoff,
                    )
                ).scalars()
            )
        expired = 0
        for invite in candidates:

            def command(tx: TableTx) -> None:

                table = tx.table
                if table.status not in (TableStatus.LOBBY, TableStatus.PLAYING):
                    raise Conflict("already ended", "ended")
                if table.last_action_at >= cutoff:
                    raise Conflict("played meanwhile", "active")
                current = self._current_state(tx)
                if current is not None and table.status == TableStatus.PLAYING:
                    state, _ = eng.end_game(current, eng.EndReason.EXPIRED)
                    self._save(tx, state)
                table.status = TableStatus.EXPIRED.value
                self._log(tx, None, "expire", {})

            try:
                self._command(invite, None, None, command, game_action=False)
                expired += 1
            except (Conflict, Busy):
                continue
        return expired

    # ------------------------------------------------------------------
    # Reading

    def seat_for(self, invite: str, token: str | None) -> SeatInfo | None:
        if not token:
            return None
        with self.db.snapshot() as conn:
            table = self._snap(conn, invite)
            seat = _find_seat(table.seats, token)
            return None if seat is None else self._seat_info(table, seat, seat)

    def table_id(self, invite: str) -> int:
        with self.db.snapshot() as conn:
            return self._snap(conn, invite).id

    def version(self, invite: str) -> int:
        with self.db.snapshot() as conn:
            return self._snap(conn, invite).version

    def page(self, invite: str, token: str | None, with_chat: bool = True) -> TablePage:
        """Everything one viewer may see of a table, and what they may do
        (without the chat when `with_chat` is false: the page's `chat` is empty)."""
        with self.db.snapshot() as conn:
            table, state = self._read_invite(conn, invite)
            chat: list[ChatLine] = []
            if with_chat:
                chat = self._chat(conn, table.id, 0)
            return self._page(table, _find_seat(table.seats, token), chat, state)

    def chat_lines(self, invite: str, after: int = 0) -> list[ChatLine]:
        with self.db.snapshot() as conn:
            return self._chat(conn, self._snap(conn, invite).id, after)

    def _chat(self, conn: Connection, table_id: int, after: int) -> list[ChatLine]:
        """The last lines of the chat after line `after`, oldest first."""
        rows = conn.execute(_CHAT_AFTER, {"table_id": table_id, "after": after}).all()
        return [
            ChatLine(
                id=r.id,
                position=r.position,
                name=r.name,
                text=strip_bidi_controls(r.text),  # lines kept before they were cleaned
                at=r.created_at,
            )
            for r in reversed(rows)
        ]

    def record(self, invite: str) -> dict[str, Any]:
        """The game record (escoba-record/1) of the table's last finished game."""
        with self.db.snapshot() as conn:
            table, state = self._read_invite(conn, invite)
            if state is None:
                raise Conflict("La partida todavía no empezó.", "not_started")
            if state.result is None:
                raise Conflict("El registro se descarga cuando la partida termina.", "not_finished")
            return eng.to_record(state, self._names(table))

    def game_state(self, invite: str) -> eng.GameState | None:
        """The whole current game, hidden cards included: for the server's own
        jobs and checks, never for a client (clients get `page`)."""
        with self.db.snapshot() as conn:
            return self._read_invite(conn, invite)[1]

    def log(self, invite: str) -> list[ActionLogRow]:
        """The server-side action log (holds decks: never for clients)."""
        with self.db.read() as session:
            table_id = self.table_id(invite)
            rows = session.scalars(
                select(ActionLogRow)
                .where(ActionLogRow.table_id == table_id)
                .order_by(ActionLogRow.id)
            ).all()
            session.expunge_all()
            return list(rows)

    def replay_log(self, invite: str) -> eng.GameState | None:
        """Rebuild the current game from the log alone: the crash-safety check."""
        state: eng.GameState | None = None
        rules = None
        for row in self.log(invite):
            p = row.payload
            if row.kind == "start":
                rules = eng.RuleSet(target=p["target"])
                deck = [eng.CARDS[i] for i in p["deck"]]
                state = eng.new_game(rules, p["players"], deck, first_dealer=0)
            elif state is None:
                continue
            elif row.kind == "action":
                action = eng.action_from_dict(p["action"])
                state, _ = eng.apply(state, p["seat"], action)
            elif row.kind == "next_round":
                state, _ = eng.start_next_round(state, [eng.CARDS[i] for i in p["deck"]])
            elif row.kind in ("end", "expire") and state.phase is not eng.Phase.GAME_OVER:
                reason = eng.EndReason(p.get("reason", "expired"))
                state, _ = eng.end_game(state, reason, p.get("loser_seat"))
        return state

    # ------------------------------------------------------------------
    # The command path

    def _command(
        self,
        invite: str,
        token: str | None,
        version: int | None,
        command: Callable[[TableTx], None],
        game_action: bool = True,
        bump_version: bool = True,
    ) -> Outcome:
        """Run `command` on the locked table. `game_action`: it counts as play
        for expiry; `bump_version`: it changes what a command is made on (a
        chat line does not, so it never makes a player's move stale)."""
        if not _is_invite(invite):
            raise NotFound("Esa mesa no existe.", "no_table")
        if version is not None and version < (self._newest.get(invite) or 0):
            raise Conflict(STALE, "stale")
        try:
            with self.db.write() as conn:
                table = self._select_snap(conn, "invite", invite, lock=True)
                if table is None:
                    raise NotFound("Esa mesa no existe.", "no_table")
                if version is not None and version != table.version:
                    raise Conflict(STALE, "stale")
                tx = TableTx(conn, table)
                command(tx)
                state = self._current_state(tx)
                if bump_version:
                    table.version += 1
                if game_action:
                    table.last_action_at = self.clock.now()
                robot_next = self._robot_on_turn(table, state)
                if bump_version:  # (a chat line changes no row of the table)
                    table.robot_due = robot_next
                tx.write()
                self.notifier.announce(conn, table.id, table.version)
                outcome = Outcome(table.id, table.version)
        except OperationalError as err:
            log.warning("command failed: database busy", extra={"invite": invite})
            raise Busy("La mesa está ocupada: prueba otra vez.", "busy") from err
        self._saw(invite, outcome.version)
        if bump_version:  # committed: the next version's table and state
            if not tx.new_seats:  # (a new seat's id is known once read back)
                self._tables.put((table.id, table.version), table)
            if state is not None:
                self._remember(table.id, table.version, table.game_number, state)
        log.info(
            "command",
            extra={"table_id": outcome.table_id, "version": outcome.version, "invite": invite},
        )
        self.notifier.publish(outcome.table_id, outcome.version)
        if robot_next and self.on_robot_turn is not None:
            self.on_robot_turn(outcome.table_id)
        return outcome

    def _snap(self, conn: Connection, invite: str, column: str = "invite") -> TableRecord:
        if column == "invite" and not _is_invite(invite):
            raise NotFound("Esa mesa no existe.", "no_table")
        found = self._select_snap(conn, column, invite)
        if found is None:
            raise NotFound("Esa mesa no existe.", "no_table")
        return found

    def _select_snap(
        self, conn: Connection, column: str, key: Any, lock: bool = False
    ) -> TableRecord | None:
        """The table (by "invite" or "id") and its seats: its id and version
        in one small statement, the rest from the cache of committed tables
        or else in one more. `lock`: for a command, which gets its own copy
        (PostgreSQL locks the table's row)."""
        query = _LOCK_BY if lock and not self.db.is_sqlite else _VERSION_BY
        probe = conn.execute(query[column], {"key": key}).first()
        if probe is None:
            return None
        if column == "invite":
            self._saw(key, probe.version)
        table = self._tables.get((probe.id, probe.version))
        if table is None:
            table = self._load_table(conn, probe.id)
            if table is None:
                return None
            if table.version == probe.version:
                self._tables.put((table.id, table.version), table)
        return _copy_table(table) if lock else table

    def _saw(self, invite: str, version: int) -> None:
        """`version` of the table is committed: kept if the newest seen."""
        self._newest.raise_to(invite, version)

    def _load_table(self, conn: Connection, table_id: int) -> TableRecord | None:
        """The table's row and seats, in one statement."""
        rows = conn.execute(_SNAP_BY_ID, {"key": table_id}).all()
        if not rows:
            return None
        # the records' fields are the selected columns (a seat's with "seat_")
        seats = [
            SeatRecord(**{c: row._mapping[f"seat_{c}"] for c in _SEAT_COLUMNS})
            for row in rows
            if row.seat_id is not None
        ]
        first = rows[0]._mapping
        return TableRecord(**{c.name: first[c.name] for c in _TABLE_COLUMNS}, seats=seats)

    def _read_table(
        self, conn: Connection, column: str, key: Any
    ) -> tuple[TableRecord, eng.GameState | None] | None:
        """A table and its committed state, for reading."""
        for _ in range(READ_TRIES):
            table = self._select_snap(conn, column, key)
            if table is None:
                return None
            try:
                return table, self._committed(conn, table)
            except _Moved:
                continue
        raise Busy("La mesa está ocupada: prueba otra vez.", "busy")

    def _read_invite(
        self, conn: Connection, invite: str
    ) -> tuple[TableRecord, eng.GameState | None]:
        if not _is_invite(invite):
            raise NotFound("Esa mesa no existe.", "no_table")
        found = self._read_table(conn, "invite", invite)
        if found is None:
            raise NotFound("Esa mesa no existe.", "no_table")
        return found

    def _log(self, tx: TableTx, position: int | None, kind: str, payload: dict[str, Any]) -> None:
        table = tx.table
        tx.log_rows.append(
            {
                "table_id": table.id,
                "version": table.version + 1,
                "game_number": table.game_number,
                "position": position,
                "kind": kind,
                "payload": payload,
                "created_at": self.clock.now(),
            }
        )

    def _state(self, tx: TableTx) -> eng.GameState:
        state = self._current_state(tx)
        if state is None:
            raise Conflict("La partida todavía no empezó.", "not_started")
        return state

    def _current_state(self, tx: TableTx) -> eng.GameState | None:
        """In a command: the state as the command has left it so far."""
        if tx.state is _UNSET:
            tx.state = self._committed(tx.conn, tx.table)
        state: eng.GameState | None = tx.state
        return state

    def _save(self, tx: TableTx, state: eng.GameState, turn_started: bool = False) -> None:
        table = tx.table
        before = self._current_state(tx)
        tx.state_json = live_state_to_dict(state)
        if before is None or before.finished_rounds != state.finished_rounds:
            tx.rounds_json = rounds_to_list(state.finished_rounds)
        tx.state = state
        if turn_started or before is None or before.round.turn != state.turn:
            table.turn_since = self.clock.now()
        if state.phase is eng.Phase.GAME_OVER and table.status == TableStatus.PLAYING:
            table.status = TableStatus.FINISHED.value

    def _shuffle(self) -> tuple[eng.Card, ...]:
        return eng.shuffled_deck(self.rng)

    def _begin_game(self, tx: TableTx) -> None:
        table = tx.table
        self._current_state(tx)  # the game before, if any (for _save)
        order = self._play_order(table)
        for game_seat, seat in enumerate(order):
            seat.game_seat = game_seat
        rules = eng.RuleSet(target=table.target)
        deck = self._shuffle()
        state = eng.new_game(rules, len(order), deck, first_dealer=0)
        table.game_number += 1
        table.status = TableStatus.PLAYING.value
        self._save(tx, state, turn_started=True)
        self._log(
            tx,
            0,
            "start",
            {
                "target": table.target,
                "players": len(order),
                "deck": [int(c) for c in deck],
                "seats": {str(s.game_seat): s.position for s in order},
            },
        )

    def _play_order(self, table: TableRecord) -> list[SeatRecord]:
        """Engine seats in play order. The creator deals first (seat 0); with
        four, the chosen partner sits opposite (seat 2)."""
        seats = sorted(table.seats, key=lambda s: s.position)
        if len(seats) != MAX_SEATS:
            return seats
        partner_pos = table.partner_position
        if partner_pos is None or not any(s.position == partner_pos for s in seats[1:]):
            partner_pos = seats[2].position
        partner = next(s for s in seats if s.position == partner_pos)
        others = [s for s in seats[1:] if s is not partner]
        return [seats[0], others[0], partner, others[1]]

    def _next_partner(self, table: TableRecord) -> int:
        """CAMBIAR: the creator's next partner, in turn among the other three."""
        others = sorted(s.position for s in table.seats if s.position != 0)
        current = table.partner_position
        if current not in others:
            current = self._play_order(table)[2].position
        return others[(others.index(current) + 1) % len(others)]

    def _play(self, tx: TableTx, seat: SeatRecord, action: eng.Action) -> None:
        state = self._state(tx)
        if seat.game_seat is None:
            raise Forbidden("No juegas en esta partida.", "not_playing")
        try:
            state, _ = eng.apply(state, seat.game_seat, action)
        except eng.IllegalAction as err:
            raise Conflict(err.message, err.code) from err
        self._save(tx, state)
        self._log(
            tx,
            seat.position,
            "action",
            {"seat": seat.game_seat, "action": action.to_dict()},
        )

    def _end(
        self,
        tx: TableTx,
        reason: eng.EndReason,
        loser_seat: int | None,
        by_position: int,
        loser_position: int | None = None,
    ) -> None:
        table = tx.table
        if table.status != TableStatus.PLAYING:
            raise Conflict("No hay una partida en juego.", "not_playing")
        state = self._state(tx)
        try:
            state, _ = eng.end_game(state, reason, loser_seat)
        except eng.IllegalAction as err:
            raise Conflict(err.message, err.code) from err
        self._save(tx, state)
        table.status = TableStatus.FINISHED.value
        self._log(
            tx,
            by_position,
            "end",
            {"reason": reason.value, "loser_seat": loser_seat, "loser_position": loser_position},
        )

    # ------------------------------------------------------------------
    # Who is acting

    def _seat(self, table: TableRecord, token: str | None) -> SeatRecord | None:
        return _find_seat(table.seats, token)

    def _player(self, table: TableRecord, token: str | None) -> SeatRecord:
        seat = self._seat(table, token)
        if seat is None:
            raise Forbidden("No estás sentado en esta mesa.", "not_seated")
        if table.status == TableStatus.LOBBY:
            raise Conflict("La partida todavía no empezó.", "not_started")
        if seat.game_seat is None:
            raise Forbidden("No juegas en esta partida.", "not_playing")
        return seat

    def _require_creator_in_lobby(self, table: TableRecord, token: str | None) -> SeatRecord:
        seat = self._seat(table, token)
        if seat is None or seat.position != 0:
            raise Forbidden("Solo quien creó la mesa puede hacer eso.", "not_creator")
        if table.status != TableStatus.LOBBY:
            raise Conflict("La partida ya empezó.", "already_started")
        return seat

    def _free_position(self, table: TableRecord) -> int | None:
        taken = {s.position for s in table.seats}
        return next((p for p in range(MAX_SEATS) if p not in taken), None)

    def _clean_name(self, name: str) -> str:
        """A person's name as it is kept, or a refusal. Others must be able to
        read it (a letter or digit that shows) and must not take it for a
        robot's (the pages mark robots; a person may not pass for one). Who
        else sits at the table is checked where the seat is taken."""
        name = " ".join((name or "").split())
        if not name:
            raise Invalid("Escribe tu nombre.", "empty_name")
        if len(name) > self.settings.name_max_length:
            raise Invalid(
                f"El nombre es muy largo (máximo {self.settings.name_max_length} letras).",
                "name_too_long",
            )
        if any(not ch.isprintable() and ch != _JOINER for ch in name):
            raise Invalid("El nombre tiene caracteres no válidos.", "bad_name")
        if not has_visible_letter_or_digit(name):
            raise Invalid(
                "El nombre necesita al menos una letra o un número que se vea.", "invisible_name"
            )
        if looks_like_a_robot(name, ROBOT_NAMES.values()):
            raise Invalid("Ese nombre es de robot: elige otro.", "robot_name")
        return name

    def _robot_on_turn(self, table: TableRecord, state: eng.GameState | None) -> bool:
        if table.status != TableStatus.PLAYING or state is None:
            return False
        if state.phase is not eng.Phase.PLAYING:
            return False
        turn = state.round.turn
        return any(s.game_seat == turn and s.robot is not None for s in table.seats)

    def _absent_seat(self, table: TableRecord, state: eng.GameState | None) -> int | None:
        """The engine seat on turn, if a person has let it sit over 48 hours."""
        if table.status != TableStatus.PLAYING or state is None:
            return None
        if state.phase is not eng.Phase.PLAYING:
            return None
        turn = state.round.turn
        seat = next((s for s in table.seats if s.game_seat == turn), None)
        if seat is None or seat.robot is not None:
            return None
        idle = self.clock.now() - table.turn_since
        if idle <= timedelta(hours=self.settings.absence_hours):
            return None
        return int(turn)

    def _names(self, table: TableRecord) -> list[str]:
        seats = [s for s in table.seats if s.game_seat is not None]
        return [s.name for s in sorted(seats, key=lambda s: s.game_seat or 0)]

    # ------------------------------------------------------------------
    # Pages

    def _seat_info(self, table: TableRecord, seat: SeatRecord, you: SeatRecord | None) -> SeatInfo:
        return SeatInfo(
            position=seat.position,
            name=seat.name,
            is_robot=seat.robot is not None,
            robot=seat.robot,
            game_seat=seat.game_seat if _has_game(table) else None,
            is_creator=seat.position == 0,
            is_you=you is not None and seat.id == you.id,
            rematch_accepted=seat.rematch,
        )

    def _committed(self, db: Connection, table: TableRecord) -> eng.GameState | None:
        """The committed state of a table row as loaded (its version): from
        this process's cache, or else from the row, parsed once per version.
        Raises `_Moved` if the row has moved on since it was loaded."""
        if not _has_game(table):
            return None
        state = self._states.get((table.id, table.version))
        if state is not None:
            return state
        same = {"id": table.id, "version": table.version}
        data = db.scalar(_STATE_AT, same)
        if data is None:
            if db.scalar(_ROW_AT, same) is None:
                raise _Moved
            return None
        if data.get("v") == 1:
            state = state_from_dict(data)
        else:
            count = stored_rounds_count(data)
            rounds_key = (table.id, table.game_number, count)
            rounds = self._rounds.get(rounds_key) if count else ()
            if rounds is None:
                stored = db.scalar(_ROUNDS_AT, same)
                if stored is None and db.scalar(_ROW_AT, same) is None:
                    raise _Moved
                rounds = rounds_from_list(stored or [])
            state = state_from_parts(data, rounds)
        self._remember(table.id, table.version, table.game_number, state)
        return state

    def _remember(
        self, table_id: int, version: int, game_number: int, state: eng.GameState
    ) -> None:
        """Keep a committed state (and its finished rounds) for later."""
        self._states.put((table_id, version), state)
        if state.finished_rounds:
            rounds_key = (table_id, game_number, len(state.finished_rounds))
            self._rounds.put(rounds_key, state.finished_rounds)

    def _page(
        self,
        table: TableRecord,
        you: SeatRecord | None,
        chat: Sequence[ChatLine],
        state: eng.GameState | None,
    ) -> TablePage:
        status = TableStatus(table.status)
        seats = tuple(self._seat_info(table, s, you) for s in table.seats)
        me = next((s for s in seats if s.is_you), None)
        plays = state is not None and me is not None and me.game_seat is not None
        seat_view = None
        if state is not None:
            seat_view = eng.view(state, me.game_seat if plays and me is not None else None)
        in_lobby = status == TableStatus.LOBBY
        result = state.result if state is not None else None
        absent = self._absent_seat(table, state)
        on_points = result is not None and result.reason is eng.EndReason.TARGET
        four = len(table.seats) == MAX_SEATS
        return TablePage(
            invite=table.invite,
            status=status,
            target=table.target,
            version=table.version,
            seats=seats,
            you=me,
            view=seat_view,
            names=tuple(self._names(table)) if state is not None else (),
            chat=tuple(chat),
            game_number=table.game_number,
            can_join=in_lobby and me is None and self._free_position(table) is not None,
            can_start=in_lobby and me is not None and me.is_creator and len(seats) >= 2,
            can_manage=in_lobby and me is not None and me.is_creator,
            partner_position=(
                table.partner_position
                if table.partner_position is not None
                else (sorted(s.position for s in table.seats)[2] if four else None)
            ),
            can_chat=me is not None,
            absence_available=plays
            and absent is not None
            and me is not None
            and me.game_seat != absent,
            absent_seat=absent,
            can_leave=plays and status == TableStatus.PLAYING,
            can_next_round=plays
            and status == TableStatus.PLAYING
            and state is not None
            and state.phase is eng.Phase.ROUND_OVER,
            rematch_possible=plays and status == TableStatus.FINISHED and on_points,
            rematch_needs_pairs_choice=four and me is not None and me.is_creator,
            rematch_accepted_by_you=me is not None and me.rematch_accepted,
            result_text=_result_text(result, self._names(table), state) if result else None,
        )


# what secrets.token_urlsafe makes (and some room): anything else names no
# table, and never reaches the database (PostgreSQL refuses a NUL byte)
_INVITE = re.compile(r"[A-Za-z0-9_-]{8,64}")


def _is_invite(invite: object) -> bool:
    return isinstance(invite, str) and _INVITE.fullmatch(invite) is not None


_JOINER = "\u200d"  # invisible, but it joins emoji such as 👩‍💻: a name may have it


def _clean_chat(text: str) -> str:
    """A chat line as it is kept: a line break or tab becomes a space, other
    control characters go (PostgreSQL refuses a NUL byte), and so do the
    bidi embeddings, overrides and isolates, which would turn around what
    follows them on screen. Other format characters stay: the joiner inside
    an emoji such as 👨‍💻 is one."""
    kept = (
        (" " if ch.isspace() else "") if unicodedata.category(ch) == "Cc" else ch for ch in text
    )
    return strip_bidi_controls("".join(kept)).strip()


def _find_seat(seats: Sequence[SeatRecord], token: str | None) -> SeatRecord | None:
    """The seat that holds `token`, if any."""
    if not token or len(token) > 128:
        return None
    digest = hash_token(token)
    return next((s for s in seats if s.token_hash == digest), None)


def _copy_table(table: TableRecord) -> TableRecord:
    """A command's working copy of a (cached, shared) committed table."""
    return dataclasses.replace(table, seats=[dataclasses.replace(s) for s in table.seats])


def _has_game(table: TableRecord) -> bool:
    """A game was started at this table (so it has a state): the state is
    first saved by the command that makes the first game."""
    return table.game_number > 0


def _round_deck(state: eng.GameState) -> list[eng.Card]:
    """The order the current round was dealt in (for the log)."""
    rs = state.round
    out: list[eng.Card] = []
    for i, deal in enumerate(rs.deals):
        for k in range(1, state.players + 1):
            out.extend(deal.hands[(rs.dealer + k) % state.players])
        if i == 0:
            out.extend(deal.table)
    out.extend(rs.deck)
    return out


def side_names(names: Sequence[str], players: int) -> list[str]:
    """«Ana y Luis» for a pair, the name alone otherwise, by side."""
    sides = eng.side_count(players)
    return [
        " y ".join(names[s] for s in range(players) if eng.side_of(s, players) == side)
        for side in range(sides)
    ]


def _result_text(
    result: eng.Result | None, names: Sequence[str], state: eng.GameState | None
) -> str | None:
    if result is None or state is None:
        return None
    by_side = side_names(names, state.players)
    winners = [by_side[s] for s in result.winners]
    won = " y ".join(winners)
    plural = len(winners) > 1 or (state.players == 4 and winners)
    verb = "ganan" if plural else "gana"
    if result.reason is eng.EndReason.EXPIRED:
        return "La mesa venció tras 7 días sin jugadas: sin ganador."
    if result.reason is eng.EndReason.TARGET:
        return f"¡{won} {verb} la partida!"
    loser = names[result.loser_seat] if result.loser_seat is not None else "Alguien"
    if result.reason is eng.EndReason.ABANDON:
        why = f"{loser} abandonó la partida."
    else:
        why = f"{loser} no jugó en más de 48 horas."
    if not winners:
        return why
    return f"{why} {won} {verb}."
