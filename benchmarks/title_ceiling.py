#!/usr/bin/env python3
"""Ceilings of the title and author figures that the gold itself sets.

usage: python benchmarks/title_ceiling.py [--list]

l3s-gn1: the gold title is every block labelled headline joined (a headline printed two or
three times, its subtitle, sometimes a "GO TO EARLIER STORY" link). A one-headline extractor
cannot match that; this prints the mean title char F1 (the scorer's ``title_char_f1``) of

* the best single headline block of each page (an oracle choosing among the gold's blocks),
* the first headline block (the headline as printed once: a perfect one-headline answer),
* the distinct headline blocks joined once each (repeats removed),

over the pages the scorer counts (gold title not empty).

readability-meta: the gold author is Readability's byline text, often raw ("By Erin
Cunningham", "Last Updated: January 7, 2025", "Follow Author"). A name extractor returns
clean names, so a gold author that is not its own clean form (``author_names.clean_author``, folded
as the scorer folds) cannot be matched: this prints their share and the best author exact
rate a correct name extractor can reach. ``--list`` prints those gold values.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from sitesift.evaluate.score import _char_f1, fold, load_gold
from sitesift.fields.author_names import clean_author

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"


def l3s_ceilings(folder: Path) -> dict[str, float]:
    """Mean title char F1 of three one-string answers made from the gold's headline blocks."""
    best, first, distinct = [], [], []
    for g in load_gold(folder).values():
        if not g.get("title"):
            continue
        blocks = [b["text"] for b in g.get("blocks", []) if b.get("label") == "headline"]
        if not blocks:
            best.append(0.0), first.append(0.0), distinct.append(0.0)
            continue
        best.append(max(_char_f1(b, g["title"]) for b in blocks))
        first.append(_char_f1(blocks[0], g["title"]))
        distinct.append(_char_f1(" ".join(dict.fromkeys(blocks)), g["title"]))
    return {"pages": len(best), "best_block": statistics.mean(best),
            "first_block": statistics.mean(first), "distinct_blocks": statistics.mean(distinct)}


def author_ceiling(folder: Path) -> tuple[int, list[str]]:
    """(gold authors, those that are not a clean name)."""
    authors = [g["author"] for g in load_gold(folder).values() if g.get("author")]
    raw = [a for a in authors if fold(clean_author(a)) != fold(a)]
    return len(authors), raw


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="print the raw gold authors")
    args = ap.parse_args(argv)
    c = l3s_ceilings(DATA / "l3s-gn1")
    print(f"l3s-gn1 title char F1 ceilings over {c['pages']} pages: "
          f"best single headline block {c['best_block']:.4f}, "
          f"first headline block {c['first_block']:.4f}, "
          f"distinct headline blocks joined {c['distinct_blocks']:.4f}")
    total, raw = author_ceiling(DATA / "readability-meta")
    print(f"readability-meta authors: {total} gold, {len(raw)} not a clean name "
          f"({len(raw) / total:.1%}); best exact rate of a name extractor "
          f"{(total - len(raw)) / total:.4f}")
    if args.list:
        for a in raw:
            print("   ", repr(a))


if __name__ == "__main__":
    main()
