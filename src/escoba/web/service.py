"""The table service: every command and read of a table, for people's
browsers, the JSON API, the robots and the server's jobs.

Each concern lives in its own module around the one command path
(command_path.py), as lichess's round module does (Finisher, Rematcher…):

| concern | module |
|---|---|
| the command path, and who is acting | command_path.py |
| storage: records, the unit of work, caches | store.py |
| refusals | errors.py |
| opening a table, seats, robots, LAS PAREJAS, starting | lobby.py |
| LLEVAR, DEJAR EN LA MESA, LLEVAR EL 15, SIGUIENTE RONDA | play.py |
| ABANDONAR, TERMINAR POR AUSENCIA | ending.py |
| la revancha | rematch.py |
| the chat | chat.py |
| robots' moves, overdue robots, expiry | jobs.py |
| what one viewer sees | page_building.py |
| the other reads (record, version, log) | reads.py |

`TableService` puts them together: one object for the app to hold.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from escoba.web.chat import Chat
from escoba.web.clock import Clock
from escoba.web.command_path import Notifier
from escoba.web.db import Database
from escoba.web.ending import Ending
from escoba.web.jobs import Jobs, RobotBrain, robot_brain
from escoba.web.page_building import PageBuilding
from escoba.web.reads import Reads
from escoba.web.rematch import Rematches
from escoba.web.settings import Settings


class TableService(Rematches, Jobs, Ending, Chat, PageBuilding, Reads):
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
        super().__init__(db, settings, clock, notifier, rng=rng, on_robot_turn=on_robot_turn)
        self.brain = brain or robot_brain
