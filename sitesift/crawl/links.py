"""Following links, for the crawler's loop (``crawler``): from a fetched page, the links to
queue and their kinds: a list page's items (paper 003 starts from a list page and follows each
article link), the seed's same-layer pages (paper 004), pagination, archives (category, tag
and author pages) and, from a site's home page, its sitemaps and feeds; from a sitemap or feed,
its URLs. The crawl policy (``policy``) says what is a list page and which links are items."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urljoin, urlsplit

from lxml import etree
from protego import Protego

from sitesift.crawl.discovery import (
    archive_links,
    feed_links,
    pagination_links,
    parse_document,
)
from sitesift.crawl.fetch import _describe, _Result
from sitesift.crawl.frontier import Entry
from sitesift.crawl.policy import (
    CrawlPolicy,
    Link,
    normalize_url,
    page_links,
    post_titles,
    same_layer_links,
)
from sitesift.errors import PageError
from sitesift.input.encoding import decode_html
from sitesift.options import Options
from sitesift.parse.html import parse_html

__all__ = ["LinkFollower"]


class LinkFollower:
    """The links of a crawl's fetched pages and documents to queue. ``robots``: the run's
    robots.txt parsers per origin (the fetcher's, read for their ``Sitemap:`` lines)."""

    def __init__(self, options: Options, policy: CrawlPolicy,
                 robots: Mapping[str, Protego | None]) -> None:
        self.options = options
        self.policy = policy
        self._robots = robots

    def document(self, entry: Entry, content: bytes, scope: set[str]) -> list[Entry]:
        """The URLs of a sitemap or feed to queue: nested sitemaps at its depth, pages one
        step deeper (while below the depth limit); at most ``crawl_max_pages`` of them."""
        pages, nested = parse_document(entry.url, content, self.options.crawl_max_pages,
                                       self.options.crawl_max_bytes)
        if entry.depth >= self.options.crawl_depth:
            pages = []
        return [
            Entry(url=url, host=_host(url), depth=entry.depth + (kind != "sitemap"), kind=kind,
                  parent=entry.url)
            for urls, kind in ((nested, "sitemap"), (pages, "listed"))
            for url in urls if _host(url) in scope
        ]

    def _discover(self, entry: Entry, root: etree._Element) -> list[Entry]:
        """A home page's sitemaps (robots.txt's, else /sitemap.xml) and its feeds."""
        origin = _origin(entry.url)
        robots = self._robots.get(origin)
        sitemaps = [url for raw in (robots.sitemaps if robots is not None else ())
                    if (url := normalize_url(urljoin(origin, raw))) is not None]
        found = [(url, "sitemap") for url in sitemaps or [f"{origin}/sitemap.xml"]]
        found += [(url, "feed") for url in feed_links(entry.url, root)]
        return [Entry(url=url, host=_host(url), depth=entry.depth, kind=kind, parent=entry.url)
                for url, kind in found]

    def follow(
        self, entry: Entry, result: _Result, scope: set[str], metadata: dict[str, Any], *,
        discover: bool = False, item_archives: bool = False,
    ) -> list[Entry]:
        """The links of a fetched page to queue; fills the page's metadata. A page at the depth
        limit is parsed only if it may be a list (not an item), for its pagination; an item
        there only with ``item_archives`` (a site crawl without a sitemap), for its archive
        links (below)."""
        assert result.content is not None
        at_limit = entry.depth >= self.options.crawl_depth
        if at_limit and entry.kind == "item" and not item_archives:
            return []
        try:
            text, _ = decode_html(result.content, result.charset)
            root = parse_html(text)
        except PageError as exc:
            metadata["error"] = str(exc)
            return []
        archives: list[Entry] = []
        if at_limit and item_archives and entry.kind in ("item", "listed"):
            # A site without a sitemap may link its category, tag and author pages from its
            # articles alone (WordPress's block themes do: their home pages link none). They
            # are lists of the layer above the article: queued at its depth, fetched, and
            # parsed for their pagination alone.
            archives = [Entry(url=link.url, host=_host(link.url), depth=entry.depth,
                              kind="archive", parent=entry.url, anchor=link.anchor or None)
                        for link in archive_links(entry.url, None, root)
                        if _host(link.url) in scope]
            if entry.kind == "item":
                return archives
        links = [link for link in page_links(entry.url, root) if _host(link.url) in scope]
        paging = pagination_links(entry.url, links, root)
        if at_limit:
            return archives + [Entry(url=link.url, host=_host(link.url), depth=entry.depth,
                                     kind="pagination", parent=entry.url,
                                     anchor=link.anchor or None)
                               for link in paging]
        found = [e for e in self._discover(entry, root) if e.host in scope] if discover else []
        is_list, items = self._items(entry, links, root, metadata)
        metadata["list_page"] = is_list
        # Kind "pagination": the next pages of a list (lists themselves, above); "continued":
        # those of another page (an article in parts).
        pages = [Entry(url=link.url, host=_host(link.url), depth=entry.depth,
                       kind="pagination" if is_list else "continued", parent=entry.url,
                       anchor=link.anchor or None)
                 for link in paging]
        chosen = self._chosen(entry, links, root, items if is_list else None, metadata)
        paged = {page.url for page in pages}
        return found + pages + [
            Entry(url=url, host=_host(url), depth=entry.depth + 1, kind=kind, parent=entry.url,
                  anchor=link.anchor or None)
            for url, (kind, link) in chosen.items() if url != entry.url and url not in paged
        ]

    def _items(
        self, entry: Entry, links: list[Link], root: etree._Element, metadata: dict[str, Any],
    ) -> tuple[bool, list[Link]]:
        """Whether the page is a list, and its items (the crawl policy's answer)."""
        try:  # a plugged-in policy failing on one page must not end the crawl
            # The next page of a list is the same list, however few items it shows (the last
            # page of a blog's archive may show one post, too few to read as a list alone).
            is_list = self.policy.is_list_page(entry.url, links, root) \
                or entry.kind == "pagination"
            items = _unique(self.policy.item_links(entry.url, links, root)) if is_list else []
            if entry.kind == "pagination" and not items:  # its one post's linked title
                titles = set(post_titles(entry.url, root, min_titles=1))
                items = _unique([link for link in links if link.url in titles and link.anchor])
        except Exception as exc:
            metadata["error"] = f"internal: crawl policy failed: {_describe(exc)}"
            return False, []
        return is_list, items

    def _chosen(
        self, entry: Entry, links: list[Link], root: etree._Element, items: list[Link] | None,
        metadata: dict[str, Any],
    ) -> dict[str, tuple[str, Link]]:
        """The pages one level down, each with its kind: a list's ``items`` (None: the page is
        no list), the seed's same-layer pages, archives."""
        chosen: dict[str, tuple[str, Link]] = {}
        if items is not None:
            metadata["items"] = [{"url": link.url, "anchor": link.anchor} for link in items]
            chosen.update((link.url, ("item", link)) for link in items)
        if self.options.crawl_same_layer and entry.depth == 0:
            layer = getattr(self.policy, "same_layer_links", None)
            try:
                siblings = layer(entry.url, links) if layer else same_layer_links(entry.url, links)
            except Exception as exc:
                metadata["error"] = f"internal: crawl policy failed: {_describe(exc)}"
                siblings = []
            for link in siblings:
                chosen.setdefault(link.url, ("sibling", link))
        for link in archive_links(entry.url, links, root):
            chosen.setdefault(link.url, ("archive", link))
        return chosen


def _host(url: str) -> str:
    return urlsplit(url).netloc


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _is_home(entry: Entry) -> bool:
    """A seed that is its site's home page (the user asked for the site: discover it)."""
    parts = urlsplit(entry.url)
    return entry.kind == "seed" and parts.path == "/" and not parts.query


def _unique(links: Sequence[Link]) -> list[Link]:
    seen: dict[str, Link] = {}
    for link in links:
        seen.setdefault(link.url, link)
    return list(seen.values())
