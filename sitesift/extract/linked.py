"""Linked records: the cue that tells a list page from an article even when the list's
summaries add up to an article's worth of prose.

A list page is many same-shaped records linking to same-shaped URLs: every card or row links
its own headline to another page of one kind (``/products/...``, ``/2024/05/...``). An
article's repeated parts do not: a how-to's steps and a listicle's entries hold long prose and
link, if at all, to pages of every kind; comments link their posters' short names. So the
records of ``sitesift.extract.records`` count here when most of them link a headline
(``HEADLINE_MIN_WEIGHT``) to distinct URLs of one shape, and their summaries are teasers,
short (``TEASER_MAX_PROSE`` of prose a record on average).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from lxml import etree

from sitesift.extract.records import RecordRun, TextUnit, heaviest_run
from sitesift.parse.dom import cjk_count, text_weight

__all__ = ["linked_list_share"]

#: A headline link holds at least this many weighted characters (CJK three times): a title,
#: not "More" or a poster's name.
HEADLINE_MIN_WEIGHT = 15
#: Most records link a headline: at least this share of them...
LINKED_MIN_SHARE = 0.5
#: ...to distinct URLs, this share of which have one shape (segment count and first segment).
SAME_SHAPE_MIN_SHARE = 0.5
#: A list's records need at least this many linked ones.
LINKED_MIN_RECORDS = 4
#: Teasers: at most this much prose a record on average (weighted characters). The page
#: extractor's listicle rule draws the same line (a repeated item with more than 300 prose
#: characters is an entry, not a teaser); modern-dev half a: lists' teasers 30-130, a listicle
#: of moving companies about 990.
TEASER_MAX_PROSE = 300
CJK_WEIGHT = 3
#: Records showing a price on this share of them are products on offer.
PRICED_MIN_SHARE = 0.6

#: A price: a currency sign before a number, or a currency after it.
_PRICE = re.compile(r"[$€£¥₹]\s?\d|\d[\d,.]*\s?(?:€|USD|EUR|GBP|元)")


def _shape(href: str) -> tuple[int, str] | None:
    """The kind of page a URL names: its number of path segments and its first segment."""
    try:
        path = urlsplit(href).path
    except ValueError:
        return None
    segments = [s for s in path.split("/") if s]
    return len(segments), segments[0] if len(segments) > 1 else ""


def _headline_href(record: etree._Element) -> str | None:
    """The URL of the record's headline link, if it has one."""
    best: tuple[int, str] | None = None
    for a in record.iter("a"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        text = "".join(a.itertext())
        weight = text_weight(text) + (CJK_WEIGHT - 1) * cjk_count(text)
        if weight >= HEADLINE_MIN_WEIGHT and (best is None or weight > best[0]):
            best = (weight, href)
    return best[1] if best else None


def _is_linked_list(run: RecordRun, units: Sequence[TextUnit]) -> bool:
    records = run.records
    hrefs = [h for r in records if (h := _headline_href(r)) is not None]
    if len(hrefs) < max(LINKED_MIN_RECORDS, LINKED_MIN_SHARE * len(records)):
        return False
    if len(set(hrefs)) < LINKED_MIN_SHARE * len(records):
        return False
    shapes = Counter(_shape(h) for h in hrefs)
    if shapes.most_common(1)[0][1] < SAME_SHAPE_MIN_SHARE * len(records):
        return False
    inside: set[etree._Element] = set()
    for r in records:
        inside.update(r.iter(etree.Element))
    prose = sum(u.weight for u in units if u.is_prose() and u.block in inside)
    return prose <= TEASER_MAX_PROSE * len(records)


def _related(a: etree._Element, b: etree._Element) -> bool:
    """Whether one of the two elements holds the other (or they are one)."""
    return a is b or any(x is b for x in a.iterancestors()) or \
        any(x is a for x in b.iterancestors())


def _priced(run: RecordRun) -> bool:
    """Whether most records show a price: products on offer, a shop's list, even beside a
    block of prose (a category's description, its FAQ)."""
    priced = sum(bool(_PRICE.search(" ".join(r.itertext()))) for r in run.records)
    return priced >= PRICED_MIN_SHARE * len(run.records)


def linked_list_share(scopes: Iterable[etree._Element], units: Sequence[TextUnit],
                      main: etree._Element) -> float:
    """The largest share of a scope's text held by its heaviest record run when that run is
    a list's (linked teasers, see the module docstring) and is the page's content: it holds
    the container chosen or lies in it (a box of related headlines beside a short story is
    not, unless its records show prices); 0 without one."""
    best = 0.0
    for scope in scopes:
        run = heaviest_run(scope, units)
        if run is not None and run.share > best and (
                _related(run.parent, main) or _priced(run)) and _is_linked_list(run, units):
            best = run.share
    return best
