#!/usr/bin/env python3
"""Issue 21's figures: page types and forum posts on engines and themes never seen.

usage: PYTHONPATH=$PWD python benchmarks/page_types.py [--data DIR] [--no-peer]
       PYTHONPATH=$PWD python benchmarks/page_types.py --wordpress DIR

Prints Markdown (the tables of docs/forums.md, "Issue 21"):

- modern-dev with ``--method page`` (one page per site: the single-page reading): page type
  accuracy whole and by half (halves split by site as ``../shared/bench/score.py --half``),
  the confusion matrix by gold type, and the mean per-page char F1 of the pages of gold kind
  ``forum`` for sitesift and trafilatura (``benchmarks/peers.py``) in the same run;
- forum-dz, forum-flux, forum-awful and list-detail with the default method (``auto``), and
  forum-dz and forum-flux mixed in one input (each scored against its own gold): page type,
  posts count, post text, post author and thread body.

``--wordpress DIR`` instead: page types of real WordPress sites crawled from their home pages
(``benchmarks/crawl.py --sites``, ``benchmarks/wordpress.py``): ``DIR/SITE.warc.gz`` per site
and ``DIR/gold.json``, ``{site: gold}`` with each site's gold as ``wordpress.setup`` returns
it (posts and pages are detail, every archive page a list), with ``auto`` and ``page``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from sitesift import Options
from sitesift.evaluate.bench import read_set_pages
from sitesift.evaluate.score import char_prf, f1, load_gold, load_predictions, score_pages
from sitesift.pipeline import Extractor
from sitesift.record import Page

ROOT = Path(__file__).resolve().parents[1]
TYPES = ("detail", "list", "thread", "other")
FORUM_METRICS = ("page_type_acc", "posts_count_acc", "posts_char_f1", "posts_author_acc",
                 "char_f1")


def half_of(page: Page) -> str:
    """'a' or 'b', the reference scorer's split by site (md5 of the site, else of the id)."""
    key = page.site or str(page.id)
    return "ab"[hashlib.md5(("half:" + key).encode("utf-8")).digest()[0] % 2]


def extract(pages: list[Page], method: str) -> dict[str, dict[str, Any]]:
    records = Extractor(Options(method=method)).extract_many(pages)
    return dict(load_predictions(list(records)))  # type: ignore[arg-type]


def page_type(record: dict[str, Any] | None) -> str:
    kind = (record or {}).get("page_type") or "none"
    return "detail" if kind == "article" else kind


def modern_dev(data: Path, peer: bool) -> None:
    set_dir = data / "modern-dev"
    # (Read as JSON: the project's gold checker does not know modern-dev's ``kind`` field.)
    lines = (set_dir / "gold.jsonl").read_text(encoding="utf-8").split("\n")
    gold = {str(g["id"]): g for g in map(json.loads, filter(str.strip, lines))}
    pages = read_set_pages(set_dir)
    halves = {p.id: half_of(p) for p in pages}
    pred = extract(pages, "page")
    typed = [i for i in gold if gold[i].get("page_type")]
    print("### modern-dev page types (`--method page`)\n")
    print("| | whole | half a | half b |\n|---|---:|---:|---:|")
    row = []
    for half in (None, "a", "b"):
        ids = [i for i in typed if half is None or halves[i] == half]
        ok = sum(page_type(pred.get(i)) == gold[i]["page_type"] for i in ids)
        row.append(f"{ok / len(ids):.3f} ({ok}/{len(ids)})")
    print("| page type | " + " | ".join(row) + " |\n")
    matrix = Counter((gold[i]["page_type"], page_type(pred.get(i))) for i in typed)
    columns = [*TYPES, "none"]
    print("| gold \\ predicted | " + " | ".join(columns) + " |")
    print("|---|" + "---:|" * len(columns))
    for kind in TYPES:
        total = sum(n for (g, _), n in matrix.items() if g == kind)
        if total:
            print(f"| {kind} ({total}) | " + " | ".join(
                str(matrix[(kind, c)]) for c in columns) + " |")
    forum = [i for i in gold if gold[i].get("kind") == "forum"]
    runs = {"sitesift": pred}
    if peer:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from peers import make_peer

        trafilatura = make_peer("trafilatura")
        runs["trafilatura"] = {}
        for p in pages:
            if p.id in forum:
                try:
                    runs["trafilatura"][p.id] = dict(trafilatura.run(p))
                except Exception:  # a peer's crash is an empty prediction, as run_peers.py
                    runs["trafilatura"][p.id] = {}
    print("\n### modern-dev forum pages (gold kind `forum`): mean per-page char F1\n")
    print("| extractor | whole | half a | half b | pages typed thread |")
    print("|---|---:|---:|---:|---:|")
    for name, run in runs.items():
        cells = []
        for half in (None, "a", "b"):
            ids = [i for i in forum if half is None or halves[i] == half]
            scores = [f1(*char_prf(gold[i]["body"], _text(gold[i], run.get(i)))) for i in ids]
            cells.append(f"{statistics.mean(scores):.3f}")
        threads = (sum(page_type(run.get(i)) == "thread" for i in forum)
                   if name == "sitesift" else "–")
        print(f"| {name} | " + " | ".join(cells) + f" | {threads} |")


def _text(gold: dict[str, Any], record: dict[str, Any] | None) -> str:
    record = record or {}
    text = record.get("text") or ""
    if gold.get("body_includes_title") and record.get("title"):
        text = record["title"] + "\n" + text
    return text


def forums(data: Path) -> None:
    print("\n### Forums and list-detail (default method, `auto`)\n")
    print("| set | " + " | ".join(FORUM_METRICS) + " |")
    print("|---|" + "---:|" * len(FORUM_METRICS))
    mixed: list[Page] = []
    for name in ("forum-dz", "forum-flux", "forum-awful", "list-detail"):
        set_dir = data / name
        pages = read_set_pages(set_dir)
        metrics = score_pages(load_gold(set_dir), extract(pages, "auto"))
        print(f"| {name} | " + " | ".join(_cell(metrics.get(m)) for m in FORUM_METRICS) + " |")
        if name in ("forum-dz", "forum-flux"):
            mixed += [replace(p, id=f"{name}:{p.id}") for p in pages]
    pred = extract(mixed, "auto")
    for name in ("forum-dz", "forum-flux"):
        mine = {i.split(":", 1)[1]: r for i, r in pred.items() if i.startswith(name + ":")}
        metrics = score_pages(load_gold(data / name), mine)
        print(f"| {name}, mixed with the other | " + " | ".join(
            _cell(metrics.get(m)) for m in FORUM_METRICS) + " |")


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _url_path(url: str) -> str:
    """Path and sorted query of a URL: the WordPress gold's key, whatever the port."""
    from urllib.parse import parse_qsl, urlencode, urlsplit

    parts = urlsplit(url)
    query = urlencode(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    return (parts.path or "/") + (f"?{query}" if query else "")


def wordpress(folder: Path) -> None:
    from sitesift.input.sources import iter_pages

    gold = json.loads((folder / "gold.json").read_text(encoding="utf-8"))
    print("### WordPress sites crawled from their home pages: page types\n")
    print("| site | auto | page |\n|---|---:|---:|")
    totals: Counter[str] = Counter()
    for site, truth in gold.items():
        types = {_url_path(p["path"]): "detail" for p in truth["posts"] + truth["pages"]}
        types.update({_url_path(u): "list" for v in truth["lists"].values() for u in v})
        pages = list(iter_pages([str(folder / f"{site}.warc.gz")]))
        cells = []
        for method in ("auto", "page"):
            records = Extractor(Options(method=method)).extract_many(pages)
            typed = {_url_path(r.url): page_type(r.to_dict()) for r in records if r.url}
            hits = [typed[p] == t for p, t in types.items() if p in typed]
            totals[method] += sum(hits)
            totals[method + " pages"] += len(hits)
            cells.append(f"{sum(hits)}/{len(hits)}")
        print(f"| {site} | " + " | ".join(cells) + " |")
    print("| all | " + " | ".join(
        f"{totals[m] / max(1, totals[m + ' pages']):.3f} ({totals[m]}/{totals[m + ' pages']})"
        for m in ("auto", "page")) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT / ".." / "shared" / "data")
    parser.add_argument("--no-peer", action="store_true", help="skip trafilatura")
    parser.add_argument("--wordpress", type=Path, metavar="DIR",
                        help="WordPress WARC files and gold.json instead (see above)")
    args = parser.parse_args()
    if args.wordpress:
        wordpress(args.wordpress)
        return
    modern_dev(args.data, not args.no_peer)
    forums(args.data)


if __name__ == "__main__":
    main()
