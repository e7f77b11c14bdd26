"""The local engine: a process pool on this machine.

``concurrent.futures.ProcessPoolExecutor`` notices a worker that dies (killed, out of memory,
a crash in C code) and fails every task then in flight with ``BrokenProcessPool``. Which of
them killed it is unknown, so the pool is rebuilt and those tasks are run again one at a time
("suspects", nothing else beside them): a task that kills its worker while alone is the cause,
and after ``MAX_ATTEMPTS`` such deaths it is given up (the driver writes its pages as error
records); the others finish normally. Workers ignore Ctrl-C: the driver decides, and on
interrupt terminates them (their parts were not renamed yet: temporary files it deletes).
"""

from __future__ import annotations

import concurrent.futures as cf
import signal
from collections import deque
from collections.abc import Callable, Iterator

from sitesift.engine.parts import PartResult
from sitesift.engine.task import BucketTask

__all__ = ["MAX_ATTEMPTS", "LocalEngine"]

#: Times a task is tried (deaths of its worker while alone, or errors) before it is given up.
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
        self._waiting: deque[BucketTask] = deque()
        self._suspects: deque[BucketTask] = deque()
        self._failures: dict[int, int] = {}

    def _new_pool(self) -> cf.ProcessPoolExecutor:
        return cf.ProcessPoolExecutor(max_workers=self.workers, initializer=_ignore_interrupt)

    def submit(self, task: BucketTask) -> None:
        self._waiting.append(task)
        self._fill()

    def _fill(self) -> None:
        if self._suspects:
            if not self._running:
                self._start(self._suspects)
            return
        while self._waiting and self._start(self._waiting):
            pass

    def _start(self, queue: deque[BucketTask]) -> bool:
        """Submit the first task of ``queue``; False when the pool broke before it could.

        A worker can die between two looks at the running tasks; the pool then refuses new
        work at once. The task stays first in its queue: with tasks running, their failure
        reaches ``completed`` and ``_restart`` rebuilds the pool; with none, nothing would,
        so the pool is rebuilt here (no task was in it to suspect).
        """
        task = queue[0]
        try:
            future = self._pool.submit(self.task_fn, task)
        except cf.process.BrokenProcessPool:
            if self._running:
                return False
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            future = self._pool.submit(self.task_fn, task)
        queue.popleft()
        self._running[future] = task
        return True

    def completed(self, *, block: bool) -> Iterator[Outcome]:
        """Outcomes of finished tasks (all of them, waiting, when ``block``)."""
        while self._running:
            done, _ = cf.wait(self._running, timeout=None if block else 0,
                              return_when=cf.FIRST_COMPLETED)
            if not done:
                return
            alone = len(self._running) == 1
            for future in done:
                task = self._running.pop(future)
                exc = future.exception()
                if isinstance(exc, cf.process.BrokenProcessPool):
                    yield from self._restart(task, alone=alone)
                    break  # every other future of the dead pool was handled by _restart
                if exc is None:
                    yield task, future.result()
                elif self._failed(task):
                    yield task, exc
                else:
                    self._waiting.append(task)
            self._fill()

    def _failed(self, task: BucketTask) -> bool:
        """Count a failure of ``task``; True when it has run out of attempts."""
        self._failures[task.index] = self._failures.get(task.index, 0) + 1
        return self._failures[task.index] >= MAX_ATTEMPTS

    def _restart(self, task: BucketTask, *, alone: bool) -> Iterator[Outcome]:
        suspects = [] if alone else [task]
        if alone and self._failed(task):
            yield task, RuntimeError(f"a worker died each of the {MAX_ATTEMPTS} times this "
                                     "batch was run")
        elif alone:
            suspects.append(task)
        for future, other in self._running.items():  # all fail with the pool, or finished
            try:
                yield other, future.result()
            except cf.process.BrokenProcessPool:
                suspects.append(other)
            except Exception as exc:
                yield other, exc
        self._running.clear()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._new_pool()
        self._suspects.extend(suspects)

    def close(self, *, interrupted: bool = False) -> None:
        if interrupted:
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)
