"""Field slots: lines the page extractor keeps that the site's other pages show to be one of the
page's fields, not its story (issue 18).

The template method (paper 000) deletes what a cluster's pages share *word for word*; the
sibling method (paper 004) what same-layer pages show alike. Neither touches a byline ("By Ann
Lee"), a dateline, a section label, an author's e-mail or a photo caption: each has the same
place on every page of the template, but text of its own. Across a cluster such a line shows as
a *field slot*: a place (the labels of its ancestors from ``<body>``) that most of the
cluster's pages fill with exactly one short line, a different one on each page. A story's
paragraphs fill their place many times on a page; a list's items too; a heading the pages share
word for word is the template method's. So a line in a field slot is deleted, unless the page
would lose more than ``MAX_SLOT_SHARE`` of its text by it.

The other way round, a *standfirst* (a dek, a teaser) printed right after the headline, outside
the block the page extractor chose, is one line of a sentence or more that most pages of the
cluster print at the same place: the story starts with it (``standfirsts``).
"""

from __future__ import annotations

import difflib
import itertools
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lxml import etree

from sitesift.methods.page.content import CAPTION_HINTS
from sitesift.output.render import to_text
from sitesift.parse.dom import BLOCK_TAGS, SKIP_TAGS, drop_keep_tail, hint_tokens
from sitesift.parse.signatures import RelaxedLabels, structural_children

__all__ = [
    "FIELD_MAX_CHARS", "FIELD_MIN_PAGES", "MAX_SLOT_SHARE", "STANDFIRST_MIN_CHARS", "Printed",
    "delete_fields", "dropped_paragraphs", "field_lines", "headline_leads", "left_out_lines",
    "paragraph_places", "pictured", "printed_lines", "standfirsts",
]

#: Share of a cluster's pages (at least 3 pages) that must fill a place with one line for it to
#: be a field slot: a byline or caption most pages of the template have.
FIELD_MIN_PAGES = 0.5
#: Longest median line (characters without white space) of a field slot: bylines, datelines,
#: section labels and e-mails are under 60; a standfirst or a caption is a sentence or two.
#: Measured (auto body char F1 whole/a/b, docs/methods.md): 60 against none gives big9-2005
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
        if a.tag == "figcaption" or hint_tokens(a) & CAPTION_HINTS:
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


def _lines(nodes: Sequence[etree._Element], labels: RelaxedLabels, *,
           captions: bool = True, want: Callable[[str], bool] | None = None) -> list[_Line]:
    """The lines of ``nodes`` with text, and their places: leaf blocks (blocks holding no
    block), and inline elements that are a line of their own. ``captions=False``: whether a
    line is a caption is not asked (``_Line.caption`` False; the walk up to ``nodes`` is most
    of the time on a whole page); ``want``: the lines' texts to place, the others skipped."""
    out = []
    named: dict[etree._Element, str] = {}  # each element's label, found once (lines share
    # their ancestors)

    def label(el: etree._Element) -> str:
        found = named.get(el)
        if found is None:
            found = named[el] = labels.get(el)[0]
        return found

    for node in nodes:
        holders = _holding_blocks(node)
        for el in node.iter(etree.Element):
            if el.tag in SKIP_TAGS or el.tag == "br" or el in holders:
                continue
            inline = el is not node and el.tag not in BLOCK_TAGS
            if inline and not _alone(el):
                continue
            text = " ".join(etree.tostring(el, method="text", encoding=str,
                                           with_tail=False).split())
            if not text or (want is not None and not want(text)):
                continue
            # (the line and its nearest ancestors, not every ancestor listed first)
            path = tuple(map(label, itertools.islice(
                itertools.chain((el,), el.iterancestors()), SLOT_DEPTH)))
            # A line with a class of its own is also told by its label alone: the template
            # names its byline's place, while the wrappers above may carry a section's id
            # (latimes 2009: two wrapper ids in one cluster). Auto body char F1 whole/a/b:
            # big9-2005 0.9884/0.9861/0.9928 -> 0.9886/0.9861/0.9934 (cnn's bylines), big9-2009
            # 0.9926 (+0.0001 latimes), cleanportal, zh-sites, list-detail equal.
            own = ((path[0],),) if el.get("class") else ()
            out.append(_Line(el, (path, *own), text, captions and _caption(el, node)))
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


#: Fewest words (runs of letters) a line needs for its wording to place it among the cluster's
#: lines: under it, any two short lines (a date, "By Ann Lee") look alike.
PATTERN_MIN_WORDS = 4
#: Least likeness (``difflib`` ratio of the two lines' word sequences, numbers left out) of a
#: line to another page's line at its place for both to be one line of the template with other
#: values: a record of ``key:value`` pairs, a "By <name> | <time>" line. Two stories'
#: paragraphs share few words in order. Auto body char F1 whole/a/b, none -> 0.7: big9-2005
#: 0.9907/0.9878/0.9963 -> 0.9909/0.9881/0.9963 (an AP copyright line on one page), big9-2009
#: 0.9927/0.9921/0.9938 -> 0.9928/0.9922/0.9938 (a byline-dateline), cleanportal
#: 0.9762/0.9320/0.9841 -> 0.9782/0.9320/0.9864 (washingtonpost's comment-config line),
#: zh-sites, list-detail equal; 0.6: big9-2009 0.9928/0.9923/0.9938, 0.5: 0.9929/0.9924/0.9938
#: (arstechnica's "By <name> | Last updated <date>" under two more writers' names), 0.4 as
#: 0.5, the other sets as 0.7 for all. 0.5, where half a stops rising.
PATTERN_MIN_RATIO = 0.5
#: Least likeness of a line to another page's line at its place (``difflib`` ratio of the
#: word sequences, numbers left out), and fewest other pages printing it so, for a line of
#: the main text to be the template's whether or not the page extractor keeps it there: a
#: notice or a copyright line naming the page's own address ("© 版权所有 AIbase基地 2024,
#: 点击查看来源出处 - <its URL>"), or a credit line two stories print word for word ("The
#: Associated Press contributed to this report."), which the template step leaves (it takes
#: what half the cluster's other pages share). Only where the line fills its place alone on
#: both pages (a story's paragraphs share a place, and a site's stories may read alike), and
#: not from a copy of the page (``COPY_MIN_SHARE``). Auto body char F1 whole/a/b, without ->
#: with: list-detail 0.9290/0.9165/0.9867 -> 0.9329/0.9214/0.9867 (aibase's five detail pages
#: 0.943-0.985 -> 1.000), big9-2009 0.9927/0.9921/0.9938 -> 0.9929/0.9921/0.9942 (foxnews
#: bill-1, obama-5: the AP credit); big9-2005, cleanportal, zh-sites equal. Half of the
#: other pages instead of one: list-detail the same, big9-2009 without foxnews's (0.9927);
#: ratio 0.7: the same records as 0.9. Half a moves only by aibase, so the page count was
#: checked for harm on half a (none), not chosen there.
RECUR_MIN_RATIO = 0.9
RECUR_MIN_PAGES = 1
#: Share of the wordings a page keeps that another page prints for that page to be a copy of
#: it (one story crawled at two addresses: cleanportal's washingtonpost blog1_8 and blog1_15
#: print the same post, and its writer's bio line on both proves nothing).
COPY_MIN_SHARE = 0.5
_WORD = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class Printed:
    """A line of a page as printed, read before the page extractor edits the tree (it
    deletes hidden blocks, and the template step the lines the pages share)."""
    element: etree._Element
    slots: tuple[tuple[str, ...], ...]
    words: tuple[str, ...]


def printed_lines(root: etree._Element) -> list[Printed]:
    """The page's lines of ``PATTERN_MIN_WORDS`` words or more, with their places."""
    words: dict[str, list[str]] = {}  # each line's words, found once

    def want(text: str) -> bool:
        found = words[text] = _WORD.findall(text)
        return len(found) >= PATTERN_MIN_WORDS

    lines = _lines([root], RelaxedLabels(), captions=False, want=want)
    return [Printed(line.element, line.slots, tuple(map(str.casefold, words[line.text])))
            for line in lines]


def left_out_lines(pages: Sequence[tuple[Sequence[Printed], Sequence[etree._Element]]],
                   ) -> list[list[etree._Element]]:
    """For each page of one cluster (its ``printed_lines`` and main block's nodes), the lines
    of its main text that the cluster's other pages print at the same place, in the same
    words with other values (``PATTERN_MIN_RATIO``), and leave out of their main text: on at
    least two other pages and on more of them than keep it. The page extractor's choice on
    those pages shows the line to be the template's, not this page's story (a
    ``<div class="hidden">`` of ``initialComments:true! pubdate:...!`` pairs the page method
    keeps on two of a blog's pages and leaves out on the others). Or, kept there or not: that
    another page, not a copy of this one, prints it alone at its place in nearly the same
    words (``RECUR_MIN_RATIO``): a notice naming the page's own address, a credit line."""
    found: list[list[etree._Element]] = [[] for _ in pages]
    if len(pages) < MIN_CLUSTER_PAGES:
        return found
    cluster = _ClusterLines.of(pages)
    alone_at = cluster.alone_at()
    chosen: list[list[tuple[int, etree._Element]]] = [[] for _ in pages]
    for (words, slots), members in cluster.groups.items():
        alike = _Alike.of(cluster, alone_at, words, slots, members)
        for k, n, element in members:
            if alike.left_out_on(k, slots, cluster):
                chosen[k].append((n, element))
    return [[element for _n, element in sorted(lines, key=lambda c: c[0])] for lines in chosen]


#: A place of a line on its page (``Printed.slots``) and a line's words (``Printed.words``).
_Place = tuple[str, ...]
_Words = tuple[str, ...]


@dataclass(slots=True)
class _ClusterLines:
    """One index of a cluster's lines, not one walk of every other page per line (that was
    quadratic in the cluster's pages, and each wording was matched again on every page that
    prints it). Lines of one wording at the same places get the same verdict but for their
    own page, so each (wording, places) is matched once against each wording of its places."""

    #: place -> wording -> (pages printing it there, pages keeping it in their main text)
    index: dict[_Place, dict[_Words, tuple[set[int], set[int]]]]
    #: (wording, places) -> the kept lines printing it there: (page, line number, element)
    groups: dict[tuple[_Words, tuple[_Place, ...]], list[tuple[int, int, etree._Element]]]
    #: place -> page -> how many lines the page prints there
    filled: dict[_Place, Counter[int]]
    #: per page, the wordings it keeps in its main text, and those it prints
    kept_words: list[set[_Words]]
    printed_words: list[set[_Words]]

    @classmethod
    def of(cls, pages: Sequence[tuple[Sequence[Printed], Sequence[etree._Element]]],
           ) -> _ClusterLines:
        lines = cls(defaultdict(dict), defaultdict(list), defaultdict(Counter),
                    [set() for _ in pages], [{line.words for line in printed}
                                             for printed, _ in pages])
        for k, (printed, nodes) in enumerate(pages):
            inside = {el for node in nodes for el in node.iter(etree.Element)}
            for n, line in enumerate(printed):
                kept = line.element in inside
                for slot in line.slots:
                    shown, holding = lines.index[slot].setdefault(line.words, (set(), set()))
                    shown.add(k)
                    lines.filled[slot][k] += 1
                    if kept:
                        holding.add(k)
                if kept:
                    lines.groups[line.words, line.slots].append((k, n, line.element))
                    lines.kept_words[k].add(line.words)
        return lines

    def copies(self, k: int, j: int) -> bool:
        """Copies of one story (one article crawled at two addresses) print all its lines
        alike: page j copies page k when it prints most of the wordings page k keeps."""
        kept = self.kept_words[k]
        return len(kept & self.printed_words[j]) >= COPY_MIN_SHARE * len(kept)

    def alone_at(self) -> dict[_Place, dict[_Words, set[int]]]:
        """Per place and wording: the pages printing it there alone (the line of its place
        there)."""
        return {slot: {words: {j for j in prints if self.filled[slot][j] == 1}
                       for words, (prints, _keeps) in wordings.items()}
                for slot, wordings in self.index.items()}


@dataclass(slots=True)
class _Alike:
    """What the cluster's pages do with the lines alike to one kept wording at its places."""

    #: Two other pages could leave the line out (print a line alike that they do not keep).
    left_out: bool
    #: The pages printing a line alike, and those keeping one.
    shown: set[int]
    holding: set[int]
    #: Per place: the pages printing a line there alone, in nearly the same words.
    alone: dict[_Place, set[int]]

    @classmethod
    def of(cls, lines: _ClusterLines, alone_at: dict[_Place, dict[_Words, set[int]]],
           words: _Words, slots: tuple[_Place, ...],
           members: list[tuple[int, int, etree._Element]]) -> _Alike:
        matcher = difflib.SequenceMatcher(None, b=words, autojunk=False)
        # A page that leaves the line out prints a line alike that it does not keep. So the
        # wordings some page leaves out, or prints alone at its place (the recurring lines),
        # are matched first; unless two other pages could leave the line out, no member's
        # verdict needs the other wordings (every page keeps them, none prints one alone: a
        # story's paragraphs, most of what there is to match).
        later: list[tuple[_Words, set[int]]] = []
        could: set[int] = set()  # pages printing a line alike that they do not keep
        shown: set[int] = set()
        holding: set[int] = set()
        alone: dict[_Place, set[int]] = defaultdict(set)
        for slot in slots:
            for other, (prints, keeps) in lines.index[slot].items():
                lone = alone_at[slot][other]
                if len(keeps) == len(prints) and not lone:
                    later.append((other, keeps))
                    continue
                likeness = _likeness(matcher, other)
                if likeness >= PATTERN_MIN_RATIO:
                    could |= prints - keeps
                    shown |= prints
                    holding |= keeps
                    if likeness >= RECUR_MIN_RATIO:
                        alone[slot] |= lone
        left_out = not all(len(could) - (k in could) < MIN_CLUSTER_PAGES - 1
                           for k, _n, _el in members)
        if left_out:
            for other, keeps in later:
                if _likeness(matcher, other) >= PATTERN_MIN_RATIO:
                    shown |= keeps
                    holding |= keeps
        return cls(left_out, shown, holding, alone)

    def left_out_on(self, k: int, slots: tuple[_Place, ...], lines: _ClusterLines) -> bool:
        """Whether page ``k``'s line is a field line: more other pages leave it out than keep
        it (at least two), or another page, not a copy, prints it alone at its place."""
        held = len(self.holding) - (k in self.holding)  # the line's own page does not count
        out = len(self.shown) - (k in self.shown) - held if self.left_out else 0
        recur = {j for j in set().union(*(self.alone[slot] for slot in slots
                                          if k in self.alone[slot]))
                 if j != k and not lines.copies(k, j)}
        return (out >= MIN_CLUSTER_PAGES - 1 and out > held) or len(recur) >= RECUR_MIN_PAGES


def _likeness(matcher: difflib.SequenceMatcher, words: tuple[str, ...]) -> float:
    """``difflib`` ratio of ``words`` to ``matcher``'s line (its second sequence, whose index
    the matcher keeps); 0 as soon as a cheap upper bound shows it under
    ``PATTERN_MIN_RATIO`` (the bounds are the ratio's, so nothing above it is missed)."""
    matcher.set_seq1(words)
    if matcher.real_quick_ratio() < PATTERN_MIN_RATIO or \
            matcher.quick_ratio() < PATTERN_MIN_RATIO:
        return 0.0
    return matcher.ratio()


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
    page extractor keeps on purpose (issue 17), so none goes. Issue 18: on modern-dev's
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


#: Shortest median standfirst (characters without white space): a sentence, not a byline or
#: a dateline (those are field slots, under ``FIELD_MAX_CHARS``). Auto body char F1 whole/a/b:
#: none -> 40 or 80: big9-2009 0.9854/0.9880/0.9800 -> 0.9895/0.9921/0.9845 (arstechnica's
#: teasers, foxnews's h2 summaries), big9-2005 0.9866/0.9836/0.9928 -> 0.9875/0.9849/0.9928,
#: cleanportal, zh-sites, list-detail equal; 150 misses foxnews's (big9-2009 half b 0.9800).
STANDFIRST_MIN_CHARS = 80
#: Longest standfirst of several lines (highlights, less than half of it links): a dek, not
#: a second story or a sidebar. Auto body char F1 whole/a/b, none -> 1000: big9-2009
#: 0.9895/0.9921/0.9845 -> 0.9914/0.9921/0.9900 (cnn's "Story Highlights" beside a headline
#: alone in its column), big9-2005 0.9875/0.9849/0.9928 -> 0.9883/0.9860/0.9928; cleanportal,
#: zh-sites, list-detail, l3s-gn1, modern-dev equal.
STANDFIRST_MAX_CHARS = 1000
#: Labels a standfirst's place is told by: its own only, since the headline places it (the
#: wrappers above vary: four of cnn 2009's ten pages have another). Auto body char F1
#: whole/a/b: 4 or 2 labels: big9-2009 0.9914/0.9921/0.9900, big9-2005 0.9883/0.9860/0.9928;
#: 1: 0.9926/0.9921/0.9936 and 0.9884/0.9861/0.9928; cleanportal, zh-sites, list-detail equal.
STANDFIRST_SLOT_DEPTH = 1
HEADLINE_TAGS = frozenset({"h1", "h2", "h3"})
SUBHEADING_TAGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
#: Shortest median subheadline (a heading right after the headline, characters without white
#: space): a phrase, shorter than a standfirst's sentence. The page extractor takes it out
#: with the headline (``headline_leads`` reads it before). nymag 2009 prints its datelines
#: ("1/30/09 at 5:50 PM", 14) in such a heading; cnn 2005 its subheadlines (38 and more).
#: Auto body char F1 whole/a/b, none -> 30: big9-2005 0.9892/0.9861/0.9953 ->
#: 0.9895/0.9861/0.9963 (cnn); 0 would take nymag's datelines: big9-2009 half a 0.9921 ->
#: 0.9917; cleanportal, zh-sites, list-detail equal.
SUBHEADLINE_MIN_CHARS = 30


def _folded(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


def headline_leads(root: etree._Element) -> dict[str, etree._Element]:
    """Each headline of the page (folded text) and the block right after it (or after the
    wrapper it is the only child of), read before the page extractor edits the tree: it
    takes the headline out of the main text, and often the subheadline under it too."""
    leads: dict[str, etree._Element] = {}
    for heading in root.iter(*HEADLINE_TAGS):
        key = _folded(heading.text_content())
        if not key or key in leads:
            continue
        start = heading
        parent = start.getparent()
        while (parent is not None and parent.tag not in ("body", "html")
               and len(structural_children(parent)) == 1):
            start, parent = parent, parent.getparent()
        nxt = start.getnext()
        while nxt is not None and (not isinstance(nxt.tag, str) or nxt.tag in SKIP_TAGS):
            nxt = nxt.getnext()
        if nxt is not None and nxt.tag in BLOCK_TAGS:
            leads[key] = nxt
    return leads


def _standfirst(root: etree._Element, title: str | None,
                nodes: Sequence[etree._Element],
                leads: dict[str, etree._Element] | None = None) -> etree._Element | None:
    """The block right after the page's headline (a heading printing ``title``, or the
    wrapper it is the only child of), outside the main block ``nodes``: a line of text, or a
    short block of lines that are not links (a story's highlights). ``leads``: the page's
    ``headline_leads``, read before the tree was edited (else the edited tree is read)."""
    want = _folded(title)
    if not want:
        return None
    nxt = (leads if leads is not None else headline_leads(root)).get(want)
    if nxt is None:
        return None
    inside = set(nodes)
    if any(a in inside for a in (nxt, *nxt.iterancestors())) or any(
            d in inside for d in nxt.iterdescendants()):
        return None  # already in the main text, or holding it
    if any(isinstance(d.tag, str) and d.tag in BLOCK_TAGS for d in nxt.iterdescendants()):
        size = _size(nxt.text_content())
        linked = sum(_size(a.text_content()) for a in nxt.iter("a"))
        if size > STANDFIRST_MAX_CHARS or linked * 2 >= size or any(
                True for _ in nxt.iter(*HEADLINE_TAGS)):
            return None
    return nxt


def standfirsts(pages: Sequence[tuple[etree._Element, str | None, Sequence[etree._Element]]],
                labels: RelaxedLabels | None = None,
                leads: Sequence[dict[str, etree._Element] | None] = ()) -> list[str | None]:
    """For each page of one cluster (its tree, title and main block's nodes), the standfirst
    the page extractor left out: the line right after the headline, where most of the
    cluster's pages print one of their own, a sentence or more long (a dek, a teaser), or a
    heading (a subheadline). The story starts with it; a page's main block held it on none
    of them. ``leads``: per page, its ``headline_leads`` read before the tree was edited."""
    labels = labels if labels is not None else RelaxedLabels()
    found: list[str | None] = [None] * len(pages)
    if len(pages) < MIN_CLUSTER_PAGES:
        return found
    by_slot: dict[tuple[str, ...], list[tuple[int, str]]] = defaultdict(list)
    for k, (root, title, nodes) in enumerate(pages):
        el = _standfirst(root, title, nodes, leads[k] if k < len(leads) else None)
        if el is None:
            continue
        text = to_text([el]).strip()
        if text:
            slot = tuple(labels.get(a)[0] for a in itertools.islice(
                (el, *el.iterancestors()), STANDFIRST_SLOT_DEPTH))
            by_slot[slot].append((k, text))
    for slot, held in by_slot.items():
        texts = [text for _, text in held]
        shortest = (SUBHEADLINE_MIN_CHARS if slot[0].split("[", 1)[0] in SUBHEADING_TAGS
                    else STANDFIRST_MIN_CHARS)
        if (len(held) >= max(2, FIELD_MIN_PAGES * len(pages))
                and len(set(texts)) >= FIELD_MIN_DISTINCT * len(texts)
                and statistics.median(_size(t) for t in texts) >= shortest):
            for k, text in held:
                found[k] = text
    return found


#: Shortest paragraph (characters without white space) the site's pages may give back to a
#: page: a sentence or more of running text, not a label or a "Read more" line.
RESTORE_MIN_CHARS = 100
#: Largest share of a paragraph given back that may be link text: running text, not a list
#: of links written as a paragraph.
RESTORE_MAX_LINK_SHARE = 0.3


def paragraph_places(root: etree._Element) -> dict[etree._Element, tuple[str, ...]]:
    """Every paragraph of running text (``<p>``, ``RESTORE_MIN_CHARS`` or more, few links)
    and its place (the labels of it and its nearest ancestors), read before the page
    extractor edits the tree (it moves a run of paragraphs into a wrapper of its own)."""
    labels = RelaxedLabels()
    places = {}
    for p in root.iter("p"):
        size = _size(p.text_content())
        if size < RESTORE_MIN_CHARS:
            continue
        linked = sum(_size(a.text_content()) for a in p.iter("a"))
        if linked > RESTORE_MAX_LINK_SHARE * size:
            continue
        places[p] = tuple(labels.get(a)[0] for a in itertools.islice(
            (p, *p.iterancestors()), SLOT_DEPTH))
    return places


def _top(el: etree._Element) -> etree._Element:
    """The top of ``el``'s tree: the page's root while ``el`` is in the page, else the top of
    the subtree a step cut out (lxml's ``getroottree`` still names the page's document)."""
    top = el
    for top in el.iterancestors():  # noqa: B007 - the last one is the top
        pass
    return top


def dropped_paragraphs(
    pages: Sequence[tuple[dict[etree._Element, tuple[str, ...]], Sequence[etree._Element]]],
) -> list[list[etree._Element]]:
    """For each page of one cluster (its ``paragraph_places`` and main block's nodes), the
    paragraphs its main text left out at a place that is the story's on the cluster's pages:
    this page keeps other paragraphs of that place, and at least two other pages keep every
    paragraph they have there, none leaving one out. What the page extractor dropped there
    (a last paragraph ending in an ellipsis read as a teaser) the site's pages show to be
    story. A paragraph a site step or the page extractor deleted is out of the tree and stays
    out. Auto body char F1 whole/a/b: big9-2005 0.9895/0.9861/0.9963 -> 0.9906/0.9878/0.9963
    (arstechnica intel-2's last paragraph, ending "The horror... the horror...", R 0.80 ->
    1.00); big9-2009, cleanportal, zh-sites, list-detail equal."""
    found: list[list[etree._Element]] = [[] for _ in pages]
    if len(pages) < MIN_CLUSTER_PAGES:
        return found
    status: list[dict[tuple[str, ...], tuple[list[etree._Element], list[etree._Element]]]] = []
    for places, nodes in pages:
        root = _top(nodes[0]) if nodes else None
        inside = {el for node in nodes for el in node.iter(etree.Element)}
        by_place: dict[tuple[str, ...], tuple[list[etree._Element], list[etree._Element]]] = \
            defaultdict(lambda: ([], []))
        for p, place in places.items():
            if p in inside:
                by_place[place][0].append(p)
            elif _top(p) is root and not any(
                    d in inside for d in p.iter(etree.Element)):
                by_place[place][1].append(p)
        status.append(by_place)
    for k, by_place in enumerate(status):
        for place, (kept, dropped) in by_place.items():
            if not kept or not dropped:
                continue
            others = [s[place] for j, s in enumerate(status) if j != k and place in s]
            whole = sum(1 for held, left in others if held and not left)
            if whole >= MIN_CLUSTER_PAGES - 1 and all(not left for _, left in others):
                found[k].extend(dropped)
    return found
