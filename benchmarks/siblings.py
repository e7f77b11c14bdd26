"""Figures of the sibling method (paper 004), each against its peers measured in the same run.

    PYTHONPATH=$PWD python benchmarks/siblings.py [--skip-speed] [--json OUT]

1. Body char F1 on big9-2005, big9-2009, cleanportal: page, template, siblings, and the two
   site methods together (a block removed by either), with pages/s of each.
2. l3s-gn1 noise-block precision / recall (pages of sites with >= 2 pages), ``--blocks`` of
   the page and siblings methods, scored by ``sitesift.evaluate.blocks``.
3. Speed with 100 siblings per page: a site of 101 pages made from one real site
   (``template_cost.make_site``: copies whose paragraphs differ), siblings against the page
   method on the same pages, as a ratio.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

from sitesift import Extractor, Options, Page, Record
from sitesift.evaluate.bench import bench, read_set_pages
from sitesift.evaluate.blocks import score_blocks
from sitesift.evaluate.score import load_gold, load_predictions, score_pages
from sitesift.methods.siblings.site import SiblingSite
from sitesift.pipeline.base import PAGE_ONLY

sys.path.insert(0, str(Path(__file__).resolve().parent))
from template_cost import make_site  # a sibling script, not a package

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TEXT_SETS = ("big9-2005", "big9-2009", "cleanportal")


class BothExtractor(Extractor):
    """The template method with the sibling removal added: what ``auto`` may combine."""

    def __init__(self) -> None:
        super().__init__(Options(method="template"))
        self._siblings: dict[int, tuple[SiblingSite, int]] = {}

    def _extract_site(self, site, members, pages, records, parsed, *, lasting):  # type: ignore[no-untyped-def]
        if len(members) > 1:  # index the untouched trees before any page is cleaned
            index = SiblingSite([parsed[i].root for i in members], [pages[i].url for i in members])
            self._siblings = {id(parsed[i]): (index, j) for j, i in enumerate(members)}
        super()._extract_site(site, members, pages, records, parsed, lasting=lasting)

    def _finish(self, record, page, parsed, plan=PAGE_ONLY):  # type: ignore[no-untyped-def]
        if plan.siblings is None and id(parsed) in self._siblings:
            plan = dataclasses.replace(plan, siblings=self._siblings[id(parsed)])
        return super()._finish(record, page, parsed, plan)


def text_figures() -> list[dict[str, Any]]:
    rows = []
    for name in TEXT_SETS:
        set_dir = DATA / name
        for method in ("page", "template", "siblings"):
            metrics, speed, _ = bench(set_dir, options=Options(method=method))
            rows.append({"set": name, "method": method, "char_f1": metrics["char_f1"],
                         "shingle_f1": metrics["shingle_f1"], "pages_per_s": round(speed, 1)})
        pages = read_set_pages(set_dir, Options(method="template"))
        start = time.perf_counter()
        records = list(BothExtractor().extract_many(pages))
        speed = len(pages) / (time.perf_counter() - start)
        metrics = score_pages(load_gold(set_dir), load_predictions(records))
        rows.append({"set": name, "method": "template+siblings", "char_f1": metrics["char_f1"],
                     "shingle_f1": metrics["shingle_f1"], "pages_per_s": round(speed, 1)})
    return rows


def block_figures() -> list[dict[str, Any]]:
    set_dir = DATA / "l3s-gn1"
    rows = []
    for method in ("page", "siblings"):
        options = Options(method=method, blocks=True)
        pages = read_set_pages(set_dir, options)
        start = time.perf_counter()
        records: list[Record] = list(Extractor(options).extract_many(pages))
        speed = len(pages) / (time.perf_counter() - start)
        metrics = score_blocks(set_dir, records)
        rows.append({"set": "l3s-gn1", "method": method, **metrics,
                     "pages_per_s": round(speed, 1)})
    return rows


def speed_figures(n: int = 101) -> dict[str, Any]:
    pages = [Page(id=p.id, url=None, site="one", html=p.html)
             for p in make_site("big9-2005", "forbes", n)]
    out: dict[str, Any] = {"pages": n, "siblings_per_page": n - 1}
    for method in ("page", "siblings"):
        start = time.perf_counter()
        records = list(Extractor(Options(method=method)).extract_many(pages))
        out[f"{method}_pages_per_s"] = round(n / (time.perf_counter() - start), 1)
        out[f"{method}_errors"] = sum(1 for r in records if r.error)
    out["siblings_cost_ratio"] = round(out["page_pages_per_s"] / out["siblings_pages_per_s"], 2)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if not (DATA / "l3s-gn1" / "gold.jsonl").is_file():
        print(f"evaluation data {DATA} is absent", file=sys.stderr)
        return 2
    figures: dict[str, Any] = {"text": text_figures(), "blocks": block_figures()}
    for row in figures["text"]:
        print(f"{row['set']:12} {row['method']:18} char F1 {row['char_f1']:.4f}  "
              f"shingle F1 {row['shingle_f1']:.4f}  {row['pages_per_s']:6.1f} pages/s")
    for row in figures["blocks"]:
        print(f"l3s-gn1      {row['method']:18} noise P {row['noise_precision']:.4f}  "
              f"R {row['noise_recall']:.4f}  ({row['pages']} pages, {row['gold_blocks']} gold "
              f"blocks, {row['pages_per_s']} pages/s)")
    if not args.skip_speed:
        figures["speed"] = speed_figures()
        print("100 siblings per page:", json.dumps(figures["speed"]))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
