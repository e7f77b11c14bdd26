#!/usr/bin/env python3
"""Publication dates: sitesift's own finder vs htmldate, on the same pages in the same run.

usage: python benchmarks/dates.py [SET ...]   (default: dates-dev zh-news-dev)

For each set (folder names under ../shared/data) prints the share of pages whose day equals
the gold day, and pages/s, for ``extract_metadata(...).published`` (parse included) and for
``htmldate.find_date(html, url=url, original_date=True)`` (its own parse included). htmldate is
an optional peer: the line is skipped when it is not installed.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sitesift.evaluate.bench import read_set_pages
from sitesift.evaluate.score import load_gold
from sitesift.fields.metadata import extract_metadata
from sitesift.parse import parse_html
from sitesift.record import Page

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"


def _day(s: str | None) -> str | None:
    m = re.search(r"(\d{4})\D{1,3}(\d{1,2})\D{1,3}(\d{1,2})", s or "")
    return f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d}" if m else None


def _ours(page: Page) -> str | None:
    return extract_metadata(parse_html(page.html), url=page.url).published


def _htmldate() -> Callable[[Page], str | None] | None:
    try:
        from htmldate import find_date
    except ImportError:
        return None

    def run(page: Page) -> str | None:
        try:
            return find_date(page.html, url=page.url, original_date=True)
        except Exception:  # a peer's crash is a miss, not the end of the run
            return None

    return run


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sets", nargs="*", default=["dates-dev", "zh-news-dev"])
    args = ap.parse_args(argv)
    finders: list[tuple[str, Callable[[Page], str | None]]] = [("sitesift", _ours)]
    peer = _htmldate()
    if peer is not None:
        finders.append(("htmldate find_date", peer))
    print("| set | finder | date accuracy | pages | pages/s |")
    print("|---|---|---|---|---|")
    for name in args.sets:
        folder = DATA / name
        if not (folder / "pages.jsonl").exists():
            sys.exit(f"no data set at {folder}")
        gold = load_gold(folder)
        pages = [p for p in read_set_pages(folder) if _day(gold.get(p.id, {}).get("date"))]
        for label, find in finders:
            start = time.perf_counter()
            found = [find(p) for p in pages]
            speed = len(pages) / (time.perf_counter() - start)
            right = sum(_day(f) == _day(gold[p.id]["date"]) for p, f in zip(pages, found,
                                                                            strict=True))
            print(f"| {name} | {label} | {right / len(pages):.3f} | {len(pages)} | {speed:.1f} |")


if __name__ == "__main__":
    main()
