"""Template wrappers on held-out pages: what they read alike, and what it costs in accuracy.

    python benchmarks/wrapper.py [--sets big9-2005 big9-2009 cleanportal zh-sites list-detail]

For each set (../shared/data): profiles are learned (template method) on the first half of each
site's pages in input order, then the other half is extracted twice with those profiles, with
wrappers (``Options(wrappers=True)``, the default) and without (the full template method on
every page). Reported per set: templates learned and how many got a wrapper or field
sources, held-out pages read by a wrapper, pages/s of both runs (best of ``ROUNDS``, one
process), and the scorer's figures of both runs on the held-out pages only.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from sitesift import Extractor, Options, Page
from sitesift.evaluate.score import load_gold, load_predictions, score_pages
from sitesift.input import iter_pages
from sitesift.profiles.store import ProfileStore

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SETS = ["big9-2005", "big9-2009", "cleanportal", "zh-sites", "list-detail"]
#: Runs of each extraction; the best time counts (the box is shared).
ROUNDS = 2
KEYS = ("char_f1", "shingle_f1", "title_exact", "title_char_f1", "date_acc", "author_exact",
        "page_type_acc")


def halves(pages: list[Page]) -> tuple[list[Page], list[Page]]:
    by_site: dict[str | None, list[Page]] = defaultdict(list)
    for page in pages:
        by_site[page.site].append(page)
    learn = [p for group in by_site.values() for p in group[:(len(group) + 1) // 2]]
    held = [p for group in by_site.values() for p in group[(len(group) + 1) // 2:]]
    return learn, held


def one_set(name: str) -> dict[str, Any]:
    folder = DATA / name
    if not (folder / "pages.jsonl").is_file():
        raise SystemExit(f"{folder} is absent: the benchmark needs ../shared/data")
    pages = [p for p in iter_pages([str(folder / "pages.jsonl")]) if p.error is None]
    learn, held = halves(pages)
    ids = {p.id for p in held}
    with tempfile.TemporaryDirectory() as tmp, ProfileStore(Path(tmp) / "p.db") as store:
        Extractor(Options(method="template"), profiles=store).learn(learn)
        templates = [t for site in {p.site for p in learn} if site is not None
                     and (profile := store.get(site)) for t in profile.templates]
        runs, seconds = {}, {}
        for label, wrappers in (("wrappers", True), ("full", False)):
            extractor = Extractor(Options(method="template", wrappers=wrappers), profiles=store)
            best = float("inf")
            for _ in range(ROUNDS):
                start = time.perf_counter()
                runs[label] = list(extractor.extract_many(held))
                best = min(best, time.perf_counter() - start)
            seconds[label] = best
    out: dict[str, Any] = {
        "templates": len(templates),
        "with_wrapper": sum(t.wrapper is not None for t in templates),
        "with_fields": sum(t.fields is not None for t in templates),
        "with_wrapper_and_fields": sum(t.wrapper is not None and t.fields is not None
                                       for t in templates),
        "held_out_pages": len(held),
        "read_by_wrapper": sum(bool(r.extra.get("wrapper")) for r in runs["wrappers"]),
        "pages_per_s": {k: round(len(held) / v, 1) for k, v in seconds.items()},
    }
    for label, records in runs.items():
        gold = {k: v for k, v in load_gold(folder).items() if k in ids}
        scores = score_pages(gold, load_predictions([r.to_dict() for r in records]))
        out[label] = {k: round(scores[k], 4) for k in KEYS if scores.get(k) is not None}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", default=SETS)
    args = parser.parse_args(argv)
    print(json.dumps({name: one_set(name) for name in args.sets}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
