#!/usr/bin/env python3
"""Every method of sitesift on every dev set, in one run: is ``auto`` at least as good as the
best single method on each set (issue 9)?

    python benchmarks/methods.py [--sets big9-2005 ...] [--methods page template ...] [--json OUT]

``auto+visual`` is ``auto`` with ``visual_fallback`` (a browser judges the pages whose DOM
methods disagree; needs Chromium): give it with ``--methods`` to measure it.

Prints a Markdown table per metric (body char F1, shingle F1, title exact, date, author, page
type, post count) with the sets as rows and the methods as columns; the best single method of
each row is marked and auto's difference to it is given. Reads ../shared/data.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from sitesift import Options
from sitesift.evaluate.bench import bench

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DEFAULT_SETS = ("big9-2005", "big9-2009", "cleanportal", "zh-sites", "scrapinghub",
                "zh-news-dev", "l3s-gn1", "list-detail", "forum-dz", "forum-awful",
                "readability-meta", "dates-dev")
DEFAULT_METHODS = ("page", "template", "siblings", "forum", "auto")
#: (metric key, heading) in the order tables are printed.
METRICS = (("char_f1", "body char F1"), ("shingle_f1", "body shingle F1"),
           ("title_exact", "title exact"), ("date_acc", "date"), ("author_exact", "author"),
           ("page_type_acc", "page type"), ("posts_count_acc", "posts: right number"),
           ("posts_char_f1", "posts: text char F1"))


def table(results: dict[str, dict[str, dict[str, Any]]], key: str, methods: list[str]) -> str:
    singles = [m for m in methods if not m.startswith("auto")]
    rows = []
    for set_name, by_method in results.items():
        values = {m: by_method.get(m, {}).get(key) for m in methods}
        if all(v is None for v in values.values()):
            continue
        known = {m: v for m, v in values.items() if v is not None and m in singles}
        best = max(known.values()) if known else None
        cells = [f"**{values[m]:.3f}**" if values[m] is not None and values[m] == best
                 and m in singles else ("–" if values[m] is None else f"{values[m]:.3f}")
                 for m in methods]
        auto = values.get("auto")
        gap = f"{auto - best:+.3f}" if auto is not None and best is not None else "–"
        rows.append(f"| {set_name} | " + " | ".join(cells) + f" | {gap} |")
    if not rows:
        return ""
    head = "| set | " + " | ".join(methods) + " | auto - best single |"
    rule = "|---" * (len(methods) + 2) + "|"
    return "\n".join([head, rule, *rows])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS))
    parser.add_argument("--methods", nargs="+", default=list(DEFAULT_METHODS))
    parser.add_argument("--json", type=Path, help="write every figure here too")
    args = parser.parse_args(argv)
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for set_name in args.sets:
        folder = args.data / set_name
        if not (folder / "pages.jsonl").is_file():
            print(f"skipping {set_name}: {folder} is absent", file=sys.stderr)
            continue
        for method in args.methods:
            start = time.perf_counter()
            options = (Options(method="auto", visual_fallback=True) if method == "auto+visual"
                       else Options(method=method))
            metrics, pps, records = bench(folder, options=options)
            metrics["pages_per_s"] = pps
            metrics["methods_used"] = sorted({r.method or "error" for r in records})
            results.setdefault(set_name, {})[method] = metrics
            print(f"{set_name} {method}: char F1 {metrics.get('char_f1')} "
                  f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    for key, heading in METRICS:
        text = table(results, key, args.methods)
        if text:
            print(f"\n### {heading}\n\n{text}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
