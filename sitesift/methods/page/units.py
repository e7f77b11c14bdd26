"""The text units of a page and their measures: what every later stage of the page method
counts with.

``segment`` cuts a cleaned body into *units*, runs of inline text between block boundaries,
and measures each once: characters without white space (CJK counted ``CJK_WEIGHT`` times, so
Chinese and English pages compare), characters inside links, sentence punctuation (ASCII and
CJK). ``Unit.is_prose`` reads prose from these measures alone; the container chooser
(``choose``), the pruner (``prune``), the teaser marks (``teasers``) and the page type
(``types``) all score elements by summing units, so the measures live here, below them.
``prose_weights`` and ``best_sibling_run`` are the two sums they share.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from lxml import etree

from sitesift.parse.dom import (
    BLOCK_TAGS,
    HEADING_TAGS,
    cjk_count,
    punctuation_count,
    text_weight,
    up_sums,
)

# ---- thresholds (tuned on the dev sets, scored by `sitesift bench`) -------------------------
#: CJK characters carry about three times the information of a Latin letter, so a unit's
#: length counts each of them this many times over.
CJK_WEIGHT = 3
#: A unit at least this long (weighted characters) with punctuation reads as prose.
PROSE_MIN_LENGTH = 60
#: A unit with at least this many punctuation marks reads as prose even when short.
PROSE_MIN_PUNCT = 2
#: Colons count as punctuation only from this many in one unit (see ``Unit.colons``).
PROSE_MIN_COLONS = 6
#: Units whose link share exceeds this are navigation, whatever their length.
PROSE_MAX_LINK_SHARE = 0.45


def weighted_length(text: str) -> int:
    """Characters without white space, CJK counted ``CJK_WEIGHT`` times (a Chinese headline
    of 8 characters is as long as an English one of 24): how every cue of the page method
    weighs a headline, a name or a line."""
    return text_weight(text) + (CJK_WEIGHT - 1) * cjk_count(text)


ELLIPSIS = re.compile(r"(\.\.\.|…)\s*(\]|\)|»)?\s*$")


def cut_off(text: str) -> bool:
    """Whether ``ELLIPSIS.search(text)`` matches: the text ends with an ellipsis, maybe
    closed by a bracket or "»", white space around. Read from the end, where the search
    tries every position of a paragraph (``str.rstrip`` and the pattern's ``\\s`` strip the
    same white space, and a match's end is the text's once that is gone)."""
    end = text.rstrip()
    if end.endswith(_CUT_OFF):
        return True
    return end.endswith(("]", ")", "»")) and end[:-1].rstrip().endswith(_CUT_OFF)


_CUT_OFF = ("...", "…")


@dataclass(slots=True)
class Unit:
    """One run of inline text of a block element: its text between nested blocks (a block
    with a dateline, then paragraphs, then a "Share" label has three runs)."""

    block: etree._Element
    chars: int = 0
    cjk: int = 0
    link_chars: int = 0
    #: Sentence punctuation other than colons.
    punct: int = 0
    #: Colons end labels ("Source:", "来源：") as often as they join clauses; only several of
    #: them (a list of "key: value" lines) count as punctuation.
    colons: int = 0
    pieces: list[str] = field(default_factory=list)
    #: Set by ``mark_teasers``: prose that only summarises another page.
    teaser: bool = False
    #: Position of the run's start in document order.
    seq: int = 0
    #: Where the text came from: (element, is_tail), so the run alone can be blanked.
    slots: list[tuple[etree._Element, bool]] = field(default_factory=list)

    @property
    def weight(self) -> int:
        """Length with CJK characters weighted up: comparable information across scripts."""
        return self.chars + (CJK_WEIGHT - 1) * self.cjk

    @property
    def link_share(self) -> float:
        return self.link_chars / self.chars if self.chars else 0.0

    @property
    def link_weight(self) -> float:
        return self.weight * self.link_share

    @property
    def marks(self) -> int:
        """Punctuation that speaks for prose."""
        return self.punct + (self.colons if self.colons >= PROSE_MIN_COLONS else 0)

    def is_prose(self) -> bool:
        if self.teaser or self.block.tag in HEADING_TAGS:  # headings title the prose
            return False
        if self.link_share > PROSE_MAX_LINK_SHARE:
            # Heavily linked prose: still prose when the text outside links is a sentence.
            return (self.chars - self.link_chars) * self.weight / self.chars >= PROSE_MIN_LENGTH \
                and self.marks >= PROSE_MIN_PUNCT
        if self.weight >= PROSE_MIN_LENGTH and self.marks >= 1:
            return True
        return self.marks >= PROSE_MIN_PUNCT and self.weight >= PROSE_MIN_LENGTH // 2


#: A text's measures: (characters without white space, CJK characters, colons, punctuation
#: marks other than colons).
Measures = dict[str, tuple[int, int, int, int]]


def _measures_of(text: str) -> tuple[int, int, int, int]:
    chars = text_weight(text)
    if not chars:
        return 0, 0, 0, 0
    colons = text.count(":") + text.count("：")
    return chars, cjk_count(text), colons, punctuation_count(text) - colons


def _measure(run: list, el: etree._Element, is_tail: bool, in_link: bool,
             memo: Measures, text: str | None) -> None:
    """Add ``text``, ``el``'s tail or text, to the open run ``run`` of ``segment``
    (``[block, seq, unit]``), making its unit with the first text that counts."""
    if not text:
        return
    measures = memo.get(text)
    if measures is None:
        measures = memo[text] = _measures_of(text)
    chars, cjk, colons, punct = measures
    if not chars:
        return
    unit = run[2]
    if unit is None:
        unit = run[2] = Unit(run[0], seq=run[1])
    unit.chars += chars
    unit.cjk += cjk
    unit.colons += colons
    unit.punct += punct
    if in_link:
        unit.link_chars += chars
    unit.pieces.append(text)
    unit.slots.append((el, is_tail))


def segment(body: etree._Element, memo: Measures | None = None) -> list[Unit]:
    """Text runs in document order: the inline text of block elements, cut at nested blocks.
    ``memo``: the measures of texts met before (a page is segmented several times as it is
    pruned: the same texts come back, and measuring them is most of a walk's cost)."""
    if memo is None:
        memo = {}
    units: list[Unit] = []
    # The open runs, innermost last: [block, seq, unit]; the unit is made when the run's first
    # text comes (most blocks hold none of their own: only nested blocks, or nothing).
    stack: list[list] = [[body, 0, None]]
    counter = itertools.count(1)
    link_depth = 0
    # libxml2's own walk (the text after "start", the tail after "end"); most texts and tails
    # are empty or white space, checked here before any measuring.
    for event, el in etree.iterwalk(body, events=("start", "end")):
        tag = el.tag
        if not isinstance(tag, str):
            tag = ""
        if event == "start":
            if el is body:
                _measure(stack[-1], el, False, False, memo, el.text)
                continue
            if tag in BLOCK_TAGS:
                outer = stack[-1]
                if outer[2] is not None:  # close the run before this block; a new one may follow
                    units.append(outer[2])
                    outer[1], outer[2] = 0, None
                stack.append([el, next(counter), None])
            elif tag == "a":
                link_depth += 1
            text = el.text
            if text and not text.isspace():
                _measure(stack[-1], el, False, link_depth > 0, memo, text)
        else:
            if el is body:
                continue
            if tag in BLOCK_TAGS:
                unit = stack.pop()[2]
                if unit is not None:
                    units.append(unit)
                if stack[-1][2] is None:
                    stack[-1][1] = next(counter)  # the outer run resumes after this block
            elif tag == "a":
                link_depth -= 1
            tail = el.tail
            if tail and not tail.isspace():
                _measure(stack[-1], el, True, link_depth > 0, memo, tail)
    if stack and stack[0][2] is not None:
        units.append(stack[0][2])
    units.sort(key=lambda u: u.seq)
    return units


def blank(unit: Unit) -> None:
    """Remove one run's text, leaving the rest of its block (and nested blocks) in place."""
    for el, is_tail in unit.slots:
        if is_tail:
            el.tail = None
        else:
            el.text = None


def signature(el: etree._Element) -> tuple[str, str]:
    return (el.tag, el.get("class") or "")


def prose_weights(body: etree._Element, units: list[Unit]) -> dict[etree._Element, int]:
    """Prose weight under every element of ``body`` that holds some: each prose block's
    weight added up its ancestors (a few hundred blocks, where summing bottom-up visits
    every element of the page)."""
    own: dict[etree._Element, int] = {}
    for unit in units:
        if unit.is_prose():
            own[unit.block] = own.get(unit.block, 0) + unit.weight
    return up_sums(body, own)


def best_sibling_run(scores: list[float]) -> tuple[float, int, int]:
    """Maximum-sum run ``scores[start:end]`` (Kadane): contiguous children worth keeping."""
    best, best_start, best_end = float("-inf"), 0, 0
    run, start = 0.0, 0
    for i, value in enumerate(scores):
        if run <= 0:
            run, start = value, i
        else:
            run += value
        if run > best:
            best, best_start, best_end = run, start, i + 1
    return best, best_start, best_end
