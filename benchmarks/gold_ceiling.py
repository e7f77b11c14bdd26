#!/usr/bin/env python3
"""Body char F1 of a prediction file where a set's gold is wrong or in conflict with the page
(issue 18): the figure as scored, and the figure with the disputed part taken out.

    python benchmarks/gold_ceiling.py SET PRED.jsonl [--without ID_OR_SITE ...]
        [--strip REGEX] [--p-only]

``--without``: pages left out (by id or site: a gold of "no article", a gold that keeps the
first of a story's blocks only). ``--strip``: lines matching REGEX taken out of both the gold
and the prediction (lines one site's gold keeps and another's drops, or a gold line that is
a recirculation module). ``--p-only``: the prediction's lines that the page prints only as a
heading, list item, table cell, ``<pre>`` or ``<figcaption>`` (none inside a ``<p>``) taken
out, since the gold of list-detail and zh-sites is the container's ``<p>`` text (their
READMEs). Prints whole / half a / half b, halves split as the reference scorer splits them.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from pathlib import Path
from typing import Any

import lxml.html

from sitesift.evaluate.score import char_prf, f1

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
_NOT_P = ("h1", "h2", "h3", "h4", "h5", "h6", "li", "pre", "td", "th", "figcaption")


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _not_paragraphs(path: Path) -> set[str]:
    """Texts (white space removed) the page prints as a heading, item, cell or <pre> only."""
    root = lxml.html.fromstring(path.read_bytes())
    return {_squash(el.text_content()) for el in root.iter(*_NOT_P)
            if el.find(".//p") is None and not any(a.tag == "p" for a in el.iterancestors())}


def _lines(text: str, strip: re.Pattern[str] | None, drop: set[str] = frozenset()) -> str:
    return "\n".join(line for line in text.split("\n")
                     if not (strip and strip.search(line.strip())) and _squash(line) not in drop)


def _f1(pairs: list[tuple[float, float]]) -> float:
    """F1 of the mean precision and mean recall, as the reference scorer counts it."""
    return f1(statistics.mean(p for p, _ in pairs), statistics.mean(r for _, r in pairs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("set")
    parser.add_argument("pred", type=Path)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--without", nargs="+", default=[])
    parser.add_argument("--strip")
    parser.add_argument("--p-only", action="store_true")
    args = parser.parse_args(argv)
    from methods import _half_of  # the reference scorer's split

    half_of = _half_of()
    folder = args.data / args.set
    rows = {str(r["id"]): r for r in map(json.loads, (folder / "pages.jsonl").open())}
    gold = {str(g["id"]): g for g in map(json.loads, (folder / "gold.jsonl").open())
            if g.get("body")}
    preds: dict[str, dict[str, Any]] = {str(r["id"]): r for r in map(json.loads, args.pred.open())}
    strip = re.compile(args.strip) if args.strip else None
    left_out = set(args.without)
    for half in (None, "a", "b"):
        scored: dict[str, list[tuple[float, float]]] = {"as scored": [], "disputed out": []}
        for page_id, g in gold.items():
            row = rows[page_id]
            if half and half_of(row) != half:
                continue
            pred = preds.get(page_id, {})
            text = pred.get("text") or ""
            if g.get("body_includes_title") and pred.get("title"):
                text = pred["title"] + "\n" + text
            scored["as scored"].append(char_prf(g["body"], text))
            if page_id in left_out or row.get("site") in left_out:
                continue
            drop = _not_paragraphs(folder / row["file"]) if args.p_only else set()
            scored["disputed out"].append(
                char_prf(_lines(g["body"], strip), _lines(text, strip, drop)))
        figures = ", ".join(f"{name} {_f1(pairs):.4f} ({len(pairs)} pages)"
                            for name, pairs in scored.items() if pairs)
        print(f"{half or 'whole'}: {figures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
