#!/usr/bin/env python3
"""Does the service improve as it sees more of a site? Pages of each set are sent to the
service one by one, sites interleaved as a crawler would fetch them (round-robin over the
sites, each site's pages in manifest order); the records are scored against the gold.

usage: PYTHONPATH=$PWD python benchmarks/service_stream.py [--data DIR] [--sets big9-2005 ...]
       [--json OUT]

Compared on the same pages in the same run: the page method (no learning), the template
method given the whole set at once (batch ``sitesift extract --method template``: the best a
site-level method can do with every page in hand), and the service stream, overall and split
into each site's first pages (before its first learning: ``MIN_LEARN_PAGES - 1`` pages) and
the rest. In-process (TestClient, work in threads): this measures accuracy, not speed.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections import defaultdict
from itertools import zip_longest
from pathlib import Path
from typing import Any

from sitesift import Extractor, Options
from sitesift.evaluate.bench import read_set_pages
from sitesift.evaluate.score import load_gold, score_pages
from sitesift.record import Page
from sitesift.service import ServiceSettings, create_app
from sitesift.service.memory import MIN_LEARN_PAGES

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"
DEFAULT_SETS = ("big9-2005", "big9-2009", "cleanportal", "zh-sites")


def crawl_order(pages: list[Page]) -> list[Page]:
    """Round-robin over sites, each site's pages in manifest order."""
    by_site: dict[str | None, list[Page]] = defaultdict(list)
    for page in pages:
        by_site[page.site].append(page)
    rounds = zip_longest(*by_site.values())
    return [page for group in rounds for page in group if page is not None]


def stream(pages: list[Page]) -> tuple[dict[str, dict[str, Any]], set[str]]:
    """Records by id from the service, and the ids of pages sent before their site's first
    learning."""
    records: dict[str, dict[str, Any]] = {}
    early: set[str] = set()
    seen: dict[str | None, int] = defaultdict(int)
    with TestClient(create_app(ServiceSettings(workers=0))) as client:
        for page in crawl_order(pages):
            seen[page.site] += 1
            if seen[page.site] < MIN_LEARN_PAGES:
                early.add(page.id)
            body = {"id": page.id, "url": page.url, "site": page.site, "html": page.html}
            response = client.post("/extract", json=body)
            response.raise_for_status()
            records[page.id] = response.json()
    return records, early


def metrics(gold: dict[str, Any], records: dict[str, Any], ids: set[str]) -> dict[str, Any]:
    m = score_pages({k: v for k, v in gold.items() if k in ids},
                    {k: v for k, v in records.items() if k in ids})
    return {"pages": len(ids), "char_f1": m.get("char_f1"), "shingle_f1": m.get("shingle_f1")}


def run_set(folder: Path) -> dict[str, Any]:
    gold = load_gold(folder)
    pages = [p for p in read_set_pages(folder) if p.id in gold]
    ids = {p.id for p in pages}
    out: dict[str, Any] = {}
    for method in ("page", "template"):
        records = {r.id: r.to_dict() for r in Extractor(Options(method=method)).extract_many(pages)}
        out[f"batch {method}"] = metrics(gold, records, ids)
    records, early = stream(pages)
    out["service, all pages"] = metrics(gold, records, ids)
    out[f"service, first {MIN_LEARN_PAGES - 1} of a site"] = metrics(gold, records, early)
    out["service, the rest"] = metrics(gold, records, ids - early)
    page_records = {r.id: r.to_dict() for r in Extractor(Options(method="page")).extract_many(
        [p for p in pages if p.id not in early])}
    out["page method on the rest"] = metrics(gold, page_records, ids - early)
    out["methods (service)"] = dict(sorted(
        {m: sum(r.get("method") == m for r in records.values()) for m in ("page", "template")}
        .items()))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    results = {}
    print("| set | run | pages | char F1 | shingle F1 |\n|---|---|---|---|---|")
    for name in args.sets:
        folder = args.data / name
        if not (folder / "gold.jsonl").is_file():
            print(f"skip {name}: no data at {folder}", file=sys.stderr)
            continue
        results[name] = run_set(folder)
        for run, m in results[name].items():
            if "pages" in m:
                print(f"| {name} | {run} | {m['pages']} | {m['char_f1']:.3f} | "
                      f"{m['shingle_f1']:.3f} |", flush=True)
        print(f"| {name} | methods used by the service | {results[name]['methods (service)']} "
              f"| | |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
