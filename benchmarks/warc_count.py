#!/usr/bin/env python3
"""Records in, records out: a WARC built from a set's pages, some of them with a relative or
missing target URI or a damaged HTTP header, extracted with ``--engine local``.

usage: PYTHONPATH=$PWD python benchmarks/warc_count.py [--set modern-dev] [--repeat 2]
       [--odd-every 40] [--workers 2] [--code CHECKOUT] [--json OUT]

Every ``--odd-every``-th response gets a relative target URI (``/bigquery?q=N``, as in the
crawl of issue 19), the next one no target URI, the one after a status line that is no HTTP.
Prints the HTML responses written into the WARC, the records the run wrote, how many carry an
error, and whether each response gave exactly one record.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"


def write_warc(path: Path, folder: Path, repeat: int, odd_every: int) -> tuple[list[str], int]:
    """The WARC's HTML response ids in order, and how many are odd."""
    rows = [json.loads(line) for line in
            (folder / "pages.jsonl").read_text(encoding="utf-8").split("\n") if line]
    ids, odd = [], 0
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        n = 0
        for copy in range(repeat):
            for row in rows:
                payload = (folder / row["file"]).read_bytes()
                url = row["url"] or f"http://{row['site'] or 'unknown.test'}/{row['id']}"
                kind = n % odd_every
                if kind == odd_every - 1:  # a status line that is no HTTP
                    record = writer.create_warc_record(
                        "urn:x", "response", payload=io.BytesIO(b"NOT-HTTP\r\n\r\n" + payload),
                        warc_content_type="application/http; msgtype=response")
                    record.rec_headers.replace_header("WARC-Target-URI", url)
                else:
                    http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")],
                                            protocol="HTTP/1.1")
                    record = writer.create_warc_record(
                        f"{url}#copy{copy}", "response", payload=io.BytesIO(payload),
                        http_headers=http)
                if kind == odd_every - 3:
                    record.rec_headers.replace_header("WARC-Target-URI", f"/bigquery?q={n}")
                elif kind == odd_every - 2:
                    record.rec_headers.remove_header("WARC-Target-URI")
                odd += kind >= odd_every - 3
                writer.write_record(record)
                ids.append(record.rec_headers.get_header("WARC-Record-ID"))
                n += 1
    return ids, odd


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", default="modern-dev")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--odd-every", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--code", type=Path, default=REPO,
                        help="the sitesift checkout to run (default this one): before/after")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        warc = Path(tmp) / "crawl.warc.gz"
        ids, odd = write_warc(warc, DATA / args.set, args.repeat, args.odd_every)
        out = Path(tmp) / "out" / "out.jsonl"
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "sitesift", "extract", str(warc), "--engine", "local",
             "--workers", str(args.workers), "-o", str(out), "-q"],
            cwd=args.code, env={**os.environ, "PYTHONPATH": str(args.code)}, capture_output=True,
            text=True, check=False)
        seconds = time.perf_counter() - started
        written: Counter[str] = Counter()
        errors: Counter[str] = Counter()
        for part in sorted(out.parent.glob("out-*.jsonl.gz")):
            with gzip.open(part, "rt", encoding="utf-8") as stream:
                for line in stream:
                    record = json.loads(line)
                    written[record["id"]] += 1
                    if record["error"]:
                        errors[record["error"].split(":", 1)[0]] += 1
    summary = {
        "code": str(args.code), "set": args.set, "responses_in": len(ids), "odd_responses": odd,
        "records_out": sum(written.values()), "error_records": dict(errors),
        "each_response_once": written == Counter(ids), "exit_code": done.returncode,
        "seconds": round(seconds, 1), "run_summary": done.stderr.strip().split("\n")[-1],
    }
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0 if summary["each_response_once"] else 1


if __name__ == "__main__":
    sys.exit(main())
