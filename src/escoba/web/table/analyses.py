"""The analysis of finished rounds in the web app (issue 28): every play of
every seat weighed by `escoba.analysis`, computed by the server in the
background, stored, and read by the replay, the end of a game and the API.

**Queued with the round.** The command that finishes a round queues its
analysis in its own transaction (`CommandPath.save` adds a row to
`round_analyses`: status `queued`), so a finished round is never left
without one, whatever process or crash follows.

**Computed in processes of their own, never the robots'.** A round's
analysis is seconds of CPU against a robot's milliseconds, so it never runs
in the robots' pool: a runner (`escoba.web.workers.analyses`) claims rounds
and weighs them, action by action, in processes of its own at a low
priority (`analysis_nice`). Each web process runs one (ESCOBA_ANALYSES=web,
the default), or only `escoba worker` processes do, on any machines that
share the database (ESCOBA_ANALYSES=worker). The progress (`done` of
`total`) is written after each action, for the pages that show it.

**Fair, and the rounds someone waits for first.** The queue is served in
this order (`AnalysisQueue.pending`): the rounds someone opened while queued
(`wanted_at`, set by `round_analysis`), then each table's oldest before any
table's second, so whoever finishes rounds fastest does not push everyone
else's back.

**Resumed after a restart.** A runner takes up the rows still `queued`
and the `running` ones whose `updated_at` is older than
`analysis_stale_seconds` (their process died: a live one writes its
progress every fraction of a second). Claiming is a conditional UPDATE, so
two processes never run the same row; `claimed_by` names the one that did.

**What may be read.** Only a finished round (every card in it was played
face up), of the game in play or of a game before it (a rematch keeps
them: escoba.web.table.history); a round still in play is a `Conflict`
(`round_in_play`), any other number is `NotFound`. A row queued for a game
a rematch replaced still runs, on that game rebuilt from the log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Final, cast

from sqlalchemy import Connection, Table, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from escoba.analysis import (
    THRESHOLDS,
    LunaEvaluator,
    RoundAnalysis,
    StepAnalysis,
    analyse_step,
    round_positions,
)
from escoba.analysis import (
    round_analysis as assemble_analysis,
)
from escoba.engine import Action, GameState, Phase, RecordError, RoundSummary
from escoba.web.base.clock import Clock
from escoba.web.base.db import Database
from escoba.web.base.errors import Conflict, NotFound
from escoba.web.base.models import RoundAnalysisRow
from escoba.web.base.settings import Settings
from escoba.web.table.command_path import Change, SideWrite
from escoba.web.table.history import GameHistory, PlayedGame, ReplayedGame
from escoba.web.table.store import Credential, TableRecord, TableStore, find_seat, queued_analysis

log = logging.getLogger("escoba.analyses")

STATUSES: Final = ("queued", "running", "done")
#: Rows a runner looks at for one claim (another runner may take some first).
CLAIM_CANDIDATES: Final = 8
#: Looks at the queue for one claim, at most.
CLAIM_PASSES: Final = 5

_A = cast(Table, RoundAnalysisRow.__table__)

_evaluators: dict[int, LunaEvaluator] = {}


def analyse_position(state: GameState, action: Action, step: int, worlds: int) -> StepAnalysis:
    """One action of a round weighed (in a worker of the pool): Luna at
    `worlds` worlds, made once per process."""
    evaluator = _evaluators.get(worlds)
    if evaluator is None:
        evaluator = _evaluators[worlds] = LunaEvaluator(worlds=worlds)
    return analyse_step(state, action, step=step, evaluator=evaluator)


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    """A claimed row: the round to analyse, action by action."""

    id: int
    table_id: int
    summary: RoundSummary
    players: int
    positions: tuple[tuple[int, GameState, Action], ...]


@dataclass(frozen=True, slots=True)
class AnalysisRead:
    """A round's analysis as a page or the API shows it: `status` (queued,
    running, done), its progress and, once done, the analysis."""

    invite: str
    round: int
    status: str
    done: int
    total: int
    analysis: RoundAnalysis | None
    names: tuple[str, ...]  # by engine seat
    robots: frozenset[int]
    # the engine seat of who reads it in that game (None: a spectator, the
    # API): the reasons of its own plays speak to it, the others' of them
    viewer: int | None = None


def viewer_seat(played: PlayedGame, token: Credential) -> int | None:
    """The engine seat `token` played in game `played`, if any."""
    seat = find_seat(played.table.seats, token)
    if seat is None or seat.position not in played.positions:
        return None
    return played.positions.index(seat.position)


class AnalysisQueue:
    """The rounds' analyses as a queue, the runners' face (escoba.web.workers.
    analyses, `escoba worker`): which rows to run and in what order, a row
    claimed by one runner only, its progress, given back, stored. Its
    collaborators: the database, the store, the clock, the settings, and
    the way to a game before a rematch (`past_game`: the table's history).
    Its writes touch the analyses' rows alone, never a table's: no version,
    no listener (docs/architecture.md, «Writes beside the commands»)."""

    def __init__(
        self,
        db: Database,
        store: TableStore,
        clock: Clock,
        settings: Settings,
        past_game: Callable[[Connection, TableRecord, int], ReplayedGame],
    ) -> None:
        self.db = db
        self.store = store
        self.clock = clock
        self.settings = settings
        self._past_game = past_game

    def worlds(self) -> int:
        return self.settings.analysis_worlds

    def pending(self, limit: int | None = None) -> list[int]:
        """The rows to run (queued, or running but stale), in the order they
        are served: those someone asked for while queued (`wanted_at`, the
        first asked first), then each table's oldest before any table's
        second (a table's rank among its own pending rows), then the oldest."""
        stale = self.clock.now() - timedelta(seconds=self.settings.analysis_stale_seconds)
        rank = func.row_number().over(partition_by=_A.c.table_id, order_by=_A.c.id)
        pending = (
            select(_A.c.id, _A.c.wanted_at, rank.label("rank"))
            .where(
                (_A.c.status == "queued") | ((_A.c.status == "running") & (_A.c.updated_at < stale))
            )
            .subquery()
        )
        query = select(pending.c.id).order_by(
            pending.c.wanted_at.is_(None), pending.c.wanted_at, pending.c.rank, pending.c.id
        )
        if limit is not None:
            query = query.limit(limit)
        with self.db.snapshot() as conn:
            return list(conn.scalars(query))

    def claim_next(self, claimer: str = "") -> AnalysisJob | None:
        """Claim the first row of `pending` that no other runner
        takes first (None: nothing to run, or others took every row it
        looked at, several times over: the next pass looks again)."""
        for _ in range(CLAIM_PASSES):
            candidates = self.pending(CLAIM_CANDIDATES)
            if not candidates:
                return None
            for analysis_id in candidates:
                job = self.claim(analysis_id, claimer)
                if job is not None:
                    return job
            # every candidate was taken by others or dropped: look again
        return None

    def backlog(self) -> tuple[int, float | None]:
        """The rounds waiting for their analysis or being analysed, and the
        age in seconds of the oldest of them (None: none), in one query (the
        metrics, read when scraped)."""
        with self.db.snapshot() as conn:
            count, oldest = conn.execute(
                select(func.count(), func.min(_A.c.created_at)).where(_A.c.status != "done")
            ).one()
        if oldest is None:
            return int(count), None
        return int(count), (self.clock.now() - oldest).total_seconds()

    def claim(self, analysis_id: int, claimer: str = "") -> AnalysisJob | None:
        """Take the row to run it (None: another process has it, or it is
        done, or its game is gone: then the row is dropped). `claimer`
        names the process (`host:pid`)."""
        now = self.clock.now()
        stale = now - timedelta(seconds=self.settings.analysis_stale_seconds)
        with self.db.write() as conn:
            claimed = conn.execute(
                update(_A)
                .where(
                    _A.c.id == analysis_id,
                    (_A.c.status == "queued")
                    | ((_A.c.status == "running") & (_A.c.updated_at < stale)),
                )
                .values(status="running", done=0, updated_at=now, claimed_by=claimer[:64] or None)
            )
            if claimed.rowcount != 1:
                return None
            row = conn.execute(select(_A).where(_A.c.id == analysis_id)).one()
        state = None
        summary = None
        with self.db.snapshot() as conn:
            found = self.store.read(conn, "id", row.table_id)
            if found is not None and found[1] is not None:
                table, state = found
                if row.game_number != table.game_number:  # a game before a rematch
                    try:
                        state = self._past_game(conn, table, row.game_number).state
                    except NotFound:
                        state = None
        if state is not None:
            summary = next((r for r in state.finished_rounds if r.number == row.round), None)
        positions = None
        if state is not None and summary is not None:
            try:
                positions = tuple(round_positions(summary, state.players, state.rules))
            except RecordError:
                log.exception("a stored round does not replay", extra={"table_id": row.table_id})
        if state is None or summary is None or positions is None:
            with self.db.write() as conn:
                conn.execute(delete(_A).where(_A.c.id == analysis_id))
            return None
        return AnalysisJob(row.id, row.table_id, summary, state.players, positions)

    def progress(self, analysis_id: int, done: int) -> None:
        with self.db.write() as conn:
            conn.execute(
                update(_A)
                .where(_A.c.id == analysis_id, _A.c.status == "running")
                .values(done=done, updated_at=self.clock.now())
            )

    def release(self, analysis_id: int) -> None:
        """A runner that stops gives back a row it had not finished: queued
        again, for the next runner to take from its start."""
        with self.db.write() as conn:
            conn.execute(
                update(_A)
                .where(_A.c.id == analysis_id, _A.c.status == "running")
                .values(status="queued", done=0, updated_at=self.clock.now())
            )

    def finish(self, job: AnalysisJob, steps: list[StepAnalysis]) -> RoundAnalysis:
        """Store the analysis made of `steps` (the job's, in order)."""
        worlds = self.worlds()
        result = assemble_analysis(
            job.summary, job.players, LunaEvaluator(worlds=worlds).describe(), THRESHOLDS, steps
        )
        with self.db.write() as conn:
            conn.execute(
                update(_A)
                .where(_A.c.id == job.id)
                .values(
                    status="done",
                    done=len(steps),
                    total=len(steps),
                    analysis=result.to_json(),
                    updated_at=self.clock.now(),
                )
            )
        return result

    def run_all(self) -> int:
        """Run every pending analysis here and now, in this thread (tests,
        `robot_inline`): the runner's work without its pool. The number run."""
        count = 0
        worlds = self.worlds()
        while (job := self.claim_next()) is not None:
            steps = []
            for number, state, action in job.positions:
                steps.append(analyse_position(state, action, number, worlds))
                self.progress(job.id, number)
            self.finish(job, steps)
            count += 1
        return count


class Analyses:
    """The reads of the rounds' analyses, on the database, the clock and
    the table's games by number (`history`); a read that finds a finished
    round without its row queues it through the path's door for writes
    beside the commands (`write`). The runners' face is `AnalysisQueue`,
    which the service holds as `analysis_queue`."""

    def __init__(self, db: Database, clock: Clock, write: SideWrite, history: GameHistory) -> None:
        self.db = db
        self.clock = clock
        self.write = write
        self.history = history

    # ------------------------------------------------------------------
    # Reads

    def round_analysis(
        self, invite: str, number: int, game: int | None = None, viewer: Credential = None
    ) -> AnalysisRead:
        """The analysis of round `number` of game `game` (None: the game in
        play): a finished round's (queued again if its row is missing: a
        round finished before the analysis existed); Conflict for the round
        in play; else NotFound (`no_such_game` for a game the table never
        reached). `viewer`: who reads it (a seat's token or held seat), to
        know their seat in that game."""
        with self.db.snapshot() as conn:
            played = self.history.game_of(conn, invite, game)
            table, state = played.table, played.state
            if state is None:
                raise NotFound("no_round")
            summary = next((r for r in state.finished_rounds if r.number == number), None)
            if summary is None:
                if number == state.round.number and state.phase is not Phase.GAME_OVER:
                    raise Conflict("round_in_play")
                raise NotFound("no_round")
            row = conn.execute(
                select(_A).where(
                    _A.c.table_id == table.id,
                    _A.c.game_number == played.number,
                    _A.c.round == number,
                )
            ).one_or_none()
        if row is None:
            self._queue_missing(table.id, played.number, summary)
        elif row.status == "queued" and row.wanted_at is None:
            self._want(row.id)
        analysis = None
        if row is not None and row.status == "done" and row.analysis is not None:
            analysis = RoundAnalysis.from_json(row.analysis)
        return AnalysisRead(
            invite=table.invite,
            round=number,
            status="queued" if row is None else row.status,
            done=0 if row is None else row.done,
            total=len(summary.actions) if row is None else row.total,
            analysis=analysis,
            names=played.names,
            robots=played.robots,
            viewer=viewer_seat(played, viewer),
        )

    def game_analyses(self, invite: str, game: int | None = None) -> tuple[AnalysisRead, ...]:
        """Every finished round's analysis of game `game` (None: the game in
        play), in order."""
        state = self.history.played_game(invite, game).state
        if state is None:
            return ()
        return tuple(self.round_analysis(invite, r.number, game) for r in state.finished_rounds)

    def _want(self, analysis_id: int) -> None:
        """Someone waits for this queued round: it goes before the backlog."""
        with self.db.write() as conn:
            conn.execute(
                update(_A)
                .where(_A.c.id == analysis_id, _A.c.wanted_at.is_(None))
                .values(wanted_at=self.clock.now())
            )

    def _queue_missing(self, table_id: int, game_number: int, summary: RoundSummary) -> None:
        """A finished round without its analysis's row (a game played before
        the analysis existed): queued now, and wanted, for a page waits."""
        row = queued_analysis(table_id, game_number, summary, self.clock.now(), wanted=True)

        def write(conn: Connection) -> Change:
            conn.execute(insert(_A).values(**row))
            return Change(table_id, None, analysis_queued=True)

        try:
            self.write(write)
        except IntegrityError:
            return  # queued meanwhile by another read
