"""Repeated records: the DOM cue that tells a list page from an article.

A list page is made of *records*: sibling elements of one tag and class that each stand for
another page or item (a card with a headline and a summary, a row with a title and a date, a
live-feed entry with a time and its text). An article is one body: its paragraphs repeat too,
but each is a single run of text. So a record is a sibling that holds two text units or more
(headline + summary, title + date) or a link long enough to be a headline; a *record run* is
``RECORD_MIN_RUN`` or more such siblings of one signature under one parent.

``record_share`` is the share of a scope's text held by its heaviest record run. The page
extractor (``sitesift.extract.content``) calls a page a list when that share is at least
``LIST_MIN_RECORD_SHARE`` of its main container (or, on a page without an article, of its
whole body): measured on list-detail, list pages 0.51-1.00, detail pages at most 0.25
(sspai's lists inside articles); zh-sites and big9-2005 (all articles): no page reaches 0.5.

Forum threads are record runs too (posts): the forum method types thread pages itself and
reads a non-thread page's posts as "other" (``sitesift.extract.pagetype``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Protocol

from lxml import etree

from sitesift.parse.dom import cjk_count, text_weight

__all__ = ["LIST_MIN_RECORD_SHARE", "RECORD_MIN_RUN", "record_share"]

#: A record run has at least this many records (a list shows several items).
RECORD_MIN_RUN = 4
#: A page is a list when its heaviest record run holds at least this share of the text.
LIST_MIN_RECORD_SHARE = 0.5
#: A record without a second text unit needs a link this long (weighted: CJK counts 3): a
#: headline, not a menu entry ("Home", "City").
RECORD_MIN_HEADLINE = 15
#: CJK characters count this many times (as the page extractor weighs text).
CJK_WEIGHT = 3


class TextUnit(Protocol):
    """What ``record_share`` reads of the page extractor's text units."""

    @property
    def block(self) -> etree._Element: ...

    @property
    def weight(self) -> int: ...


def _is_headline(el: etree._Element, weight: int) -> bool:
    """A single-unit record is a linked headline: a link of ``RECORD_MIN_HEADLINE`` that
    holds most of its text (a paragraph with a link in it is no record)."""
    for a in el.iter("a"):
        text = "".join(a.itertext())
        linked = text_weight(text) + (CJK_WEIGHT - 1) * cjk_count(text)
        if linked >= RECORD_MIN_HEADLINE and 2 * linked >= weight:
            return True
    return False


def record_share(scope: etree._Element, units: Iterable[TextUnit]) -> float:
    """Share of the text weight under ``scope`` held by its heaviest record run (0 when
    it has none)."""
    count: dict[etree._Element, int] = defaultdict(int)
    weight: dict[etree._Element, int] = defaultdict(int)
    for unit in units:
        el: etree._Element | None = unit.block
        path = []
        while el is not None:
            path.append(el)
            if el is scope:
                break
            el = el.getparent()
        if el is None:  # outside the scope
            continue
        for anc in path:
            count[anc] += 1
            weight[anc] += unit.weight
    total = weight.get(scope, 0)
    if not total:
        return 0.0
    best = 0
    for parent in scope.iter(etree.Element):
        if count.get(parent, 0) < RECORD_MIN_RUN:
            continue
        groups: dict[tuple[str, str], int] = defaultdict(int)
        members: dict[tuple[str, str], int] = defaultdict(int)
        for child in parent:
            if not isinstance(child.tag, str) or not weight.get(child):
                continue
            if count[child] < 2 and not _is_headline(child, weight[child]):
                continue
            signature = (child.tag, child.get("class") or "")
            groups[signature] += weight[child]
            members[signature] += 1
        for signature, run in groups.items():
            if members[signature] >= RECORD_MIN_RUN and run > best:
                best = run
    return best / total
