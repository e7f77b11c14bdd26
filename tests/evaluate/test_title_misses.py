"""benchmarks/title_misses.py: each kind of title miss lands in its own class."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from sitesift.fields.titles import TitleCandidates

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(_BENCH))  # title_misses imports page_types beside it
_spec = importlib.util.spec_from_file_location("title_misses", _BENCH / "title_misses.py")
assert _spec and _spec.loader
title_misses = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(title_misses)

_PAGE = TitleCandidates(
    doc_title="Data Analytics Services | Acme",
    declared_titles=("Data Analytics Services | Acme",),
    headings=(("h1", "Intelligent analytics services"), ("h2", "Why Acme")),
    site_names=("Acme", "acme.com"),
)


@pytest.mark.parametrize(
    ("gold", "ours", "cause"),
    [
        ("Data Analytics Services | Acme", "Data Analytics Services", "gold keeps decoration"),
        ("Data Analytics Services", "Data Analytics Services | Acme", "decoration left"),
        ("Analytics for everyone", "Data Analytics Services", "gold on no candidate"),
        ("Data Analytics Services | Acme", "Intelligent analytics services",
         "gold <title>, ours printed"),
        ("Intelligent analytics services", "Data Analytics Services", "gold printed, ours <title>"),
        ("Why Acme", "Intelligent analytics services", "other candidate"),
        ("Data Analytics Services", "", "no title"),
    ],
)
def test_each_miss_has_its_cause(gold: str, ours: str, cause: str) -> None:
    assert title_misses.classify(gold, ours, _PAGE) == cause
