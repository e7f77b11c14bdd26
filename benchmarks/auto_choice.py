#!/usr/bin/env python3
"""Tune and check ``auto``'s per-page choice between its DOM methods (``methods.auto.choose``).

    python benchmarks/auto_choice.py [--sets l3s-gn1 ...] [--visual] [--json OUT]

Runs ``auto`` once per set, keeping every page's stages (page extractor, after the template
step, after the sibling step), then scores, without running again:

* body char F1 when a step must keep at least ``t`` of its input (``MIN_STEP_KEPT``), for a
  range of ``t``, with the number of pages where a step was not taken;
* with ``--visual``: the pages where a step kept less than ``v`` are rendered (Chromium) and
  the visual method's text votes among the stages (``methods.auto.choose.vote``), for a range of
  ``v``: char F1, pages rendered, pages whose answer the vote changed.

Reads ../shared/data (sets with body gold).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sitesift import Options
from sitesift.evaluate.bench import read_set_pages
from sitesift.evaluate.score import char_prf, f1, load_gold
from sitesift.methods.auto.choose import MIN_STEP_KEPT, Stage, choose, least_kept, vote
from sitesift.pipeline import Extractor
from sitesift.pipeline.base import Parsed
from sitesift.record import Record

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DEFAULT_SETS = ("big9-2005", "big9-2009", "cleanportal", "zh-sites", "scrapinghub",
                "zh-news-dev", "l3s-gn1", "list-detail")
KEPT = (0.0, 0.05, 0.1, 0.2, MIN_STEP_KEPT, 0.3, 0.4, 0.5, 0.7)
ASK = (MIN_STEP_KEPT, 0.5, 0.7, 0.8, 0.9, 0.95)


class _Keeping(Extractor):
    """``auto`` that keeps every page's stages (the pipeline keeps only disagreeing ones)."""

    def __init__(self) -> None:
        super().__init__(Options(method="auto"))
        self.stages: dict[str, list[Stage]] = {}

    def _choose_stage(self, record: Record, parsed: Parsed) -> None:
        self.stages[record.id] = list(parsed.stages)
        super()._choose_stage(record, parsed)


def _f1(scores: list[tuple[float, float]]) -> float:
    return round(f1(sum(p for p, _ in scores) / len(scores), sum(r for _, r in scores)
                    / len(scores)), 4) if scores else 0.0


def run_set(folder: Path, visual: bool) -> dict[str, Any]:
    gold = load_gold(folder)
    pages = read_set_pages(folder)
    extractor = _Keeping()
    records = {r.id: r for r in extractor.extract_many(pages)}
    rows = []
    for page_id, g in gold.items():
        if not g.get("body"):
            continue
        record = records[page_id]
        stages = extractor.stages.get(page_id) or [Stage(record.method or "", record.text or "")]
        title = record.title if g.get("body_includes_title") and record.title else None
        rows.append((page_id, g["body"], title, stages))

    def score(body: str, title: str | None, text: str) -> tuple[float, float]:
        return char_prf(body, f"{title}\n{text}" if title else text)

    out: dict[str, Any] = {"pages": len(rows), "kept": {}, "ask": {}}
    for t in KEPT:
        scores = [score(b, ti, choose(st, min_kept=t).stage.text) for _, b, ti, st in rows]
        flagged = sum(1 for *_, st in rows if choose(st, min_kept=t).disagree)
        out["kept"][t] = {"char_f1": _f1(scores), "flagged": flagged}
    if visual:
        asked = [i for i, (*_, st) in enumerate(rows) if least_kept(st) < max(ASK)]
        seen: dict[int, str] = {}
        by_id = {p.id: p for p in pages}
        with Extractor(Options(method="visual")) as renderer:
            for i, rec in zip(asked, renderer.extract_many(
                    [by_id[rows[k][0]] for k in asked]), strict=True):
                if not rec.error and rec.text:
                    seen[i] = rec.text
        for v in ASK:
            scores, rendered, changed = [], 0, 0
            for i, (_, b, ti, st) in enumerate(rows):
                taken = choose(st).stage
                if least_kept(st) < v and i in seen:
                    rendered += 1
                    voted, _ = vote(st, seen[i], default=taken)
                    changed += voted is not taken
                    taken = voted
                scores.append(score(b, ti, taken.text))
            out["ask"][v] = {"char_f1": _f1(scores), "rendered": rendered, "changed": changed}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS))
    parser.add_argument("--visual", action="store_true", help="also measure the visual vote")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    results = {}
    for set_name in args.sets:
        folder = args.data / set_name
        if not (folder / "gold.jsonl").is_file():
            print(f"skipping {set_name}: {folder} is absent", file=sys.stderr)
            continue
        results[set_name] = run_set(folder, args.visual)
        print(set_name, json.dumps(results[set_name]), file=sys.stderr, flush=True)
    print("\n### body char F1 by MIN_STEP_KEPT (pages where a step was not taken)\n")
    print("| set | " + " | ".join(f"{t:g}" for t in KEPT) + " |")
    print("|---" * (len(KEPT) + 1) + "|")
    for name, r in results.items():
        print(f"| {name} | " + " | ".join(
            f"{r['kept'][t]['char_f1']:.4f} ({r['kept'][t]['flagged']})" for t in KEPT) + " |")
    if args.visual:
        print("\n### body char F1 with the visual vote on pages where a step kept less than v "
              "(rendered, answers changed)\n")
        print("| set | " + " | ".join(f"{v:g}" for v in ASK) + " |")
        print("|---" * (len(ASK) + 1) + "|")
        for name, r in results.items():
            print(f"| {name} | " + " | ".join(
                f"{r['ask'][v]['char_f1']:.4f} ({r['ask'][v]['rendered']}, "
                f"{r['ask'][v]['changed']})" for v in ASK) + " |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
