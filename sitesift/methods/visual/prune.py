"""Steps 2 and 3 of paper 002: layer-by-layer pruning with the paper's rules R1-R5 over the
blocks of ``blocks`` (measured in the page's content area, ``content_area``), then the
"semantic block reconstruction" that puts back short text blocks R5 alone pruned inside the
body. The rules' thresholds are ``sitesift.segment.rules.VisualRules``."""

from __future__ import annotations

from sitesift.methods.visual.blocks import Block, _Page
from sitesift.render.browser import TextPiece
from sitesift.segment.rules import VisualRules

__all__ = ["RULES", "content_area", "first_rule", "prune", "reconstruct"]

#: Rule names, in the order they are tried (the first that fires is recorded).
RULES = ("R1", "R2", "R3", "R4", "R5")


# -- 2. layer-by-layer pruning -------------------------------------------------------------

def prune(root: Block, area: tuple[float, float, float, float], rules: VisualRules) -> None:
    """Rules 1-5 on each layer's blocks, top down; a pruned block's descendants share
    its decision (they are never looked at, as the paper deletes blocks before dividing)."""
    layer = list(root.children)
    while layer:
        following = []
        for block in layer:
            if block.parent is not None and block.parent.decision != "kept":
                block.decision = block.parent.decision
            else:
                rule = first_rule(block, area, rules, layer)
                if rule:
                    block.decision, block.own_rule = rule, True
            following.extend(block.children)
        layer = following

def first_rule(block: Block, area: tuple[float, float, float, float], rules: VisualRules,
               layer: list[Block] = ()) -> str | None:  # type: ignore[assignment]
    """The first of rules 1-5 that deletes ``block``, else None. ``layer``: the blocks of
    its layer; rule 1 needs one of them beside ``block`` (see ``_beside``)."""
    r = rules
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

# -- 3. reconstruction ---------------------------------------------------------------------

def reconstruct(root: Block, body: list[Block]) -> list[Block]:
    """The body with the short text blocks R5 alone pruned between two body blocks, inside
    the body column, put back (sub-headings, one-line paragraphs)."""
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


def content_area(page: _Page) -> tuple[float, float, float, float]:
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
