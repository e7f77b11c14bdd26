#!/usr/bin/env python3
"""Mean per-page body char F1 by the gold's ``kind`` (issue 17's per-kind figure), for one or
more prediction files of the same set, side by side. Nothing is run: predictions are read.

usage: python benchmarks/per_kind.py SET_DIR PRED.jsonl [PRED.jsonl ...] [--half a|b]

Each page's char F1 is the reference scorer's (LCS of the squashed texts, the title prepended
where the gold body starts with it); a kind's figure is the mean over its pages.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from page_types import half_of  # benchmarks/page_types.py: the reference split by site

from sitesift.record import Page
from sitesift.similarity import char_prf, f1


def _rows(path: Path) -> dict[str, dict]:
    with path.open(encoding="utf-8") as f:
        return {str(row["id"]): row for row in map(json.loads, f) if row}


def per_kind(gold: dict[str, dict], pred: dict[str, dict],
             keep: set[str] | None = None) -> dict[str, list[float]]:
    """Per-page char F1 of ``pred`` grouped by the gold's kind (pages with a gold body)."""
    out: dict[str, list[float]] = defaultdict(list)
    for page_id, g in gold.items():
        if not g.get("body") or (keep is not None and page_id not in keep):
            continue
        p = pred.get(page_id, {})
        text = p.get("text") or ""
        if g.get("body_includes_title") and p.get("title"):
            text = p["title"] + "\n" + text
        out[str(g.get("kind"))].append(f1(*char_prf(g["body"], text)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set_dir", type=Path)
    parser.add_argument("preds", type=Path, nargs="+")
    parser.add_argument("--half", choices=("a", "b"))
    args = parser.parse_args(argv)
    gold = _rows(args.set_dir / "gold.jsonl")
    keep = None
    if args.half:
        keep = {pid for pid, page in _rows(args.set_dir / "pages.jsonl").items()
                if half_of(Page(id=pid, site=page.get("site"), html="")) == args.half}
    tables = [per_kind(gold, _rows(path), keep) for path in args.preds]
    print("| kind | pages | " + " | ".join(p.stem for p in args.preds) + " |")
    print("|---|---|" + "---|" * len(args.preds))
    for kind in sorted(tables[0]):
        means = [sum(t[kind]) / len(t[kind]) for t in tables]
        print(f"| {kind} | {len(tables[0][kind])} | " + " | ".join(f"{m:.3f}" for m in means)
              + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
