"""Robots play their turns on the server by themselves: after a command leaves
a robot on turn, the runner waits a moment (so people can follow the play) and
asks the service for that robot's move, in a worker thread so no request waits.
Each move goes through the service's one command path.

With several processes, the process whose command gave a robot the turn
schedules its move. If that process dies first, the robot is not forgotten:
every process's runner sweeps now and then for tables whose robot has been on
turn for longer than it should (and at start-up for all of them). Two
processes may then try the same move; the version check lets exactly one
through and the other changes nothing."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool

log = logging.getLogger("escoba.robots")


class RobotRunner:
    def __init__(
        self,
        move: Callable[[int], bool],
        delay: float,
        overdue: Callable[[float], list[int]] | None = None,
        sweep_seconds: float = 0.0,
    ) -> None:
        self._move = move
        self._delay = delay
        self._overdue = overdue
        self._sweep_seconds = sweep_seconds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def start_sweeping(self) -> None:
        """From the event loop: look for overdue robots every few seconds."""
        if self._overdue is not None and self._sweep_seconds > 0:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        overdue = self._overdue
        assert overdue is not None
        grace = self._delay + self._sweep_seconds
        while True:
            await asyncio.sleep(self._sweep_seconds)
            try:
                for table_id in await run_in_threadpool(overdue, grace):
                    self._ensure(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("robot sweep failed")

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def schedule(self, table_id: int) -> None:
        """Called (from any thread) when a robot is on turn at `table_id`."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._ensure, table_id)

    def _ensure(self, table_id: int) -> None:
        task = self._tasks.get(table_id)
        if task is None or task.done():
            self._tasks[table_id] = asyncio.get_running_loop().create_task(self._run(table_id))

    async def _run(self, table_id: int) -> None:
        try:
            while True:
                await asyncio.sleep(self._delay)
                if not await run_in_threadpool(self._move, table_id):
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # a robot's failure must not take the server down
            log.exception("robot move failed", extra={"table_id": table_id})
        finally:
            if self._tasks.get(table_id) is asyncio.current_task():
                del self._tasks[table_id]

    async def stop(self) -> None:
        tasks = list(self._tasks.values())
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class InlineRobots:
    """Robots answer at once, inside the command that gave them the turn (tests,
    scripts). Re-entrant calls are folded into the outer loop."""

    def __init__(self, play_robots: Callable[[int], int]) -> None:
        self._play_robots = play_robots
        self._local = threading.local()

    def schedule(self, table_id: int) -> None:
        if getattr(self._local, "busy", False):
            return
        self._local.busy = True
        try:
            self._play_robots(table_id)
        finally:
            self._local.busy = False
