"""Block segmentation without a browser: a DOM approximation of VIPS.

VIPS cuts a rendered page into visual blocks at block-level boundaries and separators, then
keeps dividing a block while it is not coherent. Without rendering, the DOM gives the same cuts
where the visual layout follows the markup (nearly always for text):

* a block-level element (``BLOCK_TAGS``) that holds text is a block; an element whose text
  contains no block-level element is a *leaf* (one paragraph, list item, cell, heading);
* inside a block, text that sits between block-level children (``<td>text<br>more<div>``) is a
  *run*: a leaf block of its own made of the loose text and the inline elements around it, so
  no visible text is ever outside a leaf;
* hidden elements and ``SKIP_TAGS`` (scripts, styles, forms, media) are no part of any block;
  blocks without visible text are left out.

The result is a tree (``Block.children``); ``Block.leaves()`` are the finest blocks in page
order, each with its XPath, text and link density, which is what ``--blocks`` prints and what
the noise-block scorer compares with gold blocks. The site methods decide top-down on it: a
whole subtree may be noise (paper 004 matches VIPS subtrees), else its children are decided.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from lxml import etree

from sitesift.parse.dom import (
    BLOCK_TAGS,
    SKIP_TAGS,
    START,
    is_hidden,
    normalize_space,
    text_weight,
    walk,
)
from sitesift.segment.tree import leaves

__all__ = [
    "BLOCK_ELEMENT_TAGS", "Block", "Judged", "Kept", "Measure", "is_visible", "labelled_blocks",
    "segment_blocks",
]


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


@dataclass(eq=False, slots=True)
class Block:
    """One block. ``owner`` is its element; for a run, the element the run's text sits in,
    and ``nodes`` the inline elements of the run (for an element block, ``(owner,)``)."""

    xpath: str
    owner: etree._Element
    nodes: tuple[etree._Element, ...]
    text: str
    #: Visible characters without white space, and those inside links.
    weight: int
    link_weight: int
    is_run: bool = False
    #: For a run: its pieces in order, each (element, kind) with kind "text" (the element's
    #: own text), "tail" (the text after it) or "node" (the element itself).
    pieces: tuple[tuple[etree._Element, str], ...] = ()
    children: list[Block] = field(default_factory=list)

    @property
    def link_density(self) -> float:
        return self.link_weight / self.weight if self.weight else 0.0

    def leaves(self) -> list[Block]:
        """The finest blocks under this one (itself when it is a leaf), in page order."""
        return leaves(self)


class Measure:
    """Visible text weight, link weight and "holds a block-level element with text" of every
    visible element: ``at[el]`` indexes the three lists (``of``: one bottom-up pass, no
    recursion). A walk of its own made this once per page beside the sibling step's node
    string, which holds the same (its ``measure``: the text of an element's stretch of the
    string, the string's positions as the index)."""

    def __init__(self, at: Mapping[etree._Element, int], weight: list[int], link: list[int],
                 holds: list[bool]) -> None:
        self.at, self.weight, self.link, self.holds = at, weight, link, holds

    @classmethod
    def of(cls, root: etree._Element) -> Measure:
        at: dict[etree._Element, int] = {}
        weights: list[int] = []
        links: list[int] = []
        holds: list[bool] = []
        # (lists bound to locals and ``text_weight`` inlined: every element of every page)
        for el in reversed(list(root.iter(etree.Element))):
            if not is_visible(el):
                continue
            text = el.text
            weight = len("".join(text.split())) if text else 0
            link = 0
            has_block = False
            for child in el:
                tail = child.tail
                if tail:
                    weight += len("".join(tail.split()))
                below = at.get(child)
                if below is not None:
                    weight += weights[below]
                    link += links[below]
                    has_block = has_block or holds[below] or (
                        child.tag in BLOCK_ELEMENT_TAGS and weights[below] > 0
                    )
            at[el] = len(weights)
            weights.append(weight)
            links.append(weight if el.tag == "a" else link)
            holds.append(has_block)
        return cls(at, weights, links, holds)

    def get(self, el: etree._Element) -> tuple[int, int, bool] | None:
        """``el``'s weight, link weight and whether it holds a block; None when hidden."""
        p = self.at.get(el)
        return None if p is None else (self.weight[p], self.link[p], self.holds[p])


def _visible_text(items: list[etree._Element | str]) -> str:
    """Text of ``items`` in order (strings as they are; elements as whole subtrees, their tails
    left out) as a reader sees it: skipped and hidden parts out, spaces folded."""
    parts: list[str] = []
    for node in items:
        if isinstance(node, str):
            parts.append(node)
            continue
        skipping: etree._Element | None = None
        for event, el in walk(node):
            if event == START:
                if skipping is None and isinstance(el.tag, str):
                    if not is_visible(el):
                        skipping = el
                    else:
                        parts.append(el.text or "")
                        if el.tag in BLOCK_TAGS or el.tag in ("br", "option"):
                            parts.append(" ")
            else:
                if el is skipping:
                    skipping = None
                elif skipping is None and isinstance(el.tag, str) and el.tag in BLOCK_TAGS:
                    parts.append(" ")
                if skipping is None and el is not node:
                    parts.append(el.tail or "")
    return normalize_space("".join(parts))


def _text_index(owner: etree._Element, position: int) -> int:
    """1-based XPath index of the text node at ``position`` (-1: ``owner.text``; else the tail
    of child ``position``): libxml2 keeps a text node for every non-empty text and tail."""
    index = 1 if owner.text else 0
    for i, child in enumerate(owner):
        if i > position:
            break
        if child.tail:
            index += 1
    return max(index, 1)


class _Run:
    """The text run being collected between two block-level children of one element."""

    def __init__(self, texts: bool = True) -> None:
        self.texts = texts  # (``segment_blocks``: False leaves the run's text empty)
        self.items: list[etree._Element | str] = []
        self.pieces: list[tuple[etree._Element, str]] = []
        self.xpath = ""
        self.weight = self.link = 0

    def _piece(self, piece: tuple[etree._Element, str], xpath: str) -> None:
        if not self.pieces:
            self.xpath = xpath
        self.pieces.append(piece)

    def add_text(self, text: str, piece: tuple[etree._Element, str], xpath: str,
                 in_link: bool) -> None:
        self._piece(piece, xpath)
        self.items.append(text)
        weight = text_weight(text)
        self.weight += weight
        self.link += weight if in_link else 0

    def add_node(self, el: etree._Element, xpath: str, weight: int, link: int) -> None:
        self._piece((el, "node"), xpath)
        self.items.append(el)
        self.weight += weight
        self.link += link

    def flush(self, block: Block) -> None:
        """Close the run into a leaf child of ``block`` (when it has visible text)."""
        if self.weight > 0 and self.pieces:
            nodes = tuple(x for x in self.items if not isinstance(x, str))
            block.children.append(Block(
                xpath=self.xpath, owner=block.owner, nodes=nodes,
                text=_visible_text(self.items) if self.texts else "", weight=self.weight,
                link_weight=self.link, is_run=True, pieces=tuple(self.pieces),
            ))
        self.__init__(self.texts)  # type: ignore[misc]


def segment_blocks(
    root: etree._Element, *, texts: bool = True, measure: Measure | None = None,
) -> Block:
    """The block tree of the page under ``root`` (its ``<body>`` when there is one). Reads the
    tree, never edits it. ``texts=False``: the blocks' ``text`` and ``xpath`` are left empty;
    the sibling step reads their places and weights only, and the texts and paths of every
    block were a third of the time here (``labelled_blocks`` needs them). ``measure``: the
    ``Measure`` of the untouched tree, when the caller has it (made here otherwise)."""
    body = root.find("body") if root.tag == "html" else root
    if body is None:
        body = root
    tree = root.getroottree()
    if measure is None:
        measure = Measure.of(body)
    at, weights, links, holds = measure.at, measure.weight, measure.link, measure.holds

    def path(el: etree._Element) -> str:
        return tree.getpath(el) if texts else ""

    # (the measures by index, read once for each element; ``Block`` built positionally:
    # every visible block-level element of every page passes here)
    p = at.get(body)  # (None: a hidden body, a leaf without text)
    top = Block(path(body), body, (body,), "", 0 if p is None else weights[p],
                0 if p is None else links[p])
    stack = [(top, p)]
    while stack:
        block, p = stack.pop()
        el = block.owner
        if p is None or not holds[p]:
            block.text = _visible_text([el]) if texts else ""
            continue
        # Divide: block-level children become blocks, what lies between them becomes runs.
        run = _Run(texts)
        in_link = el.tag == "a"
        # (text with a character that is not white space: ``text_weight`` > 0, as
        # ``split`` and ``isspace`` know the same white space)
        text = el.text
        if text and not text.isspace():
            xpath = f"{path(el)}/text()[1]" if texts else ""
            run.add_text(text, (el, "text"), xpath, in_link)
        children = block.children
        for i, child in enumerate(el):
            c = at.get(child)
            if c is not None and weights[c] > 0:
                tag = child.tag  # a child that starts its own block: block-level with text,
                if tag in BLOCK_ELEMENT_TAGS or holds[c]:  # or holding such
                    run.flush(block)
                    below = Block(path(child), child, (child,), "", weights[c], links[c])
                    children.append(below)
                    stack.append((below, c))
                else:
                    run.add_node(child, path(child), weights[c], links[c])
            text = child.tail
            if text and not text.isspace():
                xpath = f"{path(el)}/text()[{_text_index(el, i)}]" if texts else ""
                run.add_text(text, (child, "tail"), xpath, in_link)
        run.flush(block)
    if texts:
        _fill_texts(top)
    return top


def _fill_texts(top: Block) -> None:
    """Text of the blocks that were divided: their children's texts joined."""
    order: list[Block] = []
    stack = [top]
    while stack:
        block = stack.pop()
        order.append(block)
        stack.extend(block.children)
    for block in reversed(order):
        if block.children:
            block.text = " ".join(c.text for c in block.children if c.text)


def _attached_under(el: etree._Element, tops: set[etree._Element]) -> bool:
    node: etree._Element | None = el
    while node is not None:
        if node in tops:
            return True
        node = node.getparent()
    return False


#: Leaves between the headline and the main content that stay content (bylines, datelines,
#: a lead photo's caption): short and not link lists. Tuned on l3s-gn1 (gold "supplemental").
HEADER_MAX_WEIGHT = 200
HEADER_MAX_LINK_DENSITY = 0.5
_ALNUM = re.compile(r"[^\w]+")


def _fold(text: str) -> str:
    return _ALNUM.sub("", text.lower())


def _headline(leaves: list[Block], title: str | None) -> int | None:
    """Index of the leaf that shows the page's title (its headline), if one does."""
    want = _fold(title or "")
    if len(want) < 8:
        return None
    for k, leaf in enumerate(leaves):
        have = _fold(leaf.text)
        if have and (have == want or (want in have and len(have) <= 1.5 * len(want))):
            return k
    return None


# What ``labelled_blocks`` reads of the stages above this one, typed by their parts so that
# the segment stage imports no method (docs/architecture.md).
class Kept(Protocol):
    """The page extractor's choice (``methods.page.content.Content`` is one)."""

    @property
    def nodes(self) -> tuple[etree._Element, ...]: ...


class Judged(Protocol):
    """A site method's verdict on a block (``methods.siblings.site.Verdict`` is one)."""

    @property
    def reason(self) -> str: ...


def labelled_blocks(
    top: Block, content: Kept, verdicts: Mapping[int, Judged] | None = None,
    *, title: str | None = None,
) -> list[dict[str, str]]:
    """The ``--blocks`` output: one {"xpath", "text", "label", "reason"} per leaf block, in page
    order. ``top`` was segmented before extraction. A leaf is noise when a site method judged
    it so (``verdicts`` by ``id(block)``, inherited by the leaves of a noise block) or when
    the page extractor left it out of the main content, except the headline (the leaf showing
    ``title``, which records carry apart from the text) and the short, unlinked leaves between
    it and the main content (byline, date, caption): content otherwise."""
    tops = set(content.nodes)
    inherited: dict[int, str] = {}
    stack = [top]
    while stack:
        block = stack.pop()
        verdict = verdicts.get(id(block)) if verdicts else None
        if verdict is not None:
            for leaf in block.leaves():
                inherited[id(leaf)] = verdict.reason
        else:
            stack.extend(block.children)
    leaves = top.leaves()
    out = []
    for leaf in leaves:
        reason = inherited.get(id(leaf))
        if reason is None:
            inside = _attached_under(leaf.owner, tops) and all(
                _attached_under(n, tops) for n in leaf.nodes)
            label, reason = ("content", "in the main content") if inside else (
                "noise", "outside the main content")
        else:
            label = "noise"
        out.append({"xpath": leaf.xpath, "text": leaf.text, "label": label, "reason": reason})
    inside = [k for k, b in enumerate(out) if b["reason"] == "in the main content"]
    if inside:  # captions and credits the extractor pruned from within the main content
        for k in range(inside[0] + 1, inside[-1]):
            leaf = leaves[k]
            if (out[k]["reason"] == "outside the main content"
                    and leaf.weight <= HEADER_MAX_WEIGHT
                    and leaf.link_density <= HEADER_MAX_LINK_DENSITY):
                out[k].update(label="content", reason="within the main content")
    head = _headline(leaves, title)
    if head is not None and out[head]["reason"] == "outside the main content":
        out[head].update(label="content", reason="the page's headline")
    if head is not None:
        for k in range(head + 1, len(out)):
            if out[k]["label"] == "content":
                break
            leaf = leaves[k]
            if out[k]["reason"] != "outside the main content":
                continue
            if (leaf.weight <= HEADER_MAX_WEIGHT
                    and leaf.link_density <= HEADER_MAX_LINK_DENSITY):
                out[k].update(label="content",
                              reason="between the headline and the main content")
    return out
