#!/usr/bin/env python3
"""Title, date and author against peers, whole set and each half split by site, one run.

usage: python benchmarks/fields.py [--preds DIR] [SET ...]
       (default sets: modern-dev dates-dev zh-news-dev readability-meta l3s-gn1)

For each set every finder predicts on the same decoded pages, predictions are written to
/tmp/sitesift-fields/<set>/<finder>.jsonl and scored by the reference scorer
(``../shared/bench/score.py``, whole, ``--half a`` and ``--half b``). Finders:

- ``sitesift``: ``python -m sitesift extract --method page`` predictions read from
  ``--preds DIR/<set>.jsonl`` when given, else ``extract_metadata`` on each page (the same
  values on these sets but for l3s-gn1 titles, which the site-level title learning changes);
- ``trafilatura``: ``bare_extraction(..., with_metadata=True)`` title, author, date;
- ``htmldate``: ``find_date(html, url=url, original_date=True)`` (dates only);
- ``+htmldate``: sitesift's date, htmldate's where sitesift finds none (what htmldate adds);
- ``+dateparser``: sitesift's date, else the first date ``dateparser.search.search_dates``
  finds in the first ``DATEPARSER_CHARS`` characters of the page's visible text (what a
  general date parser adds on the pages sitesift's own forms miss).

A peer's crash on a page is a miss for that page, never the end of the run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sitesift.evaluate.bench import read_set_pages
from sitesift.fields.metadata import extract_metadata
from sitesift.parse import parse_html
from sitesift.record import Page

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"
SCORER = REPO / ".." / "shared" / "bench" / "score.py"
OUT = Path("/tmp/sitesift-fields")
SETS = ("modern-dev", "dates-dev", "zh-news-dev", "readability-meta", "l3s-gn1")
#: Visible text given to dateparser: the top of a page, where a printed date sits.
DATEPARSER_CHARS = 1500
FIELDS = (("title", "title_exact"), ("date", "date_acc"), ("author", "author_exact"))

Prediction = dict[str, Any]


def _ours(page: Page) -> Prediction:
    m = extract_metadata(parse_html(page.html), url=page.url)
    return {"title": m.title, "author": m.author, "published": m.published}


def _trafilatura(page: Page) -> Prediction:
    from trafilatura import bare_extraction

    doc = bare_extraction(page.html, url=page.url, with_metadata=True)
    get = (lambda k: getattr(doc, k, None)) if doc is not None else (lambda k: None)
    return {"title": get("title"), "author": get("author"), "published": get("date")}


def _htmldate(page: Page) -> Prediction:
    from htmldate import find_date

    return {"published": find_date(page.html, url=page.url, original_date=True)}


def _dateparser(page: Page) -> Prediction:
    from dateparser.search import search_dates

    body = parse_html(page.html).find("body")
    text = " ".join(body.text_content().split())[:DATEPARSER_CHARS] if body is not None else ""
    found = search_dates(text, settings={"STRICT_PARSING": True}) if text else None
    return {"published": found[0][1].date().isoformat() if found else None}


def _safe(find: Callable[[Page], Prediction], page: Page) -> Prediction:
    try:
        return find(page)
    except Exception:  # a peer's crash is a miss on this page
        return {}


def _score(set_dir: Path, path: Path, half: str | None) -> dict[str, Any]:
    cmd = [sys.executable, str(SCORER), str(set_dir), str(path), "--json"]
    if half:
        cmd += ["--half", half]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def _write(path: Path, pages: list[Page], preds: list[Prediction]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        for page, pred in zip(pages, preds, strict=True):
            fh.write(json.dumps({"id": page.id, **pred}, ensure_ascii=False) + "\n")


def run_set(name: str, preds_dir: Path | None) -> None:
    set_dir = DATA / name
    pages = read_set_pages(set_dir)
    if preds_dir is not None:
        with open(preds_dir / f"{name}.jsonl", encoding="utf-8") as fh:
            by_id = {r["id"]: r for r in map(json.loads, fh)}
        ours = [{k: by_id.get(p.id, {}).get(k) for k in ("title", "author", "published")}
                for p in pages]
    else:
        ours = [_safe(_ours, p) for p in pages]
    found: dict[str, list[Prediction]] = {"sitesift": ours}
    found["trafilatura"] = [_safe(_trafilatura, p) for p in pages]
    htmldate = [_safe(_htmldate, p) for p in pages]
    found["htmldate"] = htmldate
    found["+htmldate"] = [{"published": o.get("published") or h.get("published")}
                          for o, h in zip(ours, htmldate, strict=True)]
    found["+dateparser"] = [{"published": o.get("published") or (
        _safe(_dateparser, p).get("published") if not o.get("published") else None)}
        for o, p in zip(ours, pages, strict=True)]
    for finder, preds in found.items():
        path = OUT / name / f"{finder}.jsonl"
        _write(path, pages, preds)
        scores = [_score(set_dir, path, h) for h in (None, "a", "b")]
        cells = []
        for field, key in FIELDS:
            if key not in scores[0] or (finder.startswith(("+", "htmldate")) and field != "date"):
                continue
            cells.append(f"{field} {' / '.join(f'{s[key]:.3f}' for s in scores)}")
        print(f"| {name} | {finder} | {' | '.join(cells)} |", flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sets", nargs="*", default=list(SETS))
    ap.add_argument("--preds", type=Path, help="folder of sitesift predictions <set>.jsonl")
    args = ap.parse_args(argv)
    print("| set | finder | field whole / half a / half b |\n|---|---|---|")
    for name in args.sets:
        run_set(name, args.preds)


if __name__ == "__main__":
    main()
