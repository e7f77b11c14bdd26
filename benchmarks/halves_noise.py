#!/usr/bin/env python3
"""How far apart two halves of a dev set split by site fall by chance alone (issue 22's "the
held-back half within 0.03 of the tuned half").

The reference split (``score.py --half``) is one draw of a split by site. A field figure on
~250 pages a half, clustered by site, differs between two random halves even for an extractor
that has learned nothing from either half. This script reads predictions (nothing is run),
takes each page's outcome for a field as the reference scorer counts it, and draws ``--splits``
other splits by site (md5 of "split<k>:" + site, the reference's own rule with another salt):
the distribution of |half a - half b| under the same outcomes tells whether a gap is the
extractor's (far in the tail) or the split's (inside the spread).

usage: python benchmarks/halves_noise.py SET_DIR PRED.jsonl [--fields title date author]
       [--splits 2000]

Per field it prints: pages with gold, the figure whole / half a / half b, the reference split's
gap, the median and 90th percentile of the gap over random splits, the share of random splits
within 0.03, and the share of random splits whose gap is at least the reference split's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path

from sitesift.evaluate.score import field_outcomes, load_gold

TOLERANCE = 0.03  # the "within 0.03"

#: The fields whose per-page outcome the reference scorer counts (``field_outcomes``).
FIELDS = ("title", "date", "author")


def half(key: str, salt: str) -> int:
    """0 or 1: the reference scorer's split rule (salt "half") or another draw of it."""
    return hashlib.md5(f"{salt}:{key}".encode()).digest()[0] % 2


def site_outcomes(set_dir: Path, pred_path: Path, name: str) -> dict[str, list[bool]]:
    """Each site's page outcomes (the key the reference split hashes: site, else id)."""
    gold = load_gold(set_dir)
    with pred_path.open(encoding="utf-8") as f:
        pred = {str(r["id"]): r for r in map(json.loads, f) if r}
    with (set_dir / "pages.jsonl").open(encoding="utf-8") as f:
        keys = {str(p["id"]): p.get("site") or str(p["id"]) for p in map(json.loads, f)}
    by_site: dict[str, list[bool]] = defaultdict(list)
    for page_id, g in gold.items():
        ok = field_outcomes(g, pred.get(page_id, {})).get(name)
        if ok is not None:
            by_site[keys.get(page_id, page_id)].append(ok)
    return by_site


def halves(by_site: Mapping[str, list[bool]], salt: str) -> tuple[float, float]:
    """The figure on each half of one split."""
    hits, pages = [0, 0], [0, 0]
    for key, oks in by_site.items():
        side = half(key, salt)
        hits[side] += sum(oks)
        pages[side] += len(oks)
    return (hits[0] / pages[0] if pages[0] else 0.0, hits[1] / pages[1] if pages[1] else 0.0)


def report(by_site: Mapping[str, list[bool]], splits: int) -> dict[str, float]:
    """The reference split's halves and gap beside the gaps of ``splits`` random splits."""
    a, b = halves(by_site, "half")
    gap = abs(a - b)
    gaps = sorted(abs(x - y) for x, y in (halves(by_site, f"split{k}") for k in range(splits)))
    total = sum(len(oks) for oks in by_site.values())
    return {
        "pages": total, "sites": len(by_site),
        "whole": sum(sum(oks) for oks in by_site.values()) / total if total else 0.0,
        "a": a, "b": b, "gap": gap,
        "median_gap": statistics.median(gaps),
        "p90_gap": gaps[int(0.9 * (len(gaps) - 1))],
        "within_tolerance": sum(g <= TOLERANCE for g in gaps) / len(gaps),
        "as_far": sum(g >= gap - 1e-12 for g in gaps) / len(gaps),
    }


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set_dir", type=Path)
    parser.add_argument("pred", type=Path)
    parser.add_argument("--fields", nargs="+", choices=FIELDS,
                        default=["title", "date", "author"])
    parser.add_argument("--splits", type=int, default=2000)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print("field   pages sites  whole      a      b    gap  median   p90  within  as_far")
    for name in args.fields:
        by_site = site_outcomes(args.set_dir, args.pred, name)
        if not by_site:
            continue
        r = report(by_site, args.splits)
        print(f"{name:7s} {r['pages']:5d} {r['sites']:5d}  {r['whole']:.3f}  {r['a']:.3f}  "
              f"{r['b']:.3f}  {r['gap']:.3f}  {r['median_gap']:.3f}  {r['p90_gap']:.3f}  "
              f"{r['within_tolerance']:6.1%}  {r['as_far']:6.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
