"""Where the evaluation pages are (``../shared/data`` next to the repository), for the tests
that read them; they skip with a message when it is absent. Never copied into the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def data_set(name: str) -> Path:
    """The folder of evaluation set ``name``; skips the calling test when it is absent."""
    folder = DATA / name
    if not (folder / "pages.jsonl").is_file():
        pytest.skip(f"evaluation data {folder} is absent (needs ../shared/data next to the repo)")
    return folder
