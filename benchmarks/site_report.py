"""Per-site report of the template method for reading: clusters, what each page kept.

    python benchmarks/site_report.py ../shared/data/zh-sites -o docs/reports/zh-sites.md

For every site: its clusters (pages and template size), and for every page the method that
ran, the title, the first and last lines of the text kept, and the char F1 against the gold
when the set has one. Titles and texts are cut short: the report shows decisions, it does not
republish the pages.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from sitesift import Extractor, Options
from sitesift.evaluate.score import char_prf, f1, load_gold
from sitesift.input import iter_pages

#: Characters of text shown per page at the start and at the end.
SHOWN = 60


def _cut(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n] + "…"


def report(set_dir: Path) -> str:
    pages = list(iter_pages([str(set_dir / "pages.jsonl")]))
    records = list(Extractor(Options(method="template")).extract_many(pages))
    gold = load_gold(set_dir)
    by_site: dict[str, list] = defaultdict(list)
    for record in records:
        by_site[record.site or "(none)"].append(record)
    lines = [
        f"# Template method on {set_dir.name}: clusters and kept text per site",
        "",
        (
            f"Generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by "
            f"`python benchmarks/site_report.py {set_dir} -o ...`. Text shown: the first and "
            f"last {SHOWN} characters kept; F1 = char F1 against the set's gold where it has "
            "a body."
        ),
        "",
    ]
    for site in sorted(by_site, key=lambda s: (-len(by_site[s]), s)):
        recs = by_site[site]
        clusters: dict[str, int] = defaultdict(int)
        for r in recs:
            clusters[str(r.extra.get("cluster"))] += 1
        lines += [f"## {site} ({len(recs)} pages)", "",
                  "clusters: " + ", ".join(f"`{c}` {n}" for c, n in sorted(clusters.items())),
                  "", "| page | cluster | method | F1 | title | text starts | text ends |",
                  "|---|---|---|---:|---|---|---|"]
        for r in recs:
            text = r.text or ""
            body = (gold.get(r.id) or {}).get("body")
            score = f"{f1(*char_prf(body, text)):.3f}" if body else "–"
            cells = [r.id, str(r.extra.get("cluster")), str(r.method or r.error), score,
                     _cut(r.title or "", 40), _cut(text, SHOWN), _cut(text[-SHOWN:], SHOWN)]
            lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("set_dir", type=Path)
    parser.add_argument("-o", "--output", type=Path)
    args = parser.parse_args(argv)
    text = report(args.set_dir)
    if args.output:
        args.output.write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
