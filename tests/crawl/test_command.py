"""Crawl options: validated in Options, set from the command line."""

from __future__ import annotations

import pytest

from sitesift.cli import parse_args
from sitesift.errors import UsageError
from sitesift.options import Options


@pytest.mark.parametrize("field, value", [
    ("crawl_max_pages", 0), ("crawl_depth", -1), ("crawl_host_concurrency", 0),
    ("crawl_retries", 1.5), ("crawl_delay", -1.0), ("crawl_timeout", 0), ("crawl_max_pages", True),
])
def test_bad_crawl_options_are_refused(field: str, value: object) -> None:
    with pytest.raises(UsageError, match=field):
        Options(**{field: value})


def test_command_line_sets_the_crawl_options() -> None:
    args = parse_args(["crawl", "http://a.org/", "-o", "c.warc.gz", "--max-pages", "7",
                       "--depth", "2", "--same-layer", "--delay", "0.5", "--retries", "0"])
    o = args.options
    assert (o.crawl_max_pages, o.crawl_depth, o.crawl_same_layer, o.crawl_delay,
            o.crawl_retries) == (7, 2, True, 0.5, 0)
    assert parse_args(["extract", "--crawl", "http://a.org/"]).crawl == ["http://a.org/"]


@pytest.mark.parametrize("argv", [
    ["extract"],  # neither input nor --crawl
    ["extract", "--crawl", "http://a.org/", "--frontier", "f.db"],  # kept frontier, lost WARC
    ["crawl", "http://a.org/", "-o", "c.warc", "--depth", "-1"],
    ["crawl", "http://a.org/"],  # no -o
])
def test_command_line_misuse_exits_2(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        parse_args(argv)
    assert exc.value.code == 2
