"""Title, author and publication time of one page, read without touching the tree.

One pass collects what every field needs: meta tags, JSON-LD, the page's visible text as lines
(block elements start a new line) and where the headings sit among those lines. The field
modules (``titles``, ``dates``, ``authors``) then rank their sources; the text below the chosen
headline is where bylines and written dates are searched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import lxml.html
from lxml import etree
from rapidfuzz.distance import Indel

from sitesift.extract.authors import (
    author_from_markup,
    author_from_meta,
    author_from_text,
    join_authors,
)
from sitesift.extract.dates import find_published
from sitesift.extract.jsonld import read_jsonld
from sitesift.extract.titles import TitleCandidates, choose_title, normalize_space

__all__ = ["Metadata", "PageText", "extract_metadata", "page_text", "read_meta"]

#: Meta keys whose content may be the article title, best first.
TITLE_META_KEYS = (
    "og:title", "twitter:title", "dc.title", "dcterm:title", "dcterms.title", "title",
    "headline", "sailthru.title", "parsely-title", "weibo:article:title", "weibo:webpage:title",
    "citation_title",
)
#: Meta keys naming the site (used to strip decoration from ``<title>``).
SITE_META_KEYS = ("og:site_name", "application-name", "twitter:site", "al:android:app_name",
                  "al:ios:app_name", "publisher", "dc.publisher", "copyright")
#: Heading tags that may hold the headline, and how many of them are considered at most.
HEADING_TAGS = ("h1", "h2", "h3")
MAX_HEADINGS = 40
#: Longer ``<title>`` text comes from an unclosed tag that swallowed the page.
MAX_DOC_TITLE_CHARS = 400
#: Elements whose class/id says they hold the headline; they join the heading candidates.
_HEADLINE_CLASS = re.compile(r"headline|(?:^|[\s_-])(?:entry|post|article|story|news|main\w*|page|"
                             r"art|content|detail)[-_]?(?:title|tit|hed|head)(?:$|[\s_-])",
                             re.IGNORECASE)
#: Headline-marked elements with more characters than this are containers, not headlines.
MAX_HEADLINE_CHARS = 300
#: A text line this similar to the headline marks where the headline sits in the text.
TITLE_LINE_SIMILARITY = 0.8

_SKIP = frozenset(("script", "style", "noscript", "template", "svg", "math", "head", "select",
                   "option", "textarea", "iframe", "object", "button"))
_BLOCK = frozenset((
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "th", "thead", "tr",
    "ul", "center", "caption",
))


@dataclass(frozen=True, slots=True)
class Metadata:
    title: str | None = None
    author: str | None = None
    published: str | None = None
    site_name: str | None = None
    description: str | None = None
    lang: str | None = None


@dataclass(slots=True)
class PageText:
    """Visible text lines of the page in document order, and the headings found among them."""

    lines: list[str] = field(default_factory=list)
    #: (line index where the heading starts, heading text, kind): kind is the tag for h1-h3,
    #: "headline" for itemprop=headline or headline-classed elements.
    headings: list[tuple[int, str, str]] = field(default_factory=list)


def read_meta(root: lxml.html.HtmlElement) -> dict[str, list[str]]:
    """Lower-cased name/property/itemprop/http-equiv of every ``<meta>`` -> its contents."""
    out: dict[str, list[str]] = {}
    for el in root.iter("meta"):
        content = el.get("content")
        if content is None or not content.strip():
            continue
        for attr in ("property", "name", "itemprop", "http-equiv"):
            key = el.get(attr)
            if key:
                for k in key.lower().split():
                    out.setdefault(k.strip(), []).append(content.strip())
    return out


def page_text(root: lxml.html.HtmlElement) -> PageText:
    """Visible text split into lines at block elements (an iterative walk)."""
    out = PageText()
    current: list[str] = []

    def flush() -> None:
        line = normalize_space("".join(current))
        current.clear()
        if line:
            out.lines.append(line)

    body = root.find("body")
    start = body if body is not None else root
    walker = etree.iterwalk(start, events=("start", "end"))
    for event, el in walker:
        tag = el.tag if isinstance(el.tag, str) else ""
        if event == "start":
            if tag in _SKIP:
                walker.skip_subtree()
                continue
            if tag in _BLOCK:
                flush()
            if len(out.headings) < MAX_HEADINGS:
                kind = _heading_kind(el, tag)
                if kind:
                    text = normalize_space(el.get("content") or el.text_content())
                    if text and len(text) <= MAX_HEADLINE_CHARS:
                        out.headings.append((len(out.lines), text, kind))
            if el.text:
                current.append(el.text)
        else:
            if tag in _BLOCK:
                flush()
            if el.tail and el is not start:
                current.append(el.tail)
    flush()
    return out


def _heading_kind(el: lxml.html.HtmlElement, tag: str) -> str | None:
    if tag in HEADING_TAGS:
        return tag
    if (el.get("itemprop") or "").lower() == "headline":
        return "headline"
    attrs = " ".join(filter(None, (el.get("class"), el.get("id"))))
    if attrs and tag not in ("a", "body", "html") and _HEADLINE_CLASS.search(attrs):
        return "headline"
    return None


def _doc_title(root: lxml.html.HtmlElement) -> str | None:
    head = root.find("head")
    el = head.find("title") if head is not None else None
    if el is None:
        el = next((t for t in root.iter("title") if t.getparent() is not None
                   and t.getparent().tag not in ("svg", "symbol")), None)
    if el is None:
        return None
    text = el.text_content()
    if len(text) > MAX_DOC_TITLE_CHARS:  # an unclosed <title> swallowed the page: keep line 1
        text = re.split(r"[\n<]", text.strip(), maxsplit=1)[0][:MAX_DOC_TITLE_CHARS]
    return normalize_space(text)


def _site_names(meta: dict[str, list[str]], jsonld_site: str | None, url: str | None) -> list[str]:
    names = [v.lstrip("@") for k in SITE_META_KEYS for v in meta.get(k, [])]
    if jsonld_site:
        names.append(jsonld_site)
    if url:
        host = urlsplit(url).hostname or ""
        labels = [x for x in host.split(".") if x not in ("www", "m", "news", "com", "co", "org",
                                                         "net", "cn", "uk", "de", "edu", "gov")]
        names.extend(labels[-1:])
        if host:
            names.append(host.removeprefix("www."))
    return names


def _month_first(lang: str | None) -> bool:
    """Slash dates read month-first only on English pages (or when the language is unknown)."""
    return not lang or lang.lower().startswith("en")


def _title_index(title: str | None, text: PageText) -> int | None:
    if not title:
        return None
    folded = title.casefold()
    for index, heading, _tag in text.headings:
        if heading.casefold() == folded:
            return index
    for index, line in enumerate(text.lines):
        if 0.5 * len(title) <= len(line) <= 2 * len(title) and \
                Indel.normalized_similarity(line.casefold(), folded) >= TITLE_LINE_SIMILARITY:
            return index
    for index, heading, _tag in text.headings:
        if Indel.normalized_similarity(heading.casefold(), folded) >= TITLE_LINE_SIMILARITY:
            return index
    return None


def extract_metadata(root: lxml.html.HtmlElement, *, url: str | None = None) -> Metadata:
    """Title, author, published (ISO 8601) and site facts of the page rooted at ``root``."""
    meta = read_meta(root)
    ld = read_jsonld(root)
    text = page_text(root)
    lang = normalize_space(root.get("lang") or root.get("xml:lang")) or ld.lang or (
        meta.get("og:locale", [None])[0]) or (meta.get("content-language", [None])[0])
    site_names = _site_names(meta, ld.site_name, url)
    meta_titles = [ld.headline] if ld.headline else []
    meta_titles += [v for k in TITLE_META_KEYS for v in meta.get(k, [])[:1]]
    headings = [(kind, h) for _i, h, kind in text.headings]
    title = choose_title(TitleCandidates(
        doc_title=_doc_title(root), meta_titles=tuple(meta_titles), headings=tuple(headings),
        site_names=tuple(site_names)))
    title_index = _title_index(title, text)
    published = find_published(
        root, meta=meta, jsonld_published=ld.published, jsonld_modified=ld.modified, url=url,
        texts=text.lines, title_index=title_index, month_first=_month_first(lang))
    author = (join_authors(ld.authors) or author_from_meta(meta) or author_from_markup(root)
              or author_from_text(text.lines, title_index))
    site_name = next(iter(meta.get("og:site_name", [])), None) or ld.site_name
    description = next(iter(meta.get("og:description", []) or meta.get("description", [])),
                       None) or ld.description
    return Metadata(title=title, author=author, published=published, site_name=site_name,
                    description=description, lang=lang or None)

