"""The local engine: a process pool on this machine.

``concurrent.futures.ProcessPoolExecutor`` notices a worker that dies (killed, out of memory,
a crash in C code) and fails every task then in flight with ``BrokenProcessPool``; the pool
is rebuilt and those tasks are run again, up to ``MAX_ATTEMPTS`` times each. Workers ignore
Ctrl-C: the driver decides, and on interrupt terminates them (their part files were not yet
renamed, so they are temporary files the driver deletes).
"""

from __future__ import annotations

import concurrent.futures as cf
import signal
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool

from sitesift.engine.parts import PartResult
from sitesift.engine.task import BucketTask

__all__ = ["MAX_ATTEMPTS", "LocalEngine"]

#: Times a task is tried before its pages are written as error records.
MAX_ATTEMPTS = 3

Outcome = tuple[BucketTask, PartResult | BaseException]


def _ignore_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalEngine:
    """Runs tasks on ``workers`` processes; ``task_fn`` is the work (``run_bucket``)."""

    def __init__(self, workers: int, task_fn: Callable[[BucketTask], PartResult]) -> None:
        self.workers = workers
        self.task_fn = task_fn
        self._pool = self._new_pool()
        self._running: dict[cf.Future[PartResult], BucketTask] = {}
        self._attempts: dict[int, int] = {}

    def _new_pool(self) -> cf.ProcessPoolExecutor:
        return cf.ProcessPoolExecutor(max_workers=self.workers, initializer=_ignore_interrupt)

    def submit(self, task: BucketTask) -> None:
        self._attempts[task.index] = self._attempts.get(task.index, 0) + 1
        self._running[self._pool.submit(self.task_fn, task)] = task

    def pending(self) -> int:
        return len(self._running)

    def completed(self, *, block: bool) -> Iterator[Outcome]:
        """Outcomes of finished tasks (all of them, waiting, when ``block``); a task whose worker
        died is resubmitted and reported only once it succeeds or has run out of attempts."""
        while self._running:
            done, _ = cf.wait(self._running, timeout=None if block else 0,
                              return_when=cf.FIRST_COMPLETED)
            if not done:
                return
            broken = []
            for future in done:
                task = self._running.pop(future)
                exc = future.exception()
                if isinstance(exc, BrokenProcessPool):
                    broken.append(task)
                elif exc is not None and self._attempts[task.index] < MAX_ATTEMPTS:
                    self.submit(task)
                else:
                    yield task, exc if exc is not None else future.result()
            if broken:
                yield from self._restart(broken)

    def _restart(self, broken: list[BucketTask]) -> Iterator[Outcome]:
        # Every task in flight fails with the pool; collect them all, then start a new pool.
        for future, task in list(self._running.items()):
            try:
                result: PartResult | BaseException = future.result()
            except BrokenProcessPool:
                broken.append(task)
                continue
            except Exception as exc:
                result = exc
            del self._running[future]
            yield task, result
        self._running.clear()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._new_pool()
        for task in broken:
            if self._attempts[task.index] < MAX_ATTEMPTS:
                self.submit(task)
            else:
                yield task, BrokenProcessPool(
                    f"a worker died each of the {MAX_ATTEMPTS} times this batch was run"
                )

    def close(self, *, interrupted: bool = False) -> None:
        if interrupted:
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)
