from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from sitesift.engine.shuffle import Shuffle, page_from_line, page_to_line, read_bucket, site_bucket
from sitesift.record import Page


def test_a_page_survives_the_bucket_file_unchanged() -> None:
    page = Page(id="é", url="https://x.example/", site="x.example", html="<p>中文</p>",
                encoding="gbk", source="crawl.warc", error=None)
    assert page_from_line(page_to_line(page)) == page


@pytest.mark.parametrize("crawled", [datetime(2026, 11, 26, 10, 0, 5, tzinfo=UTC),
                                     datetime(2026, 11, 26, 18, 0), date(2026, 11, 26)])
def test_the_crawl_time_survives_the_bucket_file(crawled: datetime | date) -> None:
    page = Page(id="a", url="https://x.example/", html="<p>x</p>", crawled=crawled)
    assert page_from_line(page_to_line(page)) == page


def test_site_buckets_are_stable_and_keep_a_site_together(
    tmp_path: Path, site_pages: Callable[..., list[Page]]
) -> None:
    assert site_bucket("bbc.co.uk", 64) == site_bucket("bbc.co.uk", 64)  # no per-process hash
    assert site_bucket(None, 64) == 0
    shuffle = Shuffle(tmp_path, by_site=True, buckets=3, batch_pages=2, first_index=10)
    pages = site_pages(sites=5, per_site=3)
    assert all(shuffle.add(p) == [] for p in pages)  # site buckets close only at the end
    buckets = shuffle.finish()
    sites_seen: dict[str, int] = {}
    for bucket in buckets:
        assert 10 <= bucket.index < 13
        read = list(read_bucket(bucket.path))
        assert len(read) == bucket.pages
        for page in read:
            assert sites_seen.setdefault(page.site, bucket.index) == bucket.index
    assert sum(b.pages for b in buckets) == len(pages) and len(sites_seen) == 5


def test_page_mode_hands_out_a_bucket_as_soon_as_it_is_full(
    tmp_path: Path, site_pages: Callable[..., list[Page]]
) -> None:
    shuffle = Shuffle(tmp_path, by_site=False, buckets=8, batch_pages=4)
    closed = [b for p in site_pages(sites=2, per_site=5) for b in shuffle.add(p)]
    closed += shuffle.finish()
    assert [b.pages for b in closed] == [4, 4, 2]
    ids = [p.id for b in closed for p in read_bucket(b.path)]
    assert ids == [p.id for p in site_pages(sites=2, per_site=5)]  # input order kept
