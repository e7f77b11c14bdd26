#!/usr/bin/env python3
"""dateparser (RELATIVE_BASE) against sitesift's relative-date patterns, on issue 22's expressions.

usage: python benchmarks/relative_dates.py

Prints, per expression, the day both name; then the cost of each (dateparser's first call,
first Chinese call, then per string; sitesift per string), and what each does with a whole
byline line (``dateparser.parse`` and ``dateparser.search.search_dates``). Needs dateparser
(not a dependency of sitesift: the figures are why; see docs/fields.md).
"""

from __future__ import annotations

import time
from datetime import datetime

import dateparser
from dateparser.search import search_dates

from sitesift.fields.relative_dates import RELATIVE, relative_date

BASE = datetime(2026, 11, 26, 10, 0)
EXPRESSIONS = ("3 hours ago", "2 days ago", "yesterday", "just now", "5 minutes ago",
               "an hour ago", "3小时前", "5分钟前", "2天前", "昨天 14:30", "前天", "刚刚",
               "1小时前", "半小时前")
LINES = ("By Jane Doe · 3 hours ago", "记者 王小明 3小时前", "发布于 3小时前",
         "Posted 2 days ago by Jane")
#: Repeats of the expression list for the per-string timings.
REPEATS = 20


def ours(text: str) -> str | None:
    match = RELATIVE.search(text)
    return relative_date(match, BASE) if match else None


def main() -> None:
    settings = {"RELATIVE_BASE": BASE}
    t = time.perf_counter()
    dateparser.parse("3 hours ago", settings=settings)
    first = time.perf_counter() - t
    t = time.perf_counter()
    dateparser.parse("3小时前", settings=settings)
    first_zh = time.perf_counter() - t
    agree = 0
    for text in EXPRESSIONS:
        theirs = dateparser.parse(text, settings=settings)
        mine = ours(text)
        same = bool(mine and theirs and mine[:10] == theirs.date().isoformat())
        agree += same
        print(f"{text!r:16} dateparser={theirs} sitesift={mine} {'=' if same else '!='}")
    t = time.perf_counter()
    for _ in range(REPEATS):
        for text in EXPRESSIONS:
            dateparser.parse(text, settings=settings)
    per_dp = (time.perf_counter() - t) / (REPEATS * len(EXPRESSIONS))
    t = time.perf_counter()
    for _ in range(REPEATS * 50):
        for text in EXPRESSIONS:
            ours(text)
    per_ours = (time.perf_counter() - t) / (REPEATS * 50 * len(EXPRESSIONS))
    print(f"same day {agree}/{len(EXPRESSIONS)}; dateparser first call {first * 1e3:.0f} ms, "
          f"first Chinese {first_zh * 1e3:.0f} ms, then {per_dp * 1e3:.2f} ms a string; "
          f"sitesift {per_ours * 1e6:.1f} µs a string")
    for line in LINES:
        t = time.perf_counter()
        parsed = dateparser.parse(line, settings=settings)
        parse_ms = (time.perf_counter() - t) * 1e3
        t = time.perf_counter()
        found = search_dates(line, settings=settings)
        search_ms = (time.perf_counter() - t) * 1e3
        print(f"{line!r}: parse {parsed} ({parse_ms:.0f} ms); search_dates {found} "
              f"({search_ms:.0f} ms); sitesift {ours(line)}")


if __name__ == "__main__":
    main()
