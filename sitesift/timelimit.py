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

import _signal
import contextlib
import ctypes
import signal
import threading
from collections.abc import Iterator

from sitesift.errors import PageTimeout

__all__ = ["TIMEOUT_REPEAT", "time_limit"]

#: Seconds between repeated time-outs of one over-long page.
TIMEOUT_REPEAT = 0.5
_SIGALRM = int(signal.SIGALRM)


def time_limit(seconds: float | None) -> contextlib.AbstractContextManager[None]:
    """Raise ``PageTimeout`` in the guarded block after ``seconds`` (None or 0: no limit)."""
    if not seconds:
        return contextlib.nullcontext()
    if threading.current_thread() is threading.main_thread():
        return _Alarm(seconds)
    return _watchdog(seconds)


def _message(seconds: float) -> str:
    return f"page took longer than {seconds:g} s"


class _Alarm:
    """The main thread's limit: ``SIGALRM``'s handler set and the interval timer armed on
    entering, both put back on leaving. Every step of every page passes here (a few thousand
    times a run), so it is a plain class calling ``_signal.signal``, the C function that
    ``signal.signal`` wraps: the wrapper's enum conversions of the handlers (a failed
    ``Handlers(function)`` lookup each time) cost ten times the call itself, the generator
    context managers a few microseconds more (43 -> about 8 us a step)."""

    __slots__ = ("previous", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.previous: object = None

    def __enter__(self) -> None:
        self.previous = _signal.signal(_SIGALRM, self._expired)
        signal.setitimer(signal.ITIMER_REAL, self.seconds, TIMEOUT_REPEAT)

    def __exit__(self, *exc: object) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _signal.signal(_SIGALRM, self.previous)

    def _expired(self, signum: int, frame: object) -> None:
        raise PageTimeout(_message(self.seconds))


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
