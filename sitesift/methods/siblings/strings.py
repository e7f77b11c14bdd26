"""Steps 2 and 3 of paper 004: a page as its depth-first node string (``NodeString``: every
visible node with its depth, text nodes included, tag ``#text``), and a block of
``sitesift.segment.blocks`` as the part of that string to match (``_Subtree``)."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import NamedTuple

from lxml import etree

from sitesift.parse.signatures import RelaxedLabels
from sitesift.segment.blocks import Block
from sitesift.segment.layout import Layout

__all__ = ["NodeString"]


# -- 2. node strings -----------------------------------------------------------------------------


@dataclass(slots=True)
class NodeString(Layout):
    """A page as its depth-first node string: its ``Layout`` (visible elements and non-blank
    text nodes, with depths, text hashes and labels), read as paper 004 reads it."""

    #: Positions of the text nodes, made on first use (``text_nodes``).
    _text_at: list[int] | None = None

    @classmethod
    def of(cls, root: etree._Element, labels: RelaxedLabels | None = None,
           codes: dict[str, tuple[int, int]] | None = None,
           labelled: frozenset[str] | None = None) -> NodeString:
        """The node string of the page under ``root`` (from ``Layout.start``); the memos and
        ``labelled`` as ``Layout.walk`` takes them."""
        return cls.walk(cls.start(root), labels, codes, labelled)  # type: ignore[return-value]

    def text_weight(self, start: int, stop: int) -> int:
        """Text weight of the nodes ``start`` to ``stop`` (excluded), from running sums: a
        block's text is summed for each of its candidate matches."""
        before = self.sums()
        return before[stop] - before[start]

    def text_nodes(self, start: int, stop: int) -> list[int]:
        """Positions of the text nodes from ``start`` to ``stop`` (excluded), in order: a
        block's texts are read for each of its blocks above it too, and most nodes are
        elements."""
        at = self._text_at
        if at is None:  # (a string is complete once ``of`` returns it)
            at = self._text_at = [p for p, h in enumerate(self.texts) if h]
        lo = bisect_left(at, start)
        return at[lo:bisect_left(at, stop, lo)]

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


def _subtree(block: Block) -> _Subtree | None:
    """``block`` as the part of its page's string to match (None: it lies nowhere in it)."""
    if block.start < 0:
        return None
    return _Subtree(block.start, block.stop, block.base, not block.is_run)
