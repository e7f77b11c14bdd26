"""The local engine's pool when a worker dies between two looks at the running tasks."""

import os
import time
from dataclasses import dataclass

from sitesift.engine.local import MAX_ATTEMPTS, LocalEngine


@dataclass(frozen=True)
class Task:
    """Stands in for a BucketTask: the engine reads only ``index``."""

    index: int


def die_on_zero(task: Task) -> int:
    if task.index == 0:
        os._exit(1)
    return task.index


def wait_broken(engine: LocalEngine) -> None:
    deadline = time.monotonic() + 30
    while not engine._pool._broken:  # the pool's own flag: what makes submit refuse
        assert time.monotonic() < deadline, "the worker's death was never noticed"
        time.sleep(0.01)


def test_a_task_submitted_to_a_pool_broken_meanwhile_still_runs() -> None:
    engine = LocalEngine(1, die_on_zero)
    try:
        engine.submit(Task(0))
        wait_broken(engine)
        engine.submit(Task(1))  # refused by the broken pool: kept waiting, not raised
        outcomes = {task.index: result for task, result in engine.completed(block=True)}
    finally:
        engine.close()
    assert outcomes[1] == 1
    assert isinstance(outcomes[0], RuntimeError) and str(MAX_ATTEMPTS) in str(outcomes[0])


def test_a_pool_broken_with_nothing_running_is_rebuilt_on_submit() -> None:
    engine = LocalEngine(1, die_on_zero)
    try:
        engine.submit(Task(0))
        wait_broken(engine)
        engine._running.clear()  # as if the dead task's outcome had been taken already
        engine.submit(Task(2))
        outcomes = {task.index: result for task, result in engine.completed(block=True)}
    finally:
        engine.close()
    assert outcomes == {2: 2}
