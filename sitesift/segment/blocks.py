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
    START,
    normalize_space,
    walk,
)
from sitesift.segment.layout import BLOCK_ELEMENT_TAGS, TEXT_TAG, Layout, Piece, is_visible
from sitesift.segment.tree import leaves

__all__ = [
    "Block", "Judged", "Kept", "blocks_of", "is_visible", "labelled_blocks", "segment_blocks",
]


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
    pieces: tuple[Piece, ...] = ()
    children: list[Block] = field(default_factory=list)
    #: Where it lies in its page's ``Layout``: its nodes are ``start`` to ``stop``
    #: (excluded), its element (a run's: the one it sits in) at ``base``; -1: nowhere (a
    #: hidden page).
    start: int = -1
    stop: int = -1
    base: int = -1

    @property
    def link_density(self) -> float:
        return self.link_weight / self.weight if self.weight else 0.0

    def leaves(self) -> list[Block]:
        """The finest blocks under this one (itself when it is a leaf), in page order."""
        return leaves(self)


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


def segment_blocks(
    root: etree._Element, *, texts: bool = True, layout: Layout | None = None,
) -> Block:
    """The block tree of the page under ``root`` (its ``<body>`` when there is one). Reads the
    tree, never edits it. ``texts=False``: the blocks' ``text`` and ``xpath`` are left empty;
    the sibling step reads their places and weights only, and the texts and paths of every
    block were a third of the time here (``labelled_blocks`` needs them). ``layout``: the
    ``Layout`` of the untouched tree, when the caller has it (made here otherwise)."""
    body = Layout.start(root)
    top = blocks_of(body, layout if layout is not None else Layout.walk(body))
    if texts:
        _name(top, root.getroottree())
    return top


def blocks_of(body: etree._Element, layout: Layout) -> Block:
    """The block tree of a page's ``layout`` (``body``: where it starts), without texts or
    paths; it reads the layout alone, never the tree.

    A visible element holding a block is divided: each child with text that is block-level
    or holds a block becomes a block, and what lies between them (texts, and inline
    elements with text) a run; the others are leaves."""
    tags, ends, holders, before = layout.tags, layout.ends, layout.holders, layout.sums()
    links, holds = layout.measures()
    if not tags:  # (a hidden page: one leaf without text)
        return Block("", body, (body,), "", 0, 0)
    top = Block("", body, (body,), "", before[ends[0]], links[0], start=0, stop=ends[0],
                base=0)
    stack = [top]
    while stack:
        block = stack.pop()
        p = block.base
        if not holds[p]:
            continue
        owner, in_link, children = block.owner, tags[p] == "a", block.children
        # The run being collected: its pieces, weights, and from where to where it lies.
        run: list[Piece] = []
        weight = link = first = stop = 0
        q, end = p + 1, ends[p]
        while q < end:
            after = ends[q]
            w = before[after] - before[q]
            if tags[q] == TEXT_TAG:
                if not run:
                    first = q
                run.append(holders[q])  # type: ignore[arg-type]
                weight, stop = weight + w, after
                link += w if in_link else 0
            elif w > 0:
                el = holders[q]
                if tags[q] in BLOCK_ELEMENT_TAGS or holds[q]:
                    if weight:
                        children.append(_run(owner, run, weight, link, first, stop, p))
                        run, weight, link = [], 0, 0
                    below = Block("", el, (el,), "", w, links[q],  # type: ignore[arg-type]
                                  start=q, stop=after, base=q)
                    children.append(below)
                    stack.append(below)
                else:
                    if not run:
                        first = q
                    run.append((el, "node"))  # type: ignore[arg-type]
                    weight, stop = weight + w, after
                    link += links[q]
            q = after
        if weight:
            children.append(_run(owner, run, weight, link, first, stop, p))
    return top


def _run(owner: etree._Element, pieces: list[Piece], weight: int, link: int, start: int,
         stop: int, base: int) -> Block:
    """The run of ``pieces`` (in order) in ``owner``, the element at ``base``."""
    return Block("", owner, tuple(el for el, kind in pieces if kind == "node"), "", weight, link,
                 is_run=True, pieces=tuple(pieces), start=start, stop=stop, base=base)


def _name(top: Block, tree: etree._ElementTree) -> None:
    """The paths and texts of the blocks of ``top``, read off the (untouched) tree: an element
    block's path is its element's, a run's that of its first piece (a text's as libxml2
    numbers the text nodes); a leaf's text is what a reader sees of it, a divided block's its
    children's texts joined."""
    stack = [top]
    while stack:
        block = stack.pop()
        stack.extend(block.children)
        owner = block.owner
        if not block.is_run:
            block.xpath = tree.getpath(owner)
            if not block.children:
                block.text = _visible_text([owner])
            continue
        el, kind = block.pieces[0]
        block.xpath = (tree.getpath(el) if kind == "node"
                       else f"{tree.getpath(owner)}/text()[1]" if kind == "text"
                       else f"{tree.getpath(owner)}/text()[{_text_index(owner, owner.index(el))}]")
        block.text = _visible_text([
            (el.text or "") if kind == "text" else (el.tail or "") if kind == "tail" else el
            for el, kind in block.pieces])
    _fill_texts(top)


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
# the segment stage imports no method (docs/design/architecture.md).
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
