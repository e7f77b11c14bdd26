"""Paper 002 (An & Xu 2010): vision-based blocks, pruned layer by layer; title and time by
visual cues. Reads a ``Rendering`` (boxes and computed styles from ``sitesift.render``).

1. Block extraction (VIPS, block part only). The page is divided top-down: a block that holds
   block-level children is divided into them; a chain of single-child wrappers is looked
   through; a block whose children are all inline ("text and virtual text nodes") is not
   divided. Inline children of one font size make one line block; adjacent undividable
   children with the same look (font size, weight, colour,
   background) and no wide gap between them form one block, as VIPS's separators would join
   them: a run of paragraphs, a menu of list items. Each division is one *layer*.
2. Layer-by-layer pruning. After each layer, every new block is tested, with the page's
   content area spanning (WIDTH, HEIGHT) and the block's centre at (Center_X, Center_Y):
     R1  Center_X < LEFT or Center_X > RIGHT                       side rails
         (and another block of the layer beside it: see ``_beside``)
     R2  Center_Y < TOP or Center_Y > BOTTOM                       header, footer
     R3  F < T and ImageNum = 0                                    link lists, text ads
     R4  F < T and ImageNum > 0 and Center_Y > HEIGHT / 2          image ads
     R5  TextLength < 100                                          search boxes, comments
   with F = text length / link count, "text" being the characters outside links (the paper's
   正文字数) and T = 2. A pruned block is not divided further. Surviving leaves are the body.
3. Reconstruction (the paper's "semantic block reconstruction" before reading the body): short
   text blocks without links that R5 alone pruned and that sit between two body blocks inside
   the body column are put back (sub-headings, one-line paragraphs).
4. Title: a block with at least 3 of 4 cues: the largest font, a colour unlike the body's,
   white space above and below, near the top (above the body). Pages render without their
   style sheets, so a menu link can show three cues too: when the page declares a title
   (<title>, og:title), candidates are ranked by agreement with it, and one sharing less
   than half its characters with it is not taken (the declared title stands).
5. Time: the text between the title and the body (then the few blocks just above the
   title); words tagged numeral (m) or time (t) by jieba.posseg are joined into candidates
   and read with the project's date patterns (``sitesift.fields.dates``), which also cover
   English formats.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz.distance import Indel

from sitesift.fields.dates import parse_date
from sitesift.parse.dom import normalize_space, text_weight
from sitesift.render.browser import VIEWPORT, Element, Rendering, TextPiece
from sitesift.segment.rules import VisualRules
from sitesift.segment.tree import leaves

__all__ = ["Block", "Segmentation", "VisualSegmenter"]

#: Displays laid out within a line: such children do not make their parent divisible.
INLINE_DISPLAYS = frozenset({"inline", "inline-block", "contents", "ruby", "inline-flex"})
#: Rule names, in the order they are tried (the first that fires is recorded).
RULES = ("R1", "R2", "R3", "R4", "R5")
#: A vertical gap of more than this many font sizes between two blocks of one look is a
#: separator (VIPS): they stay two blocks (paragraph margins are about one font size).
SEPARATOR_EMS = 2.5
#: Title candidates: blocks with at least this many and at most this many characters.
TITLE_MIN_CHARS, TITLE_MAX_CHARS = 4, 200
#: A title candidate and the page's declared title share at least this similarity
#: (2·LCS / total length) for the candidate to be taken over the declared title.
TITLE_AGREEMENT = 0.5
#: "White space around" the title: this many pixels free above and below it, at least.
TITLE_GAP_PX = 12.0
#: Time: how much text between title and body is read (characters).
TIME_WINDOW_CHARS = 400
#: Blocks read above the body when there is no title, or above the title when nothing between
#: title and body holds a time.
TIME_BLOCKS_ABOVE = 5
#: jieba.posseg tags of the paper's time words: numeral (m) and time (t).
TIME_TAGS = frozenset({"m", "t"})
#: Tokens that may sit inside a written date or time ("2004-06-15 08:57", "5月6日 10:30").
_CJK = re.compile(r"[\u3400-\u9fff]")
_TIME_GLUE = re.compile(r"^[\s\-/:.,年月日时分秒点号T]+$")


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


class VisualSegmenter:
    """Paper 002 over rendered pages. Holds the rules and, once needed, a jieba POS tokenizer
    (its dictionary loads in about a second, so one segmenter should serve a whole run)."""

    def __init__(self, rules: VisualRules | None = None) -> None:
        self.rules = rules or VisualRules()
        self._tagger: Any = None

    def segment(self, rendering: Rendering, *, declared_title: str | None = None) -> Segmentation:
        """Blocks, body, title and time of ``rendering``. ``declared_title`` (the page's own
        <title> or og:title, when known) ranks the title candidates that have the visual cues
        and vetoes a candidate that shares nothing with it (a menu link with three cues)."""
        page = _Page(rendering)
        if not rendering.elements:
            root = Block([], 0)
            return Segmentation(root, [], None, None, {})
        root = Block([page.unit(0)], 0)
        self._divide_all(page, root)
        area = _content_area(page)
        self._prune(root, area)
        body = [b for b in root.leaves() if b.decision == "kept"]
        body = self._reconstruct(root, body)
        texts = {id(b): "\n\n".join(filter(None, (page.unit_text(u) for u in b.units)))
                 for b in root.leaves()}
        title = self._title(page, root, body, texts, area, declared_title)
        if title is not None:
            title.decision = "title"
            body = [b for b in body if b is not title]
        time_block, time = self._time(root, title, body, texts)
        if time_block is not None and time_block.decision != "kept":
            time_block.decision = "time"
        body = [b for b in body if b.text_length and texts[id(b)]]
        return Segmentation(root, body, title, time, texts)

    # -- 1. block extraction ---------------------------------------------------------------

    def _divide_all(self, page: _Page, root: Block) -> None:
        layer = [root]
        while layer:
            following = []
            for block in layer:
                block.children = self._divide(page, block)
                for child in block.children:
                    child.parent = block
                following.extend(block.children)
            layer = following

    def _divide(self, page: _Page, block: Block) -> list[Block]:
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

    # -- 2. layer-by-layer pruning ---------------------------------------------------------

    def _prune(self, root: Block, area: tuple[float, float, float, float]) -> None:
        """Rules 1-5 on each layer's blocks, top down; a pruned block's descendants share
        its decision (they are never looked at, as the paper deletes blocks before dividing)."""
        layer = list(root.children)
        while layer:
            following = []
            for block in layer:
                if block.parent is not None and block.parent.decision != "kept":
                    block.decision = block.parent.decision
                else:
                    rule = self.rule(block, area, layer)
                    if rule:
                        block.decision, block.own_rule = rule, True
                following.extend(block.children)
            layer = following

    def rule(self, block: Block, area: tuple[float, float, float, float],
             layer: list[Block] = ()) -> str | None:  # type: ignore[assignment]
        """The first of rules 1-5 that deletes ``block``, else None. ``layer``: the blocks of
        its layer; rule 1 needs one of them beside ``block`` (see ``_beside``)."""
        r = self.rules
        x0, y0, x1, y1 = area
        width, height = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        cx, cy = block.center
        if (cx < x0 + r.left * width or cx > x0 + r.right * width) and _beside(block, layer):
            return "R1"
        if cy < y0 + min(r.top, r.edge_share * height) or \
                cy > y1 - min(r.bottom, r.edge_share * height):
            return "R2"
        ratio = block.ratio
        if ratio < r.link_ratio and block.images == 0:
            return "R3"
        if ratio < r.link_ratio and block.images > 0 and cy > y0 + height / 2:
            return "R4"
        if block.text_length < r.min_text:
            return "R5"
        return None

    # -- 3. reconstruction -----------------------------------------------------------------

    def _reconstruct(self, root: Block, body: list[Block]) -> list[Block]:
        if not body:
            return body
        first, last = body[0].order, body[-1].order
        left = min(b.box[0] for b in body)
        right = max(b.box[2] for b in body)
        out = []
        for leaf in root.leaves():
            if leaf.decision == "kept":
                out.append(leaf)
            elif (leaf.decision == "R5" and leaf.text_length and not leaf.links
                  and first < leaf.order < last
                  and left <= leaf.center[0] <= right and _only_r5(leaf)):
                leaf.decision = "kept"
                out.append(leaf)
        return out

    # -- 4. title --------------------------------------------------------------------------

    def _title(self, page: _Page, root: Block, body: list[Block], texts: dict[int, str],
               area: tuple[float, float, float, float], declared: str | None) -> Block | None:
        leaves = [b for b in root.leaves() if b.decision not in ("R1",)]
        if not leaves:
            return None
        body_top = min((b.box[1] for b in body), default=area[3])
        body_ids = {id(b) for b in body}
        colours = Counter()
        for b in body:
            colours[_colour(page, b)] += b.text_length
        body_colour = colours.most_common(1)[0][0] if colours else None
        candidates = [b for b in leaves
                      if TITLE_MIN_CHARS <= b.text_length <= TITLE_MAX_CHARS
                      and b.box[1] <= body_top + 1 and id(b) not in body_ids
                      and b.links <= 1 and "\n" not in texts[id(b)]]
        if not candidates:
            return None
        sizes = sorted((_font(page, b), id(b)) for b in leaves
                       if b.text_length >= TITLE_MIN_CHARS and b.box[1] <= body_top + 1)
        boxes = [b.box for b in leaves if b.text_length]
        best, best_key = None, None
        for b in candidates:
            font = _font(page, b)
            # Larger than every other block's font (strictly: a tie is no cue).
            others = [size for size, ident in sizes if ident != id(b)]
            largest = not others or font > max(others) + 0.5
            cues = largest + (_colour(page, b) != body_colour) \
                + _spaced(b.box, boxes) + (b.box[3] <= body_top + 1)
            if cues < self.rules.title_cues:
                continue
            similar = Indel.normalized_similarity(
                texts[id(b)].casefold(), declared.casefold()) if declared else 1.0
            key = (similar >= TITLE_AGREEMENT, cues, similar, font, b.box[1])
            if best_key is None or key > best_key:
                best, best_key = b, key
        if best_key is not None and not best_key[0]:
            return None  # nothing like the declared title: the caller keeps that one
        return best

    # -- 5. time ---------------------------------------------------------------------------

    def _time(self, root: Block, title: Block | None, body: list[Block],
              texts: dict[int, str]) -> tuple[Block | None, str | None]:
        start = title.order if title is not None else -1
        end = body[0].order if body else float("inf")
        leaves = [b for b in root.leaves() if texts.get(id(b))]
        between = [b for b in leaves if start < b.order < end]
        groups = [between[-TIME_BLOCKS_ABOVE:]] if title is None else [
            between,  # then just above the title (a date line over the headline), nearest first
            [b for b in leaves if b.order < start][::-1][:TIME_BLOCKS_ABOVE],
        ]
        for group in groups:
            used = 0
            for block in group:
                text = texts[id(block)][:TIME_WINDOW_CHARS]
                # The POS tagger is for Chinese; other text goes straight to the date patterns.
                for candidate in self._time_words(text) if _CJK.search(text) else ():
                    iso = parse_date(candidate)
                    if iso:
                        return block, iso
                iso = parse_date(text)
                if iso:
                    return block, iso
                used += len(text)
                if used > TIME_WINDOW_CHARS:
                    break
        return None, None

    def _time_words(self, text: str) -> list[str]:
        """Runs of words tagged numeral (m) or time (t), joined with what may sit between."""
        if self._tagger is None:
            import logging

            import jieba
            import jieba.posseg

            jieba.setLogLevel(logging.WARNING)  # not "Building prefix dict" on every run
            self._tagger = jieba.posseg.POSTokenizer(jieba.Tokenizer())
        runs: list[str] = []
        current: list[str] = []
        for word, flag in self._tagger.cut(text):
            if flag in TIME_TAGS or (current and _TIME_GLUE.match(word)):
                current.append(word)
            elif current:
                runs.append("".join(current))
                current = []
        if current:
            runs.append("".join(current))
        return [run for run in runs if any(ch.isdigit() for ch in run)]


def _beside(block: Block, layer: list[Block]) -> bool:
    """Another block of the layer sits beside ``block`` (nearer the middle, sharing at least
    half its height): ``block`` is a side rail of a column layout. Pages render without their
    (blocked) style sheets, so much of the web lays out as one left-aligned column, where a
    short-lined paragraph would otherwise look like a left rail."""
    bx0, by0, bx1, by1 = block.box
    need = (by1 - by0) / 2
    for other in layer:
        if other is block or not other.units:
            continue
        ox0, oy0, ox1, oy1 = other.box
        if (ox0 >= bx1 or ox1 <= bx0) and min(by1, oy1) - max(by0, oy0) >= need:
            return True
    return False


def _only_r5(block: Block) -> bool:
    """Pruned by rule 5 on itself or on an ancestor that only R5 caught."""
    node: Block | None = block
    while node is not None and not node.own_rule:
        node = node.parent
    return node is not None and node.decision == "R5"


def _content_area(page: _Page) -> tuple[float, float, float, float]:
    """Box of the page's visible text and images (not of the elements holding them: a
    full-width footer must not widen a 790-pixel page): the (WIDTH, HEIGHT) the position
    rules measure in."""
    boxes = [(el.x, el.y, el.x + el.width, el.y + el.height) for el in page.r.elements
             if el.tag == "img" and el.width * el.height > 1]
    boxes += [(k.x, k.y, k.x + k.width, k.y + k.height) for el in page.r.elements
              for k in el.children if isinstance(k, TextPiece) and page._visible_piece(k)]
    if not boxes:
        return 0.0, 0.0, page.width, max(page.r.height, 1.0)
    x0 = max(0.0, min(b[0] for b in boxes))
    x1 = min(page.width, max(b[2] for b in boxes))
    y0 = max(0.0, min(b[1] for b in boxes))
    y1 = max(b[3] for b in boxes)
    return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)


def _main_element(page: _Page, block: Block) -> Element:
    """The element holding most of the block's text (its look is the block's look)."""
    els = page.r.elements
    return max((els[page.reader[u.element]] for u in block.units),
               key=lambda el: page.text[el.index] - sum(
                   page.text[k] for k in el.children if isinstance(k, int)))


def _font(page: _Page, block: Block) -> float:
    return _main_element(page, block).font_size


def _colour(page: _Page, block: Block) -> str:
    return _main_element(page, block).color


def _spaced(box: tuple[float, float, float, float],
            boxes: list[tuple[float, float, float, float]]) -> bool:
    """White space above and below: no other text box within TITLE_GAP_PX vertically among
    those overlapping it horizontally."""
    x0, y0, x1, y1 = box
    above = below = float("inf")
    for bx0, by0, bx1, by1 in boxes:
        if (bx0, by0, bx1, by1) == box or bx1 <= x0 or bx0 >= x1:
            continue
        if by1 <= y0:
            above = min(above, y0 - by1)
        elif by0 >= y1:
            below = min(below, by0 - y1)
    return above >= TITLE_GAP_PX and below >= TITLE_GAP_PX
