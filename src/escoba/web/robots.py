"""Robots play their turns on the server by themselves: after a command leaves
a robot on turn, the runner waits a moment (so people can follow the play) and
asks the service for that robot's move, in a worker thread so no request waits.
Each move goes through the service's one command path."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool

log = logging.getLogger("escoba.robots")


class RobotRunner:
    def __init__(self, move: Callable[[int], bool], delay: float) -> None:
        self._move = move
        self._delay = delay
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: dict[int, asyncio.Task[None]] = {}

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
