"""Line recurrence (``auto``): a line of the main text that another page of the
cluster prints alike at its place (the same wording with other values: a record of
``key:value`` pairs, a "By <name> | <time>" line; or word for word: a credit or notice naming
the page's address) is the template's, whether or not the page extractor keeps it there.
The lines are read as printed (``printed_lines``) before the page extractor edits the tree;
``left_out_lines`` compares them across a cluster."""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from lxml import etree

from sitesift.methods.auto.slots import MIN_CLUSTER_PAGES, _Places, line_elements
from sitesift.parse.signatures import RelaxedLabels

__all__ = ["Printed", "left_out_lines", "printed_lines"]

#: Fewest words (runs of letters) a line needs for its wording to place it among the cluster's
#: lines: under it, any two short lines (a date, "By Ann Lee") look alike.
PATTERN_MIN_WORDS = 4
#: The shortest text that holds ``PATTERN_MIN_WORDS`` words: a letter each, one character
#: between two (a line shorter than it is left unread; not a threshold of its own).
LINE_MIN_CHARS = 2 * PATTERN_MIN_WORDS - 1
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
#: ... and only at an edge of the page's main text: with no line of the page's own (one no
#: other page prints alike) both before and after it. A template's notice or credit line
#: opens or closes the story; between two parts of the page's own text, a line a few similar
#: pages print word for word is theirs (a documentation site's shared code listing, note or
#: heading: zoo-docs-dev alabaster-flask's deployment pages lost their install steps to it).
#: Share of the wordings a page keeps that another page prints for that page to be a copy of
#: it (one story crawled at two addresses: cleanportal's washingtonpost blog1_8 and blog1_15
#: print the same post, and its writer's bio line on both proves nothing).
COPY_MIN_SHARE = 0.5
_WORD = re.compile(r"[^\W\d_]+")


class Printed(NamedTuple):
    """A line of a page as printed, read before the page extractor edits the tree (it
    deletes hidden blocks, and the template step the lines the pages share). (A named tuple:
    a whole page's lines are made, and a frozen dataclass's ``__init__`` is slow.)"""
    element: etree._Element
    slots: tuple[tuple[str, ...], ...]
    words: tuple[str, ...]


def printed_lines(root: etree._Element, labels: RelaxedLabels | None = None) -> list[Printed]:
    """The page's lines of ``PATTERN_MIN_WORDS`` words or more, with their places. ``labels``:
    a label memo shared by the site's pages (which share most labels)."""
    places = _Places(labels if labels is not None else RelaxedLabels())
    out = []
    for _node, el, text in line_elements([root]):
        if len(text) < LINE_MIN_CHARS:
            continue  # (too short to hold the words: most menu entries and labels)
        # (the words of a text are those of it with its white space folded: no letter is
        # white space)
        words = _WORD.findall(text)
        if len(words) >= PATTERN_MIN_WORDS:
            out.append(Printed(el, places.of(el), tuple(map(str.casefold, words))))
    return out


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
    places = cluster.by_place()
    chosen: list[list[tuple[int, etree._Element]]] = [[] for _ in pages]
    recurring: list[list[tuple[int, etree._Element]]] = [[] for _ in pages]
    for (words, slots), members in cluster.groups.items():
        alike = _Alike.of(places, words, slots, members)
        for k, n, element in members:
            if alike.left_out_on(k, slots, cluster):
                chosen[k].append((n, element))
            elif alike.recurs_on(k, slots, cluster):
                recurring[k].append((n, element))
    for k, lines in enumerate(recurring):
        chosen[k] += _at_edges(lines, {n for n, _el in chosen[k]}, cluster.kept_lines[k])
    return [[element for _n, element in sorted(lines, key=lambda c: c[0])] for lines in chosen]


def _at_edges(lines: list[tuple[int, etree._Element]], taken: set[int],
              kept: Sequence[int]) -> list[tuple[int, etree._Element]]:
    """The ``lines`` (line number, element) that lie at an edge of the page's main text:
    no line of the page's own (``kept``, the numbers of its lines in its main text, less
    those ``taken`` or in ``lines``) both before and after them."""
    others = {n for n, _el in lines} | taken
    own = [n for n in kept if n not in others]
    if not own:
        return lines
    first, last = own[0], own[-1]
    return [(n, el) for n, el in lines if not first < n < last]


#: A place of a line on its page (``Printed.slots``) and a line's words (``Printed.words``).
_Place = tuple[str, ...]
_Words = tuple[str, ...]
#: A place's wordings as ``_Alike.of`` reads them (``_ClusterLines.by_place``): those some
#: page leaves out or prints alone there, each with the pages printing it there and keeping
#: it, and those printing it there alone; then those every page printing them keeps and none
#: prints alone, with the pages keeping them.
_PlaceWordings = tuple[list[tuple[_Words, set[int], set[int], set[int]]],
                       list[tuple[_Words, set[int]]]]


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
    filled: dict[_Place, defaultdict[int, int]]
    #: per page, the wordings it keeps in its main text, and those it prints
    kept_words: list[set[_Words]]
    printed_words: list[set[_Words]]
    #: per page, the numbers of its lines in its main text, in order
    kept_lines: list[list[int]]

    @classmethod
    def of(cls, pages: Sequence[tuple[Sequence[Printed], Sequence[etree._Element]]],
           ) -> _ClusterLines:
        # (``filled``: counts in plain dicts; a ``Counter`` per place cost more to make than
        # the counting)
        lines = cls(defaultdict(dict), defaultdict(list), defaultdict(lambda: defaultdict(int)),
                    [set() for _ in pages], [{line.words for line in printed}
                                             for printed, _ in pages],
                    [[] for _ in pages])
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
                    lines.kept_lines[k].append(n)
                    lines.groups[line.words, line.slots].append((k, n, line.element))
                    lines.kept_words[k].add(line.words)
        return lines

    def copies(self, k: int, j: int) -> bool:
        """Copies of one story (one article crawled at two addresses) print all its lines
        alike: page j copies page k when it prints most of the wordings page k keeps."""
        kept = self.kept_words[k]
        return len(kept & self.printed_words[j]) >= COPY_MIN_SHARE * len(kept)

    def by_place(self) -> dict[_Place, _PlaceWordings]:
        """Per place, its wordings split as ``_Alike.of`` reads them (``_PlaceWordings``; a
        line alone at its place on a page is the line of its place there). Split once per
        place, not once per kept line at it: a story's paragraphs share a place, and scanning
        every wording of it for each of them was quadratic in the paragraphs."""
        out: dict[_Place, _PlaceWordings] = {}
        for slot, wordings in self.index.items():
            filled = self.filled[slot]
            eager: list[tuple[_Words, set[int], set[int], set[int]]] = []
            later: list[tuple[_Words, set[int]]] = []
            for words, (prints, keeps) in wordings.items():
                lone = {j for j in prints if filled[j] == 1}
                if len(keeps) == len(prints) and not lone:
                    later.append((words, keeps))
                else:
                    eager.append((words, prints, keeps, lone))
            out[slot] = (eager, later)
        return out


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
    def of(cls, places: dict[_Place, _PlaceWordings], words: _Words,
           slots: tuple[_Place, ...], members: list[tuple[int, int, etree._Element]]) -> _Alike:
        # (the matcher made when a wording is to be matched: a line whose places hold none
        # that any page leaves out or prints alone needs none)
        matcher: difflib.SequenceMatcher | None = None
        # A page that leaves the line out prints a line alike that it does not keep. So the
        # wordings some page leaves out, or prints alone at its place (the recurring lines),
        # are matched first; unless two other pages could leave the line out, no member's
        # verdict needs the other wordings (every page keeps them, none prints one alone: a
        # story's paragraphs, most of what there is to match).
        could: set[int] = set()  # pages printing a line alike that they do not keep
        shown: set[int] = set()
        holding: set[int] = set()
        alone: dict[_Place, set[int]] = defaultdict(set)
        for slot in slots:
            for other, prints, keeps, lone in places[slot][0]:
                if matcher is None:
                    matcher = difflib.SequenceMatcher(None, b=words, autojunk=False)
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
            assert matcher is not None  # (``could`` holds pages only after a match)
            for slot in slots:
                for other, keeps in places[slot][1]:
                    if _likeness(matcher, other) >= PATTERN_MIN_RATIO:
                        shown |= keeps
                        holding |= keeps
        return cls(left_out, shown, holding, alone)

    def left_out_on(self, k: int, slots: tuple[_Place, ...], lines: _ClusterLines) -> bool:
        """Whether page ``k``'s line is a field line: more other pages leave it out than keep
        it (at least two), or another page, not a copy, prints it alone at its place."""
        held = len(self.holding) - (k in self.holding)  # the line's own page does not count
        out = len(self.shown) - (k in self.shown) - held if self.left_out else 0
        return out >= MIN_CLUSTER_PAGES - 1 and out > held

    def recurs_on(self, k: int, slots: tuple[_Place, ...], lines: _ClusterLines) -> bool:
        """Whether another page, not a copy, prints page ``k``'s line alone at its place
        (``RECUR_MIN_PAGES``; kept only at an edge of the main text, ``_at_edges``)."""
        recur = {j for j in set().union(*(self.alone[slot] for slot in slots
                                          if k in self.alone[slot]))
                 if j != k and not lines.copies(k, j)}
        return len(recur) >= RECUR_MIN_PAGES


def _likeness(matcher: difflib.SequenceMatcher, words: tuple[str, ...]) -> float:
    """``difflib`` ratio of ``words`` to ``matcher``'s line (its second sequence, whose index
    the matcher keeps); 0 as soon as a cheap upper bound shows it under
    ``PATTERN_MIN_RATIO`` (the bounds are the ratio's, so nothing above it is missed)."""
    matcher.set_seq1(words)
    if matcher.real_quick_ratio() < PATTERN_MIN_RATIO or \
            matcher.quick_ratio() < PATTERN_MIN_RATIO:
        return 0.0
    return matcher.ratio()
