#!/usr/bin/env python3
"""Run sitesift and its peers on the evaluation sets and score them all with our scorer: a
table in the terminal, and benchmarks/results/<set>.json.

usage: python benchmarks/run_peers.py [--sets SET ...] [--extractors NAME ...] [--data DIR]

For every set the pages are read and decoded once (sitesift.input), then each extractor runs over
all of them in the same process loop; pages/s counts extraction only. A crash (or a page taking
longer than ``PAGE_TIMEOUT`` seconds) gives an empty prediction for that page and is counted.
Results go to benchmarks/results/<set>.json (one file per set; an extractor re-run replaces its
row, the others stay). docs/results.md is written by ``benchmarks/report.py``, which runs the
same code over every set in one run. Benchmarks run on demand, never in CI.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import logging
import os
import platform
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from peers import FIELD_METRICS, PEERS, Peer, PeerUnavailable, make_peer, rs_version

from sitesift.evaluate.bench import BenchResult, format_table, read_set_pages
from sitesift.evaluate.score import load_gold, load_predictions, score_pages
from sitesift.record import Page

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / ".." / "shared" / "data"
RESULTS = REPO / "benchmarks" / "results"
PLOT = REPO / "docs" / "img" / "accuracy_vs_speed.png"

SETS = (
    "scrapinghub", "zh-news-dev", "big9-2005", "big9-2009", "cleanportal", "zh-sites",
    "readability-meta", "dates-dev", "l3s-gn1", "modern-dev", "zoo-blogs-dev", "zoo-docs-dev",
    "list-detail", "forum-dz", "forum-flux", "forum-phpbb",
)
#: Seconds a peer may spend on one page before it counts as failed (sitesift uses its own
#: per-page guard, Options.page_timeout). Generous: the slowest peers take ~1 s on big pages.
PAGE_TIMEOUT = 60.0
#: Distributions whose versions are recorded with the results.
PACKAGES = (
    "sitesift", "lxml", "rs-trafilatura", "trafilatura", "readability-lxml", "gne", "goose3",
    "Resiliparse", "htmldate", "rapidfuzz",
)
#: Gold field -> the prediction field it scores, to skip extractors with nothing to score.
GOLD_TO_FIELD = {"body": "text", "title": "title", "date": "published", "author": "author",
                 "page_type": "page_type", "with": "text", "without": "text", "kind": "kind",
                 "posts": "posts"}


class PeerTimeout(BaseException):
    """Raised by the alarm; a BaseException so that a peer's own ``except Exception`` cannot
    swallow it."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def on_alarm(signum: int, frame: object) -> None:
        raise PeerTimeout

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_peer(
    peer: Peer, pages: Sequence[Page]
) -> tuple[list[dict[str, Any]], float, dict[str, int]]:
    """(predictions, seconds, failure counts) of ``peer`` over ``pages``.

    One untimed call on the first page comes first, so lazy imports and first-call set-up
    (dictionaries, compiled patterns) do not count against the speed of a small set.
    """
    if pages:
        with contextlib.suppress(Exception, PeerTimeout), _time_limit(PAGE_TIMEOUT):
            peer.run(pages[0])
    predictions: list[dict[str, Any]] = []
    counts = {"crashes": 0, "timeouts": 0, "error_records": 0}
    start = time.perf_counter()
    if peer.run_batch is not None:  # site-level: the set at once, each page guarded inside
        predictions = [{**p, "id": page.id} for p, page in zip(
            peer.run_batch(pages), pages, strict=True)]
        counts["error_records"] = sum(bool(p.get("error")) for p in predictions)
        return predictions, time.perf_counter() - start, counts
    for page in pages:
        prediction: dict[str, Any] = {}
        if page.error and not peer.self_guarded:
            counts["crashes"] += 1
        elif peer.self_guarded:
            prediction = peer.run(page)
            counts["error_records"] += bool(prediction.get("error"))
        else:
            try:
                with _time_limit(PAGE_TIMEOUT):
                    prediction = peer.run(page) or {}
            except PeerTimeout:
                counts["timeouts"] += 1
            except Exception:  # any crash of a peer = empty prediction for the page
                counts["crashes"] += 1
        predictions.append({**prediction, "id": page.id})
    return predictions, time.perf_counter() - start, counts


def _scored_fields(gold: dict[str, dict[str, Any]]) -> set[str]:
    return {GOLD_TO_FIELD[k] for g in gold.values() for k, v in g.items()
            if k in GOLD_TO_FIELD and v}


def run_set(set_dir: Path, peers: Sequence[Peer]) -> list[BenchResult]:
    gold = load_gold(set_dir)
    pages = read_set_pages(set_dir)
    wanted = _scored_fields(gold)
    results = []
    for peer in peers:
        if not peer.fields & wanted:
            continue  # e.g. htmldate on a set without dates
        predictions, seconds, counts = run_peer(peer, pages)
        metrics = score_pages(gold, load_predictions(predictions))
        for field, keys in FIELD_METRICS.items():
            if field not in peer.fields:
                for key in keys:
                    metrics.pop(key, None)
        failures = counts["crashes"] + counts["timeouts"] + counts["error_records"]
        results.append(BenchResult(
            set_name=set_dir.name, method=peer.name, metrics=metrics,
            pages_per_second=len(pages) / seconds if seconds > 0 else float("inf"),
            pages=len(pages), errors=failures, extra={**counts, "seconds": round(seconds, 3)},
        ))
        print(f"  {peer.name:<17} {len(pages) / seconds:8.1f} pages/s  "
              f"body F1 {metrics.get('shingle_f1', '–')}  failures {failures}", flush=True)
    return results


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def _git_commit() -> str | None:
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        return subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    return None


def environment(argv: Sequence[str]) -> dict[str, Any]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = rs_version() if name == "rs-trafilatura" else None
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": platform.machine(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "packages": versions,
        "commit": _git_commit(),
        "command": " ".join(["python", "benchmarks/run_peers.py", *argv]),
    }


def write_results(set_name: str, results: list[BenchResult], env: dict[str, Any]) -> Path:
    """Write results/<set>.json. Extractors not re-run this time keep their earlier results
    (each result names its run in ``extra["run"]``), so ``--extractors sitesift`` refreshes our
    row without re-running the slow peers."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{set_name}.json"
    envs: dict[str, dict[str, Any]] = {}
    kept: list[BenchResult] = []
    if path.exists():
        old_envs, old_results = _read_results_file(path)
        rerun = {r.method for r in results}
        kept = [r for r in old_results if r.method not in rerun]
        envs = {k: v for k, v in old_envs.items() if any(r.extra.get("run") == k for r in kept)}
    envs[env["date"]] = env
    fresh = [BenchResult(**{**r.to_dict(), "extra": {**r.extra, "run": env["date"]}})
             for r in results]
    order = {name: i for i, name in enumerate(PEERS)}
    merged = sorted(kept + fresh, key=lambda r: order.get(r.method, len(order)))
    payload = {"set": set_name, "environments": envs, "results": [r.to_dict() for r in merged]}
    path.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return path


def _read_results_file(path: Path) -> tuple[dict[str, dict[str, Any]], list[BenchResult]]:
    payload = json.loads(path.read_text("utf-8"))
    if "environment" in payload:  # files of the first runs: one environment for all results
        env = payload["environment"]
        results = [BenchResult(**{**r, "extra": {**r["extra"], "run": env["date"]}})
                   for r in payload["results"]]
        return {env["date"]: env}, results
    return payload["environments"], [BenchResult(**r) for r in payload["results"]]


def load_results() -> list[tuple[dict[str, dict[str, Any]], list[BenchResult]]]:
    """(environments by run, results) of every results file, in the order of ``SETS``."""
    order = {name: i for i, name in enumerate(SETS)}
    paths = sorted(RESULTS.glob("*.json"), key=lambda p: (order.get(p.stem, 99), p.stem))
    # Other benchmarks keep their own files here (methods.json, forums.json...): only files
    # this script wrote, which name their set, are its results.
    return [_read_results_file(path) for path in paths if _is_peer_results(path)]


def _is_peer_results(path: Path) -> bool:
    payload = json.loads(path.read_text("utf-8"))
    return isinstance(payload, dict) and "set" in payload and "results" in payload


def plot(results: Sequence[BenchResult], path: Path) -> None:
    """Body F1 against pages/s (log x): one point per extractor per set with body gold."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    points = [r for r in results if r.metrics.get("shingle_f1") is not None]
    names = [n for n in PEERS if any(r.method == n for r in points)]
    sets = [s for s in SETS if any(r.set_name == s for r in points)]
    colours = dict(zip(names, plt.get_cmap("tab10").colors, strict=False))
    # (filled markers, repeated when there are more sets than shapes)
    markers = dict(zip(sets, itertools.cycle("os^vD<>Pp*XhdH8"), strict=False))
    fig, ax = plt.subplots(figsize=(10, 6), dpi=110)
    for r in points:
        ax.scatter(r.pages_per_second, r.metrics["shingle_f1"], s=55, alpha=0.85,
                   color=colours[r.method], marker=markers.get(r.set_name, "o"),
                   edgecolors="black", linewidths=0.4)
    ax.set_xscale("log")
    ax.set_xlabel("pages per second (log scale; extraction only, one process)")
    ax.set_ylabel("body F1 (4-gram shingles)")
    lowest = min(r.metrics["shingle_f1"] for r in points)
    ax.set_ylim(max(0.0, round(lowest - 0.1, 1)), 1.0)
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title("Main-text accuracy against speed, per extractor and data set")
    who = [Line2D([], [], color=colours[n], marker="o", linestyle="", label=n) for n in names]
    where = [Line2D([], [], color="grey", marker=markers[s], linestyle="", label=s) for s in sets]
    # Legends beside the plot: the points crowd the upper part of the axes.
    first = ax.legend(handles=who, title="extractor", loc="upper left",
                      bbox_to_anchor=(1.01, 1.0), fontsize=8)
    ax.add_artist(first)
    ax.legend(handles=where, title="data set", loc="lower left", bbox_to_anchor=(1.01, 0.0),
              fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), metavar="SET",
                        help=f"set names under --data (default: {' '.join(SETS)})")
    parser.add_argument("--extractors", nargs="+", default=list(PEERS), choices=list(PEERS),
                        metavar="NAME", help=f"default: {' '.join(PEERS)}")
    parser.add_argument("--data", type=Path, default=DATA, help="folder holding the sets")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    logging.disable(logging.WARNING)  # peers log a warning for every page they discard
    warnings.simplefilter("ignore")
    env = environment(argv)
    peers = available_peers(args.extractors)
    done: list[BenchResult] = []
    for set_name in args.sets:
        set_dir = args.data / set_name
        print(f"{set_name}:", flush=True)
        results = run_set(set_dir, peers)
        done += results
        print(f"  -> {write_results(set_name, results, env).relative_to(REPO)}")
    print(format_table(done))
    return 0


def available_peers(names: Sequence[str]) -> list[Peer]:
    """The peers of ``names`` that can run here; each one that cannot is named on stderr."""
    peers = []
    for name in names:
        try:
            peers.append(make_peer(name))
        except (PeerUnavailable, ImportError) as exc:
            print(f"skipped {name}: {exc}", file=sys.stderr)
    return peers


if __name__ == "__main__":
    sys.exit(main())
