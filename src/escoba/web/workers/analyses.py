"""The runner of the rounds' analyses (escoba.web.table.analyses: `AnalysisQueue`): it
claims queued rounds and weighs them, action by action, in worker processes
of its own at a low priority — never in the robots' pool, so a robot never
waits for an analysis.

Each web process runs one (ESCOBA_ANALYSES=web, the default: the one-command
SQLite set-up analyses its rounds by itself), or `escoba worker` processes
alone do (ESCOBA_ANALYSES=worker), any number of them on any machines that
share the database: `escoba.web.worker`.

**Lanes.** One lane per process of the pool, each a task on the event loop
that claims a round (`AnalysisQueue.claim_next`: a conditional UPDATE,
so two runners never run one row), sends its actions to the pool one after
the other, writes the progress after each, and stores the analysis. An idle
lane waits for a wake-up (a round this process finished: the commit hook)
or `analysis_poll_seconds` (a round another process finished).

**A stop gives back what it holds.** A runner that stops puts the rounds it
had not finished back in the queue; one that dies leaves them `running`,
and they are taken up once `analysis_stale_seconds` have passed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from anyio import to_thread
from sqlalchemy.exc import OperationalError

from escoba.analysis import StepAnalysis
from escoba.web.table.analyses import AnalysisJob, AnalysisQueue, analyse_position
from escoba.web.table.command_path import AfterOnly, Change
from escoba.web.workers.processes import LoopCall, new_pool, warmed_pool

log = logging.getLogger("escoba.analyses")


def process_name() -> str:
    """`host:pid`: who claimed a row (`round_analyses.claimed_by`)."""
    return f"{socket.gethostname()}:{os.getpid()}"[-64:]


#: What each analysis process imports before its first round.
WARM = ("escoba.analysis", "escoba.bots")


class AnalysisRunner(AfterOnly):
    """Runs the queued analyses in `processes` processes of its own (one
    thread of this process when 0), at niceness `nice` (see the module)."""

    def __init__(
        self,
        queue: AnalysisQueue,
        processes: int,
        worlds: int,
        *,
        nice: int = 0,
        poll_seconds: float = 2.0,
    ) -> None:
        self._queue = queue
        self._processes = processes
        self._worlds = worlds
        self._nice = nice
        self._poll_seconds = poll_seconds
        self.claimer = process_name()
        self._executor: Executor | None = None
        self._call = LoopCall()
        self._wake: asyncio.Event | None = None
        self._lanes: list[asyncio.Task[None]] = []
        self._holding: set[int] = set()  # the rows this runner claimed and runs

    @property
    def lanes(self) -> int:
        return max(1, self._processes)

    def start_pool(self) -> None:
        """From the event loop, at start-up and before the process starts any
        thread of its own: the workers are forked from it, and a fork copies
        only the thread that makes it."""
        self._executor = warmed_pool(self._processes, "escoba-analysis", WARM, self._nice)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start the lanes: they take up the rounds left queued or running."""
        self._call.bind(loop)
        self._wake = asyncio.Event()
        self._lanes = [loop.create_task(self._lane()) for _ in range(self.lanes)]

    def after(self, change: Change) -> None:
        """The commit hook's listener: wake up when an analysis was queued."""
        if change.analysis_queued:
            self.wake()

    def wake(self) -> None:
        """From any thread: an analysis was queued."""
        if self._wake is not None:
            self._call(self._wake.set)

    async def _lane(self) -> None:
        wake = self._wake
        assert wake is not None
        while True:
            wake.clear()
            job = None
            try:
                job = await to_thread.run_sync(self._queue.claim_next, self.claimer)
            except asyncio.CancelledError:
                raise
            except OperationalError:  # the database is away: the next pass looks again
                log.warning("analyses wait for the database")
            except Exception:  # the runner must not die of one round
                log.exception("claiming an analysis failed")
            if job is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), self._poll_seconds)
                continue
            wake.set()  # the other lanes look too: more may be queued
            self._holding.add(job.id)
            try:
                await self._analyse(job)
            except asyncio.CancelledError:
                raise
            except OperationalError:
                log.warning("an analysis waits for the database", extra={"id": job.id})
            except Exception:  # left running: taken up again once stale
                log.exception("analysis failed", extra={"id": job.id})
            self._holding.discard(job.id)

    async def _analyse(self, job: AnalysisJob) -> None:
        queue = self._queue
        steps: list[StepAnalysis] = []
        for number, state, action in job.positions:
            steps.append(await self._run(analyse_position, state, action, number, self._worlds))
            await to_thread.run_sync(queue.progress, job.id, number)
        await to_thread.run_sync(queue.finish, job, steps)
        log.info(
            "round analysed",
            extra={"id": job.id, "table_id": job.table_id, "round": job.summary.number},
        )

    async def _run(self, fn: Any, *args: Any) -> Any:
        """`fn(*args)` in the pool; a pool broken by a worker's death (killed,
        out of memory) is replaced, and the call tried once more."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            if self._executor is None:
                self._executor = new_pool(self._processes, "escoba-analysis", self._nice)
            try:
                return await loop.run_in_executor(self._executor, fn, *args)
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                log.error("analysis pool broken; starting a new one")
                self._executor = None
        raise AssertionError("unreachable")

    async def stop(self) -> None:
        """Cancel the lanes, give back the rounds they held, stop the pool."""
        for task in self._lanes:
            task.cancel()
        await asyncio.gather(*self._lanes, return_exceptions=True)
        self._lanes = []
        for analysis_id in sorted(self._holding):
            try:
                await asyncio.to_thread(self._queue.release, analysis_id)
            except Exception:  # stale in time: another runner takes it up then
                log.warning("could not give back an analysis", extra={"id": analysis_id})
        self._holding.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
