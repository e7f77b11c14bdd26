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

Modules, in that order: ``blocks`` (step 1), ``prune`` (steps 2 and 3), ``cues`` (steps 4 and
5); ``VisualSegmenter`` here runs them over one rendering.
"""

from __future__ import annotations

from sitesift.methods.visual.blocks import Block, Segmentation, _Page, divide_all
from sitesift.methods.visual.cues import TimeTagger, find_time, title_block
from sitesift.methods.visual.prune import content_area, first_rule, prune, reconstruct
from sitesift.render.browser import Rendering
from sitesift.segment.rules import VisualRules

__all__ = ["Block", "Segmentation", "VisualSegmenter"]


class VisualSegmenter:
    """Paper 002 over rendered pages. Holds the rules and, once needed, a jieba POS tokenizer
    (its dictionary loads in about a second, so one segmenter should serve a whole run)."""

    def __init__(self, rules: VisualRules | None = None) -> None:
        self.rules = rules or VisualRules()
        self._time_tagger = TimeTagger()

    def prepare(self) -> None:
        """Load what the first page would otherwise load inside its time limit (jieba's
        dictionary, about a second)."""
        self._time_tagger.load()

    def segment(self, rendering: Rendering, *, declared_title: str | None = None) -> Segmentation:
        """Blocks, body, title and time of ``rendering``. ``declared_title`` (the page's own
        <title> or og:title, when known) ranks the title candidates that have the visual cues
        and vetoes a candidate that shares nothing with it (a menu link with three cues)."""
        page = _Page(rendering)
        if not rendering.elements:
            root = Block([], 0)
            return Segmentation(root, [], None, None, {})
        root = Block([page.unit(0)], 0)
        divide_all(page, root)
        area = content_area(page)
        prune(root, area, self.rules)
        body = [b for b in root.leaves() if b.decision == "kept"]
        body = reconstruct(root, body)
        texts = {id(b): "\n\n".join(filter(None, (page.unit_text(u) for u in b.units)))
                 for b in root.leaves()}
        title = title_block(page, root, body, texts, area, declared_title,
                            self.rules.title_cues)
        if title is not None:
            title.decision = "title"
            body = [b for b in body if b is not title]
        time_block, time = find_time(root, title, body, texts, self._time_tagger)
        if time_block is not None and time_block.decision != "kept":
            time_block.decision = "time"
        body = [b for b in body if b.text_length and texts[id(b)]]
        return Segmentation(root, body, title, time, texts)

    def rule(self, block: Block, area: tuple[float, float, float, float],
             layer: list[Block] = ()) -> str | None:  # type: ignore[assignment]
        """The first of rules 1-5 that deletes ``block``, else None (``prune.first_rule``)."""
        return first_rule(block, area, self.rules, layer)
