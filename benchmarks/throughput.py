"""Throughput of sitesift against trafilatura in the same run, scale-out, and peak memory.

    python benchmarks/throughput.py [--sets big9-2005 big9-2009 cleanportal] [--rounds 2]
                                    [--copies 4] [--warc-pages 10000] [--skip-warc | --warc-only]

Pages: the real pages of sets with several pages per site (../shared/data). Measured, in one
process unless said otherwise, best of ``--rounds`` interleaved rounds (the box is shared, so
only ratios within one run mean anything):
- pages/s of trafilatura (``bare_extraction``, metadata on), the page method, the template
  method learning on the fly (per site), and applying saved profiles (learned beforehand);
- ``sitesift.engine.run`` with the local engine, ``--workers 1`` and ``2``, page method, on
  ``--copies`` copies of the pages (copy k's paragraphs start with "[k]");
- peak memory (sum of the RSS of the driver and its workers, sampled every 0.2 s) of
  ``sitesift extract crawl.warc.gz --engine local --workers 2 --method template`` on a WARC of
  ``--warc-pages`` copies written to /tmp (never into the repository). Copy k of a site's page
  goes to site ``r{k % 8}.<site>.example``: sites of 60-150 pages (``--warc-spread 1``: one
  site per original site, 480-1,200 pages, so each is learned from a sample and streamed).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from peers import make_peer

from sitesift import Extractor, Options, Page
from sitesift.engine import run
from sitesift.input import iter_pages
from sitesift.profiles.store import ProfileStore

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
_PARAGRAPH = re.compile(r"(<p(?:\s[^>]*)?>)", re.IGNORECASE)


def load(sets: list[str]) -> list[Page]:
    pages = []
    for name in sets:
        manifest = DATA / name / "pages.jsonl"
        if not manifest.is_file():
            raise SystemExit(f"{manifest} is absent: the benchmark needs ../shared/data")
        pages += [p for p in iter_pages([str(manifest)]) if p.error is None]
    return pages


def copies(pages: list[Page], n: int, *, sites: int = 0) -> Iterator[Page]:
    """``n`` pages made of copies of ``pages``, one at a time; ``sites``: spread copies over
    that many sites of each original site (0: keep the site)."""
    for k in range(n):
        base = pages[k % len(pages)]
        copy = k // len(pages)
        html = _PARAGRAPH.sub(lambda m, c=copy: f"{m.group(1)}[{c}] ", base.html)
        site = f"r{copy % sites}.{base.site}.example" if sites else base.site
        yield Page(id=f"{base.id}#{copy}", url=f"https://{site}/{base.id}/{copy}", site=site,
                   html=html)


def rates(n: int, runs: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Pages/s of each of ``runs``, best of ``rounds``; rounds interleave the runs, so a change
    of load on the shared box hits all of them alike."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, fn in runs.items():
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: n / seconds for name, seconds in best.items()}


def single_process(pages: list[Page], rounds: int) -> dict[str, float]:
    trafilatura = make_peer("trafilatura")
    page = Extractor(Options(method="page"))
    template = Extractor(Options(method="template"))
    with tempfile.TemporaryDirectory() as tmp:
        store = ProfileStore(Path(tmp) / "profiles.db")
        Extractor(Options(method="template"), profiles=store).learn(pages)
        apply = Extractor(Options(method="template"), profiles=store)
        return rates(len(pages), {
            "trafilatura": lambda: [trafilatura.run(p) for p in pages],
            "page": lambda: list(page.extract_many(pages)),
            "template_learn_extract": lambda: list(template.extract_many(pages)),
            "apply_saved_profiles": lambda: list(apply.extract_many(pages)),
        }, rounds)


def scale_out(pages: list[Page], rounds: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        return rates(len(pages), {
            f"workers_{w}": lambda w=w: run(pages, f"{tmp}/w{w}.jsonl",
                                            options=Options(method="page"), workers=w)
            for w in (1, 2)
        }, rounds)


def write_warc(pages: Iterable[Page], path: Path) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for page in pages:
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")],
                                    protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                page.url, "response", payload=io.BytesIO(page.html.encode("utf-8")),
                http_headers=http))


def peak_memory(argv: list[str]) -> dict[str, Any]:
    """Run ``argv``; the peak of the summed RSS of it and its children, its wall time, and
    its CPU seconds (user + system of it and every child it waited for, the pool's workers
    included: on a shared box the wall clock is mostly the other jobs' load)."""
    import psutil

    before = os.times()
    start = time.perf_counter()
    proc = subprocess.Popen(argv)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        root = psutil.Process(proc.pid)
        while not done.is_set():
            try:
                tree = [root, *root.children(recursive=True)]
                peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
            except psutil.Error:
                pass
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    code = proc.wait()
    after = os.times()
    done.set()
    sampler.join()
    cpu = (after.children_user - before.children_user
           + after.children_system - before.children_system)
    return {"exit_code": code, "peak_rss_mb": round(peak / 2**20, 1),
            "seconds": round(time.perf_counter() - start, 1), "cpu_seconds": round(cpu, 1),
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def warc_run(pages: list[Page], n: int, spread: int,
             method: str = "template") -> dict[str, Any]:
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        warc = Path(tmp) / "crawl.warc.gz"
        write_warc(copies(pages, n, sites=spread), warc)
        result = peak_memory([sys.executable, "-m", "sitesift", "extract", str(warc), "--engine",
                              "local", "--workers", "2", "--method", method, "-q",
                              "-o", f"{tmp}/out/out.jsonl"])
        manifest = json.loads(Path(f"{tmp}/out/out.manifest.json").read_text())
        result.update(pages=manifest["pages"], errors=manifest["errors"],
                      methods=manifest["methods"], warc_mb=round(warc.stat().st_size / 2**20, 1),
                      pages_per_s=round(manifest["pages"] / result["seconds"], 1),
                      pages_per_cpu_s=round(manifest["pages"] / result["cpu_seconds"], 1))
        return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", default=["big9-2005", "big9-2009", "cleanportal"])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--copies", type=int, default=4)
    parser.add_argument("--warc-pages", type=int, default=10_000)
    parser.add_argument("--skip-warc", action="store_true")
    parser.add_argument("--warc-only", action="store_true")
    parser.add_argument("--warc-spread", type=int, default=8,
                        help="sites each original site's copies are spread over (1: one big "
                        "site of 480-1,200 pages per original site, learned from a sample)")
    parser.add_argument("--warc-method", default="template",
                        help="the extraction method of the WARC run (auto: the default, with "
                        "learning)")
    args = parser.parse_args(argv)
    pages = load(args.sets)
    results: dict[str, Any] = {"pages": len(pages), "sets": args.sets, "rounds": args.rounds}
    if args.warc_only:
        print(json.dumps({**results, "warc_run": warc_run(
            pages, args.warc_pages, args.warc_spread, args.warc_method)}, indent=1))
        return 0
    results["pages_per_s"] = single_process(pages, args.rounds)
    base = results["pages_per_s"]["trafilatura"]
    results["x_trafilatura"] = {k: round(v / base, 2) for k, v in results["pages_per_s"].items()}
    many = list(copies(pages, args.copies * len(pages)))
    results["scale_out_pages"] = len(many)
    results["scale_out_pages_per_s"] = scale_out(many, args.rounds)
    workers = results["scale_out_pages_per_s"]
    results["workers_2_over_1"] = round(workers["workers_2"] / workers["workers_1"], 2)
    if not args.skip_warc:
        results["warc_run"] = warc_run(pages, args.warc_pages, args.warc_spread,
                                       args.warc_method)
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
