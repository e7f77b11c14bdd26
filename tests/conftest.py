"""Shared test fixtures: where the evaluation pages live, and a skip when they are absent."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: The real pages with gold answers live beside the repository, never inside it.
DATA = REPO.parent / "shared" / "data"


def data_set(name: str) -> Path:
    """The folder of evaluation set ``name``; skips the test when the data is not here."""
    path = DATA / name
    if not (path / "pages.jsonl").is_file():
        pytest.skip(f"evaluation data {path} is absent (tests over real pages need ../shared/data)")
    return path
