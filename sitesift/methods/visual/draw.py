"""A picture of the visual method's decisions: blocks drawn over a screenshot of the page.

Kept body blocks are green, the title blue, the time magenta; a pruned block is drawn where
its rule fired (not again for each of its descendants), in that rule's colour and labelled
with it. ``sitesift render PAGE.html -o page.png`` writes one.
"""

from __future__ import annotations

import io
from pathlib import Path

from sitesift.methods.visual.segmenter import Block, Segmentation, VisualSegmenter
from sitesift.render.browser import BrowserPool
from sitesift.segment.rules import VisualRules

__all__ = ["DECISION_COLOURS", "draw_segmentation", "render_picture"]

#: Outline colour (RGB) of each decision; the legend lists them in this order.
DECISION_COLOURS: dict[str, tuple[int, int, int]] = {
    "kept": (0, 160, 60),
    "title": (20, 90, 230),
    "time": (200, 0, 200),
    "R1": (255, 140, 0),
    "R2": (220, 30, 30),
    "R3": (130, 60, 200),
    "R4": (140, 90, 40),
    "R5": (120, 120, 120),
}
#: What each decision means, for the legend.
DECISION_NAMES = {
    "kept": "body", "title": "title", "time": "time", "R1": "R1 left/right edge",
    "R2": "R2 top/bottom edge", "R3": "R3 links, no image", "R4": "R4 image links, lower half",
    "R5": "R5 < min text",
}


def _drawn(seg: Segmentation) -> list[Block]:
    """Blocks to draw: each pruned block where its rule fired, each kept/title/time leaf."""
    out, stack = [], [seg.root]
    while stack:
        block = stack.pop()
        if block.decision in RULE_DECISIONS and block.own_rule:
            out.append(block)
            continue
        if not block.children and block.units and block.decision not in RULE_DECISIONS:
            out.append(block)
        stack.extend(block.children)
    return out


RULE_DECISIONS = frozenset({"R1", "R2", "R3", "R4", "R5"})


def draw_segmentation(screenshot: bytes, seg: Segmentation) -> bytes:
    """PNG bytes: ``screenshot`` with the blocks of ``seg`` outlined, tinted and labelled."""
    from PIL import Image, ImageDraw

    image = Image.open(io.BytesIO(screenshot)).convert("RGBA")
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    pen = ImageDraw.Draw(overlay)
    for block in _drawn(seg):
        colour = DECISION_COLOURS[block.decision]
        x0, y0, x1, y1 = block.box
        pen.rectangle((x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)),
                      fill=(*colour, 40), outline=(*colour, 255), width=2)
        pen.text((x0 + 3, y0 + 1), block.decision, fill=(*colour, 255))
    legend_height = 14 * len(DECISION_COLOURS) + 8
    pen.rectangle((0, 0, 190, legend_height), fill=(255, 255, 255, 230))
    for row, (decision, colour) in enumerate(DECISION_COLOURS.items()):
        y = 4 + 14 * row
        pen.rectangle((6, y + 2, 16, y + 11), fill=(*colour, 255))
        pen.text((22, y), DECISION_NAMES[decision], fill=(0, 0, 0, 255))
    out = io.BytesIO()
    Image.alpha_composite(image, overlay).convert("RGB").save(out, format="PNG")
    return out.getvalue()


def render_picture(html: str, output: str | Path, *, rules: VisualRules | None = None,
                   javascript: bool = False, timeout: float | None = 30.0) -> Segmentation:
    """Render ``html``, segment it and write the picture to ``output`` (PNG)."""
    with BrowserPool(concurrency=1, timeout=timeout, javascript=javascript) as pool:
        rendering = pool.render(html, screenshot=True)
    seg = VisualSegmenter(rules).segment(rendering)
    Path(output).write_bytes(draw_segmentation(rendering.screenshot or b"", seg))
    return seg
