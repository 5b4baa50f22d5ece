"""The analysis of finished rounds in the web app (issue 28): every play of
every seat weighed by `escoba.analysis`, computed by the server in the
background, stored, and read by the replay, the end of a game and the API.

**Queued with the round.** The command that finishes a round queues its
analysis in its own transaction (`CommandPath._save` adds a row to
`round_analyses`: status `queued`), so a finished round is never left
without one, whatever process or crash follows.

**Computed in the robots' worker pool, fairly.** A round's analysis is
~10.5 s of CPU at 512 worlds. The runner (`AnalysisRunner`, on the event
loop) sends it to the pool one action at a time (`analyse_position`, each a
fraction of a second) in the pool's *background lane*
(`ThinkingPool.run_background`): at most one background job runs at a
time, and a free worker always takes a robot's move first, so one table's
analyses delay another table's robot by at most one action's weighing, and
only when every worker is busy with it. The progress (`done` of `total`)
is written after each action, for the pages that show it.

**Resumed after a restart.** A process takes up, at start and then every
`robot_sweep_seconds`, the rows still `queued` and the `running` ones whose
`updated_at` is older than `STALE_SECONDS` (their process died: a live one
writes its progress every fraction of a second). Claiming is a conditional
UPDATE, so two processes never run the same row.

**What may be read.** Only a finished round (every card in it was played
face up), of the game in play or of a game before it (a rematch keeps
them: escoba.web.table.history); a round still in play is a `Conflict`
(`round_in_play`), any other number is `NotFound`. A row queued for a game
a rematch replaced still runs, on that game rebuilt from the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final, cast

from anyio import to_thread
from sqlalchemy import Table, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

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
from escoba.web.base.errors import Conflict, NotFound
from escoba.web.base.models import RoundAnalysisRow
from escoba.web.table.command_path import AfterOnly, Change
from escoba.web.table.history import GameHistory, PlayedGame
from escoba.web.table.store import Credential, find_seat

log = logging.getLogger("escoba.analyses")

#: A `running` row not written for this long lost its process.
STALE_SECONDS: Final = 60.0
STATUSES: Final = ("queued", "running", "done")

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


class Analyses(GameHistory):
    """The service's reads and the runner's writes of `round_analyses`."""

    def analysis_worlds(self) -> int:
        return self.settings.analysis_worlds

    def pending_analyses(self) -> list[int]:
        """The rows to run: queued, or running but stale (oldest first)."""
        stale = self.clock.now() - timedelta(seconds=STALE_SECONDS)
        with self.db.snapshot() as conn:
            return list(
                conn.scalars(
                    select(_A.c.id)
                    .where(
                        (_A.c.status == "queued")
                        | ((_A.c.status == "running") & (_A.c.updated_at < stale))
                    )
                    .order_by(_A.c.id)
                )
            )

    def analysis_backlog(self) -> tuple[int, float | None]:
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

    def claim_analysis(self, analysis_id: int) -> AnalysisJob | None:
        """Take the row to run it (None: another process has it, or it is
        done, or its game is gone: then the row is dropped)."""
        now = self.clock.now()
        stale = now - timedelta(seconds=STALE_SECONDS)
        with self.db.write() as conn:
            claimed = conn.execute(
                update(_A)
                .where(
                    _A.c.id == analysis_id,
                    (_A.c.status == "queued")
                    | ((_A.c.status == "running") & (_A.c.updated_at < stale)),
                )
                .values(status="running", done=0, updated_at=now)
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

    def analysis_progress(self, analysis_id: int, done: int) -> None:
        with self.db.write() as conn:
            conn.execute(
                update(_A)
                .where(_A.c.id == analysis_id, _A.c.status == "running")
                .values(done=done, updated_at=self.clock.now())
            )

    def finish_analysis(self, job: AnalysisJob, steps: list[StepAnalysis]) -> RoundAnalysis:
        """Store the analysis made of `steps` (the job's, in order)."""
        worlds = self.analysis_worlds()
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

    def analyse_queued(self) -> int:
        """Run every pending analysis here and now, in this thread (tests,
        `robot_inline`): the runner's work without its pool. The number run."""
        count = 0
        worlds = self.analysis_worlds()
        for analysis_id in self.pending_analyses():
            job = self.claim_analysis(analysis_id)
            if job is None:
                continue
            steps = []
            for number, state, action in job.positions:
                steps.append(analyse_position(state, action, number, worlds))
                self.analysis_progress(job.id, number)
            self.finish_analysis(job, steps)
            count += 1
        return count

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
            played = self._game_of(conn, invite, game)
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
        state = self.played_game(invite, game).state
        if state is None:
            return ()
        return tuple(self.round_analysis(invite, r.number, game) for r in state.finished_rounds)

    def _queue_missing(self, table_id: int, game_number: int, summary: RoundSummary) -> None:
        now = self.clock.now()
        try:
            with self.db.write() as conn:
                conn.execute(
                    insert(_A).values(
                        table_id=table_id,
                        game_number=game_number,
                        round=summary.number,
                        status="queued",
                        done=0,
                        total=len(summary.actions),
                        analysis=None,
                        created_at=now,
                        updated_at=now,
                    )
                )
        except IntegrityError:
            return  # queued meanwhile by another read
        self.after_commit.after(Change(table_id, None, analysis_queued=True))


class AnalysisRunner(AfterOnly):
    """Runs the queued analyses in the robots' pool, one action at a time in
    its background lane (see the module), on the event loop."""

    def __init__(self, service: Analyses, pool: Any, sweep_seconds: float, worlds: int) -> None:
        self._service = service
        self._pool = pool
        self._sweep_seconds = sweep_seconds
        self._worlds = worlds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._loop_thread = threading.get_ident()
        self._wake = asyncio.Event()
        self._task = loop.create_task(self._run())

    def after(self, change: Change) -> None:
        """The commit hook's listener: wake up when an analysis was queued."""
        if change.analysis_queued:
            self.wake()

    def wake(self) -> None:
        """From any thread: an analysis was queued."""
        loop, wake = self._loop, self._wake
        if loop is None or wake is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            wake.set()
        else:
            loop.call_soon_threadsafe(wake.set)

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            self._wake.clear()
            try:
                for analysis_id in await to_thread.run_sync(self._service.pending_analyses):
                    await self._analyse(analysis_id)
            except asyncio.CancelledError:
                raise
            except OperationalError:  # the database is away: the next pass looks again
                log.warning("analyses wait for the database")
            except Exception:  # an analysis's failure must not take the server down
                log.exception("analysis failed")
            timeout = self._sweep_seconds if self._sweep_seconds > 0 else None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    async def _analyse(self, analysis_id: int) -> None:
        service = self._service
        job = await to_thread.run_sync(service.claim_analysis, analysis_id)
        if job is None:
            return
        steps: list[StepAnalysis] = []
        for number, state, action in job.positions:
            steps.append(
                await self._pool.run_background(
                    analyse_position, state, action, number, self._worlds
                )
            )
            await to_thread.run_sync(service.analysis_progress, job.id, number)
        await to_thread.run_sync(service.finish_analysis, job, steps)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
