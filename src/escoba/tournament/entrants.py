"""The players of a match: a robot seated by name, which gets its seat's view
and nothing else, or the benchmark cheater, which sees every card (never
seatable at a table)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from escoba.bots import ROBOTS, Robot, get_robot
from escoba.cheater import Cheater
from escoba.engine import GameState, view
from escoba.engine.actions import Action

#: Benchmark-only entrants, never seatable at a table.
BENCHMARK_ONLY = ("cheater",)


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
        robot = _ROBOT_CACHE[name] = get_robot(name)
    return robot


def entrant(name: str) -> _Player:
    if name == "cheater":
        return _CheaterPlayer()
    if name not in ROBOTS:
        known = ", ".join([*ROBOTS, *BENCHMARK_ONLY])
        raise ValueError(f"unknown robot {name!r} (known: {known})")
    return _ViewPlayer(name)
