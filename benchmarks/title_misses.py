#!/usr/bin/env python3
"""Title misses by cause, per half, for one or more prediction files of one set (issue 22).

usage: python benchmarks/title_misses.py SET_DIR PRED.jsonl [PRED.jsonl ...]
       [--exclude ID ...] [--list]

Each page with a gold title is read again (``extract_metadata``'s title candidates: ``<title>``,
declared and meta titles, headings, share links) and each miss (the scorer's folded exact
match) is put in the first class that fits:

* *gold keeps decoration*: the gold is the prediction plus a separator and more (the site's
  name or an SEO phrase kept: "Dental Care | ONE Health Ohio" where the page prints "Dental Care");
* *decoration left*: the prediction is the gold plus a separator and more;
* *gold on no candidate*: the gold is none of the page's candidates (nor a part of one between
  separators): the gold's own wording, damaged characters, a name no markup gives;
* *gold `<title>`, ours printed*: the gold is ``<title>``'s or a declared title's wording (whole,
  without the site's name, or a part between separators), the prediction a printed heading;
* *gold printed, ours `<title>`*: the other way round;
* *other candidate*: both are headings, or both ``<title>``/declared wordings.

Then per gold ``kind`` the exact share in each half, and how much of the halves' gap the mix
of kinds makes (each half's per-kind rates weighted by the other half's mix). ``--exclude``
leaves pages out (gold errors listed in docs/fields.md); ``--list`` prints every miss.
Nothing is run but the metadata reader: the predictions are read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from page_types import half_of  # benchmarks/page_types.py: the reference split by site

from sitesift.evaluate.bench import read_set_pages
from sitesift.evaluate.score import fold
from sitesift.fields.metadata import extract_metadata
from sitesift.fields.title_text import SEPARATOR, strip_site_name, title_segments
from sitesift.fields.titles import TitleCandidates
from sitesift.parse.html import parse_html

CAUSES = ("gold keeps decoration", "decoration left", "gold on no candidate",
          "gold <title>, ours printed", "gold printed, ours <title>", "other candidate",
          "no title")

def _decorates(longer: str, core: str) -> bool:
    """Whether ``longer`` is ``core`` with a separator and more before or after it."""
    if not core or longer == core:
        return False
    if longer.startswith(core):
        return SEPARATOR.match(longer[len(core):]) is not None
    if longer.endswith(core):
        head = longer[:len(longer) - len(core)]
        return any(m.end() == len(head) for m in SEPARATOR.finditer(head))
    return False


def _title_forms(c: TitleCandidates) -> set[str]:
    """``<title>``, declared, meta and shared titles: whole, without the site's name, and
    their parts between separators."""
    out: set[str] = set()
    for t in (c.doc_title, *c.declared_titles, *c.meta_titles, c.shared_title):
        if t:
            out |= {fold(t), fold(strip_site_name(t, c.site_names))}
            out |= {fold(p) for p in title_segments(t)}
    return out - {""}


def classify(gold: str, ours: str, c: TitleCandidates) -> str:
    """The cause of one miss (``CAUSES``), first that fits."""
    g, o = fold(gold), fold(ours)
    if not o:
        return "no title"
    if _decorates(g, o):
        return "gold keeps decoration"
    if _decorates(o, g):
        return "decoration left"
    titles = _title_forms(c)
    printed = {fold(h) for _k, h in c.headings} - {""}
    if g not in titles and g not in printed:
        return "gold on no candidate"
    if g in titles and g not in printed and o in printed:
        return "gold <title>, ours printed"
    if g in printed and o in titles and o not in printed:
        return "gold printed, ours <title>"
    return "other candidate"


def _rows(path: Path) -> dict[str, dict]:
    with path.open(encoding="utf-8") as f:
        return {str(row["id"]): row for row in map(json.loads, f) if row}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set_dir", type=Path)
    parser.add_argument("preds", type=Path, nargs="+")
    parser.add_argument("--exclude", nargs="*", default=[])
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args(argv)
    gold = {k: g for k, g in _rows(args.set_dir / "gold.jsonl").items()
            if g.get("title") and k not in set(args.exclude)}
    preds = [_rows(p) for p in args.preds]
    cands: dict[str, tuple[str, TitleCandidates]] = {}
    for page in read_set_pages(args.set_dir):
        if page.id in gold:
            meta = extract_metadata(parse_html(page.html), url=page.url)
            cands[page.id] = (half_of(page), meta.title_candidates)
    names = [re.sub(r"\.jsonl$", "", p.name) for p in args.preds]
    pages = Counter(h for h, _c in cands.values())
    print(f"pages with a gold title: a {pages['a']}, b {pages['b']}"
          + (f" ({len(args.exclude)} excluded)" if args.exclude else ""))
    print("\n| cause | " + " | ".join(f"{n} a | {n} b" for n in names) + " |")
    print("|---|" + "---|---|" * len(names))
    counts = []
    for pred in preds:
        count: Counter[tuple[str, str]] = Counter()
        for pid, (half, c) in sorted(cands.items()):
            ours = (pred.get(pid) or {}).get("title") or ""
            if fold(ours) != fold(gold[pid]["title"]):
                cause = classify(gold[pid]["title"], ours, c)
                count[half, cause] += 1
                if args.list and pred is preds[0]:
                    print(f"  {pid} {half} {gold[pid].get('kind')} {cause}: gold "
                          f"{gold[pid]['title']!r} ours {ours!r}", file=sys.stderr)
        counts.append(count)
    for cause in (*CAUSES, "all misses"):
        cells = []
        for count in counts:
            for half in "ab":
                n = sum(v for (h, k), v in count.items() if h == half
                        and (k == cause or cause == "all misses"))
                cells.append(f"{n} ({n / max(pages[half], 1):.3f})")
        print(f"| {cause} | " + " | ".join(cells) + " |")
    for name, pred in zip(names, preds, strict=True):
        _per_kind(name, pred, gold, cands)
    return 0


def _per_kind(name: str, pred: dict[str, dict], gold: dict[str, dict],
              cands: dict[str, tuple[str, TitleCandidates]]) -> None:
    """Exact share per gold kind and half, and the gap the mix of kinds makes."""
    hits: dict[str, dict[str, list[bool]]] = {"a": defaultdict(list), "b": defaultdict(list)}
    for pid, (half, _c) in cands.items():
        ok = fold((pred.get(pid) or {}).get("title")) == fold(gold[pid]["title"])
        hits[half][str(gold[pid].get("kind"))].append(ok)
    print(f"\n{name}: | kind | a | b |")
    for kind in sorted(set(hits["a"]) | set(hits["b"]),
                       key=lambda k: -len(hits["a"][k]) - len(hits["b"][k])):
        cells = [f"{sum(v)}/{len(v)} = {sum(v) / len(v):.3f}" if v else "-"
                 for v in (hits["a"][kind], hits["b"][kind])]
        print(f"| {kind} | {cells[0]} | {cells[1]} |")

    def rate(half: str, mix: str) -> float:
        """``half``'s per-kind rates weighted by ``mix``'s pages per kind (kinds both have)."""
        kinds = [k for k in hits[mix] if hits[half].get(k)]
        total = sum(len(hits[mix][k]) for k in kinds)
        return sum(sum(hits[half][k]) / len(hits[half][k]) * len(hits[mix][k])
                   for k in kinds) / total

    a, b = rate("a", "a"), rate("b", "b")
    print(f"{name}: a {a:.3f}, b {b:.3f} (gap {a - b:.3f}); a's rates on b's mix "
          f"{rate('a', 'b'):.3f}, b's rates on a's mix {rate('b', 'a'):.3f}")


if __name__ == "__main__":
    raise SystemExit(main())
