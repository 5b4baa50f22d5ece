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
| which notices a seat hears of | notice_choices.py |
| the notices time brings (warnings, absence, expiry) | notice_sweep.py |
| «Mis mesas»: a device's tables | my_tables.py |
| «Seguir en otro dispositivo»: transfer codes | transfers.py |
| a seat's devices, revoking one | seat_devices.py |
| the analysis of finished rounds: queued, run, read | analyses.py |
| the coach: chosen per seat, shown where it gives no edge | coaching.py |

`TableService` puts them together: one object for the app to hold.
"""

from __future__ import annotations

from escoba.web.analyses import Analyses
from escoba.web.chat import Chat
from escoba.web.coaching import Coaching
from escoba.web.ending import Ending
from escoba.web.jobs import Jobs
from escoba.web.my_tables import Listing
from escoba.web.notice_choices import NoticeChoices
from escoba.web.notice_sweep import NoticeSweeps
from escoba.web.page_building import PageBuilding
from escoba.web.reads import Reads
from escoba.web.rematch import Rematches
from escoba.web.seat_devices import SeatDevices
from escoba.web.transfers import Transfers


class TableService(
    Rematches,
    Jobs,
    Ending,
    Chat,
    PageBuilding,
    Reads,
    NoticeChoices,
    NoticeSweeps,
    Listing,
    Transfers,
    SeatDevices,
    Analyses,
    Coaching,
):
    """Every concern's commands and reads on one command path (`CommandPath`
    holds what they share; its constructor is this one's)."""
