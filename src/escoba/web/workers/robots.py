"""Robots play their turns on the server by themselves. When a command leaves
a robot on turn, the runner reads the robot's seat view, has the robot choose
in the thinking pool, waits until the turn is `delay` seconds old (so people
can follow the play, and so the moment of the answer tells nothing of the
robot's hand), and plays the move through the service's one command path.

**No wake-up is lost.** Each table has at most one task. A schedule marks the
table as due (with the time its turn began) and starts a task only if none is
running; the task takes turns while any is marked, and the check that ends it
runs on the event loop with nothing awaited in between, so a turn given to a
robot at any moment is either seen by the running task or starts a new one.

**Thinking happens in a bounded pool, off the event loop**: `processes`
worker processes (a robot's search is pure computation; in the app's own
process it would hold the GIL and delay every request and stream of the
process), or one thread when `processes` is 0. Work is taken from the clients
in turn (round robin over the client whose command started each robot's
chain), so a client with many robot tables cannot hold up the robots of
others, and all robots together never use more than `processes` cores.

With several processes, the process whose command gave a robot the turn
schedules its move. If that process dies first, the robot is not forgotten:
every process's runner sweeps now and then for tables whose robot has been on
turn for longer than it should (and at start-up for all of them). Two
processes may then try the same move; the version check lets exactly one
through and the other changes nothing."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from contextvars import ContextVar
from typing import Any

from anyio import to_thread
from sqlalchemy.exc import OperationalError

from escoba.engine import Action
from escoba.web.base import metrics
from escoba.web.base.errors import Busy
from escoba.web.table.command_path import AfterOnly, Change, RobotBrain
from escoba.web.table.jobs import RobotTurn
from escoba.web.workers.processes import LoopCall, new_pool, warmed_pool

log = logging.getLogger("escoba.robots")

# The client (its IP) whose request is being served, set by ClientTag: a
# robot's turn is counted to the client whose command gave it.
current_client: ContextVar[str] = ContextVar("escoba_client", default="")

#: A robot whose move met the database away tries again after this many
#: seconds, as long as the database stays away (the sweep is the backstop).
DATABASE_RETRY_SECONDS = 1.0


class ClientTag:
    """ASGI middleware: names the client of each request in `current_client`."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        client = scope.get("client") if scope["type"] == "http" else None
        token = current_client.set(client[0] if client else "")
        try:
            await self.app(scope, receive, send)
        finally:
            current_client.reset(token)


#: What each robots' process imports before its first turn.
WARM = ("escoba.bots",)


class ThinkingPool:
    """Where robots choose their moves: a few worker processes (or one thread),
    fed fairly. Jobs wait in one queue per owner (client); a free worker takes
    the oldest job of the owner whose last job started longest ago, so owners
    take turns however many jobs each has queued.
    Nothing else runs here: the rounds' analyses have processes of their
    own (escoba.web.workers.analyses), so a robot never waits for one."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._slots = max(1, processes)
        self._executor: Executor | None = None
        self._served: dict[str, int] = {}  # owner → stamp of its latest job
        self._stamp = 0
        self._busy: dict[str, int] = {}  # owner → its jobs running
        self._queues: dict[
            str, deque[tuple[asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]]]
        ] = {}
        self._running = 0
        self._queued_at: dict[asyncio.Future[Any], float] = {}  # a robot's job → when queued

    def start(self) -> None:
        """From the event loop, at start-up and before the process starts any
        thread of its own: worker processes are forked from it, and a fork
        copies only the thread that makes it."""
        self._executor = warmed_pool(self.processes, "escoba-robot", WARM)

    def _new_executor(self) -> Executor:
        return new_pool(self.processes, "escoba-robot")

    async def run(self, owner: str, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker, after the jobs of other owners queued
        before it had their turn."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queued_at[future] = time.monotonic()
        self._queues.setdefault(owner, deque()).append((future, fn, args))
        self._pump()
        return await future

    def _pump(self) -> None:
        while self._running < self._slots and self._queues:
            # the owner served longest ago (or never) goes next
            owner = min(self._queues, key=lambda o: self._served.get(o, -1))
            queue = self._queues[owner]
            future, fn, args = queue.popleft()
            if not queue:
                del self._queues[owner]
            queued = self._queued_at.pop(future, None)
            if future.done():  # its waiter was cancelled
                continue
            if queued is not None:
                metrics.robot_waited(time.monotonic() - queued)
            self._stamp += 1
            self._served[owner] = self._stamp
            self._busy[owner] = self._busy.get(owner, 0) + 1
            self._submit(owner, future, fn, args, retry=True)

    def _submit(
        self,
        owner: str,
        future: asyncio.Future[Any],
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        retry: bool,
    ) -> None:
        if self._executor is None:
            self._executor = self._new_executor()
        self._running += 1
        started = time.monotonic()
        job = asyncio.wrap_future(self._executor.submit(fn, *args))

        def done(job: asyncio.Future[Any]) -> None:
            self._running -= 1
            error = None if job.cancelled() else job.exception()
            if error is None and not job.cancelled():
                metrics.robot_thought(time.monotonic() - started)
            if isinstance(error, BrokenProcessPool) and retry:
                # a worker died (killed, out of memory): a new pool, one more try
                log.error("robot pool broken; starting a new one")
                self._executor = None
                self._submit(owner, future, fn, args, retry=False)
                return
            self._busy[owner] -= 1
            if not self._busy[owner]:
                del self._busy[owner]
                if owner not in self._queues:
                    del self._served[owner]  # nothing running or waiting: no history kept
            if not future.done():
                if job.cancelled():
                    future.cancel()
                elif error is not None:
                    future.set_exception(error)
                else:
                    future.set_result(job.result())
            self._pump()

        job.add_done_callback(done)

    def stop(self) -> None:
        for queue in self._queues.values():
            for future, _, _ in queue:
                future.cancel()
        self._queues.clear()
        self._queued_at.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


class RobotRunner(AfterOnly):
    def __init__(
        self,
        turn: Callable[[int], RobotTurn | None],
        play: Callable[[RobotTurn, Action], bool],
        brain: RobotBrain,
        pool: ThinkingPool,
        delay: float,
        overdue: Callable[[float], list[int]] | None = None,
        sweep_seconds: float = 0.0,
    ) -> None:
        self._turn = turn
        self._play = play
        self._brain = brain
        self._pool = pool
        self._delay = delay
        self._overdue = overdue
        self._sweep_seconds = sweep_seconds
        self._call = LoopCall()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._due: dict[int, float] = {}  # table → when its robot should have played
        self._owners: dict[int, str] = {}  # table → client whose command began the chain
        self._sweeper: asyncio.Task[None] | None = None

    def start_pool(self) -> None:
        self._pool.start()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._call.bind(loop)

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
                for table_id in await to_thread.run_sync(overdue, grace):
                    self._ensure(table_id, "", time.monotonic())
            except asyncio.CancelledError:
                raise
            except OperationalError:  # the database is away: the next sweep looks again
                log.warning("robot sweep waits for the database")
            except Exception:
                log.exception("robot sweep failed")

    def after(self, change: Change) -> None:
        """The commit hook's listener: a commit left a robot on turn."""
        if change.robot_next:
            self.schedule(change.table_id)

    def schedule(self, table_id: int) -> None:
        """Called (from any thread) right after a commit left a robot on turn
        at `table_id`: its turn began now."""
        self._call(self._ensure, table_id, current_client.get(), time.monotonic() + self._delay)

    def _ensure(self, table_id: int, owner: str, due: float) -> None:
        self._due[table_id] = due
        if owner:
            self._owners[table_id] = owner
        task = self._tasks.get(table_id)
        if task is None or task.done():
            self._tasks[table_id] = asyncio.get_running_loop().create_task(self._run(table_id))

    async def _run(self, table_id: int) -> None:
        try:
            # Nothing is awaited between this check and the task's end, so a
            # turn marked meanwhile is taken here or starts a new task.
            while (due := self._due.pop(table_id, None)) is not None:
                try:
                    await self._take_turn(table_id, due)
                except asyncio.CancelledError:
                    raise
                except (OperationalError, Busy):  # the database is away: again soon
                    log.warning("robot move waits for the database", extra={"table_id": table_id})
                    await asyncio.sleep(DATABASE_RETRY_SECONDS)
                    self._due.setdefault(table_id, time.monotonic())
                except Exception:  # a robot's failure must not take the server down
                    log.exception("robot move failed", extra={"table_id": table_id})
        finally:
            if self._tasks.get(table_id) is asyncio.current_task():
                del self._tasks[table_id]
                self._owners.pop(table_id, None)

    async def _take_turn(self, table_id: int, due: float) -> None:
        turn = self._turn(table_id)
        if turn is None:
            return
        rng = random.Random(secrets.randbits(64))
        owner = self._owners.get(table_id, "")
        action = await self._pool.run(owner, self._brain, turn.robot, turn.view, rng)
        wait = due - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self._play(turn, action)

    async def stop(self) -> None:
        tasks = list(self._tasks.values())
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._pool.stop()


class InlineRobots(AfterOnly):
    """Robots answer at once, inside the command that gave them the turn (tests,
    scripts). Re-entrant calls are folded into the outer loop."""

    def __init__(self, play_robots: Callable[[int], int]) -> None:
        self._play_robots = play_robots
        self._local = threading.local()

    def after(self, change: Change) -> None:
        if change.robot_next:
            self.schedule(change.table_id)

    def schedule(self, table_id: int) -> None:
        if getattr(self._local, "busy", False):
            return
        self._local.busy = True
        try:
            self._play_robots(table_id)
        finally:
            self._local.busy = False
