import signal
import time

import pytest

from sitesift.errors import PageTimeout
from sitesift.timelimit import time_limit


def test_the_alarm_raises_in_the_block_and_puts_back_the_handler_and_timer() -> None:
    def mine(signum: int, frame: object) -> None:
        raise AssertionError("the caller's handler ran")

    before = signal.signal(signal.SIGALRM, mine)
    try:
        with time_limit(5):
            assert signal.getitimer(signal.ITIMER_REAL)[0] > 0
            assert signal.getsignal(signal.SIGALRM) is not mine
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        with pytest.raises(PageTimeout, match=r"longer than 0\.05 s"), time_limit(0.05):
            end = time.monotonic() + 5
            while time.monotonic() < end:
                pass
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        with time_limit(None):
            assert signal.getsignal(signal.SIGALRM) is mine
    finally:
        signal.signal(signal.SIGALRM, before)
