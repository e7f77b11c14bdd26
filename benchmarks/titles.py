#!/usr/bin/env python3
"""Titles, dates and authors: the page method alone vs with site-level title learning.

usage: python benchmarks/titles.py [--sets SET ...] [--table docs/list_detail_titles.md]

For each set (folder names under ../shared/data) runs the page method twice over the set's
manifest: streaming (``Options(site_titles=False)``) and reading the batch
(``Options(site_titles=True)``: per-site ``<title>`` decoration and the anchor texts linking to
each page, paper 003), scores both with the project's scorer (same figures as
../shared/bench/score.py) and prints title exact / char F1, date and author accuracy, pages/s.

For l3s-gn1 it also prints the ceiling of its title char F1: the gold title is every block
labelled headline joined, so the best single headline block scores this much.

With ``--table`` it writes the list-detail table: for every detail page that a list page links
to, the title chosen with its list page in the batch and without it (the same site's other
pages still in the batch), and the gold title where there is one.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

from rapidfuzz.distance import LCSseq

from sitesift.evaluate.bench import read_set_pages
from sitesift.evaluate.score import fold, load_gold, load_predictions, score_pages
from sitesift.options import Options
from sitesift.pipeline import Extractor
from sitesift.record import Page, Record

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"
SETS = ("readability-meta", "l3s-gn1", "big9-2005", "list-detail", "dates-dev", "zh-news-dev")
KEYS = ("title_exact", "title_char_f1", "date_acc", "author_exact", "page_type_acc")


def _run(pages: list[Page], site_titles: bool) -> tuple[list[Record], float]:
    extractor = Extractor(Options(method="page", site_titles=site_titles))
    start = time.perf_counter()
    records = list(extractor.extract_many(pages))
    return records, len(pages) / (time.perf_counter() - start)


def _l3s_ceiling(gold: dict) -> float:
    """Mean char F1 of the best single headline block against the joined gold title."""
    def squash(s: str) -> str:
        return re.sub(r"\s+", "", s)

    scores = []
    for g in gold.values():
        if not g.get("title"):
            continue
        blocks = [b["text"] for b in g.get("blocks", []) if b.get("label") == "headline"]
        t = squash(g["title"])
        scores.append(max((2 * LCSseq.similarity(squash(b), t) / (len(squash(b)) + len(t))
                           for b in blocks), default=0.0))
    return statistics.mean(scores)


def _cell(v: object) -> str:
    return f"{float(v):.3f}" if isinstance(v, int | float) else "–"


def _table(folder: Path, pages: list[Page], path: Path) -> None:
    """The list-detail table: each linked detail page's title with and without its list page."""
    gold = load_gold(folder)
    with_list, _ = _run(pages, True)
    lists = {i for i, g in gold.items() if g.get("page_type") == "list"}
    without_list, _ = _run([p for p in pages if p.id not in lists], True)
    alone = {r.id: r.title for r in without_list}
    rows, changed, right_with, right_without, judged = [], 0, 0, 0, 0
    for r in with_list:
        g = gold.get(r.id, {})
        if not g.get("list_id"):
            continue
        before = alone.get(r.id)
        differs = before != r.title
        changed += differs
        if g.get("title"):
            judged += 1
            right_with += fold(r.title) == fold(g["title"])
            right_without += fold(before) == fold(g["title"])
        rows.append(f"| {r.id} | {g['list_id']} | {r.title or ''} | {before or ''} | "
                    f"{'yes' if differs else ''} | {g.get('title') or ''} |")
    head = [
        "# list-detail: titles with and without the list page",
        "",
        ("Made by `PYTHONPATH=$PWD python benchmarks/titles.py --sets list-detail --table "
        f"{path.as_posix()}` (page method with `site_titles=True`; 'without' drops all "
        "list pages from the batch, the other detail pages of each site stay)."),
        "",
        (f"Detail pages linked from a list page: {len(rows)}; the list page changed the title "
        f"of {changed} ({changed / max(1, len(rows)):.0%}). On the {judged} with a gold title: "
        f"{right_with} exact with the list page, {right_without} without (folded as the "
        "scorer does)."),
        "",
        "| page | list page | title with list page | title without | changed | gold |",
        "|---|---|---|---|---|---|",
    ]
    path.write_text("\n".join(head + [row.replace("\n", " ") for row in rows]) + "\n",
                    encoding="utf-8")
    print(f"   list-detail table: {len(rows)} linked detail pages, {changed} changed "
          f"by the list page -> {path}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", nargs="+", default=list(SETS))
    ap.add_argument("--table", type=Path, help="write the list-detail table here")
    args = ap.parse_args(argv)
    print("| set | mode | " + " | ".join(KEYS) + " | pages/s |")
    print("|---|---|" + "---|" * (len(KEYS) + 1))
    for name in args.sets:
        folder = DATA / name
        if not (folder / "pages.jsonl").exists():
            sys.exit(f"no data set at {folder}")
        gold = load_gold(folder)
        pages = read_set_pages(folder)
        for mode in (False, True):
            records, speed = _run(pages, mode)
            m = score_pages(gold, load_predictions(records))
            label = "batch (site titles)" if mode else "page (streaming)"
            print(f"| {name} | {label} | " + " | ".join(_cell(m.get(k)) for k in KEYS)
                  + f" | {speed:.1f} |")
        if name == "l3s-gn1":
            print(f"| l3s-gn1 | ceiling: best headline block | – | {_l3s_ceiling(gold):.3f} |"
                  + " – |" * (len(KEYS) - 1))
        if name == "list-detail" and args.table:
            _table(folder, pages, args.table)


if __name__ == "__main__":
    main()
