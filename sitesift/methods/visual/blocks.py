"""Step 1 of paper 002 (An & Xu 2010): the visual blocks. ``_Page`` reads a ``Rendering``
into per-element aggregates (text, links, images, flatness), bottom-up; ``divide_all`` cuts the
page into blocks top-down, one layer per division (VIPS, block part only): a block holding
block-level children is divided into them, a chain of single-child wrappers is looked through,
adjacent undividable children of one look with no wide gap between them make one block."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sitesift.parse.dom import normalize_space, text_weight
from sitesift.render.browser import VIEWPORT, Element, Rendering, TextPiece
from sitesift.segment.tree import leaves

__all__ = ["Block", "Segmentation", "divide_all"]

#: Displays laid out within a line: such children do not make their parent divisible.
INLINE_DISPLAYS = frozenset({"inline", "inline-block", "contents", "ruby", "inline-flex"})
#: A vertical gap of more than this many font sizes between two blocks of one look is a
#: separator (VIPS): they stay two blocks (paragraph margins are about one font size).
SEPARATOR_EMS = 2.5


@dataclass(slots=True)
class _Unit:
    """An element, or a text node of a parent that also has block children."""

    element: int  # the element, or for a text piece its parent
    piece: TextPiece | None
    order: int  # document order
    box: tuple[float, float, float, float]  # x0, y0, x1, y1
    text: int = 0  # characters without white space
    link_text: int = 0
    links: int = 0
    images: int = 0
    flat: bool = True  # nothing block-level inside: never divided
    inline: bool = True


@dataclass(slots=True)
class Block:
    """A visual block: adjacent units, with what the rules read. ``decision`` is ``kept``,
    the rule that pruned it (``R1``..``R5``), ``title`` or ``time``."""

    units: list[_Unit]
    layer: int
    parent: Block | None = None
    children: list[Block] = field(default_factory=list)
    decision: str = "kept"
    #: Set when pruning: the rule fired on this block itself (not inherited from a parent).
    own_rule: bool = False

    @property
    def box(self) -> tuple[float, float, float, float]:
        xs0, ys0, xs1, ys1 = zip(*(u.box for u in self.units), strict=True)
        return min(xs0), min(ys0), max(xs1), max(ys1)

    @property
    def center(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return (x0 + x1) / 2, (y0 + y1) / 2

    @property
    def order(self) -> int:
        return self.units[0].order

    @property
    def text_length(self) -> int:
        return sum(u.text for u in self.units)

    @property
    def links(self) -> int:
        return sum(u.links for u in self.units)

    @property
    def images(self) -> int:
        return sum(u.images for u in self.units)

    @property
    def ratio(self) -> float:
        """F: characters outside links per link (infinite without links)."""
        links = self.links
        plain = sum(u.text - u.link_text for u in self.units)
        return plain / links if links else float("inf")

    def leaves(self) -> list[Block]:
        return leaves(self)


@dataclass(slots=True)
class Segmentation:
    """What the visual method found on one page."""

    root: Block
    body: list[Block]
    title: Block | None
    time: str | None
    texts: dict[int, str]  # block id -> its text, for the blocks read

    @property
    def text(self) -> str:
        return "\n\n".join(self.texts[id(b)] for b in self.body if self.texts[id(b)])

    @property
    def title_text(self) -> str | None:
        return self.texts.get(id(self.title)) if self.title else None


class _Page:
    """A rendering with per-element aggregates (text, links, images, flatness), bottom-up."""

    def __init__(self, rendering: Rendering) -> None:
        self.r = rendering
        els = rendering.elements
        n = len(els)
        self.width = max(rendering.width, VIEWPORT["width"])
        self.text = [0] * n
        self.link_text = [0] * n
        self.links = [0] * n
        self.images = [0] * n
        self.flat = [True] * n
        #: Extent: the box of an element's visible text and images, where a reader sees it
        #: (an element's own box can be a full-width paragraph of short lines, or of height 0
        #: around floats); None for an element showing nothing.
        self.extent: list[tuple[float, float, float, float] | None] = [None] * n
        self.order = [0] * n
        #: The element (self or descendant) with the most text of its own: its look is what a
        #: reader sees of the element (a menu of blue links in a black-text div is blue).
        self.reader: list[int] = list(range(n))
        self.piece_order: dict[tuple[int, int], int] = {}
        self._number(els)
        own = [0] * n  # each element's own visible text
        for el in reversed(els):  # children come after their parent
            self._aggregate(el, own)

    def _number(self, els: Sequence[Element]) -> None:
        """Pre-order numbers of the elements and their text pieces (reading order)."""
        counter = 0
        stack = [0] if els else []
        while stack:
            i = stack.pop()
            self.order[i] = counter
            counter += 1
            for pos, kid in enumerate(els[i].children):
                if isinstance(kid, TextPiece):
                    self.piece_order[(i, pos)] = counter
                    counter += 1
            stack.extend(k for k in reversed(els[i].children) if isinstance(k, int))

    def _aggregate(self, el: Element, own: list[int]) -> None:
        """``el``'s text, links, images, extent, reader and flatness from its own text pieces
        and its children's aggregates (already computed)."""
        els = self.r.elements
        i = el.index
        text = images = links = link_text = 0
        flat = True
        boxes = [(el.x, el.y, el.x + el.width, el.y + el.height)] \
            if el.tag == "img" and el.width * el.height > 1 else []
        for kid in el.children:
            if isinstance(kid, TextPiece):
                if self._visible_piece(kid):
                    own[i] += text_weight(kid.text)
                    boxes.append((kid.x, kid.y, kid.x + kid.width, kid.y + kid.height))
                continue
            if own[self.reader[kid]] > own[self.reader[i]]:
                self.reader[i] = self.reader[kid]
            if self.extent[kid] is not None:
                boxes.append(self.extent[kid])  # type: ignore[arg-type]
            text += self.text[kid]
            images += self.images[kid]
            links += self.links[kid]
            link_text += self.link_text[kid]
            flat = flat and self.flat[kid] and els[kid].display in INLINE_DISPLAYS
        text += own[i]
        if el.tag == "img" and el.width * el.height > 1:
            images += 1
        if el.tag == "a" and (text or images):
            links, link_text = 1 + links, text
        if boxes:
            xs0, ys0, xs1, ys1 = zip(*boxes, strict=True)
            self.extent[i] = min(xs0), min(ys0), max(xs1), max(ys1)
        self.text[i], self.images[i] = text, images
        self.links[i], self.link_text[i] = links, link_text
        # A wrapper around exactly one flat block and no text is as flat as its child.
        kids = [k for k in el.children if isinstance(k, int)]
        pieces = [k for k in el.children if isinstance(k, TextPiece) and k.text.strip()]
        self.flat[i] = flat or (len(kids) == 1 and not pieces and self.flat[kids[0]])

    def _visible_piece(self, piece: TextPiece) -> bool:
        return (piece.width > 0 and piece.height > 0 and piece.x + piece.width > 0
                and piece.x < self.width and piece.y + piece.height > 0)

    def visible(self, el: Element) -> bool:
        """Laid out on the page: some area, not pushed off-screen (skip links, hidden menus)."""
        box = self.extent[el.index]
        return box is not None and box[2] > 0 and box[0] < self.width and box[3] > 0

    def unit(self, i: int) -> _Unit:
        el = self.r.elements[i]
        return _Unit(i, None, self.order[i], self.extent[i] or (el.x, el.y, el.x, el.y),
                     self.text[i], self.link_text[i], self.links[i], self.images[i],
                     self.flat[i], el.display in INLINE_DISPLAYS)

    def piece_unit(self, parent: int, pos: int, piece: TextPiece) -> _Unit:
        in_link = self._in_link(parent)
        chars = text_weight(piece.text)
        return _Unit(parent, piece, self.piece_order[(parent, pos)],
                     (piece.x, piece.y, piece.x + piece.width, piece.y + piece.height),
                     chars, chars if in_link else 0, 0, 0, True, True)

    def _in_link(self, i: int) -> bool:
        els = self.r.elements
        while i >= 0:
            if els[i].tag == "a":
                return True
            i = els[i].parent
        return False

    def look(self, unit: _Unit) -> tuple[Any, ...]:
        """What makes two adjacent blocks one: font size, weight, colour, background of the
        text a reader sees in them."""
        el = self.r.elements[unit.element]
        seen = self.r.elements[self.reader[unit.element]]
        return round(seen.font_size), seen.font_weight >= 600, seen.color, el.background

    # -- text ------------------------------------------------------------------------------

    def unit_text(self, unit: _Unit) -> str:
        if unit.piece is not None:
            return normalize_space(unit.piece.text)
        parts: list[str] = []
        self._text_into(unit.element, parts)
        return _paragraphs(parts)

    def _text_into(self, i: int, parts: list[str]) -> None:
        """Text of element ``i``, "\\n" marking where a block-level element starts or ends."""
        els = self.r.elements
        stack: list[int | str | TextPiece] = [i]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                parts.append(item)
            elif isinstance(item, TextPiece):
                parts.append(item.text)
            else:
                el = els[item]
                block = el.display not in INLINE_DISPLAYS
                if el.tag == "br":
                    parts.append("\n")
                    continue
                if block:
                    parts.append("\n")
                    stack.append("\n")
                stack.extend(reversed(el.children))


def _paragraphs(parts: list[str]) -> str:
    lines = (normalize_space(line) for line in "".join(parts).split("\n"))
    return "\n\n".join(line for line in lines if line)


# -- 1. block extraction -------------------------------------------------------------------

def divide_all(page: _Page, root: Block) -> None:
    """Divide ``root`` layer by layer down to undividable blocks (VIPS's block part)."""
    layer = [root]
    while layer:
        following = []
        for block in layer:
            block.children = _divide(page, block)
            for child in block.children:
                child.parent = block
            following.extend(block.children)
        layer = following

def _divide(page: _Page, block: Block) -> list[Block]:
    """The blocks ``block`` divides into (none: it is a leaf)."""
    if len(block.units) != 1 or block.units[0].piece is not None or block.units[0].flat:
        return []
    els = page.r.elements
    i = block.units[0].element
    while True:  # look through single-child wrappers
        kids = [k for k in els[i].children
                if isinstance(k, TextPiece) or page.visible(els[k])]
        if len(kids) == 1 and isinstance(kids[0], int) and not page.flat[kids[0]]:
            i = kids[0]
            continue
        break
    units = []
    for pos, kid in enumerate(els[i].children):
        if isinstance(kid, TextPiece):
            if page._visible_piece(kid) and kid.text.strip():
                units.append(page.piece_unit(i, pos, kid))
        elif page.visible(els[kid]):
            units.append(page.unit(kid))
    blocks: list[Block] = []
    last_look: tuple[Any, ...] | None = None
    parent_look = page.look(page.unit(i))
    for unit in units:
        look = page.look(unit) if unit.piece is None else parent_look
        if unit.flat and blocks and last_look is not None and (
                (unit.inline and blocks[-1].units[-1].inline and look[0] == last_look[0])
                or (look == last_look and blocks[-1].units[-1].flat
                    and unit.box[1] - blocks[-1].units[-1].box[3] <= SEPARATOR_EMS * look[0])):
            blocks[-1].units.append(unit)
        else:
            blocks.append(Block([unit], block.layer + 1))
        last_look = look if unit.flat else None
    if len(blocks) == 1 and blocks[0].units == block.units:
        return []
    return blocks
