"""The engine's part of ``sitesift extract``: its options, and the run they ask for."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

__all__ = ["add_arguments", "check_arguments", "run_from_args"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from sitesift.engine import ENGINES

    group = parser.add_argument_group(
        "scale-out", "with --engine, output goes to parts OUT-00000.jsonl.gz ... (or "
        ".parquet, .md.gz) and OUT.manifest.json; pages of a site are shuffled to one worker")
    group.add_argument("--engine", choices=ENGINES,
                       help="local: a process pool on this machine; dask: a Dask LocalCluster, "
                       "or the cluster of --scheduler")
    group.add_argument("--workers", type=int, default=None, metavar="N",
                       help="worker processes (default: the machine's CPU count)")
    group.add_argument("--scheduler", metavar="ADDRESS",
                       help="address of a running Dask scheduler (tcp://host:8786)")
    group.add_argument("--resume", action="store_true",
                       help="keep the parts an earlier run wrote and skip their pages")


def check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Cross-checks of the engine options (exit 2 on misuse)."""
    uses_engine = args.engine is not None
    if not uses_engine:
        for flag, value in (("--workers", args.workers), ("--scheduler", args.scheduler),
                            ("--resume", args.resume)):
            if value:
                parser.error(f"{flag} needs --engine")
        if args.output_format == "parquet":
            parser.error("--format parquet needs --engine (output in parts)")
        return
    if not args.output or args.output == "-":
        parser.error("--engine writes parts: give their name with -o OUT.jsonl")
    if getattr(args, "crawl", None):
        parser.error("--engine reads inputs only: crawl first (`sitesift crawl`), then "
                     "extract the WARC file")
    if args.scheduler and args.engine != "dask":
        parser.error("--scheduler needs --engine dask")
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be at least 1")


class _NoBar:
    """The progress bar when none is shown: tqdm (40 ms of imports) loads only to show one."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(show: bool, **options: Any) -> Any:
    """A tqdm bar of pages on stderr when ``show``, else a bar that does nothing."""
    if not show:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=options.pop("total", None), unit="page", file=sys.stderr,
                dynamic_ncols=True, **options)


def run_from_args(args: argparse.Namespace) -> int:
    """Run ``sitesift extract`` on an engine; exit code 0, or 1 when some page has an error."""
    from sitesift.engine import run
    from sitesift.input import iter_pages

    options = args.options
    pages = iter_pages(
        args.inputs, site_key=options.site_key, max_page_bytes=options.max_page_bytes
    )
    show = not args.quiet and sys.stderr.isatty()
    bar = progress_bar(show, total=0, desc="extract")
    try:
        summary = run(
            pages, args.output, options=options, engine=args.engine,
            workers=args.workers or os.cpu_count() or 1, scheduler=args.scheduler,
            profiles=args.profiles, resume=args.resume, progress=bar if show else None,
        )
    finally:
        bar.close()
    if not args.quiet:
        print(f"sitesift: {summary.line()}; manifest {summary.manifest}", file=sys.stderr)
    return 1 if summary.errors else 0
