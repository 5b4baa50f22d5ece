"""The robots that take a free seat: Tito, Carmen and Luna (plus `random` and
`greedy` for benchmarks). Each is made by name and plays from its seat's view:

    robot = get_robot("luna")
    action = robot.choose(view, rng)
"""

from __future__ import annotations

from collections.abc import Callable

from escoba.bots.base import NotMyTurn, Robot
from escoba.bots.carmen import Carmen
from escoba.bots.luna import Luna
from escoba.bots.simple import GreedyRobot, RandomRobot, Tito

#: Robots that may take a seat, by name. The benchmark cheater is not here:
#: it needs the whole state, and no table may ever seat it.
ROBOTS: dict[str, Callable[[], Robot]] = {
    "tito": Tito,
    "carmen": Carmen,
    "luna": Luna,
    "random": RandomRobot,
    "greedy": GreedyRobot,
}

#: The robots a table's creator chooses from.
SEATABLE_FOR_PLAYERS = ("carmen", "tito", "luna")


def get_robot(name: str) -> Robot:
    """A new robot by registry name; raises KeyError for an unknown name."""
    try:
        factory = ROBOTS[name.strip().lower()]
    except KeyError:
        known = ", ".join(ROBOTS)
        raise KeyError(f"unknown robot {name!r} (known: {known})") from None
    return factory()


__all__ = ["ROBOTS", "SEATABLE_FOR_PLAYERS", "NotMyTurn", "Robot", "get_robot"]
