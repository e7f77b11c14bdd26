"""Parse decoded HTML into an lxml tree that every later stage may edit freely.

lxml (libxml2) was chosen over selectolax/Lexbor for in-place tree editing, XPath and a
tolerant parser (docs/design/architecture.md, "Dependencies"). libxml2 caps nesting depth, so
a page of 20,000 unclosed tags parses to a tree about 2,000 deep: every walk in sitesift is
iterative.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import lxml.html
from lxml import etree

from sitesift.errors import EmptyPageError, ParseError
from sitesift.parse.dom import drop_keep_tail

__all__ = ["KEPT_ATTRIBUTES", "MAX_PAGE_ELEMENTS", "MAX_TAG_ATTRIBUTES", "PARSER_MAX_DEPTH",
           "ReadHtml", "parse_html", "read_html"]

#: Default most elements of one page read. The largest of the 2,432 dev pages has 10,203
#: (half a: 9,888, half b: 10,203); extraction costs 17-35 us per element, so 100,000
#: elements take a few seconds, where a page of 200,000 table rows (600,000 elements) took
#: 10-21 s. A page over it is read up to it: the elements after the first this many in page
#: order are cut off (a warning says so). ``Options.max_page_elements`` sets it per run.
MAX_PAGE_ELEMENTS = 100_000
#: Most attributes of one tag. libxml2 checks each attribute of a tag against the ones before
#: it: 10,000 attributes parse in 0.13 s, 100,000 in 13 s, in one C call no time limit can
#: stop. The dev pages have at most 78 (half a: 78, half b: 77). Real pages over it are broken
#: markup (an inline SVG ``<path>`` whose ``d`` value lost its quotes: every number of the
#: path an attribute name): such a tag keeps its ``KEPT_ATTRIBUTES`` before parsing and loses
#: the rest (a warning says so).
MAX_TAG_ATTRIBUTES = 1_000
#: The attributes a tag over ``MAX_TAG_ATTRIBUTES`` keeps: those extraction reads (class and
#: id hints, roles, microdata, links and media, dates and meta values, language, hidden state,
#: table spans), and every ``aria-*``. The first of each name only (as browsers read them).
KEPT_ATTRIBUTES = frozenset({
    "class", "id", "role", "itemprop", "itemtype", "itemscope", "itemid", "href", "src",
    "srcset", "alt", "title", "datetime", "content", "name", "property", "lang", "dir",
    "hidden", "style", "rel", "type", "value", "colspan", "rowspan", "http-equiv", "charset",
    "open", "label", "for", "headers", "scope", "start", "cite",
})
#: libxml2 (with ``huge_tree``) nests elements at most this deep and stops there: the markup
#: below and after is lost. Such a page is read up to that point (a warning says so). The dev
#: pages nest at most 108 deep.
PARSER_MAX_DEPTH = 2048
#: A tag long enough to hold ``MAX_TAG_ATTRIBUTES`` attributes (each at least " a"): only such
#: tags are counted, so the check costs about 2 ms per MB of page.
_LONG_TAG = re.compile(rf"<[A-Za-z][^<>]{{{2 * MAX_TAG_ATTRIBUTES},}}")
#: The shortest stretch of a page without ">" that can hold such a tag.
_LONG_TAG_SPAN = 2 * MAX_TAG_ATTRIBUTES + 2
#: Where libxml2 reads no attributes: raw text elements and comments (scripts hold long runs
#: without "<" or ">" that look like tags of many attributes).
_RAW_TEXT = re.compile(
    r"<(script|style|textarea|xmp|title)\b.*?</\1\s*>|<!--.*?-->", re.IGNORECASE | re.DOTALL)
_RESOURCE_LIMIT = [etree.ErrorTypes.ERR_RESOURCE_LIMIT]
_ATTRIBUTE = re.compile(r"""[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?""")
_ATTRIBUTE_NAME = re.compile(r"""[^\s"'<>/=]+""")

# XML declarations with an encoding clash with already-decoded text; control characters other
# than tab/newline make libxml2 stop early.
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_CONTROL_BYTES = bytes(range(0x00, 0x09)) + b"\x0b\x0c" + bytes(range(0x0e, 0x20)) + b"\x7f"
#: libxml2 drops everything after a stray </html> (pages that embed a whole document, ad
#: snippets pasted with their own end tags); an HTML5 parser treats these end tags as no-ops.
#: They (``</(?:html|body)\s*>``, any case) are removed from the page's UTF-8 bytes (one
#: encoding of the page, no second pass over its text): ``\s`` of a str pattern is spelt out
#: as the UTF-8 of every character ``str.isspace`` holds, and no non-ASCII character matches
#: a letter of "html" or "body" case-insensitively, so the same tags go
#: (``tests/parse/test_html.py`` checks both).
_UTF8_SPACE = (rb"(?:[\t\n\x0b\x0c\r\x1c-\x1f ]|\xc2[\x85\xa0]|\xe1\x9a\x80"
               rb"|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]|\xe2\x81\x9f|\xe3\x80\x80)")
_END_DOCUMENT_BYTES = re.compile(rb"</(?:html|body)" + _UTF8_SPACE + rb"*>", re.IGNORECASE)
#: An unclosed ``<title>`` (a crawl cut its ``</title>``) makes libxml2 read the rest of the
#: page as title text: no body at all. Such a title is closed at its first markup instead.
_TITLE_START = re.compile(r"<title\b[^>]*>", re.IGNORECASE)
#: Shorter swallowed titles are left alone (a real title holding a stray "<").
SWALLOWED_TITLE_MIN = 1000
#: Pages streamed by React carry placeholders (``<template id="B:0">``); others skip the pass.
_STREAMED = b"<template id"


def _parser() -> etree.HTMLParser:
    # A new parser per call: lxml parsers keep state and are not thread-safe to share.
    # No table of id attributes (``collect_ids``): nothing here looks elements up by id
    # through libxml2 (lxml.html's get_element_by_id is an XPath), and building it is a tenth
    # of the parse.
    parser = etree.HTMLParser(
        huge_tree=True, remove_comments=True, remove_pis=True, encoding="utf-8",
        collect_ids=False,
    )
    # Every element is an HtmlElement (text_content() and the rest), chosen in C. The
    # lxml.html parser picks a class per tag (forms, inputs...) through a Python call each
    # time an element is touched: 8 % of the time of applying a saved profile.
    parser.set_element_class_lookup(etree.ElementDefaultClassLookup(element=lxml.html.HtmlElement))
    return parser


@dataclass(frozen=True, slots=True)
class ReadHtml:
    """A page parsed (``read_html``), with what its limits cost it."""

    root: lxml.html.HtmlElement
    #: Each limit the page was read up to, said for the record's ``warnings``.
    warnings: list[str]
    #: Elements past ``max_elements`` were cut off: what is left is the start of a page too
    #: big for the methods' cost (the pipeline reads it by its cheap path).
    cut: bool = False


def parse_html(html: str, *, max_elements: int = MAX_PAGE_ELEMENTS,
               warnings: list[str] | None = None) -> lxml.html.HtmlElement:
    """``read_html(html).root``, its warnings added to ``warnings`` (when given)."""
    read = read_html(html, max_elements=max_elements)
    if warnings is not None:
        warnings += read.warnings
    return read.root


def read_html(html: str, *, max_elements: int = MAX_PAGE_ELEMENTS) -> ReadHtml:
    """The ``<html>`` root of ``html``; raises ``EmptyPageError`` or ``ParseError`` where no
    tree can be had. A page over a size limit is read as far as the limit allows, each step
    of it said in the warnings: a tag with more than ``MAX_TAG_ATTRIBUTES`` attributes keeps
    those in ``KEPT_ATTRIBUTES``; nesting deeper than ``PARSER_MAX_DEPTH`` is read up to
    where the parser stopped; elements past the first ``max_elements`` are cut off."""
    if not html or html.isspace():  # (no stripped copy of a whole page to tell)
        raise EmptyPageError("the page is empty")
    said: list[str] = []
    cut = False
    html = _trim_attributes(html, said)
    # The page is encoded once and cleaned as bytes: control characters and stray end tags
    # leave the bytes as they would leave the text (UTF-8 never encodes another character
    # with an ASCII byte), so no second encoding or regex pass over the text is needed.
    data = _XML_DECL.sub("", html, count=1).encode("utf-8", "replace")
    cleaned = data.translate(None, _CONTROL_BYTES)
    data = _END_DOCUMENT_BYTES.sub(b"", cleaned)
    if b"<" not in data:
        raise EmptyPageError("no HTML markup in the page")
    parser = _parser()
    try:
        root = lxml.html.document_fromstring(data, parser=parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise ParseError(f"HTML parser gave up: {exc}") from exc
    if root is None:
        raise ParseError("HTML parser returned no document")
    if any("depth" in e.message for e in parser.error_log.filter_types(_RESOURCE_LIMIT)):
        said.append(f"limit: elements nest deeper than {PARSER_MAX_DEPTH:,} levels, the HTML "
                    "parser's limit; the page is read up to there (the markup below and "
                    "after it is lost)")
    # Each element has a "<": pages with fewer cannot be over the limit (most, counted in C;
    # a page of fewer bytes than the limit is not even counted).
    if len(data) > max_elements and data.count(b"<") > max_elements:
        last = next(itertools.islice(root.iter(), max_elements, None), None)
        if last is not None:
            _cut_from(last)
            cut = True
            said.append(f"limit: page has more than {max_elements:,} elements "
                        "(Options.max_page_elements); its first ones are read as plain text")
    closed = _closed_title(root, data)
    if closed is not None:
        root = closed
    if _STREAMED in data:
        _place_streamed(root)
    return ReadHtml(root, said, cut)


def _cut_from(el: etree._Element) -> None:
    """Remove ``el`` and everything after it in page order (in place): its subtree, its tail
    and the later siblings of it and of each of its ancestors. The slices are deleted in C
    (a table of 200,000 rows loses its last 100,000 at once)."""
    node = el
    parent = node.getparent()
    while parent is not None:
        del parent[parent.index(node) + 1:]
        node, parent = parent, parent.getparent()
    el.tail = None
    el.getparent().remove(el)


def _place_streamed(root: lxml.html.HtmlElement) -> None:
    """Put streamed server-rendered segments where a browser shows them (in place).

    React's streaming renderer sends a page's slow parts last, each in ``<div hidden
    id="S:n">``, with an inline script (``$RC("B:n", "S:n")`` for a suspense boundary,
    ``$RS("S:n", "P:n")`` for a segment) that moves the div's children to the placeholder
    ``<template id="B:n">`` or ``<template id="P:n">`` and drops the div. Every browser runs
    that script on load, so the moved content is what readers see; left hidden, a Next.js
    page's article is dropped as invisible. The boundary's loading fallback after a ``B:``
    placeholder stays (its end marker is a comment, removed by the parser); it is a spinner
    or a skeleton without text.
    """
    placeholders = {
        ident[2:]: el for el in root.iter("template")
        if (ident := el.get("id") or "").startswith(("B:", "P:"))
    }
    if not placeholders:
        return
    for segment in list(root.iter("div")):
        ident = segment.get("id") or ""
        if not ident.startswith("S:") or segment.get("hidden") is None:
            continue
        target = placeholders.pop(ident[2:], None)
        parent = target.getparent() if target is not None else None
        if target is None or parent is None or _contains(segment, target):
            continue
        # After the placeholder, in order: the segment's text and children, then what
        # followed the placeholder.
        after = target.tail
        target.tail = segment.text
        children = list(segment)
        index = parent.index(target)
        for offset, child in enumerate(children):
            parent.insert(index + 1 + offset, child)  # moves the child with its tail
        if children:
            last = children[-1]
            last.tail = (last.tail or "") + (after or "") or None
        else:
            target.tail = (target.tail or "") + (after or "") or None
        segment.text = None
        drop_keep_tail(segment)
        # The template is left as it was: an empty element, skipped with its tail kept.


def _contains(ancestor: etree._Element, el: etree._Element) -> bool:
    return any(node is ancestor for node in el.iterancestors())


def _trim_attributes(html: str, warnings: list[str]) -> str:
    """``html`` with each tag of more than ``MAX_TAG_ATTRIBUTES`` attributes cut down to its
    ``KEPT_ATTRIBUTES`` (said in ``warnings``); ``html`` itself when there is none (most
    pages: the scan does not copy the page)."""
    # A suspect tag holds no ">": only the stretches between two ">" long enough to hold one
    # are scanned (the pattern steps through the inside of every tag it starts on: 1.25 ->
    # 0.97 s CPU over modern-dev's 503 pages, the same verdicts). They are found by jumps:
    # the last ">" within a span's length of a stretch's start ends every stretch that
    # starts before it, so the next can start only after it (a C search per span of the
    # page, where splitting at every ">" made a string per tag: a third of parsing).
    pieces: list[str] = []
    done = 0  # (where the page after the last trimmed tag starts)
    start, size = 0, len(html)
    while start + _LONG_TAG_SPAN <= size:
        last = html.rfind(">", start, start + _LONG_TAG_SPAN)
        if last >= 0:
            start = last + 1
            continue
        end = html.find(">", start)
        if end < 0:
            end = size
        for tag in _LONG_TAG.finditer(html, start, end):
            attributes = _ATTRIBUTE.findall(html, tag.start() + 1, tag.end())
            count = len(attributes) - 1  # (the first is the tag's name)
            if count > MAX_TAG_ATTRIBUTES and not _in_raw_text(html, tag.start()):
                kept = _kept(attributes[1:])
                closing = " /" if html[tag.start():tag.end()].rstrip().endswith("/") else ""
                pieces += [html[done:tag.start()], "<", attributes[0],
                           *(f" {attribute}" for attribute in kept), closing]
                done = tag.end()
                warnings.append(
                    f"limit: a <{attributes[0].lower()}> tag has {count:,} attributes, over "
                    f"the limit of {MAX_TAG_ATTRIBUTES:,}; {len(kept)} kept "
                    f"({', '.join(_name(a) for a in kept) or 'none'}), the rest dropped")
        start = end + 1
    if not pieces:
        return html
    pieces.append(html[done:])
    return "".join(pieces)


def _name(attribute: str) -> str:
    return _ATTRIBUTE_NAME.match(attribute).group().lower()  # type: ignore[union-attr]


def _kept(attributes: list[str]) -> list[str]:
    """The first attribute of each name in ``KEPT_ATTRIBUTES`` or starting ``aria-``."""
    kept: dict[str, str] = {}
    for attribute in attributes:
        name = _name(attribute)
        if name not in kept and (name in KEPT_ATTRIBUTES or name.startswith("aria-")):
            kept[name] = attribute
    return list(kept.values())


def _in_raw_text(html: str, at: int) -> bool:
    """Whether ``at`` lies in a script, style or comment (looked for only when a run of
    many would-be attributes is found: rare, so the scan costs nothing on most pages)."""
    for span in _RAW_TEXT.finditer(html):
        if span.start() > at:
            return False
        if at < span.end():
            return True
    return False


def _closed_title(root: lxml.html.HtmlElement, data: bytes) -> lxml.html.HtmlElement | None:
    """The page (``data``: the bytes parsed) parsed again with its unclosed ``<title>`` closed
    at the title's first markup, or None when the title did not swallow the page."""
    if root.find("body") is not None:
        return None
    title = root.find("head/title")
    raw = title.text if title is not None else None
    if not raw or len(raw) < SWALLOWED_TITLE_MIN or "<" not in raw:
        return None
    # (the text again: only such a page pays this decoding; a lone surrogate, encoded as "?",
    # comes back as "?", which the search below treats as it treated the surrogate)
    text = data.decode("utf-8")
    start = _TITLE_START.search(text)
    end = text.find("<", start.end()) if start else -1
    if end < 0:
        return None
    fixed = text[:end] + "</title>" + text[end:]
    try:
        return lxml.html.document_fromstring(fixed.encode("utf-8", "replace"), parser=_parser())
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None
