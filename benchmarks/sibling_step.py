"""The sibling step alone (paper 004 as ``auto`` runs it): its CPU time by part, its matches,
and every page's verdicts, to compare two checkouts.

    python benchmarks/sibling_step.py [SET ...] [--repeat 1] [--rounds 3] [--code DIR]
                                      [--verdicts OUT]

The pages of each SET (default: big9-2005, big9-2009, cleanportal, the pages of
``end_to_end.py``), each ``--repeat`` times as that benchmark lists them, are parsed and grouped
by site; then, per site and timed apart (process time, best of ``--rounds``, a fresh
``SiblingSite`` each round): the node strings and their index (``SiblingSite``), the block
trees (``segment_blocks(..., texts=False)``, from the string where it is the page's layout,
or its measures where the checkout has ``NodeString.measure``, as ``SiblingsMethod`` makes
them) and the verdicts on every page's
blocks (``judge``; ``auto`` judges articles only, which all these pages are). One more,
untimed round counts the ``match_subtree`` calls by caller.

``--verdicts OUT`` writes each page's verdicts (block by its place in a depth-first walk of
the tree, kind, pages, siblings, similarities) as JSON: equal files from two checkouts are the
same verdicts on every block of every page, judged or not by ``auto``. ``--code`` runs another
checkout's code (e.g. ``git archive COMMIT``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SETS = ("big9-2005", "big9-2009", "cleanportal")


def _order(top: Any) -> dict[int, int]:
    """Each block's place in a depth-first walk of the tree, by ``id``."""
    order, stack = [], [top]
    while stack:
        block = stack.pop()
        order.append(block)
        stack.extend(block.children)
    return {id(b): n for n, b in enumerate(order)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", default=list(SETS))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--code", type=Path, help="a checkout whose code runs instead")
    parser.add_argument("--verdicts", type=Path, help="write every page's verdicts here (JSON)")
    args = parser.parse_args()
    sys.path.insert(0, str((args.code or Path(__file__).resolve().parents[1]).resolve()))
    import sitesift.methods.siblings.site as site_module
    from sitesift.input import iter_pages
    from sitesift.options import Options
    from sitesift.parse.html import parse_html
    from sitesift.segment.blocks import segment_blocks

    options = Options()
    sites: dict[str, list[Any]] = defaultdict(list)
    for name in args.sets:
        pages = list(iter_pages([str(DATA / name / "pages.jsonl")], site_key=options.site_key,
                                max_page_bytes=options.max_page_bytes))
        for page in pages:  # (each page ``repeat`` times in a row, as end_to_end.py lists them)
            if not page.error:
                sites[page.site].extend([page] * args.repeat)
    work = [([parse_html(p.html) for p in pages], [p.url for p in pages], [p.id for p in pages])
            for pages in sites.values()]

    def blocks(model: Any, roots: list[Any]) -> list[Any]:
        strings = model.strings
        if hasattr(strings[0], "holders"):  # (the string is the page's layout)
            return [segment_blocks(root, texts=False, layout=strings[k])
                    for k, root in enumerate(roots)]
        if hasattr(strings[0], "measure"):  # (an older checkout)
            return [segment_blocks(root, texts=False, measure=strings[k].measure())
                    for k, root in enumerate(roots)]
        return [segment_blocks(root, texts=False) for root in roots]

    best: dict[str, float] = {}
    for _ in range(args.rounds):
        spent: Counter[str] = Counter()
        for roots, urls, _ids in work:
            start = time.process_time()
            model = site_module.SiblingSite(roots, urls)
            spent["index"] += time.process_time() - start
            start = time.process_time()
            tops = blocks(model, roots)
            spent["blocks"] += time.process_time() - start
            start = time.process_time()
            for k, top in enumerate(tops):
                model.judge(k, top)
            spent["verdicts"] += time.process_time() - start
        for part, seconds in spent.items():
            best[part] = min(best.get(part, seconds), seconds)

    matches: Counter[str] = Counter()
    match = site_module.match_subtree

    def counted(*a: Any, **k: Any) -> Any:
        matches[sys._getframe(1).f_code.co_name] += 1
        return match(*a, **k)

    site_module.match_subtree = counted  # type: ignore[assignment]
    verdicts = []
    for roots, urls, ids in work:
        model = site_module.SiblingSite(roots, urls)
        for k, top in enumerate(blocks(model, roots)):
            place = _order(top)
            judged = model.judge(k, top)
            verdicts.append([ids[k], sorted(
                (place[b], v.kind, v.pages, v.siblings, v.tag_similarity, v.text_similarity)
                for b, v in judged.items())])
    pages = sum(len(ids) for _, _, ids in work)
    print(json.dumps({"pages": pages, "sites": len(work),
                      "cpu_s": {k: round(v, 3) for k, v in best.items()},
                      "total_s": round(sum(best.values()), 3), "matches": dict(matches),
                      "verdicts": sum(len(v) for _, v in verdicts)}))
    if args.verdicts:
        args.verdicts.write_text(json.dumps(verdicts), encoding="utf-8")


if __name__ == "__main__":
    main()
