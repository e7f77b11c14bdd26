"""Field slots: lines the page extractor keeps that the site's other pages show to be one of the
page's fields, not its story.

The template method (paper 000) deletes what a cluster's pages share *word for word*; the
sibling method (paper 004) what same-layer pages show alike. Neither touches a byline ("By Ann
Lee"), a dateline, a section label, an author's e-mail or a photo caption: each has the same
place on every page of the template, but text of its own. Across a cluster such a line shows as
a *field slot*: a place (the labels of its ancestors from ``<body>``) that most of the
cluster's pages fill with exactly one short line, a different one on each page. A story's
paragraphs fill their place many times on a page; a list's items too; a heading the pages share
word for word is the template method's. So a line in a field slot is deleted, unless the page
would lose more than ``MAX_SLOT_SHARE`` of its text by it.

Lines that other pages print alike (the template's, with other values) are found in
``recurrence``; what the page extractor left out that is story (standfirsts, dropped
paragraphs), in ``restore``.
"""

from __future__ import annotations

import itertools
import statistics
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from lxml import etree

from sitesift.methods.page.clean import CAPTION_HINTS
from sitesift.parse.dom import BLOCK_TAGS, SKIP_TAGS, drop_keep_tail, has_hint
from sitesift.parse.signatures import RelaxedLabels

__all__ = [
    "FIELD_MAX_CHARS", "FIELD_MIN_PAGES", "MAX_SLOT_SHARE", "delete_fields", "field_lines",
    "pictured",
]

#: Share of a cluster's pages (at least 3 pages) that must fill a place with one line for it to
#: be a field slot: a byline or caption most pages of the template have.
FIELD_MIN_PAGES = 0.5
#: Longest median line (characters without white space) of a field slot: bylines, datelines,
#: section labels and e-mails are under 60; a standfirst or a caption is a sentence or two.
#: Measured (auto body char F1 whole/a/b, docs/results.md): 60 against none gives big9-2005
#: 0.9859/0.9824/0.9928 -> 0.9866/0.9836/0.9928, big9-2009 0.9836/0.9855/0.9800 ->
#: 0.9854/0.9880/0.9800, list-detail 0.9284/0.9162/0.9847 -> 0.9291/0.9165/0.9873, cleanportal
#: equal, zh-sites 0.9782/0.9795/0.9768 -> 0.9778/0.9794/0.9759; 40 takes less of big9-2009
#: (0.9840); 100 adds list-detail half a (0.9214) but takes standfirsts: big9-2009 half b
#: 0.9713, big9-2005 half b 0.9915.
FIELD_MAX_CHARS = 60
#: Share of the distinct texts among a slot's lines: a field changes from page to page (what
#: the pages share word for word is the template method's, left to it).
FIELD_MIN_DISTINCT = 0.8
#: A page never loses more than this share of its main text to field slots (then none goes).
MAX_SLOT_SHARE = 0.3
#: Labels a place is told by: the line's and its nearest ancestors'. The labels higher up
#: vary inside one template (a body id per section, a wrapper some pages have). Auto body char
#: F1 whole/a/b, big9-2009: whole paths 0.9843/0.9880/0.9767, 6: 0.9849/0.9880/0.9785, 3 and 4:
#: 0.9854/0.9880/0.9800 (cnn's captions); list-detail half a 0.9158 -> 0.9165; big9-2005,
#: cleanportal, zh-sites equal for all.
SLOT_DEPTH = 4
#: Pages a cluster needs before its places say anything.
MIN_CLUSTER_PAGES = 3


#: Longest median line of a field slot marked as a caption (``figcaption``, or a class or id
#: named caption or credit up to the main block), or of a place of figure boxes' captions:
#: the page extractor keeps a caption of a sentence or more, which may be story on one page;
#: one such line on every page of the template is the template's photo caption. A photo's
#: caption is a sentence (the dev sets' caption slots: medians 18 to 88 characters); a
#: paragraph of several sentences under a picture or a video player is the story told in
#: short (cleanportal's tv.msnbc.com, ``p.embedded-caption`` under its videos: median 191,
#: and the gold keeps it; 17 of its 30 pages keep the player since main d4d364c, 14 before,
#: so the slot passed ``FIELD_MIN_PAGES`` only then). Auto body char F1 whole/a/b, 300 ->
#: 120: cleanportal 0.9647/0.9231/0.9718 -> 0.9780/0.9231/0.9877; big9-2005, big9-2009,
#: zh-sites, list-detail equal. Every value from 89 to 190 gives the same records; half a
#: holds no caption slot with a median between 88 and 300, so what the lines are sets it.
CAPTION_MAX_CHARS = 120


@dataclass(frozen=True, slots=True)
class _Line:
    element: etree._Element
    slots: tuple[tuple[str, ...], ...]
    text: str
    caption: bool


def _caption(el: etree._Element, node: etree._Element) -> bool:
    for a in (el, *el.iterancestors()):
        if a.tag == "figcaption" or has_hint(a, CAPTION_HINTS):
            return True
        if a is node:
            return False
    return False


def pictured(nodes: Sequence[etree._Element]) -> set[etree._Element]:
    """The elements of ``nodes`` (a main block) that come right after a picture: read before
    the template step, which deletes the site's ``<img>`` elements (a picture has no text, so
    its signature is its label, shared by every page)."""
    return {el for node in nodes for el in node.iter(etree.Element)
            if el.tag not in SKIP_TAGS and _pictured(el)}


def _pictured(el: etree._Element) -> bool:
    """Whether ``el`` is the caption of a figure box: it comes right after an image (an
    ``<img>``, or an element holding images and no text), and the wrapper of both holds no
    other text. A line after a picture among the story's paragraphs is not one: it may be the
    story's own account of the picture (list-detail's 36kr gold keeps those)."""
    for node in (el, el.getparent()):
        parent = node.getparent() if node is not None else None
        if parent is None:
            return False
        prev = node.getprevious()
        while prev is not None and (not isinstance(prev.tag, str) or prev.tag == "br"):
            prev = prev.getprevious()
        if prev is not None and (prev.tag == "img" or (
                next(prev.iter("img"), None) is not None and not prev.text_content().strip())):
            return _folded(parent.text_content()) == _folded(el.text_content())
        if prev is not None or (parent.text or "").strip():
            return False  # not the first of its parent: its parent's neighbour is not its own
    return False


def _size(text: str) -> int:
    """Characters without white space (``str.split`` splits on what ``str.isspace`` says)."""
    return len("".join(text.split()))


def _breaks(el: etree._Element | None) -> bool:
    """Whether ``el`` ends or starts a line (nothing, a <br> or a block)."""
    return el is None or el.tag == "br" or el.tag in BLOCK_TAGS


def _alone(el: etree._Element) -> bool:
    """Whether inline ``el`` is a line of its own in its block (between <br>s or blocks, no
    text beside it): an e-mail under a story, a section label over it."""
    parent, prev = el.getparent(), el.getprevious()
    if parent is None or parent.tag not in BLOCK_TAGS:
        return False
    before = prev.tail if prev is not None else parent.text
    return (not (before or "").strip() and not (el.tail or "").strip()
            and _breaks(prev) and _breaks(el.getnext()))


def _holding_blocks(node: etree._Element) -> set[etree._Element]:
    """The elements of ``node``'s tree with a block element below them, in one pass (asking
    each element's descendants walked each subtree once per ancestor). A walk up stops at
    an element already found: its ancestors were found with it."""
    holders: set[etree._Element] = set()
    for el in node.iter(etree.Element):
        if el.tag in BLOCK_TAGS:
            up = el.getparent()
            while up is not None and up not in holders:
                holders.add(up)
                up = up.getparent()
    return holders


class _Places:
    """The places of lines (``_Line.slots``), each element's label found once: lines share
    their ancestors."""

    def __init__(self, labels: RelaxedLabels) -> None:
        self.labels = labels
        self.named: dict[etree._Element, str] = {}

    def label(self, el: etree._Element) -> str:
        found = self.named.get(el)
        if found is None:
            found = self.named[el] = self.labels.get(el)[0]
        return found

    def of(self, el: etree._Element) -> tuple[tuple[str, ...], ...]:
        # (the line and its nearest ancestors, not every ancestor listed first)
        path = tuple(map(self.label, itertools.islice(
            itertools.chain((el,), el.iterancestors()), SLOT_DEPTH)))
        # A line with a class of its own is also told by its label alone: the template
        # names its byline's place, while the wrappers above may carry a section's id
        # (latimes 2009: two wrapper ids in one cluster). Auto body char F1 whole/a/b:
        # big9-2005 0.9884/0.9861/0.9928 -> 0.9886/0.9861/0.9934 (cnn's bylines), big9-2009
        # 0.9926 (+0.0001 latimes), cleanportal, zh-sites, list-detail equal.
        return (path, (path[0],)) if el.get("class") else (path,)


def line_elements(nodes: Sequence[etree._Element],
                  ) -> Iterator[tuple[etree._Element, etree._Element, str]]:
    """The lines of ``nodes``: leaf blocks (blocks holding no block), and inline elements
    that are a line of their own; each as (its node of ``nodes``, its element, its text as
    the tree has it, white space not folded)."""
    for node in nodes:
        holders = _holding_blocks(node)
        for el in node.iter(etree.Element):
            tag = el.tag
            if tag in SKIP_TAGS or tag == "br" or el in holders:
                continue
            if el is not node and tag not in BLOCK_TAGS and not _alone(el):
                continue  # (inline, not a line of its own)
            # (an element without children, half the lines: its text is what ``tostring``'s
            # text method writes of it, without the call)
            yield node, el, etree.tostring(el, method="text", encoding=str, with_tail=False) \
                if len(el) else el.text or ""


def _lines(nodes: Sequence[etree._Element], labels: RelaxedLabels) -> list[_Line]:
    """The lines of ``nodes`` with text (``line_elements``), and their places."""
    places = _Places(labels)
    out = []
    for node, el, raw in line_elements(nodes):
        text = " ".join(raw.split())
        if text:
            out.append(_Line(el, places.of(el), text, _caption(el, node)))
    return out


def field_lines(pages: Sequence[Sequence[etree._Element]],
                labels: RelaxedLabels | None = None,
                pictures: Sequence[set[etree._Element]] = ()) -> list[list[etree._Element]]:
    """For each page of one cluster (its main block's nodes), the elements of its lines that
    sit in a field slot of the cluster (empty lists with fewer than ``MIN_CLUSTER_PAGES``).
    ``pictures``: per page, the elements right after a picture (``pictured``), whose places
    are captions' when every line in them is one."""
    labels = labels if labels is not None else RelaxedLabels()
    shown = set().union(*pictures)
    lines = [_lines(nodes, labels) for nodes in pages]
    found: list[list[etree._Element]] = [[] for _ in pages]
    if sum(1 for page in lines if page) < MIN_CLUSTER_PAGES:
        return found
    per_page: dict[tuple[str, ...], list[list[_Line]]] = defaultdict(lambda: [[] for _ in pages])
    for k, page in enumerate(lines):
        for line in page:
            for slot in line.slots:
                per_page[slot][k].append(line)
    for by_page in per_page.values():
        filled = [held for held in by_page if held]
        if len(filled) < max(2, FIELD_MIN_PAGES * len(pages)):
            continue
        if all(line.element in shown for held in filled for line in held):
            if _pictures(filled):
                for k, held in enumerate(by_page):
                    found[k].extend(line.element for line in held
                                    if line.element not in found[k])
            continue
        if any(len(held) > 1 for held in filled):
            continue  # a place filled many times on a page: paragraphs, items
        texts = [held[0].text for held in filled]
        if len(set(texts)) < FIELD_MIN_DISTINCT * len(texts):
            continue
        longest = (CAPTION_MAX_CHARS if all(held[0].caption for held in filled)
                   else FIELD_MAX_CHARS)
        if statistics.median(_size(t) for t in texts) > longest:
            continue
        for k, held in enumerate(by_page):
            found[k].extend(line.element for line in held if line.element not in found[k])
    return found


def _folded(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


def _pictures(filled: Sequence[Sequence[_Line]]) -> bool:
    """Whether a place of figure boxes' captions (every line in it, on every page that fills
    it, ``pictured``) holds captions: a different text on each page (a shared one is the
    template method's), up to ``CAPTION_MAX_CHARS`` long in the median. A page may hold
    several pictures, so this place may be filled more than once a page. Auto body char F1
    whole/a/b: big9-2005 0.9886/0.9861/0.9934 -> 0.9892/0.9861/0.9953 (bbc's ``div.cap``
    boxes); big9-2009, cleanportal, zh-sites, list-detail equal (36kr's ``p.img-desc`` in
    the story's flow, which its gold keeps, is no box: 0.9872 -> 0.9799 on half b without
    that condition)."""
    texts = [line.text for held in filled for line in held]
    return (len(set(texts)) >= FIELD_MIN_DISTINCT * len(texts)
            and statistics.median(_size(t) for t in texts) <= CAPTION_MAX_CHARS)


def delete_fields(nodes: Sequence[etree._Element], fields: Sequence[etree._Element],
                  text_size: int, *, item: bool = False) -> bool:
    """Delete ``fields`` (in place: the pipeline's own tree) unless they hold more than
    ``MAX_SLOT_SHARE`` of ``text_size`` characters; returns whether they went. A field that
    is itself one of ``nodes`` (the whole main block) stays.

    ``item``: the page declares itself an item on sale (``Content.item``). It has no story
    whose fields these would be: its short lines that differ from page to page at a fixed
    place are the item's data (its name, price, condition, end date, item number), which the
    page extractor keeps on purpose, so none goes. On modern-dev's
    www.ebay.com the field step deleted an ended item's name, price and end date and its
    "eBay item number: ..." line (auto body char F1 of the site 0.3854 -> 0.3989 with this,
    page 0.4406); no other page of the dev sets changes (the other product sites' pages
    hold no field slot). A page merely showing a buy button is no such declaration:
    l3s-gn1's nytimes.com stories carry a "Buy Now" box."""
    if item:
        return False
    roots = set(nodes)
    fields = [el for el in fields if el not in roots]
    removed = sum(_size(etree.tostring(el, method="text", encoding=str, with_tail=False))
                  for el in fields)
    if not fields or removed > MAX_SLOT_SHARE * text_size:
        return False
    for el in fields:
        drop_keep_tail(el)
    return True
