"""The lobby: opening a table, taking a seat, the robots, LAS PAREJAS and
starting the game (and dealing a new one: the rematch starts its game here)."""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass

from sqlalchemy import Connection

from escoba.bots import SEATABLE
from escoba.engine import RuleSet, new_game
from escoba.engine.rules import SITE_TARGETS, TARGETS
from escoba.spoofing import (
    MAX_MARKS_PER_LETTER,
    has_visible_letter_or_digit,
    look_alike,
    looks_like_a_robot,
    most_marks_on_a_letter,
)
from escoba.web.base.errors import Conflict, Forbidden, Invalid
from escoba.web.table.command_path import Change, CommandPath, Outcome
from escoba.web.table.pages import TableStatus
from escoba.web.table.store import (
    MAX_SEATS,
    Credential,
    SeatDraft,
    TableDraft,
    TableTx,
    creators_partner,
    find_seat,
    free_position,
    hash_token,
    new_token,
    rules_of,
)

_JOINER = "\u200d"  # invisible, but it joins emoji such as 👩‍💻: a name may have it


@dataclass(frozen=True, slots=True)
class Joined:
    invite: str
    token: str
    position: int


def house_rules(
    target: int,
    setenta: bool = False,
    ties_each: bool = False,
    compulsory_capture: bool = False,
    thirty_single: bool = False,
) -> RuleSet:
    """The rules chosen on the new-table form: a target (the site's 21 or 31,
    or the variants' 15 or 30) and the house rules ticked; a target that is
    none of those is refused."""
    if target not in TARGETS:
        raise Invalid("bad_target")
    return RuleSet(
        target=target,
        thirty_is_double=not thirty_single,
        compulsory_capture=compulsory_capture,
        setenta=setenta,
        ties="each" if ties_each else "nobody",
    )


class Lobby:
    """Opening a table, taking a seat, the robots, LAS PAREJAS and the
    start, each a command of the one path (`path`)."""

    def __init__(self, path: CommandPath) -> None:
        self.path = path

    def create_table(self, name: str, rules: RuleSet | int) -> Joined:
        """A new table, its creator in the first seat. `rules`: the rules the
        creator chose (house rules too), or a target of the site's rules."""
        name = self._clean_name(name)
        if isinstance(rules, int):
            if rules not in SITE_TARGETS:
                raise Invalid("bad_target")
            rules = RuleSet(target=rules)
        target = rules.target
        now = self.path.clock.now()
        token = new_token()
        invite = secrets.token_urlsafe(16)  # 128 bits: the link is the key

        def write(conn: Connection) -> Change:
            table_id = self.path.store.insert_table(
                conn,
                {
                    "invite": invite,
                    "status": TableStatus.LOBBY.value,
                    "target": target,
                    "rules": rules.to_dict(),
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
                seat={
                    "position": 0,
                    "name": name,
                    "robot": None,
                    "token_hash": hash_token(token),
                    "game_seat": None,
                    "rematch": False,
                    "joined_at": now,
                },
                log={
                    "version": 1,
                    "game_number": 0,
                    "position": 0,
                    "kind": "create",
                    "payload": {"target": target, "rules": rules.to_dict(), "name": name},
                    "created_at": now,
                },
            )
            return Change(table_id, 1)

        self.path.write(write)
        return Joined(invite=invite, token=token, position=0)

    def join(self, invite: str, name: str) -> Joined:
        name = self._clean_name(name)
        token = new_token()
        taken: list[int] = []  # the position the command gives the seat

        def command(tx: TableTx) -> None:
            table = tx.table
            if table.status != TableStatus.LOBBY:
                raise Conflict("already_started")
            position = free_position(table)
            if position is None:
                raise Conflict("table_full")
            taken.append(position)
            if any(look_alike(name, s.name) for s in table.seats):
                raise Conflict("name_taken")
            tx.add_seat(
                SeatDraft(None, position, name, None, hash_token(token), None, False),
                self.path.clock.now(),
            )
            self.path.log_entry(tx, position, "join", {"name": name})

        self.path.run(invite, None, None, command)
        return Joined(invite=invite, token=token, position=taken[-1])

    def add_robot(self, invite: str, token: Credential, version: int, robot: str) -> Outcome:
        if robot not in SEATABLE:
            raise Invalid("unknown_robot", robots=[r.display_name for r in SEATABLE.values()])

        def command(tx: TableTx) -> None:
            table = tx.table
            self._require_creator_in_lobby(table, token)
            position = free_position(table)
            if position is None:
                raise Conflict("table_full", words="no_free_seat")
            # a person named so before the name rules (`_clean_name`) existed
            if any(
                s.robot is None and look_alike(SEATABLE[robot].display_name, s.name)
                for s in table.seats
            ):
                raise Conflict("name_taken")
            tx.add_seat(
                SeatDraft(None, position, SEATABLE[robot].display_name, robot, None, None, False),
                self.path.clock.now(),
            )
            self.path.log_entry(tx, 0, "add_robot", {"robot": robot, "position": position})

        return self.path.run(invite, token, version, command)

    def remove_robot(self, invite: str, token: Credential, version: int, position: int) -> Outcome:
        def command(tx: TableTx) -> None:
            table = tx.table
            self._require_creator_in_lobby(table, token)
            seat = next((s for s in table.seats if s.position == position), None)
            if seat is None or seat.robot is None:
                raise Invalid("not_a_robot")
            tx.remove_seat(seat)
            if table.partner_position == position:
                table.partner_position = None
            self.path.log_entry(tx, 0, "remove_robot", {"position": position})

        return self.path.run(invite, token, version, command)

    def choose_partner(
        self, invite: str, token: Credential, version: int, position: int
    ) -> Outcome:
        """LAS PAREJAS: with four, the creator picks the partner who sits opposite."""

        def command(tx: TableTx) -> None:
            table = tx.table
            self._require_creator_in_lobby(table, token)
            if not any(s.position == position for s in table.seats) or position == 0:
                raise Invalid("bad_partner")
            table.partner_position = position
            self.path.log_entry(tx, 0, "partner", {"position": position})

        return self.path.run(invite, token, version, command)

    def start(self, invite: str, token: Credential, version: int) -> Outcome:
        def command(tx: TableTx) -> None:
            table = tx.table
            self._require_creator_in_lobby(table, token)
            if not 2 <= len(table.seats) <= MAX_SEATS:
                raise Conflict("not_enough")
            self.begin_game(tx)

        return self.path.run(invite, token, version, command)

    # ------------------------------------------------------------------

    def _require_creator_in_lobby(self, table: TableDraft, token: Credential) -> SeatDraft:
        seat = find_seat(table.seats, token)
        if seat is None or seat.position != 0:
            raise Forbidden("not_creator")
        if table.status != TableStatus.LOBBY:
            raise Conflict("already_started", words="lobby_closed")
        return seat

    def _clean_name(self, name: str) -> str:
        """A person's name as it is kept, or a refusal. Others must be able to
        read it (a letter or digit that shows) and must not take it for a
        robot's (the pages mark robots; a person may not pass for one). Who
        else sits at the table is checked where the seat is taken."""
        # composed (NFC): one spelling of «José» however the keyboard typed it
        name = unicodedata.normalize("NFC", " ".join((name or "").split()))
        if not name:
            raise Invalid("empty_name")
        if len(name) > self.path.settings.name_max_length:
            raise Invalid("name_too_long", limit=self.path.settings.name_max_length)
        if any(not ch.isprintable() and ch != _JOINER for ch in name):
            raise Invalid("bad_name")
        if not has_visible_letter_or_digit(name):
            raise Invalid("invisible_name")
        if most_marks_on_a_letter(name) > MAX_MARKS_PER_LETTER:
            raise Invalid("too_many_marks", limit=MAX_MARKS_PER_LETTER)
        if looks_like_a_robot(name, [r.display_name for r in SEATABLE.values()]):
            raise Invalid("robot_name")
        return name

    def begin_game(self, tx: TableTx) -> None:
        """In a command: a new game dealt at the table (the start, or the
        rematch once every person asked)."""
        table = tx.table
        self.path.current_state(tx)  # the game before, if any (for _save)
        order = play_order(table)
        for game_seat, seat in enumerate(order):
            seat.game_seat = game_seat
        rules = rules_of(table)  # the rematch's too: the table's rules never change
        deck = self.path.shuffle()
        state = new_game(rules, len(order), deck, first_dealer=0)
        table.game_number += 1
        table.status = TableStatus.PLAYING.value
        self.path.save(tx, state, turn_started=True)
        self.path.log_entry(
            tx,
            0,
            "start",
            {
                "target": table.target,
                "rules": rules.to_dict(),
                "players": len(order),
                "deck": [int(c) for c in deck],
                "seats": {str(s.game_seat): s.position for s in order},
            },
        )


def play_order(table: TableDraft) -> list[SeatDraft]:
    """Engine seats in play order. The creator deals first (seat 0); with
    four, the chosen partner sits opposite (seat 2)."""
    seats = sorted(table.seats, key=lambda s: s.position)
    if len(seats) != MAX_SEATS:
        return seats
    partner = next(s for s in seats if s.position == creators_partner(table))
    others = [s for s in seats[1:] if s is not partner]
    return [seats[0], others[0], partner, others[1]]
