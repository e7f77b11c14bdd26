"""Steps 4 and 5 of paper 002: the title (a block with enough of four visual cues: the largest
font, a colour unlike the body's, white space above and below, above the body; ranked by
agreement with the page's declared title) and the time (numeral and time words, tagged by
jieba.posseg, between the title and the body, read with ``sitesift.fields.date_forms``)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from rapidfuzz.distance import Indel

from sitesift.fields.date_forms import parse_date
from sitesift.methods.visual.blocks import Block, _Page
from sitesift.parse.dom import HAN
from sitesift.render.browser import Element

__all__ = ["TimeTagger", "find_time", "title_block"]

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
_TIME_GLUE = re.compile(r"^[\s\-/:.,年月日时分秒点号T]+$")

# -- 4. title ------------------------------------------------------------------------------

def title_block(page: _Page, root: Block, body: list[Block], texts: dict[int, str],
                area: tuple[float, float, float, float], declared: str | None,
                min_cues: int) -> Block | None:
    """The title block: the best candidate with at least ``min_cues`` of the four cues,
    ranked by agreement with ``declared``; None when none has them or none agrees."""
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
        if cues < min_cues:
            continue
        similar = Indel.normalized_similarity(
            texts[id(b)].casefold(), declared.casefold()) if declared else 1.0
        key = (similar >= TITLE_AGREEMENT, cues, similar, font, b.box[1])
        if best_key is None or key > best_key:
            best, best_key = b, key
    if best_key is not None and not best_key[0]:
        return None  # nothing like the declared title: the caller keeps that one
    return best

# -- 5. time -------------------------------------------------------------------------------

def find_time(root: Block, title: Block | None, body: list[Block], texts: dict[int, str],
              tagger: TimeTagger) -> tuple[Block | None, str | None]:
    """The block holding the page's time and the time (ISO), read between the title and the
    body, then just above the title."""
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
            for candidate in tagger.words(text) if HAN.search(text) else ():
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


class TimeTagger:
    """jieba's POS tokenizer for the paper's time words, loaded on first use (its dictionary
    loads in about a second, so one should serve a whole run)."""

    def __init__(self) -> None:
        self._tagger: Any = None

    def load(self) -> None:
        """Load the dictionary now. Called before the first page, so that the load does not
        run inside a page's time limit: a limit firing there is caught by jieba's own
        ``except Exception`` and surfaces as a bogus "invalid POS dictionary entry" error."""
        if self._tagger is None:
            import logging

            import jieba
            import jieba.posseg

            jieba.setLogLevel(logging.WARNING)  # not "Building prefix dict" on every run
            tagger = jieba.posseg.POSTokenizer(jieba.Tokenizer())
            tagger.initialize()  # the dictionary itself, not only the object
            self._tagger = tagger

    def words(self, text: str) -> list[str]:
        """Runs of words tagged numeral (m) or time (t), joined with what may sit between."""
        self.load()
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
