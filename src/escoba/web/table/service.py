"""The table service: every command and read of a table, for people's
browsers, the JSON API, the robots and the server's jobs.

Each concern is a class of its own module, given what it needs (lichess's
round module has `Finisher` and `Rematcher` so): the commands are given
the one command path (command_path.py), the reads the database and the
store, and a concern that builds on another is given it.

| concern | module | the service's |
|---|---|---|
| the command path, and who is acting | command_path.py | `path` |
| storage: records, the unit of work, caches | store.py | `store` |
| refusals | escoba.web.base.errors | |
| opening a table, seats, robots, LAS PAREJAS, starting | lobby.py | `lobby` |
| LLEVAR, DEJAR EN LA MESA, LLEVAR EL 15, SIGUIENTE RONDA | play.py | `playing` |
| ABANDONAR, TERMINAR POR AUSENCIA | ending.py | `ending` |
| la revancha | rematch.py | `rematches` |
| the chat | chat.py | `chat` |
| robots' moves, overdue robots, expiry | jobs.py | `jobs` |
| what one viewer sees | page_building.py | `pages` |
| the other reads (record, version, log, the seat a live stream watches) | reads.py | `reads` |
| the game's story: rounds' points, the series, replays, the record file | story.py | `story` |
| every game of a table by its number, rebuilt from the log | history.py | `history` |
| the analyses of finished rounds, read (and queued if missing) | analyses.py | `analyses` |
| the analyses' queue, the runners' face | analyses.py | `analysis_queue` |
| the coach: chosen per seat, shown where it gives no edge | coaching.py | `coaching` |

`TableService` builds them: one object for the app to hold, whose concerns
the routes call by name (`service.playing.act(…)`).

What is no command or read of a table has a room of its own, its concerns
classes built by the app (app.py) on this service's database, store, clock,
settings and path, and handed to the routes beside it
(`frame.deps.AppContext`): a browser's device, «Mis mesas», «Seguir en otro
dispositivo» and a seat's devices (escoba.web.devices); which notices a
seat hears of and those time brings (escoba.web.notices).
"""

from __future__ import annotations

import random

from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.settings import Settings
from escoba.web.table.analyses import Analyses, AnalysisQueue
from escoba.web.table.chat import Chat
from escoba.web.table.coaching import Coaching
from escoba.web.table.command_path import CommandPath, CommitListener, RobotBrain
from escoba.web.table.ending import Ending
from escoba.web.table.history import GameHistory
from escoba.web.table.jobs import Jobs
from escoba.web.table.lobby import Lobby
from escoba.web.table.page_building import PageBuilding
from escoba.web.table.play import Playing
from escoba.web.table.reads import Reads
from escoba.web.table.rematch import Rematches
from escoba.web.table.story import StoryReads


class TableService:
    """A table's concerns, each built once on the one command path (`path`)
    or on the database and the store, and what they share, for those who
    need it beside them (the app's other rooms): the database, the
    settings, the clock, the store and the commit hook (`after_commit`)."""

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
        self.path = path = CommandPath(db, settings, clock, listener, brain, rng)
        self.db = db
        self.settings = settings
        self.clock = clock
        self.store = store = path.store
        self.after_commit = path.after_commit
        # the commands, on the path
        self.lobby = Lobby(path)
        self.playing = Playing(path)
        self.ending = Ending(path)
        self.rematches = Rematches(path, self.lobby)
        self.chat = Chat(path)
        self.coaching = Coaching(path)
        self.jobs = Jobs(path, self.playing)
        # the reads
        self.reads = Reads(db, store)
        self.history = GameHistory(db, store)
        self.story = StoryReads(db, store, self.history)
        self.pages = PageBuilding(db, store, clock, settings, self.story)
        self.analyses = Analyses(db, clock, path.write, self.history)
        self.analysis_queue = AnalysisQueue(db, store, clock, settings, self.history.past_game)
