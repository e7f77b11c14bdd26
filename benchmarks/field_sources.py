"""Field sources of templates (``sitesift.methods.template.fields``) on held-out pages.

    python benchmarks/field_sources.py [--set big9-2005 ...] [--repeat 5] [--json out.json]

For each set (default: big9-2005, big9-2009, cleanportal, zh-sites, list-detail) the template
method extracts every site (the expected values and each page's template cluster). For every
cluster of at least ``MIN_CLUSTER`` pages, sources are learned on the first half of its pages
(input order) and read on the other half. Per field, on the held-out pages:

- coverage: share of pages where ``read`` returned values (it returns all fields or none),
  and per field ``readable``, the share where that field's source alone could be read;
- agreement: share of the covered pages where the read value equals the pipeline's record
  (for dates also on the day alone, ``agree_day``);
- where the gold has the field, accuracy against the gold of the read value and of the
  pipeline's value on the covered pages (the project's comparisons: ``evaluate.score``'s
  ``fold`` for titles and authors, ``day`` for dates).

And the cost per page, best of ``--repeat`` runs, in ms: ``read`` (with a new ``PathFinder``)
on the covered pages (a read that gives up early is cheaper), ``extract_metadata`` on every
held-out page's untouched parse; and ``learn_ms``, ``learn_field_sources`` per template (one
run). ``complete_share``: share of the templates whose every field has a source.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sitesift import Extractor, Options
from sitesift.evaluate.score import UNKNOWN_AUTHORS, day, fold, load_gold
from sitesift.fields.metadata import extract_metadata
from sitesift.input import iter_pages
from sitesift.methods.template.field_learning import learn_field_sources
from sitesift.methods.template.fields import FIELDS, FieldSources, Source
from sitesift.methods.template.template import PathFinder
from sitesift.parse import parse_html
from sitesift.parse.signatures import RelaxedLabels
from sitesift.record import Page, Record

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / ".." / "shared" / "data"
SETS = ("big9-2005", "big9-2009", "cleanportal", "zh-sites", "list-detail")
#: Clusters with fewer pages are left out: half of them would be a single learning page.
MIN_CLUSTER = 4
#: Gold key of each field.
GOLD_KEYS = {"title": "title", "published": "date", "author": "author"}


def _same(name: str, a: str | None, b: str | None) -> bool:
    """The project's comparison of a field with the gold."""
    if name == "published":
        return day(a) == day(b)
    return fold(a) == fold(b)


def _best_ms(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t)
    return best * 1000


def _clusters(pages: list[Page]) -> dict[str, list[tuple[Page, Record]]]:
    by_site: dict[str | None, list[Page]] = defaultdict(list)
    for page in pages:
        by_site[page.site].append(page)
    clusters: dict[str, list[tuple[Page, Record]]] = defaultdict(list)
    extractor = Extractor(Options(method="template"))
    for site_pages in by_site.values():
        for page, record in zip(site_pages, extractor.extract_many(site_pages), strict=True):
            cluster = record.extra.get("cluster")
            if cluster is not None and record.error is None:
                clusters[str(cluster)].append((page, record))
    return clusters


def _one_field(sources: FieldSources, name: str) -> FieldSources:
    """``sources`` with every other field absent: reads where ``name``'s source can."""
    absent = Source("absent")
    return FieldSources(**{f: getattr(sources, f) if f == name else absent for f in FIELDS})


def measure(name: str, repeat: int) -> dict[str, Any]:
    folder = DATA / name
    pages = [p for p in iter_pages([str(folder / "pages.jsonl")]) if p.error is None]
    gold = load_gold(folder)
    counts: dict[str, Any] = {f: defaultdict(int) for f in FIELDS}
    complete = held_out = covered = templates = 0
    read_ms = meta_ms = learn_ms = 0.0
    for members in _clusters(pages).values():
        if len(members) < MIN_CLUSTER:
            continue
        templates += 1
        labels = RelaxedLabels()
        half = len(members) // 2
        learning = [(PathFinder(parse_html(p.html), labels=labels), p.url,
                     {f: getattr(r, f) for f in FIELDS}) for p, r in members[:half]]
        t = time.perf_counter()
        sources = learn_field_sources(learning)
        learn_ms += (time.perf_counter() - t) * 1000
        complete += sources.complete()
        for page, record in members[half:]:
            held_out += 1
            root = parse_html(page.html)
            values = sources.read(PathFinder(root, labels=labels), url=page.url)
            for f in FIELDS:
                counts[f]["readable"] += _one_field(sources, f).read(
                    PathFinder(root, labels=labels), url=page.url) is not None
            meta_ms += _best_ms(lambda root=root, page=page: extract_metadata(root, url=page.url),
                                repeat)
            if values is None:
                continue
            covered += 1
            read_ms += _best_ms(
                lambda root=root, page=page, sources=sources, labels=labels: sources.read(
                    PathFinder(root, labels=labels), url=page.url), repeat)
            truth = gold.get(page.id, {})
            for f in FIELDS:
                c = counts[f]
                expected = getattr(record, f)
                c["agree"] += (values[f] or None) == (expected or None)
                c["agree_day"] += day(values[f]) == day(expected)
                g = truth.get(GOLD_KEYS[f])
                if g and not (f == "author" and g in UNKNOWN_AUTHORS):
                    c["gold_pages"] += 1
                    c["read_gold"] += _same(f, values[f], g)
                    c["pipeline_gold"] += _same(f, expected, g)
    out: dict[str, Any] = {
        "set": name, "templates": templates, "complete": complete,
        "complete_share": round(complete / templates, 3) if templates else None,
        "held_out": held_out,
        "coverage": round(covered / held_out, 3) if held_out else None,
        "read_ms": round(read_ms / covered, 3) if covered else None,
        "extract_metadata_ms": round(meta_ms / held_out, 3) if held_out else None,
        "learn_ms": round(learn_ms / templates, 1) if templates else None,
    }
    for f in FIELDS:
        c = counts[f]
        out[f] = {"readable": round(c["readable"] / held_out, 3) if held_out else None,
                  "agree": round(c["agree"] / covered, 3) if covered else None,
                  "gold_pages": c["gold_pages"]}
        if f == "published" and covered:
            out[f]["agree_day"] = round(c["agree_day"] / covered, 3)
        if c["gold_pages"]:
            out[f].update(read_gold=round(c["read_gold"] / c["gold_pages"], 3),
                          pipeline_gold=round(c["pipeline_gold"] / c["gold_pages"], 3))
    return out


def learned(name: str) -> list[tuple[str, FieldSources]]:
    """The sources learned on the first half of each cluster of a set (for inspection)."""
    pages = [p for p in iter_pages([str(DATA / name / "pages.jsonl")]) if p.error is None]
    out = []
    for cluster, members in _clusters(pages).items():
        if len(members) >= MIN_CLUSTER:
            labels = RelaxedLabels()
            half = len(members) // 2
            out.append((cluster, learn_field_sources(
                [(PathFinder(parse_html(p.html), labels=labels), p.url,
                  {f: getattr(r, f) for f in FIELDS}) for p, r in members[:half]])))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", nargs="+", default=list(SETS))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sources", action="store_true",
                        help="print the learned sources of each cluster instead")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.sources:
        for name in args.set:
            for cluster, sources in learned(name):
                print(name, cluster, json.dumps(sources.to_dict(), ensure_ascii=False))
        return
    results = []
    for name in args.set:
        result = measure(name, args.repeat)
        results.append(result)
        print(json.dumps(result), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
