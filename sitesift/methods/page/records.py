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
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from lxml import etree

from sitesift.methods.page.units import weighted_length
from sitesift.parse.dom import text_content

__all__ = [
    "LIST_MIN_RECORD_SHARE",
    "RECORD_MAX_PROSE",
    "RECORD_MIN_RUN",
    "RecordRun",
    "RecordRuns",
    "chain_children",
    "class_words",
    "heaviest_run",
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
#: The digits ``str.isdigit`` finds in ASCII text.
_ASCII_DIGIT = re.compile("[0-9]")


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
    return _words_of(el.get("class"))


def _words_of(cls: str | None) -> str:
    """``class_words`` of a class attribute's value."""
    if not cls:
        return ""
    if cls.isascii():  # (an ASCII character is a digit when it is one of 0-9)
        if not _ASCII_DIGIT.search(cls):  # (most names: nothing to drop)
            return " ".join(cls.split())
        return " ".join(w for w in cls.split() if not _ASCII_DIGIT.search(w))
    return " ".join(w for w in cls.split() if not any(c.isdigit() for c in w))


def _headline(el: etree._Element) -> int:
    """Weighted length of the longest link text under ``el`` (its headline, if any)."""
    best = 0
    for a in el.iter("a"):
        text = text_content(a)  # (= "".join(a.itertext()), faster for a link without tags)
        best = max(best, weighted_length(text))
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


def _continuation(el: etree._Element,
                  words_of: Callable[[etree._Element], str] = class_words,
                  ) -> etree._Element | None:
    """The last child of ``el`` when it is of ``el``'s own tag and class (with class words):
    the rest of an unclosed container. A page that leaves each day's ``<div class="list">``
    open nests the next day's list as the last child of the previous one; a reader sees the
    lists one after another, so their items are siblings (list-detail: a news digest whose
    94 days' lists nest 94 deep). ``words_of``: ``class_words`` or a memo of it."""
    words = words_of(el)
    if not words:
        return None
    last = next((c for c in reversed(el) if isinstance(c.tag, str)), None)
    if last is not None and last.tag == el.tag and words_of(last) == words:
        return last
    return None


def chain_children(parent: etree._Element,
                   words_of: Callable[[etree._Element], str] = class_words,
                   ) -> list[etree._Element]:
    """The children of ``parent`` and of its chain of continuations, in page order (the
    continuations themselves left out). ``words_of``: as for ``_continuation``."""
    out: list[etree._Element] = []
    el: etree._Element | None = parent
    while el is not None:
        nxt = _continuation(el, words_of)
        out.extend(c for c in el if c is not nxt)
        el = nxt
    return out


def heaviest_run(scope: etree._Element, units: Iterable[TextUnit], *,
                 max_prose: int = RECORD_MAX_PROSE) -> RecordRun | None:
    """The record run under ``scope`` holding the most text weight (None without one).
    ``max_prose``: prose units a record may hold (a caller that checks the records' prose
    otherwise, as linked teasers' summaries of two short paragraphs, may allow more)."""
    return RecordRuns(scope, units).heaviest(scope, max_prose=max_prose)


class RecordRuns:
    """The record runs of one tree's text units, for any scope under its ``root`` and any
    prose limit. The page extractor asks up to eight times per page (the body and the
    container chosen, two prose limits, several cues): the bottom-up sums are made once, and
    each parent's best run once per prose limit. Valid while neither the tree nor the units
    change (the caller's to ensure: make it after the last edit, drop it at the next)."""

    def __init__(self, root: etree._Element, units: Iterable[TextUnit]) -> None:
        self.root = root
        own_count: dict[etree._Element, int] = defaultdict(int)
        own_weight: dict[etree._Element, int] = defaultdict(int)
        own_prose: dict[etree._Element, int] = defaultdict(int)
        for unit in units:
            own_count[unit.block] += 1
            own_weight[unit.block] += unit.weight
            own_prose[unit.block] += unit.is_prose()
        # Bottom-up sums over the root's elements (children before parents); a scope's are
        # its subtree's, the same whichever root they were summed from.
        count: dict[etree._Element, int] = {}
        weight: dict[etree._Element, int] = {}
        prose: dict[etree._Element, int] = {}
        parents: list[etree._Element] = []
        for el in reversed(list(root.iter(etree.Element))):
            n, w, p = own_count.get(el, 0), own_weight.get(el, 0), own_prose.get(el, 0)
            for child in el:
                if child in count:
                    n, w, p = n + count[child], w + weight[child], p + prose[child]
            if n:
                count[el], weight[el], prose[el] = n, w, p
                if n >= RECORD_MIN_RUN:
                    parents.append(el)
        parents.reverse()
        self._count, self._weight, self._prose = count, weight, prose
        #: The elements with units enough below them for a run, in page order: the parents
        #: ``heaviest`` tries under the root (the rest it would skip one by one).
        self._parents = parents
        #: (parent, max_prose) -> the parent's heaviest run: (weight, records), or None.
        self._best: dict[tuple[etree._Element, int],
                         tuple[int, tuple[etree._Element, ...]] | None] = {}
        self._continues: dict[etree._Element, bool] = {}
        self._words: dict[etree._Element, str] = {}
        self._by_class: dict[str | None, str] = {}
        self._headlines: dict[etree._Element, int] = {}

    def heaviest(self, scope: etree._Element, *,
                 max_prose: int = RECORD_MAX_PROSE) -> RecordRun | None:
        """``heaviest_run(scope, units, max_prose=max_prose)``; ``scope`` must lie under
        (or be) the root."""
        if not any(el is self.root for el in scope.iterancestors()) and scope is not self.root:
            raise ValueError("scope lies outside the root the runs were summed under")
        total = self._weight.get(scope, 0)
        if not total:
            return None
        count, weight = self._count, self._weight
        best = 0
        found: tuple[etree._Element, tuple[etree._Element, ...]] | None = None
        # (Under the root, the parents with enough units below are listed; elsewhere they
        # are found by a walk of the scope, ``count`` telling them.)
        for parent in self._parents if scope is self.root else scope.iter(etree.Element):
            # A parent's runs hold at most its subtree's weight (its chain lies inside it):
            # one no heavier than the best so far cannot hold a strictly heavier run.
            if count.get(parent, 0) < RECORD_MIN_RUN or weight[parent] <= best or \
                    (parent is not scope and self._is_continuation(parent)):
                continue  # too little text below for a run; or read with the chain's head
            run = self._parent_best(parent, max_prose)
            # Strictly heavier: among equal runs the first in page order wins.
            if run is not None and run[0] > best:
                best = run[0]
                found = (parent, run[1])
        return RecordRun(found[0], found[1], best / total) if found is not None else None

    def _class_words(self, el: etree._Element) -> str:
        words = self._words.get(el)
        if words is None:
            cls = el.get("class")
            words = self._by_class.get(cls)  # (class names repeat across a page)
            if words is None:
                words = self._by_class[cls] = _words_of(cls)
            self._words[el] = words
        return words

    def _is_continuation(self, el: etree._Element) -> bool:
        known = self._continues.get(el)
        if known is None:
            parent = el.getparent()
            known = self._continues[el] = \
                parent is not None and _continuation(parent, self._class_words) is el
        return known

    def _parent_best(self, parent: etree._Element, max_prose: int
                     ) -> tuple[int, tuple[etree._Element, ...]] | None:
        """The heaviest run of ``parent``'s (chained) children: the first signature of the
        heaviest weight among those with ``RECORD_MIN_RUN`` records."""
        key = (parent, max_prose)
        if key in self._best:
            return self._best[key]
        count, weight, prose = self._count, self._weight, self._prose
        children = [c for c in chain_children(parent, self._class_words) if c in count]
        if len(children) < RECORD_MIN_RUN:
            # Records are children holding text: too few for a run (most parents: a
            # wrapper of two or three blocks), before any headline is measured.
            self._best[key] = None
            return None
        accepted: list[tuple[etree._Element, tuple[str, str]]] = []
        for child in children:
            if child.tag in NOT_RECORDS or prose[child] > max_prose:
                continue
            if count[child] < 2:
                # One unit alone is a record when it is a linked headline (not a paragraph
                # with a link in it).
                headline = self._headlines.get(child)
                if headline is None:  # (asked again for the other prose limit)
                    headline = self._headlines[child] = _headline(child)
                if headline < RECORD_MIN_HEADLINE or 2 * headline < weight[child]:
                    continue
            accepted.append((child, (child.tag, self._class_words(child))))
        if len(accepted) < RECORD_MIN_RUN:  # (no signature can have a run's members)
            self._best[key] = None
            return None
        accepted = _merge_stripes(accepted)
        groups: dict[tuple[str, str], int] = defaultdict(int)
        members: dict[tuple[str, str], int] = defaultdict(int)
        for child, signature in accepted:
            groups[signature] += weight[child]
            members[signature] += 1
        best = 0
        found: tuple[int, tuple[etree._Element, ...]] | None = None
        for signature, run in groups.items():
            if members[signature] >= RECORD_MIN_RUN and run > best:
                best = run
                found = (run, tuple(child for child, sig in accepted if sig == signature))
        self._best[key] = found
        return found
