"""The generated reference pages (docs/reference/cli.md, record.md, options.md) are what the
code gives: a new flag, option or record field shows up there or fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_generated_reference_is_current() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "reference" / "generate.py"), "--check"],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
