"""The command-line side of crawling: the options ``sitesift crawl`` and ``sitesift extract
--crawl`` share, and running a crawl with a one-line report (kept here so cli.py stays small)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sitesift.options import (
    DEFAULT_CRAWL_DELAY,
    DEFAULT_CRAWL_DEPTH,
    DEFAULT_CRAWL_HOST_CONCURRENCY,
    DEFAULT_CRAWL_MAX_BYTES,
    DEFAULT_CRAWL_MAX_PAGES,
    DEFAULT_CRAWL_RETRIES,
    DEFAULT_CRAWL_TIMEOUT,
    Options,
)

__all__ = ["CRAWL_EPILOG", "add_crawl_arguments", "crawl_options", "run_crawl"]

CRAWL_EPILOG = """\
From each URL: the page; if it is a list page, its item (article) links; with --same-layer, the
pages of the same layer it links to. Item and same-layer links are recognised by URL rules the
crawl learns per host as it goes (URL structure clusters of the pages it reads as articles and
the links in list pages' repeated items; before that, by the page's repeated structures, and
same folder and URL shape). Links outside the seeds' hosts are not followed. robots.txt is
obeyed (token `sitesift`), each response is written as WARC request and response records with
their headers plus a metadata record (depth, the linking page and anchor text, a list page's
items). The frontier (OUT.frontier, SQLite) makes the crawl resumable: run
the same command again after a stop and it goes on where it stopped, fetching no page twice.
"""


def add_crawl_arguments(parser: argparse.ArgumentParser) -> None:
    """The crawl limits and politeness options, on ``crawl`` and on ``extract``."""
    group = parser.add_argument_group("crawling")
    group.add_argument("--max-pages", type=int, default=DEFAULT_CRAWL_MAX_PAGES, metavar="N",
                       help=f"URLs to take from the frontier at most (default "
                       f"{DEFAULT_CRAWL_MAX_PAGES})")
    group.add_argument("--depth", type=int, default=DEFAULT_CRAWL_DEPTH, metavar="D",
                       help=f"link steps from the seeds (default {DEFAULT_CRAWL_DEPTH}: seeds and "
                       "the items of seed list pages)")
    group.add_argument("--same-layer", action="store_true",
                       help="also fetch the same-layer pages the seeds link to")
    group.add_argument("--delay", type=float, default=DEFAULT_CRAWL_DELAY, metavar="S",
                       help=f"seconds between requests to one host (default "
                       f"{DEFAULT_CRAWL_DELAY:g}; robots.txt Crawl-delay wins if longer)")
    group.add_argument("--host-concurrency", type=int, default=DEFAULT_CRAWL_HOST_CONCURRENCY,
                       metavar="N", help=f"requests in flight per host (default "
                       f"{DEFAULT_CRAWL_HOST_CONCURRENCY})")
    group.add_argument("--timeout", type=float, default=DEFAULT_CRAWL_TIMEOUT, metavar="S",
                       help=f"seconds per response (default {DEFAULT_CRAWL_TIMEOUT:g})")
    group.add_argument("--max-bytes", type=int, default=DEFAULT_CRAWL_MAX_BYTES, metavar="B",
                       help=f"bytes per response (default {DEFAULT_CRAWL_MAX_BYTES:,})")
    group.add_argument("--retries", type=int, default=DEFAULT_CRAWL_RETRIES, metavar="N",
                       help=f"retries after 5xx/429/timeouts (default {DEFAULT_CRAWL_RETRIES})")
    group.add_argument("--frontier", metavar="DB",
                       help="SQLite frontier file (default: the WARC file's name + .frontier)")


def crawl_options(args: argparse.Namespace) -> dict[str, object]:
    """The ``Options`` fields the crawl arguments set (defaults where a command has none)."""
    fields = {
        "crawl_max_pages": "max_pages", "crawl_depth": "depth", "crawl_same_layer": "same_layer",
        "crawl_delay": "delay", "crawl_host_concurrency": "host_concurrency",
        "crawl_timeout": "timeout", "crawl_max_bytes": "max_bytes", "crawl_retries": "retries",
    }
    return {field: getattr(args, name) for field, name in fields.items() if hasattr(args, name)}


def run_crawl(urls: list[str], warc: str | Path, options: Options, *, frontier: str | None,
              quiet: bool) -> bool:
    """Crawl ``urls`` into ``warc``; True if every URL taken ended as a page or redirect, or
    was skipped (refused by robots.txt, not HTML, too large); False after failures and URLs
    deferred to the next run (robots.txt unreachable)."""
    from sitesift.crawl.crawler import Crawler

    def tell(state: str, text: str) -> None:
        if state != "done":
            print(f"sitesift crawl: {state}: {text}", file=sys.stderr)

    crawler = Crawler(options, frontier=frontier, progress=None if quiet else tell)
    stats = crawler.run(urls, warc)
    if not quiet:
        totals = ", ".join(f"{n} {state}" for state, n in sorted(stats.totals.items()))
        print(f"sitesift crawl: {stats.done} page(s) written in {stats.seconds:.1f} s "
              f"({stats.pages_per_second:.1f}/s); frontier: {totals}", file=sys.stderr)
    return stats.failed == 0 and stats.deferred == 0
