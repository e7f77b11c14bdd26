"""What to follow: the links of a page, which of them are item (article) links, whether the page
is a list page, and which links lead to same-layer pages.

The crawler asks a ``CrawlPolicy`` two questions, so better models plug in without touching it
(``urlpolicy.UrlStructurePolicy``, the crawler's default, answers them from URL rules it learns
as the crawl goes, with this module's cues before it has learned and for what its rules do not
cover):

* ``is_list_page(url, links, root)``: is this an index page whose items should be fetched?
* ``item_links(url, links, root)``: which of its links are item (article) links?

``DefaultPolicy`` answers from the page alone:

* item links are links in a *repeated structure* (the same tag/class path from <body>, as in the
  ``ul.list > li > a`` of a list) of at least ``min_group`` links whose anchors read like titles
  (median length at least ``min_anchor`` characters; navigation menus have one-word anchors),
  and *post titles*: headings (``h1``-``h6``) that are one link each, at least
  ``min_post_titles`` of them at the same tag path (classes left out: blogs give each post's
  element its own classes, ``post-12 category-news``). That is how a page showing whole posts
  (a blog's home page, its archives) links its articles;
* a list page is a page with post titles (a page can be both a list and articles, as an
  article with its related posts under it: its titles are followed either way), or what the
  single-page extractor's page type (``methods/page/content.py``) calls ``list``, and not what it
  calls ``detail``; for the rest (``other``: short lists among them), a page with at least
  ``min_items`` item links whose text is mostly links (link density at least
  ``min_link_density``), which an article with a related-links box is not.

Same-layer links (paper 004: pages one level of a site's hierarchy holds side by side) are links
to the same folder with the same URL shape (digits folded): ``/news/2024/a-1.html`` and
``/news/2024/b-7.html``, not ``/news/`` or ``/about.html``.
"""

from __future__ import annotations

import copy
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urldefrag, urlsplit, urlunsplit

from lxml import etree

from sitesift.methods.page.content import extract_content
from sitesift.parse.dom import link_density, normalize_space
from sitesift.parse.links import Link, document_base, join_url
from sitesift.parse.links import page_links as all_links

__all__ = [
    "CrawlPolicy", "DefaultPolicy", "Link", "normalize_url", "page_links",
    "post_titles", "same_layer_links",
]

#: Link targets that are never HTML pages, left out before any request is made.
SKIP_SUFFIXES = frozenset({
    ".7z", ".avi", ".bmp", ".css", ".csv", ".doc", ".docx", ".epub", ".exe", ".gif", ".gz",
    ".ico", ".jpeg", ".jpg", ".js", ".json", ".mov", ".mp3", ".mp4", ".ogg", ".pdf", ".png",
    ".ppt", ".pptx", ".rar", ".rss", ".svg", ".tar", ".tgz", ".wav", ".webm", ".webp", ".woff",
    ".woff2", ".xls", ".xlsx", ".xml", ".zip",
})
_DEFAULT_PORTS = {"http": 80, "https": 443}
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")




class CrawlPolicy(Protocol):
    """The two questions the crawler asks about a fetched HTML page."""

    def is_list_page(self, url: str, links: Sequence[Link], root: etree._Element) -> bool:
        """True if the page is a list (index) page whose item links should be fetched."""
        ...

    def item_links(self, url: str, links: Sequence[Link], root: etree._Element) -> list[Link]:
        """The links of the page that lead to item (article) pages."""
        ...

    # Optional: ``same_layer_links(url, links) -> list[Link]``, the links to pages of the same
    # layer as ``url`` (without it the crawler uses the module function of that name).


@dataclass(frozen=True, slots=True)
class DefaultPolicy:
    """Repeated-structure and link-density cues (see the module docstring); thresholds set on
    hand-made list and article pages and the list pages of the dev sets' sites."""

    #: Links sharing one structural path needed to call them a list.
    min_group: int = 3
    #: Median anchor length (characters) of a group of item links; menus have shorter ones.
    min_anchor: int = 8
    #: Item links a list page has at least.
    min_items: int = 5
    #: Share of the body text inside links on a list page.
    min_link_density: float = 0.4
    #: Linked headings at one tag path that make a page a list of posts (two posts shown).
    min_post_titles: int = 2

    def item_links(self, url: str, links: Sequence[Link], root: etree._Element) -> list[Link]:
        groups: dict[str, list[Link]] = defaultdict(list)
        for link in links:
            if link.url != url:
                groups[link.path].append(link)
        items: list[Link] = []
        for group in groups.values():
            if len({link.url for link in group}) < self.min_group:
                continue
            if statistics.median(len(link.anchor) for link in group) >= self.min_anchor:
                items.extend(link for link in group if link.anchor)
        titles = set(self.post_titles(url, root))
        if titles:
            chosen = {link.url for link in items}
            items.extend(link for link in links
                         if link.url in titles and link.url not in chosen and link.anchor)
        return items

    def post_titles(self, url: str, root: etree._Element) -> tuple[str, ...]:
        return post_titles(url, root, self.min_post_titles)

    def is_list_page(self, url: str, links: Sequence[Link], root: etree._Element) -> bool:
        if self.post_titles(url, root):
            return True
        # The single-page extractor's page type first (on a copy: it edits the tree it reads);
        # it needs LIST_MIN_ITEMS same-styled links, so short lists fall to the cues below.
        page_type = extract_content(copy.deepcopy(root)).page_type
        if page_type != "other":
            return page_type == "list"
        return self.list_cues(url, links, root)

    def list_cues(self, url: str, links: Sequence[Link], root: etree._Element) -> bool:
        """The cues for pages the page-type model calls ``other``: enough item links, and a
        body that is mostly links."""
        items = {link.url for link in self.item_links(url, links, root)}
        if len(items) < self.min_items:
            return False
        body = root.find("body")
        return link_density(body if body is not None else root) >= self.min_link_density


    def same_layer_links(self, url: str, links: Sequence[Link]) -> list[Link]:
        return same_layer_links(url, links)


def normalize_url(url: str) -> str | None:
    """``url`` without fragment, with lower-case scheme and host and no default port; None if
    it is not an http(s) URL."""
    url = urldefrag(url.strip())[0]
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        host = f"{host}:{port}"
    return urlunsplit((scheme, host, parts.path or "/", parts.query, ""))


def post_titles(url: str, root: etree._Element, min_titles: int = 2) -> tuple[str, ...]:
    """Headings that are one link each (the link's text is the heading's) to another page of
    the same host, grouped by their tag path without classes; the URLs of the groups with at
    least ``min_titles`` distinct targets (normalised), in document order."""
    base = document_base(root, url)
    host = urlsplit(url).netloc
    groups: dict[str, list[tuple[etree._Element, str]]] = defaultdict(list)
    for heading in root.iter(*_HEADINGS):
        anchors = [a for a in heading.iter("a") if (a.get("href") or "").strip()]
        if len(anchors) != 1:
            continue
        text = normalize_space(heading.text_content())
        if not text or normalize_space(anchors[0].text_content()) != text:
            continue
        target = normalize_url(join_url(base, anchors[0].get("href", "")))
        if target is None or target == url or _suffix(target) in SKIP_SUFFIXES \
                or urlsplit(target).netloc != host:
            continue
        path = "/".join(el.tag for el in reversed([heading, *heading.iterancestors()]))
        groups[path].append((heading, target))
    chosen = [pair for group in groups.values()
              if len({target for _, target in group}) >= min_titles for pair in group]
    order = {heading: i for i, heading in enumerate(root.iter(*_HEADINGS))}
    chosen.sort(key=lambda pair: order[pair[0]])
    return tuple(dict.fromkeys(target for _, target in chosen))


def page_links(url: str, root: etree._Element) -> list[Link]:
    """Every http(s) link of the page to what may be an HTML page (not in script, template,
    noscript...), absolute and normalised, in document order, with its anchor text and the
    tag.class path from the root to it."""
    links: list[Link] = []
    for link in all_links(root, url, paths=True, skip_hidden=True):
        target = normalize_url(link.url)
        if target is not None and _suffix(target) not in SKIP_SUFFIXES:
            links.append(Link(target, link.anchor, link.path))
    return links


def same_layer_links(url: str, links: Sequence[Link]) -> list[Link]:
    """Links to pages of the same folder and URL shape as ``url`` (itself left out)."""
    want = _layer(url)
    seen = {url}
    out = []
    for link in links:
        if link.url not in seen and _layer(link.url) == want:
            seen.add(link.url)
            out.append(link)
    return out


def _layer(url: str) -> tuple[str, str, str]:
    """Host, folder, and the shape of the last path segment: empty (a folder index) or not,
    its extension, the names of its query keys."""
    parts = urlsplit(url)
    folder, _, leaf = parts.path.rpartition("/")
    stem, dot, ext = leaf.rpartition(".")
    shape = "" if not leaf else ("x." + ext.lower() if stem and dot else "x")
    keys = sorted({key.split("=", 1)[0] for key in parts.query.split("&") if key})
    return parts.netloc, folder, shape + ("?" + ",".join(keys) if keys else "")


def _suffix(url: str) -> str:
    leaf = urlsplit(url).path.rpartition("/")[2]
    dot = leaf.rfind(".")
    return leaf[dot:].lower() if dot > 0 else ""
