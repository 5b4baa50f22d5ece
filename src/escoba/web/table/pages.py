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
    can_join: bool  # a free seat in the lobby
    can_start: bool  # you are the creator and 2-4 are seated
    can_manage: bool  # you are the creator in the lobby (robots, partner)
    partner_position: int | None  # LAS PAREJAS, with four
    can_chat: bool
    absence_available: bool  # TERMINAR POR AUSENCIA may be pressed by you now
    absent_seat: int | None  # engine seat idle > 48 h, if any
    can_leave: bool  # ABANDONAR / SALIR DEL JUEGO
    can_next_round: bool  # SIGUIENTE RONDA
    rematch_possible: bool  # the game ended on points: a rematch may be played (by its people)
    rematch_needs_pairs_choice: bool  # four players: MANTENER or CAMBIAR
    rematch_accepted_by_you: bool
    result_text: str | None  # how the game ended, in Spanish: the API's `result` (say_result)
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
