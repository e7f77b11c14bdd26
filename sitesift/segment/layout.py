"""A page as a reader sees its nodes (``Layout``): every visible element and every text with a
character that is not white space, depth first, each with where its subtree ends. One walk
makes it; the block tree (``segment.blocks``) is divided from it, and the sibling step
(paper 004) matches its stretches as node strings (``methods.siblings.strings``)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from lxml import etree

from sitesift.parse.dom import BLOCK_TAGS, SKIP_TAGS, is_hidden
from sitesift.parse.signatures import RelaxedLabels, stable_hash

__all__ = [
    "BLOCK_ELEMENT_TAGS", "LIST_CONTROL_TAGS", "TEXT_TAG", "UNLABELLED", "Layout", "Piece",
    "is_visible",
]

#: A text node: (element, "text") for the element's own text, (element, "tail") for the text
#: after it.
Piece = tuple[etree._Element, str]
#: The tag of a text node.
TEXT_TAG = "#text"
#: The label of an element ``Layout.walk`` was not asked to label: no hash.
UNLABELLED = -1

#: Drop-down lists: skipped by the text extractors, but a reader sees them (site menus,
#: archive pickers), so each is a block of its own here, with its options as text.
LIST_CONTROL_TAGS = frozenset({"select", "option", "optgroup"})
#: The elements that are a block of their own when they hold text: block-level ones, and
#: drop-down lists (an element holding such a block is divided into blocks too).
BLOCK_ELEMENT_TAGS = BLOCK_TAGS | {"select"}


def is_visible(el: etree._Element, names: list[str] | None = None) -> bool:
    """Whether ``el`` can hold text a reader sees (an element, not skipped, not hidden).
    ``names``: ``el.keys()`` when the caller has read them (see ``is_hidden``)."""
    tag = el.tag  # (read once: each read makes a new string)
    return (
        isinstance(tag, str)
        and (tag not in SKIP_TAGS or tag in LIST_CONTROL_TAGS)
        and not is_hidden(el, names)
    )


@dataclass(slots=True)
class Layout:
    """A page's visible nodes in depth-first order, text nodes (tag ``TEXT_TAG``) included:
    nothing under a hidden element, a hidden element's tail kept, white space alone no text."""

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
    #: elements whose tag ``walk`` was not asked to label.
    labels: list[int] = field(default_factory=list)
    #: Positions of each text (by hash) and of each label's elements, in order.
    at_text: dict[int, list[int]] = field(default_factory=dict)
    at_label: dict[int, list[int]] = field(default_factory=dict)
    #: Each node's element, or a text node's piece.
    holders: list[etree._Element | Piece] = field(default_factory=list)
    #: Sums of ``weights`` before each position, made on first use (``sums``).
    _before: list[int] | None = None

    @staticmethod
    def start(root: etree._Element) -> etree._Element:
        """Where the layout of the page under ``root`` starts: its ``<body>``, else ``root``."""
        body = root.find("body") if root.tag == "html" else root
        return root if body is None else body

    @classmethod
    def walk(cls, body: etree._Element, labels: RelaxedLabels | None = None,
             codes: dict[str, tuple[int, int]] | None = None,
             labelled: frozenset[str] | None = None) -> Layout:
        """The layout of the page under ``body``. ``labels`` and ``codes`` (a text's hash and
        weight, by the text as it stands) are memos a caller may share between the pages of
        a site: most of a site's texts are its template's, on every page (70 % of the texts
        of big9-2005, big9-2009 and cleanportal's 251 pages were seen on an earlier page of
        their site). ``labelled``: the tags whose elements get their label (the others
        ``UNLABELLED``, in no ``at_label``), None: all."""
        labels = labels or RelaxedLabels()
        codes = {} if codes is None else codes
        out = cls()
        # (``_node`` and ``_text`` inlined, the lists bound to locals: this walk visits every
        # element and text of every page of the site)
        tags, depths, ends, parents = out.tags, out.depths, out.ends, out.parents
        texts, weights, label_hashes = out.texts, out.weights, out.labels
        holders, at_text, at_label = out.holders, out.at_text, out.at_label
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
            holders.append(piece)
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
                holders.append(el)
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

    def sums(self) -> list[int]:
        """``weights`` summed before each position (made once: a layout is complete once
        ``walk`` returns it): a stretch's text weight is two look-ups."""
        if self._before is None:
            self._before = [0, *itertools.accumulate(self.weights)]
        return self._before

    def measures(self) -> tuple[list[int], list[bool]]:
        """Each element's link weight (all of an ``<a>``'s text, else its element children's
        summed) and whether it holds a block (a child that does, or is of
        ``BLOCK_ELEMENT_TAGS`` with text), summed up from the leaves."""
        tags, ends, parents = self.tags, self.ends, self.parents
        before = self.sums()
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
        return links, holds
