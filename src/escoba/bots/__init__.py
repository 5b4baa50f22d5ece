"""The robots that take a free seat: Tito, Carmen and Luna (plus `random`,
`greedy` and `club`, the human-like club player, for benchmarks only: they
are in `ROBOTS` but not in `SEATABLE`). Each is made by name and plays from
its seat's view:

    robot = get_robot("luna")
    action = robot.choose(view, rng)

`SEATABLE` is the one list of the robots a table's creator may seat, in the
order a page offers them; the web layer takes their keys and names from it.

The rule of this package: **robots never see a game state.** A module here
imports from the engine only what a seat's view is made of, never the state:

- allowed: `escoba.engine.view` for `View` and `SeatInfo` (not `view()` or
  `spectator_view()`, which read a state), and the value modules a view is
  built from: `engine.actions`, `engine.captures`, `engine.cards`,
  `engine.errors`, `engine.rules`, `engine.seats`;
- forbidden: `escoba.engine` itself (it re-exports `GameState`, `new_game`,
  `apply`…), `engine.state` (`GameState`, `RoundState`: every hand and the
  deck), `engine.game`, `engine.record`, `engine.serialize`,
  `engine.scoring`, `engine.events`, and anything else of `escoba` outside
  this package (the tournament, the web, the cheater).

What needs the hidden cards lives outside: the benchmark cheater and
`true_world(state)` in `escoba.cheater`, beside the tournament that runs it.
tests/bots/test_bots_rule.py reads every module's imports and holds them to
this rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal

from escoba.bots.base import NotMyTurn, Robot
from escoba.bots.carmen import Carmen
from escoba.bots.club import Club
from escoba.bots.luna import Luna
from escoba.bots.simple import GreedyRobot, RandomRobot, Tito

#: Every robot, by name: the seatable ones and those of benchmarks only. The
#: benchmark cheater is not here: it needs the whole state, and no table may
#: ever seat it.
ROBOTS: dict[str, Callable[[], Robot]] = {
    robot.name: robot for robot in (Tito, Carmen, Luna, RandomRobot, GreedyRobot, Club)
}


#: How well a seatable robot plays, weakest first (README: the tournament's
#: figures): Tito is learning, Carmen plays well, Luna plays strong.
RobotLevel = Literal["learning", "good", "strong"]
LEVELS: Final[tuple[RobotLevel, ...]] = ("learning", "good", "strong")


@dataclass(frozen=True, slots=True)
class RobotInfo:
    """A robot a table's creator may seat. `key` is what the database stores
    and the API sends ("luna"); `display_name` is what players read ("Luna",
    a name: never translated); `level` says how well it plays, as a code the
    pages turn into words (`escoba.words`: `robot_level_<level>`, a word
    beside the name, and `robot_about_<level>`, a short description); `make`
    builds one."""

    key: str
    display_name: str
    level: RobotLevel
    make: Callable[[], Robot]


def _info(robot: type[Carmen | Tito | Luna], level: RobotLevel) -> RobotInfo:
    return RobotInfo(key=robot.name, display_name=robot.display_name, level=level, make=robot)


#: The robots a table's creator may seat, by key, in the order offered.
SEATABLE: Final[Mapping[str, RobotInfo]] = MappingProxyType(
    {
        info.key: info
        for info in (_info(Carmen, "good"), _info(Tito, "learning"), _info(Luna, "strong"))
    }
)
#: Their keys, in that order (for a schema's enum or a form's choices).
SEATABLE_KEYS: Final[tuple[str, ...]] = tuple(SEATABLE)


def get_robot(name: str) -> Robot:
    """A new robot by registry name; raises KeyError for an unknown name."""
    try:
        factory = ROBOTS[name.strip().lower()]
    except KeyError:
        known = ", ".join(ROBOTS)
        raise KeyError(f"unknown robot {name!r} (known: {known})") from None
    return factory()


__all__ = [
    "ROBOTS",
    "SEATABLE",
    "SEATABLE_KEYS",
    "NotMyTurn",
    "Robot",
    "RobotInfo",
    "get_robot",
]
