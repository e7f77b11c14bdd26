#!/usr/bin/env python3
"""A peer as a second candidate, measured offline: the peer's text replaces ours on a page
when ours is shorter than r times the peer's (issue 17's design option, docs/benchmarks.md
"Peer as a candidate"). Both prediction files are read, nothing is run.

usage: python benchmarks/peer_candidate.py SET_DIR OURS.jsonl PEER.jsonl [--ratios 0 0.2 ...]

Prints the reference scorer's char F1 (F1 of mean precision and mean recall) on half a, half b
and the whole set for each ratio, with the number of pages swapped.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path
from types import ModuleType

SCORER = Path(__file__).resolve().parents[1] / ".." / "shared" / "bench" / "score.py"


def _scorer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("score", SCORER)
    if spec is None or spec.loader is None:
        raise SystemExit(f"reference scorer not found: {SCORER}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows(path: Path) -> dict[str, dict]:
    with path.open(encoding="utf-8") as f:
        return {row["id"]: row for row in map(json.loads, f)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set_dir", type=Path)
    parser.add_argument("ours", type=Path)
    parser.add_argument("peer", type=Path)
    parser.add_argument("--ratios", type=float, nargs="+", default=[0, 0.1, 0.2, 0.3, 0.5, 0.7])
    args = parser.parse_args()
    score = _scorer()
    gold = _rows(args.set_dir / "gold.jsonl")
    pages = _rows(args.set_dir / "pages.jsonl")
    ours, peer = _rows(args.ours), _rows(args.peer)
    for ratio in args.ratios:
        cells = []
        for half in ("a", "b", None):
            precision = recall = n = swapped = 0
            for pid, row in gold.items():
                if not row.get("body") or (half and score.half_of(pages[pid]) != half):
                    continue
                text = (ours.get(pid) or {}).get("text") or ""
                other = (peer.get(pid) or {}).get("text") or ""
                if len(text) < ratio * len(other):
                    text, swapped = other, swapped + 1
                p, r = score.char_prf(row["body"], text)
                precision, recall, n = precision + p, recall + r, n + 1
            f1 = score.f1(precision / n, recall / n) if n else 0.0
            cells.append(f"{half or 'whole'} {f1:.4f} ({swapped} swapped)")
        print(f"r={ratio}: " + " | ".join(cells))


if __name__ == "__main__":
    main()
