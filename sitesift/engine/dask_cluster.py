"""The Dask engine: a LocalCluster on this machine, or an existing cluster by its address.

Tasks go to the scheduler as they are ready; the scheduler runs each again on another worker
when its worker dies (up to ``distributed.scheduler.allowed-failures``, default 3), after
which the task fails with ``KilledWorker`` and the driver writes its pages as error records.
Workers run tasks in threads, where a ``SIGALRM`` timer cannot reach: the per-page time limit
works there by a watchdog thread instead (``sitesift.timelimit``), so an over-long page becomes
an error record (``timeout: ...``) under Dask as under the local engine.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from sitesift.engine.local import MAX_ATTEMPTS
from sitesift.engine.parts import PartResult
from sitesift.engine.task import BucketTask
from sitesift.errors import UsageError

__all__ = ["DaskEngine"]

Outcome = tuple[BucketTask, PartResult | BaseException]


class DaskEngine:
    """``scheduler``: address of a running scheduler (``tcp://host:8786``); None starts a
    LocalCluster of ``workers`` single-threaded worker processes."""

    def __init__(
        self, workers: int, task_fn: Callable[[BucketTask], PartResult],
        scheduler: str | None = None,
    ) -> None:
        try:
            from distributed import Client, LocalCluster, as_completed
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise UsageError("--engine dask needs dask.distributed: "
                             "python -m pip install 'sitesift[scale]'") from exc
        self.task_fn = task_fn
        self._cluster: Any = None
        if scheduler:
            self._client = Client(scheduler)
        else:
            self._cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                dashboard_address=None, silence_logs=logging.ERROR,
            )
            self._client = Client(self._cluster)
        self.client = self._client
        self._tasks: dict[str, BucketTask] = {}
        self._futures: Any = as_completed()
        self._run = uuid.uuid4().hex[:8]

    def submit(self, task: BucketTask) -> None:
        key = f"sitesift-{self._run}-part-{task.index}"
        self._tasks[key] = task
        self._futures.add(self._client.submit(
            self.task_fn, task, key=key, pure=False, retries=MAX_ATTEMPTS - 1
        ))

    def pending(self) -> int:
        return len(self._tasks)

    def completed(self, *, block: bool) -> Iterator[Outcome]:
        while self._tasks:
            if not block and not self._futures.has_ready():
                return
            for future in self._futures.next_batch(block=True):
                task = self._tasks.pop(future.key)
                try:
                    result: PartResult | BaseException = future.result()
                except Exception as exc:  # KilledWorker, or the task's own error
                    result = exc
                future.release()
                yield task, result

    def close(self, *, interrupted: bool = False) -> None:
        if interrupted:
            self._client.cancel(list(self._futures.futures))
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()
