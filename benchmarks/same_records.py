"""Behaviour unchanged? The records of this checkout against those of a git ref, byte for byte.

    python benchmarks/same_records.py [SET ...] [--ref 7777460] [--methods page auto]
                                      [--baseline DIR] [--keep DIR]

For a refactoring (or a speed change) that must not change a single record. The ref's code is
exported with ``git archive REF | tar -x -C DIR`` (or ``--baseline DIR`` names a checkout
exported beforehand, to save the export when the script runs several times); each side then
runs ``python -m sitesift extract MANIFEST --method M -q -o OUT`` in a fresh process with
``PYTHONPATH`` set to its checkout, over every dev set (default: modern-dev big9-2005
cleanportal forum-dz list-detail zh-sites) and method (default: page and auto). The two JSONL
files are compared line by line as bytes, keyed by page id.

Output: one line per set and method (``same`` or the number of pages that differ) and, for each
difference, the page ids (those whose record differs, those present on one side only, or
``order`` when the same lines come in another order). Exit status: 0 when every record is the
same, 1 when any differs, 2 when a run fails. Runs are sequential: the box is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SETS = ("modern-dev", "big9-2005", "cleanportal", "forum-dz", "list-detail", "zh-sites")
DEFAULT_METHODS = ("page", "auto")


@dataclass
class RecordDiff:
    """How two runs' records differ: page ids by kind of difference (all empty: the same)."""

    changed: list[str] = field(default_factory=list)
    only_ours: list[str] = field(default_factory=list)
    only_theirs: list[str] = field(default_factory=list)
    order: bool = False

    def __bool__(self) -> bool:
        return bool(self.changed or self.only_ours or self.only_theirs or self.order)

    def count(self) -> int:
        """Pages that differ (an order change alone counts as one)."""
        n = len(self.changed) + len(self.only_ours) + len(self.only_theirs)
        return n or int(self.order)


def _lines_by_id(path: Path) -> tuple[list[str], dict[str, bytes]]:
    """A JSONL file's page ids in order and each id's line as bytes (a repeated id keeps all)."""
    order: list[str] = []
    lines: dict[str, bytes] = {}
    for raw in path.read_bytes().splitlines():
        if not raw.strip():
            continue
        page_id = str(json.loads(raw).get("id"))
        order.append(page_id)
        lines[page_id] = lines.get(page_id, b"") + raw + b"\n"
    return order, lines


def diff_records(ours: Path, theirs: Path) -> RecordDiff:
    """Compare two JSONL record files byte for byte, reporting the page ids that differ."""
    our_order, our_lines = _lines_by_id(ours)
    their_order, their_lines = _lines_by_id(theirs)
    diff = RecordDiff(
        changed=[i for i in our_order if i in their_lines and our_lines[i] != their_lines[i]],
        only_ours=[i for i in our_order if i not in their_lines],
        only_theirs=[i for i in their_order if i not in our_lines],
    )
    if not diff:
        diff.order = our_order != their_order or ours.read_bytes() != theirs.read_bytes()
    return diff


def export_ref(ref: str, into: Path) -> Path:
    """``git archive REF | tar -x -C DIR``: the ref's tracked files, nothing else."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def extract(checkout: Path, manifest: Path, method: str, out: Path) -> None:
    """One ``sitesift extract`` run with ``checkout``'s code; raises when it fails."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    argv = [sys.executable, "-m", "sitesift", "extract", str(manifest), "--method", method,
            "-q", "-o", str(out)]
    done = subprocess.run(argv, env=env, cwd=checkout, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} in {checkout} exited {done.returncode}:\n"
                           f"{done.stderr[-2000:]}")


def _check_import(checkout: Path) -> None:
    """Refuse to compare when ``PYTHONPATH`` would not win over an installed sitesift."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    where = subprocess.run([sys.executable, "-c", "import sitesift; print(sitesift.__file__)"],
                           env=env, cwd=checkout, capture_output=True, text=True, check=True)
    if not Path(where.stdout.strip()).resolve().is_relative_to(checkout.resolve()):
        raise RuntimeError(f"sitesift imports from {where.stdout.strip()}, not {checkout}")


def _describe(diff: RecordDiff, most: int = 20) -> list[str]:
    """Indented lines naming the page ids of a difference (at most ``most`` per kind)."""
    rows = []
    for name, ids in (("differ", diff.changed), ("only here", diff.only_ours),
                      ("only in ref", diff.only_theirs)):
        if ids:
            more = f" ... (+{len(ids) - most})" if len(ids) > most else ""
            rows.append(f"    {name}: {' '.join(ids[:most])}{more}")
    if diff.order:
        rows.append("    order: the same records in another order")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", default=list(DEFAULT_SETS))
    parser.add_argument("--ref", default="main", help="git ref to compare with (default: main)")
    parser.add_argument("--baseline", type=Path,
                        help="an exported checkout to use instead of exporting --ref")
    parser.add_argument("--methods", nargs="+", default=list(DEFAULT_METHODS))
    parser.add_argument("--keep", type=Path, help="write the exports and records here")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="same_records_") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        theirs = args.baseline or export_ref(args.ref, work / "ref")
        label = str(args.baseline) if args.baseline else args.ref
        try:
            _check_import(ROOT)
            _check_import(theirs)
        except (RuntimeError, subprocess.CalledProcessError) as error:
            print(error, file=sys.stderr)
            return 2
        differ = 0
        for name in args.sets:
            manifest = DATA / name / "pages.jsonl"
            if not manifest.is_file():
                print(f"{name}: no {manifest}", file=sys.stderr)
                return 2
            for method in args.methods:
                ours_out = work / f"{name}.{method}.ours.jsonl"
                theirs_out = work / f"{name}.{method}.ref.jsonl"
                try:
                    extract(ROOT, manifest, method, ours_out)
                    extract(theirs, manifest, method, theirs_out)
                except RuntimeError as error:
                    print(error, file=sys.stderr)
                    return 2
                diff = diff_records(ours_out, theirs_out)
                verdict = f"{diff.count()} pages differ" if diff else "same"
                print(f"{name} --method {method}: {verdict} (vs {label})", flush=True)
                for row in _describe(diff):
                    print(row, flush=True)
                differ += bool(diff)
        print("all records the same" if not differ else f"{differ} runs differ")
        return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
