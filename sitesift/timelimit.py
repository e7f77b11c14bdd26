"""The per-page time limit (``Options.page_timeout``), in the main thread and in any other.

``time_limit(seconds)`` raises ``PageTimeout`` inside the guarded block once ``seconds`` have
passed, and again every ``TIMEOUT_REPEAT`` seconds until the block ends (an exception raised
while a garbage-collector callback runs is swallowed by Python; the next one still lands).

* Main thread (the CLI, each local-engine worker process): a real-time interval timer
  (``SIGALRM``), as before.
* Other threads (Dask workers run tasks in threads; the HTTP service's pool): signals reach the
  main thread only, so a watchdog thread raises the exception in the guarded thread with
  ``PyThreadState_SetAsyncExc`` (CPython's API for exactly this; ``threading`` itself has no
  way). On leaving the block the watchdog is stopped and an exception it set but that has not
  landed yet is withdrawn, under one lock, so none lands after the block.

Either way the exception lands between bytecodes: every Python loop sitesift writes is covered;
a single C call (parsing one huge document) finishes first and is bounded by
``max_page_bytes``; in a thread, a blocking call (``time.sleep``, a socket read) too.
"""

from __future__ import annotations

import contextlib
import ctypes
import signal
import threading
from collections.abc import Iterator

from sitesift.errors import PageTimeout

__all__ = ["TIMEOUT_REPEAT", "time_limit"]

#: Seconds between repeated time-outs of one over-long page.
TIMEOUT_REPEAT = 0.5


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise ``PageTimeout`` in the guarded block after ``seconds`` (None or 0: no limit)."""
    if not seconds:
        yield
    elif threading.current_thread() is threading.main_thread():
        with _alarm(seconds):
            yield
    else:
        with _watchdog(seconds):
            yield


def _message(seconds: float) -> str:
    return f"page took longer than {seconds:g} s"


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def on_alarm(signum: int, frame: object) -> None:
        raise PageTimeout(_message(seconds))

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds, TIMEOUT_REPEAT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _watchdog(seconds: float) -> Iterator[None]:
    # The API raises a class (instantiated without arguments): one carrying this message.
    message = _message(seconds)

    class Expired(PageTimeout):
        def __init__(self, *args: object) -> None:
            super().__init__(message)

    target = ctypes.c_ulong(threading.get_ident())
    lock = threading.Lock()
    stop = threading.Event()
    armed = [True]

    def watch() -> None:
        wait = seconds
        while not stop.wait(wait):
            with lock:
                if not armed[0]:
                    return
                ctypes.pythonapi.PyThreadState_SetAsyncExc(target, ctypes.py_object(Expired))
            wait = TIMEOUT_REPEAT

    watcher = threading.Thread(target=watch, name="sitesift-page-timer", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        while True:
            try:
                with lock:
                    armed[0] = False
                    stop.set()
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(target, None)  # withdraw
                break
            except PageTimeout:  # landed while disarming: disarm again (now withdrawn)
                continue
