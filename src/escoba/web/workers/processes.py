"""The worker processes of the robots' pool and of the analyses: forked
from the app's process, warmed up before the first job, gone with it, and
(the analyses') at a low priority; and `LoopCall`, how a commit's listener,
on whatever thread the command ran, hands work to the runners' event loop."""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

#: How soon a worker notices that its parent process is gone.
PARENT_CHECK_SECONDS = 1.0


def worker_init(parent: int, nice: int = 0) -> None:
    """In each worker, first. A fork keeps the app's signal handlers
    (uvicorn's, which only tell a server that does not run here to stop):
    SIGTERM ends the worker again, and Ctrl-C is the parent's to handle. A
    worker goes with its parent however that ends — a clean stop shuts the
    pool down, but a SIGKILL or the OOM killer runs no code — so a thread
    watches the parent and leaves when it is gone. `nice`: added to the
    worker's niceness (the analyses': the robots and the requests first)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        os.nice(nice)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="escoba-worker-parent", daemon=True).start()


def new_pool(processes: int, name: str, nice: int = 0) -> Executor:
    """`processes` forked workers, or one thread of this process when it is
    0 (tests: then `nice` does not apply)."""
    if processes <= 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    return ProcessPoolExecutor(
        max_workers=processes,
        mp_context=multiprocessing.get_context("fork"),
        initializer=worker_init,
        initargs=(os.getpid(), nice),
    )


def _warm(modules: tuple[str, ...]) -> int:
    """Run once in each new worker: `modules` are imported (and their tables
    built) before the first job needs them."""
    for module in modules:
        importlib.import_module(module)
    return 0


def warmed_pool(processes: int, name: str, modules: tuple[str, ...], nice: int = 0) -> Executor:
    """`new_pool`, every worker started now with `modules` imported. From the
    event loop, at start-up and before the process starts any thread of its
    own: the workers are forked from it, and a fork copies only the thread
    that makes it."""
    pool = new_pool(processes, name, nice)
    if processes > 0:
        for wait in [pool.submit(_warm, modules) for _ in range(processes)]:
            wait.result()
    return pool


class LoopCall:
    """Calls into one event loop from any thread: directly on the loop's own
    thread, else through `call_soon_threadsafe`; nothing before `bind` or
    once the loop is closed (a commit after the runner stopped)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread = 0

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """From the loop's own thread."""
        self.loop = loop
        self._thread = threading.get_ident()

    def __call__(self, fn: Callable[..., Any], *args: Any) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._thread:
            fn(*args)
        else:
            loop.call_soon_threadsafe(fn, *args)
