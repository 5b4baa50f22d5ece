"""The worker processes of the robots' pool and of the analyses: forked
from the app's process, gone with it, and (the analyses') at a low
priority."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

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
