"""Speed work must not change a record: run ``extract`` with two checkouts, diff the JSONL.

    python benchmarks/same_records.py BASELINE_DIR [--sets modern-dev big9-2005 ...]
                                      [--methods page auto] [--keep DIR [--reuse-baseline]]

``BASELINE_DIR`` is another checkout's root (e.g. ``git archive COMMIT | tar -x -C DIR``);
this checkout is the one holding this file. Each (set, method) runs ``python -m sitesift
extract pages.jsonl --method M -q`` once with each checkout's code (a fresh process, the
checkout as working directory so ``-m sitesift`` imports its package), baseline first, and
compares the two output files byte for byte. A difference prints the first differing
record ids and fields; the exit code is 1 when any pair differs, 0 when all are identical.
Wall and CPU seconds (the child's user + system time, steadier than the wall clock on a
shared box) are printed beside each pair, so the check doubles as a rough timing.
``--keep DIR --reuse-baseline`` keeps the baseline's outputs in DIR and runs only this
checkout when they are there (the baseline's code must not have changed meanwhile).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SETS = ["modern-dev", "big9-2005", "big9-2009", "cleanportal", "forum-dz",
                "list-detail"]


def run(code: Path, manifest: Path, method: str, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one ``extract`` run with the code of ``code``."""
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sitesift", "extract", str(manifest), "--method", method, "-q",
         "-o", str(out)], cwd=code, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = os.times()
    if done.returncode not in (0, 1):  # (1: some page is an error record, the run went on)
        raise SystemExit(f"{code}: extract {manifest} --method {method} failed "
                         f"({done.returncode}):\n{done.stderr[-2000:]}")
    cpu = (after.children_user - before.children_user
           + after.children_system - before.children_system)
    return wall, cpu


def differences(a: Path, b: Path, limit: int = 5) -> list[str]:
    """Up to ``limit`` lines saying which records (and fields) differ between two files."""
    old = a.read_bytes().split(b"\n")
    new = b.read_bytes().split(b"\n")
    said = [] if len(old) == len(new) else [f"{len(old) - 1} records -> {len(new) - 1}"]
    for x, y in zip(old, new, strict=False):
        if x == y:
            continue
        try:
            rx, ry = json.loads(x), json.loads(y)
            fields = sorted(k for k in {*rx, *ry} if rx.get(k) != ry.get(k))
            said.append(f"{rx.get('id')}: {', '.join(fields)}")
        except ValueError:
            said.append(f"line differs: {x[:80]!r}")
        if len(said) >= limit:
            break
    return said


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("baseline", type=Path, help="the other checkout's root")
    parser.add_argument("--sets", nargs="+", default=DEFAULT_SETS)
    parser.add_argument("--methods", nargs="+", default=["page", "auto"])
    parser.add_argument("--keep", type=Path, help="write the outputs here (default: a temp dir)")
    parser.add_argument("--reuse-baseline", action="store_true",
                        help="with --keep: reuse the baseline's outputs already there")
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        raise SystemExit(f"{DATA} is absent: the check needs ../shared/data")
    base = args.baseline.resolve()
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        out = args.keep or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        same = True
        for name in args.sets:
            manifest = DATA / name / "pages.jsonl"
            for method in args.methods:
                files = [out / f"{name}.{method}.{tag}.jsonl" for tag in ("base", "new")]
                if args.reuse_baseline and files[0].is_file():
                    w0 = c0 = float("nan")  # (not run again)
                else:
                    w0, c0 = run(base, manifest, method, files[0])
                w1, c1 = run(ROOT, manifest, method, files[1])
                diff = differences(*files)
                same &= not diff
                print(f"{name:12} {method:5} {'same' if not diff else 'DIFFERENT':9} "
                      f"wall {w0:6.2f} -> {w1:6.2f} s  cpu {c0:6.2f} -> {c1:6.2f} s", flush=True)
                for line in diff:
                    print(f"    {line}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
