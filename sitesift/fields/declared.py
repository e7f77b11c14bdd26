"""The kind of page a page declares itself to be (schema.org, JSON-LD or microdata).

Publishers tell search engines what a page is: a ``QAPage`` or a ``DiscussionForumPosting``
is a discussion, a ``CollectionPage`` or a ``SearchResultsPage`` a list of other pages. These
are web standards, not any engine's markup, so they hold on engines never seen. Only the
page's own nodes count (top-level nodes, ``@graph`` members, a page's ``mainEntity``, and
microdata items not nested in another item): the items *listed* by a collection (recipes,
articles) are not the page. A page that also declares an article is an article whatever
collection it belongs to.
"""

from __future__ import annotations

from typing import Any

import lxml.html
from lxml import etree

from sitesift.fields.jsonld import ARTICLE_TYPES, MAX_SCRIPT_CHARS, _load, _types

__all__ = ["LIST_TYPES", "PRODUCT_TYPES", "THREAD_TYPES", "declared_kind", "declared_type",
           "page_type_of"]

#: Declared types of a discussion page.
THREAD_TYPES = frozenset({"qapage", "discussionforumposting"})
#: Declared types of a page listing other pages.
LIST_TYPES = frozenset({"collectionpage", "searchresultspage"})
#: Declared types of one story (an article is no list, whatever collection holds it).
STORY_TYPES = frozenset(ARTICLE_TYPES) - THREAD_TYPES - {"event", "videoobject", "creativework"}
#: Declared types of one item on sale: schema.org's Product with its kinds, and the Offer a
#: shop declares for the item it sells.
PRODUCT_TYPES = frozenset({
    "product", "productgroup", "productmodel", "individualproduct", "someproducts", "vehicle",
    "car", "offer", "aggregateoffer",
})


def _page_nodes(data: Any) -> list[dict[str, Any]]:
    """The nodes that describe the page itself: top level, ``@graph``, ``mainEntity``."""
    out: list[dict[str, Any]] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            if "@type" in item:
                out.append(item)
            for key in ("@graph", "mainEntity"):
                if isinstance(item.get(key), (list, dict)):
                    stack.append(item[key])
    return out


#: The page's scripts and its microdata items (their ``itemscope`` attributes), in one walk
#: of libxml2's: reading the attribute lists costs less than a predicate tested on every
#: element ("//*[@itemscope and @itemtype][not(ancestor::*[@itemscope])]" took twice as
#: long, and ``iter("script")`` a walk of its own).
_SCRIPTS_AND_ITEMS = etree.XPath("/descendant::script | /descendant::*/@itemscope")


def _declared(root: lxml.html.HtmlElement) -> set[str]:
    types: set[str] = set()
    for found in _SCRIPTS_AND_ITEMS(root):
        if isinstance(found, str):  # an ``itemscope`` attribute: its element is an item
            el = found.getparent()  # type: ignore[attr-defined]
            itemtype = el.get("itemtype")
            # Only items nested in no other item: the page's own, not those it lists.
            if itemtype is not None and \
                    all(a.get("itemscope") is None for a in el.iterancestors()):
                types.update(t.lower().rstrip("/").rsplit("/", 1)[-1] for t in itemtype.split())
            continue
        if "ld+json" not in (found.get("type") or "").lower():
            continue
        text = found.text or ""
        if text.strip() and len(text) <= MAX_SCRIPT_CHARS:
            data = _load(text)
            if data is not None:
                for node in _page_nodes(data):
                    types.update(_types(node))
    return types


def declared_type(root: lxml.html.HtmlElement) -> str | None:
    """"thread", "list" or None, from the page's declared schema.org types (read only)."""
    return page_type_of(declared_kind(root))


def page_type_of(kind: str | None) -> str | None:
    """The page type a declared kind (``declared_kind``) sets: "thread" and "list" are page
    types; a product page is typed by what it shows."""
    return kind if kind in ("thread", "list") else None


def declared_kind(root: lxml.html.HtmlElement) -> str | None:
    """"thread", "list", "product" or None, from the page's declared schema.org types (read
    only). A product is one item on sale, not a story about it (a review declaring an article
    and the product it reviews is a story) nor a list of them."""
    types = _declared(root)
    if types & THREAD_TYPES:
        return "thread"
    if types & LIST_TYPES and not types & STORY_TYPES:
        return "list"
    if types & PRODUCT_TYPES and not types & STORY_TYPES:
        return "product"
    return None
