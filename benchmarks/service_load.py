#!/usr/bin/env python3
"""A bounded load test of ``sitesift serve`` on loopback: requests/s and latency percentiles.

usage: PYTHONPATH=$PWD python benchmarks/service_load.py [--set big9-2005] [--requests 300]
       [--concurrency 1 8] [--workers 2] [--max-seconds 120] [--json OUT]

Starts ``python -m sitesift serve`` on 127.0.0.1 (a free port, a fresh profile store), learns
the set's sites with one POST /learn, then sends POST /extract with the set's pages (cycled)
from ``--concurrency`` clients until ``--requests`` are done or ``--max-seconds`` pass. Also
measured in the same run: GET /health (the framework's own cost) and, as the baseline, the
same pages extracted in this process with the same saved profiles, one after another (what
one core does without HTTP). Never leaves loopback; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from itertools import cycle
from pathlib import Path
from typing import Any

import httpx

from sitesift import Extractor, Options
from sitesift.compare.store import ProfileStore
from sitesift.evaluate.bench import read_set_pages
from sitesift.record import Page

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def running_server(store: str, *, workers: int = 2) -> Iterator[str]:
    """``python -m sitesift serve`` on a free loopback port until the block ends; its URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "sitesift", "serve", "--port", str(port), "--profiles", store,
         "--workers", str(workers)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        yield base
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def load(base: str, bodies: list[dict[str, Any]], path: str, *, requests: int,
               concurrency: int, max_seconds: float) -> dict[str, Any]:
    """Send ``requests`` requests from ``concurrency`` clients; latencies in ms."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    todo = iter(range(requests))
    source = cycle(bodies)
    deadline = time.monotonic() + max_seconds
    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:

        async def worker() -> None:
            for _ in todo:
                if time.monotonic() > deadline:
                    return
                body = next(source)
                started = time.perf_counter()
                if path == "/health":
                    response = await client.get(path)
                else:
                    response = await client.post(path, json=body)
                latencies.append((time.perf_counter() - started) * 1000)
                statuses[response.status_code] = statuses.get(response.status_code, 0) + 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    return {"requests": len(latencies), "seconds": round(elapsed, 2),
            "rps": round(len(latencies) / elapsed, 1),
            "p50_ms": round(percentile(latencies, 0.5), 1),
            "p90_ms": round(percentile(latencies, 0.9), 1),
            "p99_ms": round(percentile(latencies, 0.99), 1),
            "max_ms": round(max(latencies), 1), "statuses": statuses}


def baseline(pages: list[Page], store_path: str) -> dict[str, Any]:
    """Pages/s of applying the saved profiles in this process, one page at a time."""
    with ProfileStore(store_path) as store:
        extractor = Extractor(Options(method="template"), profiles=store)
        started = time.perf_counter()
        for page in pages:
            list(extractor.extract_many([page]))
        elapsed = time.perf_counter() - started
    return {"pages": len(pages), "pages_per_s": round(len(pages) / elapsed, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--set", default="big9-2005")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8],
                        help="client counts, each run in turn (default: 1 then 8)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=120.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)

    folder = args.data / args.set
    if not (folder / "pages.jsonl").is_file():
        print(f"no data set at {folder}", file=sys.stderr)
        return 2
    pages = read_set_pages(folder)
    bodies = [{"id": p.id, "url": p.url, "site": p.site, "html": p.html} for p in pages]
    results: dict[str, Any] = {"set": args.set, "pages": len(pages), "workers": args.workers,
                               "concurrency": args.concurrency, "cpus": os.cpu_count(),
                               "load_average": os.getloadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "profiles.db")
        with running_server(store, workers=args.workers) as base:
            started = time.perf_counter()
            learned = httpx.post(f"{base}/learn", json={"pages": bodies}, timeout=300).json()
            results["learn_seconds"] = round(time.perf_counter() - started, 2)
            results["sites"] = len(learned["sites"])
            for clients in args.concurrency:
                bounds = {"requests": args.requests, "concurrency": clients,
                          "max_seconds": args.max_seconds}
                # The baseline just before each run: the machine is shared, its load moves.
                results[f"baseline_before_c{clients}"] = baseline(pages, store)
                results[f"health_c{clients}"] = asyncio.run(
                    load(base, bodies, "/health", **bounds))
                results[f"extract_c{clients}"] = asyncio.run(
                    load(base, bodies, "/extract", **bounds))
                results[f"ratio_c{clients}"] = round(
                    results[f"extract_c{clients}"]["rps"]
                    / results[f"baseline_before_c{clients}"]["pages_per_s"], 2)
        results["load_average_after"] = os.getloadavg()
    print(json.dumps(results, indent=1))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
