"""The crawl stage: fetch what the methods need (list pages, their items, same-layer pages) into
a WARC file that ``sitesift extract`` reads. ``crawl`` is the entry point; ``CrawlPolicy`` is
what decides which links to follow (default ``UrlStructurePolicy``: learned URL rules).

Names are imported on first use, so the CLI's other commands do not load httpx and protego.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "USER_AGENT", "CrawlPolicy", "CrawlStats", "Crawler", "DefaultPolicy", "Link",
    "UrlStructurePolicy", "crawl", "read_anchors",
]
_HOME = {
    "read_anchors": "archive", "USER_AGENT": "fetch", "Crawler": "crawler",
    "CrawlStats": "crawler", "crawl": "crawler", "CrawlPolicy": "policy",
    "DefaultPolicy": "policy", "Link": "policy", "UrlStructurePolicy": "urlpolicy",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
