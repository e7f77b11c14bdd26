"""Repeated records: the DOM cue that tells a list page from an article.

A list page is made of *records*: sibling elements of one tag and class that each stand for
another page or item (a card with a headline and a summary, a row with a title and a date, a
live-feed entry with a time and its text). An article is one body: its paragraphs repeat too,
but each is a single run of text, and its sections hold several paragraphs each. So a record
is a sibling that holds two text units or more (headline + summary, title + date), or a link
long enough to be a headline, and at most one unit of prose (its summary); figures and
block quotations (slideshows, embedded tweets) are never records. A *record run* is
``RECORD_MIN_RUN`` or more such siblings of one signature under one parent; the nested
copies of a container left unclosed are read as its continuation (``chain_children``).

``record_share`` is the share of a scope's text held by its heaviest record run. The page
extractor (``sitesift.methods.page.content``) calls a page without an article body a list when
that share is at least ``LIST_MIN_RECORD_SHARE`` of the page, of what is left of it once
hinted containers went, or of the container chosen. Pages with an article body stay
``detail`` whatever their records: listicles, how-to steps, data tables and comment threads
are records too (tried: 4 of readability-meta's 130 articles and 2 of dates-dev's turned to
lists, for 3 list pages gained on list-detail).

Forum threads are record runs too (posts): the forum method types thread pages itself and
reads a non-thread page's posts as "other" (``sitesift.methods.forum.site``).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from lxml import etree

from sitesift.parse.dom import cjk_count, text_weight

__all__ = [
    "LIST_MIN_RECORD_SHARE", "RECORD_MAX_PROSE", "RECORD_MIN_RUN", "RecordRun", "chain_children",
    "class_words", "heaviest_run",
    "record_share",
]

#: A record run has at least this many records (a list shows several items).
RECORD_MIN_RUN = 4
#: A page is a list when its heaviest record run holds at least this share of the text.
LIST_MIN_RECORD_SHARE = 0.5
#: A record without a second text unit needs a link this long (weighted: CJK counts 3): a
#: headline, not a menu entry ("Home", "City").
RECORD_MIN_HEADLINE = 15
#: A record holds at most this many prose units (a summary, a feed entry's text): the
#: sections of an article hold several paragraphs each.
RECORD_MAX_PROSE = 1
#: Tags that repeat inside articles and are never items of a list: embedded media and
#: quotations (slideshows, embedded posts of social networks).
NOT_RECORDS = frozenset({"figure", "blockquote"})
#: CJK characters count this many times (as the page extractor weighs text).
CJK_WEIGHT = 3


class TextUnit(Protocol):
    """What ``record_share`` reads of the page extractor's text units."""

    @property
    def block(self) -> etree._Element: ...

    @property
    def weight(self) -> int: ...

    def is_prose(self) -> bool: ...


def class_words(el: etree._Element) -> str:
    """Class words of ``el`` without those holding digits: "post-2089739" is the id of the
    item, not its kind, and differs in every record."""
    return " ".join(w for w in (el.get("class") or "").split()
                    if not any(c.isdigit() for c in w))


def _headline(el: etree._Element) -> int:
    """Weighted length of the longest link text under ``el`` (its headline, if any)."""
    best = 0
    for a in el.iter("a"):
        text = "".join(a.itertext())
        best = max(best, text_weight(text) + (CJK_WEIGHT - 1) * cjk_count(text))
    return best


def record_share(scope: etree._Element, units: Iterable[TextUnit]) -> float:
    """Share of the text weight under ``scope`` held by its heaviest record run (0 when
    it has none)."""
    run = heaviest_run(scope, units)
    return run.share if run is not None else 0.0


@dataclass(frozen=True, slots=True)
class RecordRun:
    """The heaviest record run under a scope: its parent, its records in page order, and the
    share of the scope's text weight they hold."""

    parent: etree._Element
    records: tuple[etree._Element, ...]
    share: float


def _stripes(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Whether two signatures are one kind of record striped: one tag, class words that share
    at least one and differ by at most one word on each side ("row odd" / "row even",
    "entry" / "entry alt", "row bg-white" / "row bg-gray")."""
    if a[0] != b[0] or a == b:
        return False
    wa, wb = set(a[1].split()), set(b[1].split())
    return bool(wa & wb) and len(wa - wb) <= 1 and len(wb - wa) <= 1


def _merge_stripes(accepted: list[tuple[etree._Element, tuple[str, str]]]
                   ) -> list[tuple[etree._Element, tuple[str, str]]]:
    """Records of two striped signatures (``_stripes``) that alternate strictly, one and then
    the other, are one run (zebra rows of a table or a ranking): the second signature is
    read as the first. Alternation is the evidence: two kinds of items that merely share a
    parent (a question and its answer come in pairs too, but are not records both) stay
    apart unless every neighbour differs."""
    order = [sig for _, sig in accepted]
    kinds = list(dict.fromkeys(order))
    rename: dict[tuple[str, str], tuple[str, str]] = {}
    for i, a in enumerate(kinds):
        for b in kinds[i + 1:]:
            if a in rename or b in rename or not _stripes(a, b):
                continue
            seq = [sig for sig in order if sig in (a, b)]
            if len(seq) >= RECORD_MIN_RUN and all(x != y for x, y in itertools.pairwise(seq)):
                rename[b] = a
    if not rename:
        return accepted
    return [(child, rename.get(sig, sig)) for child, sig in accepted]


def _continuation(el: etree._Element) -> etree._Element | None:
    """The last child of ``el`` when it is of ``el``'s own tag and class (with class words):
    the rest of an unclosed container. A page that leaves each day's ``<div class="list">``
    open nests the next day's list as the last child of the previous one; a reader sees the
    lists one after another, so their items are siblings (list-detail: a news digest whose
    94 days' lists nest 94 deep)."""
    words = class_words(el)
    if not words:
        return None
    last = next((c for c in reversed(el) if isinstance(c.tag, str)), None)
    if last is not None and last.tag == el.tag and class_words(last) == words:
        return last
    return None


def _continues(el: etree._Element) -> bool:
    """Whether ``el`` is the continuation of its parent (``_continuation``)."""
    parent = el.getparent()
    return parent is not None and _continuation(parent) is el


def chain_children(parent: etree._Element) -> list[etree._Element]:
    """The children of ``parent`` and of its chain of continuations, in page order (the
    continuations themselves left out)."""
    out: list[etree._Element] = []
    el: etree._Element | None = parent
    while el is not None:
        nxt = _continuation(el)
        out.extend(c for c in el if c is not nxt)
        el = nxt
    return out


def heaviest_run(scope: etree._Element, units: Iterable[TextUnit], *,
                 max_prose: int = RECORD_MAX_PROSE) -> RecordRun | None:
    """The record run under ``scope`` holding the most text weight (None without one).
    ``max_prose``: prose units a record may hold (a caller that checks the records' prose
    otherwise, as linked teasers' summaries of two short paragraphs, may allow more)."""
    own_count: dict[etree._Element, int] = defaultdict(int)
    own_weight: dict[etree._Element, int] = defaultdict(int)
    own_prose: dict[etree._Element, int] = defaultdict(int)
    for unit in units:
        own_count[unit.block] += 1
        own_weight[unit.block] += unit.weight
        own_prose[unit.block] += unit.is_prose()
    # Bottom-up sums over the scope's elements (children before parents).
    count: dict[etree._Element, int] = {}
    weight: dict[etree._Element, int] = {}
    prose: dict[etree._Element, int] = {}
    for el in reversed(list(scope.iter(etree.Element))):
        n, w, p = own_count.get(el, 0), own_weight.get(el, 0), own_prose.get(el, 0)
        for child in el:
            if child in count:
                n, w, p = n + count[child], w + weight[child], p + prose[child]
        if n:
            count[el], weight[el], prose[el] = n, w, p
    total = weight.get(scope, 0)
    if not total:
        return None
    best = 0
    found: RecordRun | None = None
    for parent in scope.iter(etree.Element):
        if count.get(parent, 0) < RECORD_MIN_RUN or (parent is not scope and _continues(parent)):
            continue  # too little text below for a run; or read with the chain's head
        accepted: list[tuple[etree._Element, tuple[str, str]]] = []
        for child in chain_children(parent):
            if child not in count or \
                    child.tag in NOT_RECORDS or prose[child] > max_prose:
                continue
            if count[child] < 2:
                # One unit alone is a record when it is a linked headline (not a paragraph
                # with a link in it).
                headline = _headline(child)
                if headline < RECORD_MIN_HEADLINE or 2 * headline < weight[child]:
                    continue
            accepted.append((child, (child.tag, class_words(child))))
        accepted = _merge_stripes(accepted)
        groups: dict[tuple[str, str], int] = defaultdict(int)
        members: dict[tuple[str, str], int] = defaultdict(int)
        for child, signature in accepted:
            groups[signature] += weight[child]
            members[signature] += 1
        for signature, run in groups.items():
            if members[signature] >= RECORD_MIN_RUN and run > best:
                best = run
                records = tuple(child for child, sig in accepted if sig == signature)
                found = RecordRun(parent, records, run / total)
    return found
