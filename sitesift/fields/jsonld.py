"""Schema.org JSON-LD: the headline, dates, authors and site name the publisher declares.

Publishers fill JSON-LD for search engines, so when an article node is present it is the most
reliable source of metadata. Pages often carry several nodes (organisation, breadcrumbs, web
page, article, sometimes inside ``@graph``): the article-like node wins over a plain WebPage.
Broken JSON (trailing commas, raw newlines, HTML comments) is repaired once, then skipped.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from typing import Any

import lxml.html

__all__ = ["JsonLd", "read_jsonld"]

#: Node types that describe the page's main article, best first.
ARTICLE_TYPES = (
    "newsarticle", "reportagenewsarticle", "analysisnewsarticle", "opinionnewsarticle",
    "article", "blogposting", "socialmediaposting", "liveblogposting", "scholarlyarticle",
    "techarticle", "report", "review", "recipe", "videoobject", "creativework", "posting",
    "qapage", "discussionforumposting", "event",
)
#: Fallback node types: describe the page rather than the article.
PAGE_TYPES = ("webpage", "itempage", "aboutpage", "collectionpage", "profilepage")
#: Scripts larger than this are data dumps, not page metadata; skipped for speed.
MAX_SCRIPT_CHARS = 500_000


_CDATA_START = re.compile(r"^(?://|/\*)?\s*<!\[CDATA\[(?:\s*\*/)?")
_CDATA_END = re.compile(r"(?://|/\*)?\s*\]\]>(?:\s*\*/)?\s*$")


@dataclass(frozen=True, slots=True)
class JsonLd:
    """What the JSON-LD of one page declares about its article (each field may be missing)."""

    headline: str | None = None
    published: str | None = None
    modified: str | None = None
    authors: tuple[str, ...] = ()
    site_name: str | None = None
    description: str | None = None
    lang: str | None = None


def _load(text: str) -> Any:
    text = text.strip()
    if text.startswith("<!--"):
        text = text[4:]
    if text.endswith("-->"):
        text = text[:-3]
    text = _CDATA_END.sub("", _CDATA_START.sub("", text.strip()))
    try:
        return json.loads(text)
    except ValueError:
        pass
    repaired = re.sub(r",\s*([}\]])", r"\1", text.replace("\n", " ").replace("\r", " "))
    repaired = repaired.replace("\t", " ")
    try:
        return json.loads(repaired)
    except ValueError:
        return None


def _nodes(data: Any) -> list[dict[str, Any]]:
    """Every dict in ``data`` that has a ``@type``, depth-first, iteratively."""
    out: list[dict[str, Any]] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            if "@type" in item:
                out.append(item)
            for key in ("@graph", "mainEntity", "mainEntityOfPage", "itemListElement"):
                if isinstance(item.get(key), (list, dict)):
                    stack.append(item[key])
    return out


def _types(node: dict[str, Any]) -> list[str]:
    t = node.get("@type")
    values = t if isinstance(t, list) else [t]
    return [v.lower().rsplit("/", 1)[-1] for v in values if isinstance(v, str)]


#: An HTML character reference left in a value the parser already decoded once.
_ENTITY = re.compile(r"&(?:#\d{2,7}|#x[0-9a-f]{2,6}|[a-z]{2,8});", re.IGNORECASE)


def unescape_twice(value: str) -> str:
    """``value`` with character references decoded again: CMSs escape titles before putting
    them in attributes or JSON that escape them once more ("&amp;amp;", "&#038;" printed as
    such), and no reader means the literal "&amp;"."""
    return html.unescape(value) if _ENTITY.search(value) else value


def _text(value: Any) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("name") or value.get("@value")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str):
        value = " ".join(unescape_twice(value).split())
        return value or None
    return None


def _names(value: Any, by_id: dict[str, dict[str, Any]]) -> list[str]:
    """Author names from a string, a Person/Organization node, an @id reference, or a list."""
    items = value if isinstance(value, list) else [value]
    names: list[str] = []
    for item in items:
        if isinstance(item, dict) and "name" not in item and isinstance(item.get("@id"), str):
            item = by_id.get(item["@id"], item)
        name = _text(item)
        if name and name not in names:
            names.append(name)
    return names


def _rank(node: dict[str, Any]) -> int | None:
    types = _types(node)
    for i, t in enumerate(ARTICLE_TYPES):
        if t in types:
            return i
    for i, t in enumerate(PAGE_TYPES):
        if t in types:
            return len(ARTICLE_TYPES) + i
    return None


def read_jsonld(root: lxml.html.HtmlElement) -> JsonLd:
    """The article metadata of every ``application/ld+json`` script of the page, merged."""
    nodes: list[dict[str, Any]] = []
    for script in root.iter("script"):
        if "ld+json" not in (script.get("type") or "").lower():
            continue
        text = script.text or ""
        if not text.strip() or len(text) > MAX_SCRIPT_CHARS:
            continue
        data = _load(text)
        if data is not None:
            nodes.extend(_nodes(data))
    if not nodes:
        return JsonLd()
    by_id = {n["@id"]: n for n in nodes if isinstance(n.get("@id"), str)}
    ranked = sorted((r, i, n) for i, n in enumerate(nodes) if (r := _rank(n)) is not None)
    ordered = [n for _r, _i, n in ranked]
    site_name = None
    for node in nodes:
        if {"website", "organization", "newsmediaorganization"} & set(_types(node)):
            site_name = site_name or _text(node.get("name"))
    headline = published = modified = description = lang = None
    authors: list[str] = []
    for node in ordered:
        is_article = _rank(node) < len(ARTICLE_TYPES)  # type: ignore[operator]
        headline = headline or _text(node.get("headline")) or (
            _text(node.get("name")) if is_article else None)
        published = published or _text(node.get("datePublished")) or _text(
            node.get("dateCreated")) or _text(node.get("uploadDate"))
        modified = modified or _text(node.get("dateModified"))
        description = description or _text(node.get("description"))
        lang = lang or _text(node.get("inLanguage"))
        if not authors:
            authors = _names(node.get("author") or node.get("creator"), by_id)
        if not site_name:
            site_name = (_names(node.get("publisher"), by_id) or [None])[0]
    return JsonLd(headline=headline, published=published, modified=modified,
                  authors=tuple(authors), site_name=site_name, description=description, lang=lang)
