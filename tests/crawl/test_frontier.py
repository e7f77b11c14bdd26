"""The SQLite frontier and the WARC output a resumed crawl cuts back."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from sitesift.crawl.archive import Exchange, WarcOutput, iter_metadata
from sitesift.crawl.frontier import Entry, Frontier
from sitesift.errors import InputError
from sitesift.input import iter_pages


def entry(path: str, depth: int = 0, host: str = "a.org") -> Entry:
    return Entry(url=f"http://{host}{path}", host=host, depth=depth, kind="seed")


def test_urls_are_queued_once_and_claimed_shallowest_first(tmp_path: Path) -> None:
    with Frontier(tmp_path / "new" / "f") as frontier:  # folders made as needed
        assert frontier.counts() == {}
    with Frontier(tmp_path / "f") as frontier:
        assert frontier.add([entry("/b", 1), entry("/a"), entry("/a")]) == 2
        assert frontier.add([entry("/a")]) == 0
        assert [e.url for e in frontier.claim(["a.org"], 0, 1)] == ["http://a.org/a"]
        assert frontier.claim(["b.org"], 0, 5) == []
        frontier.retry("http://a.org/a", when=100.0, note="HTTP 503")
        assert frontier.next_due() == 0.0 and frontier.next_due_on("b.org") is None
        assert [e.url for e in frontier.claim(["a.org"], 50.0, 5)] == ["http://a.org/b"]
        assert frontier.next_due() == 100.0  # only the retry is left, due later
        assert frontier.next_due(after=100.0) is None
        assert frontier.claim(["a.org"], 150.0, 5)[0].attempts == 1
        assert frontier.taken() == 2
        with pytest.raises(ValueError, match="final state"):
            frontier.finish("http://a.org/b", "queued")
        frontier.finish("http://a.org/b", "done", status=200, new=[entry("/c", 2)],
                        warc_length=123)
        assert frontier.counts() == {"done": 1, "fetching": 1, "queued": 1}
    with Frontier(tmp_path / "f") as frontier:  # reopened: what was in flight is queued again
        assert frontier.counts() == {"done": 1, "queued": 2}
        assert frontier.warc_length == 123


def test_not_a_frontier(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"this is no sqlite file at all" * 10)
    with pytest.raises(InputError, match="not a sitesift crawl frontier"):
        Frontier(tmp_path / "f")


def exchange(path: str) -> Exchange:
    return Exchange(
        url=f"http://a.org{path}", request_headers=[("User-Agent", "t")], status=200,
        reason="OK", http_version="HTTP/1.1",
        response_headers=[("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")],
        body=f"<html><body><p>page {path}</p></body></html>".encode(),
    )


@pytest.mark.parametrize("name", ["c.warc", "c.warc.gz"])
def test_warc_cut_back_to_the_committed_length(tmp_path: Path, name: str) -> None:
    warc = tmp_path / name
    out = WarcOutput(warc, length=0, software="test")
    out.write(exchange("/1"), {"depth": 0})
    committed = out.tell()
    out.write(exchange("/2"))  # written, never committed: the crawl died here
    out.close()
    out = WarcOutput(warc, length=committed, software="test")
    out.write(exchange("/3"))
    out.close()
    assert [p.url for p in iter_pages([str(warc)])] == ["http://a.org/1", "http://a.org/3"]
    assert list(iter_metadata(warc)) == [("http://a.org/1", {"depth": 0})]


def test_fetch_time_is_the_warc_date_and_the_pages_crawl_time(tmp_path: Path) -> None:
    warc = tmp_path / "c.warc.gz"
    fetched = datetime(2026, 11, 26, 18, 0, 5, 123, tzinfo=timezone(timedelta(hours=8)))
    out = WarcOutput(warc, length=0, software="test")
    out.write(replace(exchange("/1"), fetched=fetched))
    out.close()
    with open(warc, "rb") as fh:
        stamps = {r.rec_type: r.rec_headers.get_header("WARC-Date") for r in ArchiveIterator(fh)}
    assert stamps["request"] == stamps["response"] == "2026-11-26T10:00:05Z"
    [page] = iter_pages([str(warc)])
    assert page.crawled == datetime(2026, 11, 26, 10, 0, 5, tzinfo=UTC)


def test_a_warc_file_shorter_than_committed_is_refused(tmp_path: Path) -> None:
    warc = tmp_path / "c.warc.gz"
    warc.write_bytes(b"x" * 10)
    with pytest.raises(InputError, match="shorter"):
        WarcOutput(warc, length=100, software="test")
