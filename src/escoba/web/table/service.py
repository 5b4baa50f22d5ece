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
| the other reads (record, version, log, the seat a live stream watches) | reads.py |
| the game's story: rounds' points, the series, replays, the record file | story.py |
| every game of a table by its number, rebuilt from the log | history.py |
| the analysis of finished rounds: queued, run (`AnalysisQueue`), read | analyses.py |
| the coach: chosen per seat, shown where it gives no edge | coaching.py |

`TableService` puts them together: one object for the app to hold.

What is no command or read of a table has a room of its own, its concerns
classes built by the app (app.py) on this service's database, store, clock
and settings, and handed to the routes beside it (`frame.deps.AppContext`):
a browser's device, «Mis mesas», «Seguir en otro dispositivo» and a seat's
devices (escoba.web.devices); which notices a seat hears of and those time
brings (escoba.web.notices).
"""

from __future__ import annotations

import random

from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.settings import Settings
from escoba.web.table.analyses import Analyses, AnalysisQueue
from escoba.web.table.chat import Chat
from escoba.web.table.coaching import Coaching
from escoba.web.table.command_path import CommitListener, RobotBrain
from escoba.web.table.ending import Ending
from escoba.web.table.jobs import Jobs
from escoba.web.table.page_building import PageBuilding
from escoba.web.table.reads import Reads
from escoba.web.table.rematch import Rematches


class TableService(
    Rematches,
    Jobs,
    Ending,
    Chat,
    PageBuilding,
    Reads,
    Analyses,
    Coaching,
):
    """Every concern's commands and reads on one command path (`CommandPath`
    holds what they share), and beside them the analyses' queue, the
    runners' face (`analysis_queue`)."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        clock: Clock,
        listener: CommitListener,
        brain: RobotBrain | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """`CommandPath`'s arguments."""
        super().__init__(db, settings, clock, listener, brain, rng)
        self.analysis_queue = AnalysisQueue(
            self.db, self.store, self.clock, self.settings, self._past_game
        )
