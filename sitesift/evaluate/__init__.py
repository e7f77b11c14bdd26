"""Evaluation: score records against a data set's gold (``score``) and time sitesift on data sets
(``bench``); ``run_eval`` / ``run_bench`` are what ``sitesift eval`` / ``sitesift bench`` call."""

from __future__ import annotations

from sitesift.evaluate.bench import BenchResult, bench, format_table, run_bench, run_eval
from sitesift.evaluate.score import load_gold, load_predictions, score, score_pages

__all__ = [
    "BenchResult",
    "bench",
    "format_table",
    "load_gold",
    "load_predictions",
    "run_bench",
    "run_eval",
    "score",
    "score_pages",
]
