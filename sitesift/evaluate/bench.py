"""Run sitesift on a data set, time it and score it; the functions behind ``sitesift eval`` and
``sitesift bench``.

Timing covers extraction only (parse + extract of every page): pages are read and decoded
beforehand, so figures compare with the peers measured the same way in
``benchmarks/run_peers.py``.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sitesift.errors import InputError, SiftError
from sitesift.evaluate.score import (
    Predictions,
    gold_half,
    load_gold,
    load_predictions,
    score_pages,
)
from sitesift.input import iter_pages
from sitesift.options import Options
from sitesift.pipeline import Extractor
from sitesift.record import Page, Record

__all__ = ["BenchResult", "bench", "format_table", "read_set_pages", "run_bench", "run_eval"]

#: Exit codes of ``run_eval`` / ``run_bench``, as the CLI's: 2 when a set or prediction file
#: cannot be read or its gold is invalid. Error records do not change the exit code of a bench.
EXIT_OK = 0
EXIT_INPUT = 2

#: Table columns: (header, metric key, format). A metric the set has no gold for shows "–".
TABLE_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("body F1", "shingle_f1", ".3f"),
    ("body P", "shingle_p", ".3f"),
    ("body R", "shingle_r", ".3f"),
    ("char F1", "char_f1", ".3f"),
    ("title", "title_exact", ".3f"),
    ("date", "date_acc", ".3f"),
    ("author", "author_exact", ".3f"),
    ("type", "page_type_acc", ".3f"),
)


@dataclass(frozen=True, slots=True)
class BenchResult:
    """One extractor on one data set: its metrics and its speed."""

    set_name: str
    method: str
    metrics: dict[str, Any]
    pages_per_second: float
    pages: int
    #: Pages that came out as error records (or, for peers, pages the extractor crashed on).
    errors: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def read_set_pages(set_dir: str | Path, options: Options | None = None) -> list[Page]:
    """Every page of the set's ``pages.jsonl`` manifest, decoded, in manifest order."""
    manifest = Path(set_dir) / "pages.jsonl"
    if not manifest.is_file():
        raise InputError(f"no pages.jsonl manifest in {set_dir}")
    options = options or Options()
    return list(iter_pages(
        [str(manifest)], site_key=options.site_key, max_page_bytes=options.max_page_bytes
    ))


def bench(
    set_dir: str | Path, *, options: Options | None = None
) -> tuple[dict[str, Any], float, list[Record]]:
    """(metrics, pages per second, records) of sitesift with ``options`` on the set.

    Raises ``InputError`` when the set's manifest or gold cannot be read or the gold is invalid
    (the gold is checked before the possibly long extraction).
    """
    gold = load_gold(set_dir)
    pages = read_set_pages(set_dir, options)
    extractor = Extractor(options)
    start = time.perf_counter()
    records = list(extractor.extract_many(pages))
    elapsed = time.perf_counter() - start
    metrics = score_pages(gold, load_predictions(records))
    return metrics, (len(pages) / elapsed if elapsed > 0 else float("inf")), records


def _cell(value: Any, spec: str) -> str:
    return "–" if value is None else format(value, spec)


def format_table(results: Sequence[BenchResult]) -> str:
    """A Markdown table, one row per result (readable in a terminal as well as in docs)."""
    headers = ["set", "extractor", "pages", *(h for h, _, _ in TABLE_COLUMNS), "pages/s", "errors"]
    rows = [
        [
            r.set_name, r.method, str(r.pages),
            *(_cell(r.metrics.get(key), spec) for _, key, spec in TABLE_COLUMNS),
            f"{r.pages_per_second:.1f}", str(r.errors),
        ]
        for r in results
    ]
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]
    numeric = [False, False] + [True] * (len(headers) - 2)

    def line(cells: Sequence[str]) -> str:
        padded = (
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        )
        return "| " + " | ".join(padded) + " |"

    rule = "|" + "|".join(
        "-" * (w + 1) + ":" if num else "-" * (w + 2)
        for w, num in zip(widths, numeric, strict=True)
    ) + "|"
    return "\n".join([line(headers), rule, *(line(row) for row in rows)])


def _print_metrics(metrics: dict[str, Any]) -> None:
    width = max(map(len, metrics), default=0)
    for key, value in metrics.items():
        print(f"{key:<{width}}  {value}")


def run_eval(set_dir: str | Path, pred_path: str | Path, as_json: bool,
             half: str | None = None) -> int:
    """``sitesift eval``: score a predictions file on a set (or one half of it split by site);
    print the metrics."""
    predictions: Predictions = Path(pred_path)
    try:
        gold = gold_half(set_dir, load_gold(set_dir), half)
        metrics = score_pages(gold, load_predictions(predictions))
    except InputError as exc:
        print(f"sitesift eval: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    if as_json:
        print(json.dumps(metrics, ensure_ascii=False))
    else:
        _print_metrics(metrics)
    return EXIT_OK


def run_bench(set_dirs: Iterable[str | Path], options: Options, as_json: bool) -> int:
    """``sitesift bench``: run, time and score sitesift on each set; print a table (or JSON)."""
    results = []
    for set_dir in set_dirs:
        try:
            metrics, speed, records = bench(set_dir, options=options)
        except SiftError as exc:
            print(f"sitesift bench: error: {exc}", file=sys.stderr)
            return EXIT_INPUT
        results.append(BenchResult(
            set_name=Path(set_dir).resolve().name, method=options.method, metrics=metrics,
            pages_per_second=speed, pages=len(records),
            errors=sum(1 for r in records if r.error),
        ))
    if as_json:
        print(json.dumps([r.to_dict() for r in results], ensure_ascii=False))
    else:
        print(format_table(results))
    return EXIT_OK
