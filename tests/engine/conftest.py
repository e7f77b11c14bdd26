"""Tiny sites for the engine tests: a few sites of one layout each, a few pages per site."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sitesift.record import Page

LAYOUT = """<html><head><title>{t}</title></head><body><header class="top"><a href="/">{s}</a>
<a href="/city">City</a><a href="/port">Port</a></header><main><article><h1>{t}</h1><p>{b}</p>
<p>{b2}</p></article><aside class="most-read"><h3>Most read</h3><ul><li><a>Tide barrier</a>
</li><li><a>Ferry</a></li></ul></aside></main><footer>© {s} · About · Contact</footer>
</body></html>"""


def make_pages(sites: int = 4, per_site: int = 5) -> list[Page]:
    """``sites`` x ``per_site`` pages, sites interleaved as a crawl would give them."""
    return [
        Page(id=f"s{s}-p{i}", url=f"https://site{s}.example/{i}.html", site=f"site{s}.example",
             html=LAYOUT.format(s=f"Site {s}", t=f"Story {i} of site {s}",
                                b=f"Paragraph one of story {i} on site {s}, with words.",
                                b2=f"Paragraph two of story {i}, with more words."))
        for i in range(per_site) for s in range(sites)
    ]


@pytest.fixture
def site_pages() -> Callable[..., list[Page]]:
    """``make_pages`` as a fixture (test modules here are not a package)."""
    return make_pages
