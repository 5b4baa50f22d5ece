"""The players of a match: a robot seated by name, which gets its seat's view
and nothing else, a frozen robot (a robot as it was on a date, to measure a
new version against on the same deals), or the benchmark cheater, which sees
every card. Neither of the last two is ever seatable at a table."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from escoba.bots import ROBOTS, Robot, get_robot
from escoba.bots.luna import PlayedOutLuna
from escoba.cheater import Cheater
from escoba.engine import GameState, view
from escoba.engine.actions import Action

#: Robots as they were, by name: each pins every setting of its day, so a
#: change of the robot's defaults leaves it as it was (its code is today's:
#: a change there is measured against it before it is kept). `luna-2026-12`
#: is Luna at the plateau of issue 16 (bench/RESULTS-bots.md), the mark a
#: new Luna must beat by +0.1 on the same deals (issue 27). She pins her
#: time and worlds, and her playouts to the round's end (`PlayedOutLuna`);
#: the rest of that day's settings are no longer settings but what Luna
#: always does (the careful playout, Carmen's answer to each candidate,
#: worlds weighed at beta 25 (`inference.BETA`), Carmen's judgement at
#: weight 1.0 (`luna.PRIOR`), the exact last deal): like her code, they are
#: today's, and a change of them is measured against her before it is kept
#: (bench/research_luna.py's `TunableLuna` varies them).
FROZEN: dict[str, Callable[[], Robot]] = {
    "luna-2026-12": lambda: PlayedOutLuna(budget=0.15, min_worlds=6, max_worlds=64, limit=0.4),
}

#: Benchmark-only entrants, never seatable at a table.
BENCHMARK_ONLY = ("cheater", *FROZEN)


class _Player(Protocol):
    @property
    def name(self) -> str: ...

    def act(self, state: GameState, seat: int, rng: random.Random) -> Action: ...


@dataclass(frozen=True, slots=True)
class _ViewPlayer:
    """A seatable robot: it gets its seat's view, nothing else."""

    name: str

    def act(self, state: GameState, seat: int, rng: random.Random) -> Action:
        return _robot(self.name).choose(view(state, seat), rng)


@dataclass(frozen=True, slots=True)
class _CheaterPlayer:
    name: str = "cheater"

    def act(self, state: GameState, seat: int, rng: random.Random) -> Action:
        return _CHEATER.choose_seeing(state, seat, rng)


_CHEATER = Cheater()
_ROBOT_CACHE: dict[str, Robot] = {}


def _robot(name: str) -> Robot:
    robot = _ROBOT_CACHE.get(name)
    if robot is None:
        frozen = FROZEN.get(name)
        robot = _ROBOT_CACHE[name] = frozen() if frozen else get_robot(name)
    return robot


def entrant(name: str) -> _Player:
    if name == "cheater":
        return _CheaterPlayer()
    if name not in ROBOTS and name not in FROZEN:
        known = ", ".join([*ROBOTS, *BENCHMARK_ONLY])
        raise ValueError(f"unknown robot {name!r} (known: {known})")
    return _ViewPlayer(name)
