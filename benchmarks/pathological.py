#!/usr/bin/env python3
"""Pathological pages through ``sitesift extract`` with default options: seconds and record.

usage: PYTHONPATH=$PWD python benchmarks/pathological.py [--code CHECKOUT] [--engine dask]
       [--json OUT]

The cases the per-page limits answer: 200,000 table rows (4.7 MB here), one tag with 100,000
attributes, a 20 MB page, 20,000 unclosed nested tags, 200 KB of random bytes. Each is one file
run through its own ``python -m sitesift extract`` (wall time includes the interpreter's start,
about 0.3 s);
``--code`` runs another checkout (before/after), ``--engine dask`` the Dask engine (one
worker, a part per page).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def cases() -> dict[str, bytes]:
    rows = "".join(f"<tr><td>{i}</td></tr>" for i in range(200_000))
    attributes = " ".join(f'a{i}="v"' for i in range(100_000))
    paragraph = "<p>" + "word " * 200 + "</p>\n"
    return {
        "table_200k_rows": f"<html><body><table>{rows}</table></body></html>".encode(),
        "tag_100k_attributes": (f"<html><body><div {attributes}>x</div>"
                                "<p>Some text of the page.</p></body></html>").encode(),
        "page_20mb": ("<html><head><title>B</title></head><body>"
                      + paragraph * (20_000_000 // len(paragraph)) + "</body></html>").encode(),
        "nested_20k": ("<html><body>" + "<div>" * 20_000 + "deep text").encode(),
        "random_200kb": random.Random(19).randbytes(200_000),
    }


def run_case(code: Path, path: Path, engine: str | None, tmp: Path) -> dict[str, object]:
    argv = [sys.executable, "-m", "sitesift", "extract", str(path), "-q"]
    out = tmp / f"{path.stem}-out" / "out.jsonl"
    if engine:
        argv += ["--engine", engine, "--workers", "1", "-o", str(out)]
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=code, env={**os.environ, "PYTHONPATH": str(code)},
                          capture_output=True, text=True, timeout=600, check=False)
    seconds = time.perf_counter() - started
    if engine:
        lines = []
        for part in sorted(out.parent.glob("out-*.jsonl.gz")):
            with gzip.open(part, "rt", encoding="utf-8") as stream:
                lines += stream.read().split("\n")
    else:
        lines = done.stdout.split("\n")
    records = [json.loads(line) for line in lines if line]
    record = records[0] if len(records) == 1 else {}
    return {"seconds": round(seconds, 2), "records": len(records), "exit": done.returncode,
            "error": record.get("error"), "text_chars": len(record.get("text") or "")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--code", type=Path, default=REPO)
    parser.add_argument("--engine", choices=["local", "dask"])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    results: dict[str, object] = {"code": str(args.code), "engine": args.engine,
                                  "load_average": os.getloadavg()}
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for case, data in cases().items():
            path = tmp / f"{case}.html"
            path.write_bytes(data)
            results[case] = {"mb": round(len(data) / 1e6, 2),
                             **run_case(args.code, path, args.engine, tmp)}
    print(json.dumps(results, indent=1))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
