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
| the game's story: rounds' points, the series, replays, the record file | story.py |
| every game of a table by its number, rebuilt from the log | history.py |
| «Mis mesas»: a device's tables | my_tables.py |
| «Seguir en otro dispositivo»: transfer codes | transfers.py |
| a seat's devices, revoking one | seat_devices.py |
| the analysis of finished rounds: queued, run, read | analyses.py |
| the coach: chosen per seat, shown where it gives no edge | coaching.py |

`TableService` puts them together: one object for the app to hold.
"""

from __future__ import annotations

from escoba.web.table.analyses import Analyses
from escoba.web.table.chat import Chat
from escoba.web.table.coaching import Coaching
from escoba.web.table.ending import Ending
from escoba.web.table.jobs import Jobs
from escoba.web.table.my_tables import Listing
from escoba.web.table.page_building import PageBuilding
from escoba.web.table.reads import Reads
from escoba.web.table.rematch import Rematches
from escoba.web.table.seat_devices import SeatDevices
from escoba.web.table.transfers import Transfers


class TableService(
    Rematches,
    Jobs,
    Ending,
    Chat,
    PageBuilding,
    Reads,
    Listing,
    Transfers,
    SeatDevices,
    Analyses,
    Coaching,
):
    """Every concern's commands and reads on one command path (`CommandPath`
    holds what they share; its constructor is this one's)."""
