#!/usr/bin/env python3
"""The fuzz suite (tests/fuzz) at benchmark size: generated cases, crashes, lost records.

usage: python benchmarks/fuzz.py [--examples 1000] [--json OUT]

Runs every property test of tests/fuzz with ``--examples`` generated cases each (the test
suite runs a dozen), then prints how many cases and pages each test checked and whether any
property failed. A property failure is a crash (an exception escaping a command or a 5xx),
a lost, duplicated or reordered record, an error record that does not say what was wrong, a
wrong exit code or an unreadable profile store; pytest prints the falsifying example.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=1000,
                        help="generated cases per property test (default 1000)")
    parser.add_argument("--json", type=Path, help="also write the summary here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "counts.jsonl"
        env = {**os.environ, "SITESIFT_FUZZ_EXAMPLES": str(args.examples),
               "SITESIFT_FUZZ_REPORT": str(report), "PYTHONPATH": str(REPO)}
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:warnings", "-p", "no:cacheprovider",
             str(REPO / "tests" / "fuzz")], cwd=REPO, env=env, capture_output=True, text=True,
            check=False,
        )
        seconds = time.perf_counter() - started
        counts: Counter[str] = Counter()
        if report.exists():
            for line in report.read_text(encoding="utf-8").split("\n"):
                if line:
                    counts.update(json.loads(line))
    tests = sorted({key.split(":")[0] for key in counts})
    summary = {
        "examples_per_test": args.examples,
        "cases": sum(v for k, v in counts.items() if k.endswith(":cases")),
        "pages_checked": sum(v for k, v in counts.items() if k.endswith(":pages")),
        "property_failures": 0 if done.returncode == 0 else _failures(done.stdout),
        "pytest_exit": done.returncode,
        "seconds": round(seconds, 1),
        "per_test": {t: {"cases": counts[f"{t}:cases"], "pages": counts[f"{t}:pages"]}
                     for t in tests},
    }
    print(json.dumps(summary, indent=1))
    if done.returncode != 0:
        print(done.stdout[-5000:], file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0 if done.returncode == 0 else 1


def _failures(stdout: str) -> int:
    """Failed tests from pytest's last line ("2 failed, 8 passed in ...")."""
    last = stdout.strip().split("\n")[-1] if stdout.strip() else ""
    for part in last.split(","):
        words = part.split()
        if len(words) >= 2 and words[1] == "failed":
            return int(words[0])
    return -1  # pytest did not report: look at its output


if __name__ == "__main__":
    sys.exit(main())
