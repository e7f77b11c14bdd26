"""Kill a command at a random point of its run (tests of killed runs: engine, learn)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def kill_at_random(argv: list[str], rng: random.Random, progress: Callable[[], int]) -> bool:
    """Start ``argv`` in its own process group and SIGKILL the group at a random point: once
    ``progress()`` (parts written, profiles saved...) reaches 0 to 3, and up to 50 ms later
    (less than a part or a site takes). True if it was killed (not finished first)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(argv, cwd=REPO, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parts, extra = rng.randint(0, 3), rng.uniform(0.0, 0.05)
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        if progress() >= parts:
            time.sleep(extra)
            break
        time.sleep(0.02)
    killed = process.poll() is None
    if killed:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    time.sleep(0.2)  # let the group's last processes go
    return killed
