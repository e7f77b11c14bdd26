"""The crawl stage: fetch what the methods need (list pages, their items, same-layer pages) into
a WARC file that ``sitesift extract`` reads. ``crawl`` is the entry point; ``CrawlPolicy`` is
where page-type and URL-structure models plug in.
"""

from __future__ import annotations

from sitesift.crawl.archive import read_anchors
from sitesift.crawl.crawler import USER_AGENT, Crawler, CrawlStats, crawl
from sitesift.crawl.policy import CrawlPolicy, DefaultPolicy, Link

__all__ = [
    "USER_AGENT", "CrawlPolicy", "CrawlStats", "Crawler", "DefaultPolicy", "Link", "crawl",
    "read_anchors",
]
