"""What a page shows one viewer: built by the service, rendered by templates and
the JSON API. It carries a seat's engine `View` (never a state), so a page can
only show what that viewer may know."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from escoba.bots import SEATABLE_KEYS
from escoba.engine import SITE_RULES, RuleSet, View


class TableStatus(StrEnum):
    LOBBY = "lobby"  # seats filling; the creator starts the game
    PLAYING = "playing"  # a game is on (between rounds too)
    FINISHED = "finished"  # the game ended (points, abandon, absence); rematch possible
    EXPIRED = "expired"  # 7 days without a game action


@dataclass(frozen=True, slots=True)
class PageSeat:
    position: int  # lobby position 0..3 (0 is the creator)
    name: str
    is_robot: bool
    robot: str | None  # "carmen" | "tito" | "luna"
    game_seat: int | None  # engine seat in play order, once the game started
    is_creator: bool
    is_you: bool
    rematch_accepted: bool = False


@dataclass(frozen=True, slots=True)
class ChatLine:
    id: int
    position: int
    name: str
    text: str
    at: datetime


@dataclass(frozen=True, slots=True)
class RoundPoints:
    """One finished round of the game: its points and the totals after it,
    per side."""

    number: int
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeriesScore:
    """The games won at this table, per lobby position, counting the game in
    play once it is over; `games` is how many games were decided."""

    games: int
    wins: tuple[tuple[int, int], ...]  # (lobby position, games won), by position


@dataclass(frozen=True, slots=True)
class CoachStatus:
    """One seat's coach: `chosen` (it turned it on), `people` (the persons
    seated, it included) and how many of them turned it on, and `active`:
    the coach shows to this seat now."""

    chosen: bool
    people: int
    chosen_by: int

    @property
    def alone(self) -> bool:
        """The seat's only rivals are robots."""
        return self.people == 1

    @property
    def for_everyone(self) -> bool:
        return self.chosen_by == self.people

    @property
    def active(self) -> bool:
        return self.chosen and self.for_everyone


@dataclass(frozen=True, slots=True)
class Allowed:
    """One viewer's permissions at one moment (all false for a page that is
    no table's, as a lesson's)."""

    join: bool = False  # a free seat in the lobby, for a viewer without one
    start: bool = False  # the creator, with 2 to 4 seated
    manage: bool = False  # the creator in the lobby: robots, LAS PAREJAS
    chat: bool = False  # a seat
    leave: bool = False  # ABANDONAR / SALIR DEL JUEGO
    next_round: bool = False  # SIGUIENTE RONDA
    absence: bool = False  # TERMINAR POR AUSENCIA, against the seat that is absent
    absent_seat: int | None = None  # the engine seat idle past the absence hours
    rematch_offered: bool = False  # the game ended on points: its people may play again
    rematch_asked: bool = False  # the viewer asked for it
    rematch: bool = False  # the viewer may ask for it (propose or accept) now
    pairs_choice: bool = False  # the creator of a table of four: MANTENER or CAMBIAR


@dataclass(frozen=True, slots=True)
class TablePage:
    invite: str
    status: TableStatus
    target: int
    version: int  # every command must name the version it was made on
    seats: tuple[PageSeat, ...]  # lobby positions, sorted
    you: PageSeat | None  # None: a spectator (or a visitor who may still sit)
    view: View | None  # None in the lobby
    names: tuple[str, ...]  # by engine seat, while a game exists
    chat: tuple[ChatLine, ...]
    game_number: int
    can: Allowed  # what the viewer may do now (allowed.py): read, never worked out again
    partner_position: int | None  # LAS PAREJAS, with four
    robots: tuple[str, ...] = SEATABLE_KEYS  # the robots the creator may seat
    # Time on the table, read from the service's clock (None on a page made
    # without one): what the page's moments are relative to, since when the
    # seat on turn has had it, when TERMINAR POR AUSENCIA becomes possible
    # against that seat (a person's, while a round is played), and when the
    # table expires if nobody plays (a lobby or a game on).
    now: datetime | None = None
    turn_since: datetime | None = None
    absence_at: datetime | None = None
    expires_at: datetime | None = None
    # The game's story (escoba.web.table.story): the points of each finished round
    # of the game, and the series of games at this table (after a rematch).
    rounds: tuple[RoundPoints, ...] = ()
    series: SeriesScore | None = None
    # The table's rules (the site's, or the house rules its creator chose):
    # those of every game played at it.
    rules: RuleSet = SITE_RULES
    # The viewer's coach (escoba.web.table.coaching), while their game is played.
    coach: CoachStatus | None = None
