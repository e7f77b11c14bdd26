"""Discovery: the pages of a site a crawler finds besides item links, as users of crawlers
expect it.

* **Sitemaps** (sitemaps.org): ``Sitemap:`` lines of robots.txt, else ``/sitemap.xml``;
  ``<urlset>`` page URLs, ``<sitemapindex>`` nested sitemaps, gzip, plain-text sitemaps.
* **Feeds**: RSS 2.0 / Atom documents linked from a page's ``<head>`` (``<link
  rel=alternate type=application/rss+xml|atom+xml>``); each entry's link.
* **Pagination**: the next pages of a list, by ``rel=next``, or by a link whose anchor is a page
  number ("2", "Page 2") or a "next" word ("Next", "Older posts", "下一页", "»") and whose URL
  is the page's own with one number added or changed (``/page/2/``, ``?paged=2``,
  ``list_2.html``): the URL test keeps calendar days ("5" -> ``/2024/01/05/``) and article
  links out, the anchor test keeps other numbered URLs out.
* **Archives**: links marked ``rel=tag``, ``rel=category`` or ``rel=author`` (microformats'
  rel-tag and HTML's author link type): category, tag and author pages, lists themselves.

Sitemap and feed documents are parsed here with lxml (``recover``, no entities, no network),
by choice: the maintained libraries were measured (``benchmarks/crawl.py --discovery``).
ultimate-sitemap-parser read 10 of
18 made-up documents right (this parser 18): it leaves relative links relative, misses gzip
not named ``.gz``, a byte-order mark, RSS 1.0, and stops at the first XML error (an
``&nbsp;``) where lxml recovers; it fetches with its own blocking client (robots.txt read for
``Sitemap:`` lines only, 14 guessed paths probed). feedparser reads feeds only, as well as
this parser on its 6, and took 6-12 s on a 1 kB entity bomb. trafilatura's sitemap and feed
functions found none of the WordPress sites' URLs: they keep only links of a registered domain
name like the page's (``127.0.0.1`` and intranet names fail), and they fetch with their own
client, outside the crawl's robots.txt, delay and frontier.
"""

from __future__ import annotations

import codecs
import re
import zlib
from collections.abc import Sequence
from urllib.parse import parse_qsl, urlsplit

from lxml import etree

from sitesift.crawl.policy import normalize_url
from sitesift.parse.dom import normalize_space
from sitesift.parse.links import Link, document_base, join_url

__all__ = [
    "FEED_TYPES", "MAX_FEEDS", "archive_links", "feed_links", "pagination_links",
    "parse_document",
]

#: Media types of feeds linked from ``<head>``.
FEED_TYPES = frozenset({"application/rss+xml", "application/atom+xml"})
#: Feeds followed from one page (a blog links its posts' feed and its comments' feed).
MAX_FEEDS = 3
#: Link types (``rel``) of archive pages: rel-tag (microformats), category, author (HTML).
ARCHIVE_RELS = frozenset({"tag", "category", "author"})
#: Anchors of "next page" links, lower-cased: English, French, German, Spanish, Chinese,
#: Japanese, and the arrows lists use without words.
NEXT_WORDS = frozenset({
    "next", "next page", "next »", "next ›", "older posts", "older entries", "older",
    "more", "load more", "suivant", "page suivante", "weiter", "nächste", "nächste seite",
    "siguiente", "下一页", "下页", "后页", "下一頁", "次へ", "次のページ", "»", "›", "→",
    ">", ">>",
})
#: An anchor that is a page number, with at most one word before it ("2", "Page 2", "第2页").
_PAGE_NUMBER = re.compile(r"^\W*(?:\w+\W+)?\d{1,4}\W*$|^第\s*\d{1,4}\s*页$")
_NUMBER = re.compile(r"\d+")
_ENDS = re.compile(r"^[\W_]+|[\W_]+$")
#: A line of a text sitemap (sitemaps.org: one absolute URL a line, nothing else).
_TEXT_URL = re.compile(r"^\s*https?://\S+\s*$", re.IGNORECASE)
#: Characters a paging suffix may add besides its number ("/page/", "?paged=", "_", "&p=").
MAX_PAGING_ADDED = 12


def pagination_links(url: str, links: Sequence[Link], root: etree._Element) -> list[Link]:
    """The links of the page to its other pages of the same list (module docstring)."""
    base = document_base(root, url)
    marked = set()
    for el in root.iter("a", "link"):
        rels = (el.get("rel") or "").lower().split()
        if "next" in rels and (el.get("href") or "").strip():
            target = normalize_url(join_url(base, el.get("href", "")))
            if target is not None:
                marked.add(target)
    out: dict[str, Link] = {}
    for link in links:
        if link.url == url or link.url in out:
            continue
        if link.url in marked or (_is_paging_anchor(link.anchor)
                                  and _is_next_page_url(url, link.url)):
            out[link.url] = link
    out.update((target, Link(target, "", "")) for target in marked
               if target not in out and target != url and _same_host(url, target))
    return list(out.values())


def archive_links(
    url: str, links: Sequence[Link] | None, root: etree._Element
) -> list[Link]:
    """The page's links to category, tag and author pages (``rel`` says so). ``links=None``:
    built from the marked anchors alone (no tag path), without walking every link of the page
    (an article at the depth limit is read for these and nothing else)."""
    base = document_base(root, url)
    targets: dict[str, str] = {}
    for a in root.iter("a"):
        if ARCHIVE_RELS & set((a.get("rel") or "").lower().split()):
            target = normalize_url(join_url(base, (a.get("href") or "").strip()))
            if target is not None and target != url:
                targets.setdefault(target, normalize_space(a.text_content()))
    if links is None:
        return [Link(target, anchor, "") for target, anchor in targets.items()]
    seen: dict[str, Link] = {}
    for link in links:
        if link.url in targets:
            seen.setdefault(link.url, link)
    return list(seen.values())


def feed_links(url: str, root: etree._Element) -> list[str]:
    """The feeds the page's ``<head>`` links (at most ``MAX_FEEDS``), absolute."""
    base = document_base(root, url)
    found: list[str] = []
    head = root.find("head")
    for el in (head if head is not None else root).iter("link"):
        rels = (el.get("rel") or "").lower().split()
        media = (el.get("type") or "").split(";", 1)[0].strip().lower()
        if "alternate" in rels and media in FEED_TYPES and (el.get("href") or "").strip():
            target = normalize_url(join_url(base, el.get("href", "")))
            if target is not None and target not in found:
                found.append(target)
    return found[:MAX_FEEDS]


def parse_document(
    url: str, body: bytes, limit: int, max_bytes: int = 50 * 2**20
) -> tuple[list[str], list[str]]:
    """(page URLs, nested sitemap URLs) of a sitemap, sitemap index, RSS or Atom feed, or a
    plain-text sitemap; gzip undone (up to ``max_bytes``: sitemaps.org's 50 MB); at most
    ``limit`` URLs read.

    Lenient where servers are sloppy, strict where a wrong URL would be queued: a byte-order
    mark and blank lines before the XML are skipped; relative values resolve against
    ``xml:base`` and the document's URL; recovered XML keeps what it can (an undefined
    ``&nbsp;`` is left out of its value); a value cut by the end of a truncated document, or
    holding an entity the document declares itself (never expanded: no entity bombs), is
    dropped; a text sitemap's lines count only when each is one absolute http(s) URL."""
    if body[:2] == b"\x1f\x8b":
        try:
            body = zlib.decompressobj(wbits=31).decompress(body, max_bytes)
        except zlib.error:
            return [], []
    text = body.lstrip()
    if text.startswith(codecs.BOM_UTF8):
        text = text[len(codecs.BOM_UTF8):].lstrip()
    if not text.startswith(b"<"):  # a text sitemap: one URL a line
        lines = text.decode("utf-8", "replace").splitlines()
        return _absolute(url, [(url, line) for line in lines if _TEXT_URL.match(line)][:limit]), []
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True,
                             huge_tree=False)
    try:
        root = etree.fromstring(text, parser, base_url=url)
    except etree.XMLSyntaxError:
        return [], []
    if root is None:
        return [], []
    dtd = root.getroottree().docinfo.internalDTD
    declared = {entity.name for entity in dtd.iterentities()} if dtd is not None else set()
    if declared and any(error.type == etree.ErrorTypes.ERR_RESOURCE_LIMIT
                        for error in parser.error_log):
        return [], []  # an entity bomb: libxml2 stopped expanding, values are cut short
    pages: list[tuple[str, str]] = []  # (base, value)
    nested: list[tuple[str, str]] = []
    kind = etree.QName(root).localname.lower()
    last = _last_element(root) if _truncated(parser) else None
    for el in root.iter("{*}loc", "loc", "{*}link", "link"):
        if el is last or any(isinstance(child, etree._Entity) and child.name in declared
                             for child in el):
            continue
        parent = el.getparent()
        holder = etree.QName(parent).localname.lower() if parent is not None else ""
        name = etree.QName(el).localname.lower()
        if name == "loc" and holder in ("url", "sitemap"):  # not <image:loc>, <video:loc>
            value = (el.text or "") + "".join(child.tail or "" for child in el)
            (nested if kind == "sitemapindex" or holder == "sitemap" else pages).append(
                (el.base or url, value))
        elif holder == "item" and not el.get("href"):  # RSS: <item><link>URL</link>
            pages.append((el.base or url, el.text or ""))
        elif holder == "entry" and el.get("rel", "alternate") == "alternate":  # Atom
            pages.append((el.base or url, el.get("href") or ""))
        if len(pages) + len(nested) >= limit:
            break
    return _absolute(url, pages), _absolute(url, nested)


def _truncated(parser: etree.XMLParser) -> bool:
    """The document ended inside an element (a server that timed out mid-sitemap)."""
    return any(error.type == etree.ErrorTypes.ERR_TAG_NOT_FINISHED
               for error in parser.error_log)


def _last_element(root: etree._Element) -> etree._Element:
    """The element that opened last: the one a truncated document was cut in."""
    el = root
    while True:
        children = [child for child in el if isinstance(child.tag, str)]
        if not children:
            return el
        el = children[-1]


def _absolute(url: str, values: list[tuple[str, str]]) -> list[str]:
    out: dict[str, None] = {}
    for base, value in values:
        value = normalize_space(value)
        if value:
            # (an absolute URL needs no join: urljoin is half the time of a large sitemap)
            absolute = value[:8].lower().startswith(("http://", "https://"))
            target = normalize_url(value if absolute else join_url(base or url, value))
            if target is not None:
                out[target] = None
    return list(out)


def _is_paging_anchor(anchor: str) -> bool:
    text = anchor.strip().lower()
    if not text:
        return False
    words = _ENDS.sub("", text)  # "Next Page →", "« Older posts"
    return text in NEXT_WORDS or words in NEXT_WORDS or bool(_PAGE_NUMBER.match(text))


def _is_next_page_url(url: str, target: str) -> bool:
    """``target`` is ``url`` with its numbers changed (page 2 -> page 3), or with one number
    added: a path suffix (``/page/2/``, ``list_2.html``: at most ``MAX_PAGING_ADDED`` other
    characters) or one more query key whose value is a number (``?paged=2``)."""
    a, b = urlsplit(url), urlsplit(target)
    if a.netloc != b.netloc:
        return False
    path_a, path_b = _fold(a.path.rstrip("/")), _fold(b.path.rstrip("/"))
    query_a = {k: _fold(v) for k, v in parse_qsl(a.query, keep_blank_values=True)}
    query_b = {k: _fold(v) for k, v in parse_qsl(b.query, keep_blank_values=True)}
    if path_a == path_b and query_a == query_b:
        return True
    if query_a == query_b:
        return _adds_one_number(path_a, path_b)
    added = set(query_b) - set(query_a)
    return path_a == path_b and len(added) == 1 and query_b[next(iter(added))] == "#" and all(
        query_b.get(k) == v for k, v in query_a.items())


def _adds_one_number(path: str, target: str) -> bool:
    """``target`` is ``path`` plus a suffix holding one number, after the path or before its
    file extension (``list.html`` -> ``list_#.html``)."""
    stem, dot, ext = path.rpartition(".")
    if dot and "/" not in ext and target.endswith(dot + ext):
        path, target = stem, target[: -len(dot + ext)]
    if not target.startswith(path):
        return False
    tail = target[len(path):]
    return tail.count("#") == 1 and len(tail) - 1 <= MAX_PAGING_ADDED


def _fold(text: str) -> str:
    return _NUMBER.sub("#", text)


def _same_host(url: str, target: str) -> bool:
    return urlsplit(url).netloc == urlsplit(target).netloc
