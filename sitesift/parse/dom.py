"""Shared DOM primitives: iterative walks, text measures, class/id hints, tag sets.

Every walk here is iterative: libxml2 trees can be ~2,000 levels deep, past Python's
recursion limit. Text is measured in *characters without white space* so that Chinese (no
spaces between words) and English are comparable; CJK punctuation counts like ASCII punctuation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import lxml.html
from lxml import etree

__all__ = [
    "BLOCK_TAGS",
    "HAN",
    "HEADING_TAGS",
    "INLINE_SKIP_TAGS",
    "NEGATIVE_HINTS",
    "POSITIVE_HINTS",
    "SKIP_TAGS",
    "cjk_count",
    "class_id",
    "drop_keep_tail",
    "elements",
    "has_hint",
    "hint_tokens",
    "is_hidden",
    "link_density",
    "name_tokens",
    "normalize_space",
    "postorder",
    "punctuation_count",
    "text_content",
    "text_weight",
    "up_sums",
    "walk",
]

#: Elements whose content is never readable text (code, media, form controls, metadata).
#: ``noembed`` holds raw markup as text in libxml2's tree (ad snippets for old browsers).
SKIP_TAGS = frozenset({
    "script", "style", "noscript", "template", "svg", "math", "iframe", "embed",
    "canvas", "head", "title", "meta", "link", "base", "button", "select", "option", "optgroup",
    "input", "textarea", "map", "audio", "video", "source", "track", "applet", "frameset",
    "frame", "noframes", "dialog", "noembed",
})
#: Tags skipped when rendering but harmless inside text (their tail still counts).
INLINE_SKIP_TAGS = frozenset({"img", "wbr", "area", "param", "col", "colgroup"})
#: Elements that start a new line of text when rendered (paragraph boundaries).
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "body", "center", "dd", "details", "dialog",
    "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2",
    "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "li", "main", "menu", "nav", "ol",
    "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    "caption", "legend", "listing", "plaintext", "xmp", "output",
})
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

# Class/id words. Tokens are split on non-letters and camelCase, so "ad" matches
# "ad-slot" or "topAd" but not "header", "shadow" or "download".
#: Words that mark boilerplate containers.
NEGATIVE_HINTS = frozenset({
    "ad", "ads", "adv", "advert", "advertisement", "advertising", "sponsor", "sponsored",
    "promo", "banner", "nav", "navbar", "navigation", "menu", "breadcrumb", "breadcrumbs",
    "footer", "foot", "masthead", "sidebar", "aside", "widget", "share", "sharing", "social",
    "comment", "comments", "disqus", "related", "recommended", "recommend", "popular",
    "trending", "newsletter", "subscribe", "subscription", "signup", "login", "cookie",
    "cookies", "consent", "gdpr", "modal", "popup", "overlay", "tags", "tag", "tagcloud",
    "pagination", "pager", "toolbar", "tools", "print", "email", "outbrain", "taboola",
    "skip", "hidden", "rss", "more", "links", "sitemap", "copyright", "disclaimer",
    "author-bio", "bio", "byline", "dateline", "meta", "timestamp", "caption", "credit",
    "credits", "survey", "poll", "feedback", "rating", "follow", "teaser", "teasers", "carousel",
    "slideshow", "gallery", "thumbnail", "thumb", "thumbs", "sharebar", "logo", "search",
    "header", "topbar", "jump", "toc", "crumbs", "inline-ad", "dfp", "gpt",
    "subnav", "secondary", "rail", "right-rail", "tout", "promotion", "outlink", "listing",
})
#: Words that mark the main text container.
POSITIVE_HINTS = frozenset({
    "article", "articles", "body", "content", "contents", "entry", "main", "post", "story",
    "text", "blog", "hentry", "page", "prose", "detail", "details", "news", "column",
    "articlebody", "postbody", "storybody", "entrycontent", "maincontent", "richtext",
    "zhengwen", "neirong", "wenzhang",
})

_SPLIT = re.compile(r"[^a-z0-9]+")
#: Names ``name_tokens`` splits without its regexes: nothing but these characters.
_PLAIN_NAMES = re.compile(r"[a-z0-9_ -]*")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
#: ASCII and CJK sentence punctuation: prose has it, menus and link lists rarely do.
_ASCII_PUNCT = ",.;:!?"
_ALL_PUNCT = _ASCII_PUNCT + "，。；：！？、…"
_PUNCT_RE = re.compile("[" + re.escape(_ALL_PUNCT) + "]")
#: Up to this length a text's marks are found by one regex scan, beyond by ``str.count`` per
#: mark (C loops that win on long texts; most texts measured are runs of a line or two).
SHORT_TEXT_CHARS = 200
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
#: A Han ideograph (CJK Unified Ideographs and Extension A): the one test for "this text is
#: Chinese" that the field rules and cues share, so that they agree on which texts take the
#: Chinese rules.
HAN = re.compile(r"[\u3400-\u9fff]")


def elements(root: etree._Element) -> Iterator[lxml.html.HtmlElement]:
    """Every element under ``root`` (itself first), document order, skipping comments/PIs."""
    return root.iter(etree.Element)  # type: ignore[no-any-return]


def postorder(root: etree._Element) -> list[lxml.html.HtmlElement]:
    """Elements so that every element comes after all its descendants (reversed pre-order)."""
    nodes = list(root.iter(etree.Element))
    nodes.reverse()
    return nodes


#: Event kinds yielded by ``walk``.
START, END = 0, 1


def walk(root: etree._Element) -> Iterator[tuple[int, lxml.html.HtmlElement]]:
    """``(START, el)`` and ``(END, el)`` events in document order, without recursion.

    A consumer handles ``el.text`` after START and ``el.tail`` after END. Comments and
    processing instructions are yielded too (their ``tag`` is not a string): skip them but
    keep their tails, which are ordinary text of the parent.
    """
    stack: list[tuple[etree._Element, Iterator[etree._Element] | None]] = [(root, None)]
    while stack:
        el, children = stack[-1]
        if children is None:
            yield START, el  # type: ignore[misc]
            children = iter(el)
            stack[-1] = (el, children)
        child = next(children, None)
        if child is None:
            stack.pop()
            yield END, el  # type: ignore[misc]
        else:
            stack.append((child, None))


def normalize_space(text: str) -> str:
    """Runs of white space (including newlines and no-break spaces) become one space."""
    return " ".join(text.split())  # (= re.sub(r"\s+", " ", text).strip(), several times faster)


#: What ``lxml.html``'s ``text_content()`` evaluates: the string value of an element.
_STRING_VALUE = etree.XPath("string()")


def text_content(el: etree._Element) -> str:
    """``el.text_content()``: the element's text and all the text below it (comments left
    out), without the XPath call for an element without children (most links, cells and
    headings), whose own text is all there is."""
    if not len(el):
        return el.text or ""
    return _STRING_VALUE(el)  # type: ignore[no-any-return]


def text_weight(text: str | None) -> int:
    """Characters that are not white space: comparable across spaced and unspaced scripts."""
    if not text:
        return 0
    return len("".join(text.split()))


def punctuation_count(text: str | None) -> int:
    """Sentence punctuation marks, ASCII and CJK."""
    if not text:
        return 0
    if len(text) <= SHORT_TEXT_CHARS:
        return len(_PUNCT_RE.findall(text))
    if text.isascii():
        return sum(text.count(mark) for mark in _ASCII_PUNCT)
    return sum(text.count(mark) for mark in _ALL_PUNCT)


def cjk_count(text: str | None) -> int:
    """Chinese, Japanese and Korean characters (each is a word-like unit of meaning)."""
    if not text or text.isascii():
        return 0
    return len(_CJK.findall(text))


def class_id(el: etree._Element) -> str:
    """The element's class and id attributes joined (raw case), '' when neither is set."""
    cls = el.get("class")
    ident = el.get("id")
    if cls and ident:
        return f"{cls} {ident}"
    return cls or ident or ""


def hint_tokens(el: etree._Element) -> set[str]:
    """Lower-case words of the class and id, split on punctuation and camelCase."""
    return name_tokens(class_id(el))


def name_tokens(raw: str) -> set[str]:
    """``hint_tokens`` of class and id names ``raw``. The tokens of names joined by a space
    are those of each (a caller may remember them name by name)."""
    if not raw:
        return set()
    if raw.isascii() and _PLAIN_NAMES.fullmatch(raw):
        # Lower-case letters, digits, "-", "_" and spaces (most names): the same split by
        # string methods, without the regexes.
        words = set(raw.replace("-", " ").replace("_", " ").split())
        words.update(name if name.isalnum() else name.replace("-", "").replace("_", "")
                     for name in raw.split())
        words.discard("")  # (a name of "-" and "_" only)
        return words
    low = raw.lower()  # (no capital letter, no camelCase to split: most names)
    words = set(_SPLIT.split(low if low == raw else _CAMEL.sub(" ", raw).lower()))
    # Also the whole lower-cased names without separators: "article-body" -> "articlebody".
    for name in low.split():
        words.add(name if name.isascii() and name.isalnum() else _SPLIT.sub("", name))
    words.discard("")
    return words


def has_hint(el: etree._Element, words: frozenset[str]) -> bool:
    """Whether ``hint_tokens(el)`` holds one of ``words`` (lower-case letters and digits),
    without splitting the names of most elements: every token is a substring of the class and
    id lower-cased with all but letters and digits removed, so a word absent from that string
    is no token (a fold word is looked for on every element of every page)."""
    raw = class_id(el)
    if not raw:
        return False
    squashed = _SPLIT.sub("", raw.lower())
    return any(w in squashed for w in words) and not hint_tokens(el).isdisjoint(words)


def is_hidden(el: etree._Element, names: list[str] | None = None) -> bool:
    """Hidden by attribute or inline style, so not part of what a reader sees. ``names``:
    ``el.keys()`` when the caller has read them (a walk that also wants the element's label).

    Every walk asks this of every element: one ``keys()`` (a C list of the attribute names)
    answers for an element without attributes, and for one without these three, what three
    ``get`` calls (each encodes its name and searches the attributes) answered; a value is
    read only for a name that is there. Exact: ``get(name)`` is None iff ``name`` (no
    namespace) is not among ``keys()``."""
    if names is None:
        names = el.keys()
    if not names:
        return False
    if "hidden" in names:
        return True
    if "aria-hidden" in names and el.get("aria-hidden") == "true":
        return True
    if "style" in names:
        style = el.get("style")
        if style:
            compact = style.replace(" ", "").lower()
            if "display:none" in compact or "visibility:hidden" in compact:
                return True
    return False


def link_density(el: etree._Element, *, weight: int | None = None) -> float:
    """Share of the element's text that sits inside links (0 when it has no text).
    ``weight``: the ``text_weight`` of its text, when the caller has it."""
    total = text_weight(text_content(el)) if weight is None else weight
    if not total:
        return 0.0
    linked = sum(text_weight(text_content(a)) for a in el.iter("a"))
    return min(1.0, linked / total)


def up_sums(root: etree._Element,
            own: dict[etree._Element, int]) -> dict[etree._Element, int]:
    """For every element at or under ``root`` with something below it, the sum of ``own``'s
    values at and under it (elements not under ``root`` count for nothing): each value added
    up its element's ancestors, the cost of the few elements that hold something rather than
    a bottom-up pass over the whole tree."""
    total: dict[etree._Element, int] = {}
    for el, value in own.items():
        if not value:
            continue
        path = []
        node: etree._Element | None = el
        while node is not None and node is not root:
            path.append(node)
            node = node.getparent()
        if node is None:
            continue  # (not under ``root``)
        path.append(root)
        for node in path:
            total[node] = total.get(node, 0) + value
    return total


def drop_keep_tail(el: etree._Element) -> None:
    """Remove ``el`` and its subtree but keep the text that follows it (its tail)."""
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail
    if tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)
