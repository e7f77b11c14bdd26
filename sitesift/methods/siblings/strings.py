"""Steps 2 and 3 of paper 004: a page as its depth-first node string (``NodeString``: every
visible node with its depth, text nodes included, tag ``#text``), and a block of
``sitesift.segment.blocks`` as the part of that string to match (``_Subtree``)."""

from __future__ import annotations

import itertools
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import NamedTuple

from lxml import etree

from sitesift.parse.signatures import RelaxedLabels, stable_hash
from sitesift.segment.blocks import BLOCK_ELEMENT_TAGS, Block, Measure, is_visible

__all__ = ["TEXT_TAG", "UNLABELLED", "NodeString", "Piece"]

TEXT_TAG = "#text"
#: The label of an element left unlabelled (``NodeString.of``'s ``labelled``): no hash.
UNLABELLED = -1
#: A text piece is (element, "text") for its own text or (element, "tail") for its tail.
Piece = tuple[etree._Element, str]


# -- 2. node strings -----------------------------------------------------------------------------


@dataclass(slots=True)
class NodeString:
    """A page as its depth-first node string: visible elements and non-blank text nodes."""

    tags: list[str] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)
    #: Index just after each node's subtree (a text node's is its own index + 1).
    ends: list[int] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)
    #: Hash of a text node's folded text (never 0), and its weight (visible characters); 0
    #: for elements.
    texts: list[int] = field(default_factory=list)
    weights: list[int] = field(default_factory=list)
    #: Relaxed label hash (tag, class, id) of elements; 0 for text nodes, ``UNLABELLED`` for
    #: elements whose tag ``of`` was not asked to label.
    labels: list[int] = field(default_factory=list)
    #: Positions of each text (by hash) and of each label's elements, in order: where a
    #: block's texts and a link list's label lie in this page (``SiblingSite``).
    at_text: dict[int, list[int]] = field(default_factory=dict)
    at_label: dict[int, list[int]] = field(default_factory=dict)
    elements: dict[etree._Element, int] = field(default_factory=dict)
    pieces: dict[Piece, int] = field(default_factory=dict)
    #: Sums of ``weights`` before each position, made on first use (``text_weight``).
    _before: list[int] | None = None
    #: Positions of the text nodes, made on first use (``text_nodes``).
    _text_at: list[int] | None = None

    @staticmethod
    def start(root: etree._Element) -> etree._Element:
        """Where the string of the page under ``root`` starts: its ``<body>``, else ``root``."""
        body = root.find("body") if root.tag == "html" else root
        return root if body is None else body

    @classmethod
    def of(cls, root: etree._Element, labels: RelaxedLabels | None = None,
           codes: dict[str, tuple[int, int]] | None = None,
           labelled: frozenset[str] | None = None) -> NodeString:
        """The node string of the page under ``root`` (from ``start``). ``labels`` and
        ``codes`` (a text's hash and weight, by the text as it stands) are memos the caller
        may share between the pages of a site: most of a site's texts are its template's, on
        every page (70 % of the texts of big9-2005, big9-2009 and cleanportal's 251 pages
        were seen on an earlier page of their site). ``labelled``: the tags whose elements
        get their label (the others ``UNLABELLED``, in no ``at_label``), None: all."""
        body = cls.start(root)
        labels = labels or RelaxedLabels()
        codes = {} if codes is None else codes
        out = cls()
        # (``_node`` and ``_text`` inlined, the lists bound to locals: this walk visits every
        # element and text of every page of the site)
        tags, depths, ends, parents = out.tags, out.depths, out.ends, out.parents
        texts, weights, label_hashes = out.texts, out.weights, out.labels
        elements, pieces, at_text, at_label = out.elements, out.pieces, out.at_text, out.at_label
        open_: list[int] = []

        def text_node(text: str, piece: Piece) -> None:
            code = codes.get(text)
            if code is None:
                # ``normalize_space`` and ``text_weight`` of one split (the same characters;
                # not empty: ``split`` and ``isspace`` know the same white space)
                words = text.split()
                code = codes[text] = (stable_hash(" ".join(words)) or 1,  # (0: an element)
                                      len("".join(words)))
            h, weight = code
            pos = len(tags)
            pieces[piece] = pos
            tags.append(TEXT_TAG)
            depths.append(len(open_))
            ends.append(pos + 1)
            parents.append(open_[-1])
            texts.append(h)
            places = at_text.get(h)
            if places is None:
                at_text[h] = [pos]
            else:
                places.append(pos)
            weights.append(weight)
            label_hashes.append(0)

        # lxml's own walk (C): a skipped subtree's only event after its start is its end; a
        # comment or processing instruction comes as one event, and only its tail is text.
        walker = etree.iterwalk(body, events=("start", "end", "comment", "pi"))
        skipped = False
        for event, el in walker:
            if event == "start":
                names = el.keys()  # (read once for the hidden test and the label)
                if not is_visible(el, names):
                    walker.skip_subtree()
                    skipped = True
                    continue
                pos = len(tags)
                tag = el.tag
                tags.append(tag)
                depths.append(len(open_))
                ends.append(pos + 1)
                parents.append(open_[-1] if open_ else -1)
                texts.append(0)
                weights.append(0)
                if labelled is None or tag in labelled:
                    label = labels.get(el, names)[1]
                    at_label.setdefault(label, []).append(pos)
                else:
                    label = UNLABELLED
                label_hashes.append(label)
                elements[el] = pos
                open_.append(pos)
                text = el.text
                if text and not text.isspace():  # (white space alone: no text node)
                    text_node(text, (el, "text"))
                continue
            if event == "end":
                if skipped:
                    skipped = False
                else:
                    ends[open_.pop()] = len(tags)
            text = el.tail
            if text and not text.isspace() and el is not body and open_:
                text_node(text, (el, "tail"))
        return out

    def text_weight(self, start: int, stop: int) -> int:
        """Text weight of the nodes ``start`` to ``stop`` (excluded), from running sums: a
        block's text is summed for each of its candidate matches."""
        before = self._sums()
        return before[stop] - before[start]

    def _sums(self) -> list[int]:
        """``weights`` summed before each position (made once: a string is complete once
        ``of`` returns it)."""
        if self._before is None:
            self._before = [0, *itertools.accumulate(self.weights)]
        return self._before

    def text_nodes(self, start: int, stop: int) -> list[int]:
        """Positions of the text nodes from ``start`` to ``stop`` (excluded), in order: a
        block's texts are read for each of its blocks above it too, and most nodes are
        elements."""
        at = self._text_at
        if at is None:  # (a string is complete once ``of`` returns it)
            at = self._text_at = [p for p, h in enumerate(self.texts) if h]
        lo = bisect_left(at, start)
        return at[lo:bisect_left(at, stop, lo)]

    def measure(self) -> Measure:
        """The block measures of the page's elements (``Measure.of`` of the same untouched
        tree), read off the string instead of walking the tree again: an element's weight is
        the text weight of its stretch (its text, its descendants' texts and tails, each
        child's tail: the string holds every text and tail of a visible element, a hidden
        child's tail too, and nothing under a hidden element); its link weight all of it for
        an ``<a>``, else the sum of its element children's; and it holds a block when a child
        does or is block-level with text."""
        tags, ends, parents = self.tags, self.ends, self.parents
        before = self._sums()
        links = [0] * len(tags)
        holds = [False] * len(tags)
        for pos in range(len(tags) - 1, -1, -1):  # children before their parents
            tag = tags[pos]
            if tag == TEXT_TAG:
                continue
            if tag == "a":
                links[pos] = before[ends[pos]] - before[pos]
            up = parents[pos]
            if up >= 0:
                links[up] += links[pos]
                if holds[pos] or (tag in BLOCK_ELEMENT_TAGS and before[ends[pos]] > before[pos]):
                    holds[up] = True
        return Measure(self.elements, [before[end] - before[p] for p, end in enumerate(ends)],
                       links, holds)

    def ancestor(self, pos: int, levels: int) -> int:
        for _ in range(levels):
            pos = self.parents[pos]
            if pos < 0:
                break
        return pos


class _Subtree(NamedTuple):
    """A block as the part of its page's node string to match: T = string[start:stop], depths
    relative to ``base`` (the block's element, or for a run the element it sits in). (A named
    tuple: a frozen dataclass's ``__init__`` was 4 % of the sibling step.)"""

    start: int
    stop: int
    base: int
    #: Whether the base node is T[0] (an element block) or T's parent (a run).
    rooted: bool


def _subtree(string: NodeString, block: Block) -> _Subtree | None:
    if not block.is_run:
        pos = string.elements.get(block.owner)
        return None if pos is None else _Subtree(pos, string.ends[pos], pos, True)
    if not block.pieces:
        return None
    first, last = block.pieces[0], block.pieces[-1]
    start = string.elements.get(first[0]) if first[1] == "node" else string.pieces.get(first)
    stop = string.elements.get(last[0]) if last[1] == "node" else string.pieces.get(last)
    base = string.elements.get(block.owner)
    if start is None or stop is None or base is None:
        return None
    return _Subtree(start, string.ends[stop], base, False)
