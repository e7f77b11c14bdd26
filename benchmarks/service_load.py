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

``--soak`` instead sends ``--requests`` (default 10,000) requests from 8 clients:
the set's pages mixed with bad requests (broken JSON, another content type, empty or binary
``html``, an unusable URL, a body over the limit, a page over the element limit, a lone
surrogate), one in ``--bad-every``. It reports every status, the 5xx count, latency
percentiles, and the resident memory of the server and its workers (sampled every 100
requests): the mean of the first thousand requests against the last thousand.
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
from sitesift.evaluate.bench import read_set_pages
from sitesift.profiles.store import ProfileStore
from sitesift.record import Page

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def running_server(store: str, *, workers: int = 2,
                   extra: tuple[str, ...] = ()) -> Iterator[tuple[str, int]]:
    """``python -m sitesift serve`` on a free loopback port until the block ends; its URL and
    process id."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "sitesift", "serve", "--port", str(port), "--profiles", store,
         "--workers", str(workers), *extra],
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
        yield base, server.pid
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


#: The request body limit of the soak run's server, and a body just over it.
SOAK_MAX_REQUEST_BYTES = 4 * 1024 * 1024


def bad_requests() -> list[tuple[bytes, str]]:
    """(body, content type) of requests the service must answer with a 4xx, or with a record
    read up to its limits (the page over the element limit: a warning)."""
    rows = "".join(f"<tr><td>{i}</td></tr>" for i in range(60_000))  # 120,000 elements
    return [
        (b'{"html": ', "application/json"),
        (b"<html><body><p>x</p></body></html>", "text/html"),
        (b'{"html": "   "}', "application/json"),
        (json.dumps({"html": "\x00\x01 binary"}).encode(), "application/json"),
        (json.dumps({"url": "http://[::1", "html": "<p>x</p>"}).encode(), "application/json"),
        (b'{"html": "<p>' + b"x" * SOAK_MAX_REQUEST_BYTES + b'</p>"}', "application/json"),
        (json.dumps({"html": f"<table>{rows}</table>"}).encode(), "application/json"),
        (b'{"html": "<p>\\ud800 lone</p>", "id": "\\udfff"}', "application/json"),
        (bytes(range(256)) * 4, "application/json"),
    ]


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` and its children, in MB."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0
    for proc in procs:
        with contextlib.suppress(psutil.NoSuchProcess):
            total += proc.memory_info().rss
    return total / 1e6


async def soak(base: str, good: list[dict[str, Any]], *, requests: int, concurrency: int,
               bad_every: int, server_pid: int) -> dict[str, Any]:
    """``requests`` requests from ``concurrency`` clients, one in ``bad_every`` a bad one."""
    bad = bad_requests()
    latencies: list[float] = []
    statuses: dict[int | str, int] = {}
    errors: dict[str, int] = {}
    memory: list[tuple[int, float]] = []
    todo = iter(range(requests))
    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=300, limits=limits) as client:

        async def worker() -> None:
            for n in todo:
                if n % bad_every == bad_every - 1:
                    body, kind = bad[(n // bad_every) % len(bad)]
                else:
                    body, kind = json.dumps(good[n % len(good)]).encode(), "application/json"
                started = time.perf_counter()
                try:
                    response = await client.post("/extract", content=body,
                                                 headers={"content-type": kind})
                except httpx.TransportError as exc:  # the connection closed: no answer
                    name = f"transport: {type(exc).__name__}"
                    statuses[name] = statuses.get(name, 0) + 1  # type: ignore[index]
                    continue
                latencies.append((time.perf_counter() - started) * 1000)
                statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
                if response.status_code == 200 and response.json().get("error"):
                    kind_of = response.json()["error"].split(":", 1)[0]
                    errors[kind_of] = errors.get(kind_of, 0) + 1
                if len(latencies) % 100 == 0:
                    memory.append((len(latencies), rss_mb(server_pid)))

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    first = [mb for n, mb in memory if n <= 1000]
    last = [mb for n, mb in memory if n > requests - 1000]
    first_mb, last_mb = sum(first) / len(first), sum(last) / len(last)
    return {"requests": len(latencies), "concurrency": concurrency, "bad_every": bad_every,
            "seconds": round(elapsed, 1), "rps": round(len(latencies) / elapsed, 1),
            "statuses": dict(sorted(statuses.items(), key=str)),
            "server_errors_5xx": sum(v for k, v in statuses.items()
                                     if isinstance(k, int) and k >= 500),
            "unanswered": sum(v for k, v in statuses.items() if isinstance(k, str)),
            "record_errors": errors,
            "p50_ms": round(percentile(latencies, 0.5), 1),
            "p99_ms": round(percentile(latencies, 0.99), 1),
            "max_ms": round(max(latencies), 1),
            "rss_first_1000_mb": round(first_mb, 1), "rss_last_1000_mb": round(last_mb, 1),
            "rss_growth": round(last_mb / first_mb - 1, 4),
            "rss_samples": [(n, round(mb, 1)) for n, mb in memory[:: max(1, len(memory) // 20)]]}


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
    parser.add_argument("--requests", type=int, default=None,
                        help="requests per run (default 300; 10,000 with --soak)")
    parser.add_argument("--soak", action="store_true",
                        help="the reliability run: good and bad requests, 5xx, memory")
    parser.add_argument("--bad-every", type=int, default=5)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8],
                        help="client counts, each run in turn (default: 1 then 8)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=120.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    args.requests = args.requests or (10_000 if args.soak else 300)

    folder = args.data / args.set
    if not (folder / "pages.jsonl").is_file():
        print(f"no data set at {folder}", file=sys.stderr)
        return 2
    pages = read_set_pages(folder)
    bodies = [{"id": p.id, "url": p.url, "site": p.site, "html": p.html} for p in pages]
    results: dict[str, Any] = {"set": args.set, "pages": len(pages), "workers": args.workers,
                               "concurrency": args.concurrency, "cpus": os.cpu_count(),
                               "load_average": os.getloadavg()}
    if args.soak:
        return run_soak(args, bodies, results)
    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "profiles.db")
        with running_server(store, workers=args.workers) as (base, _):
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


def run_soak(args: argparse.Namespace, bodies: list[dict[str, Any]],
             results: dict[str, Any]) -> int:
    clients = max(args.concurrency)
    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "profiles.db")
        extra = ("--max-request-bytes", str(SOAK_MAX_REQUEST_BYTES))
        with running_server(store, workers=args.workers, extra=extra) as (base, pid):
            results["soak"] = asyncio.run(soak(
                base, bodies, requests=args.requests, concurrency=clients,
                bad_every=args.bad_every, server_pid=pid))
    results["load_average_after"] = os.getloadavg()
    print(json.dumps(results, indent=1))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    soaked = results["soak"]
    return 0 if soaked["server_errors_5xx"] == 0 and soaked["unanswered"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
