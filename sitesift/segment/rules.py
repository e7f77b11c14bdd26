"""Thresholds of the visual method (paper 002), kept apart so ``Options`` can hold them
without importing the browser or the segmenter."""

from __future__ import annotations

from dataclasses import dataclass

from sitesift.errors import UsageError

__all__ = ["VisualRules"]


@dataclass(frozen=True, slots=True, kw_only=True)
class VisualRules:
    """Paper 002's pruning thresholds. The paper gives T = 2 and 100 characters and leaves
    TOP/BOTTOM/LEFT/RIGHT open; the defaults here were tuned on zh-news-dev and big9-2005
    (a grid over cached renderings: left 0.05-0.2, right 0.7-0.9, T 1-3, bottom 150 or 300;
    docs/design/visual.md).

    Positions are measured against the page's content area (the union of the first layer's
    blocks), so a 960-pixel column centred in a 1366-pixel window is judged by its own edges.
    """

    #: Rule 2: a block whose centre lies less than ``top`` pixels below the content top
    #: (site header, top navigation) ...
    top: float = 120.0
    #: ... or less than ``bottom`` pixels above the content bottom (copyright, footer links).
    bottom: float = 300.0
    #: ... but never more than this share of the content height each, so that a short page
    #: (or one laid out without its blocked style sheets) is not all "edge".
    edge_share: float = 0.1
    #: Rule 1: a block whose centre lies in the left ``left`` fraction of the content width
    #: (left rail) or right of ``right`` (right rail of ads and lists).
    left: float = 0.15
    right: float = 0.75
    #: Rules 3 and 4: F = text length / link count below ``link_ratio`` (the paper's T = 2)
    #: is a link list or ad. Text is measured in characters without white space (dom.py).
    link_ratio: float = 2.0
    #: Rule 5: a block with fewer characters than ``min_text`` (search box, comment line).
    min_text: int = 100
    #: Title: how many of the four cues (largest font, distinct colour, white space around,
    #: near the top) a block needs.
    title_cues: int = 3

    def __post_init__(self) -> None:
        for name in ("top", "bottom", "link_ratio", "edge_share"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or value < 0:
                raise UsageError(f"VisualRules.{name} must be a number >= 0, not {value!r}")
        if not 0 <= self.left < self.right <= 1:
            raise UsageError(
                f"VisualRules needs 0 <= left < right <= 1, not {self.left!r}, {self.right!r}"
            )
        if not isinstance(self.min_text, int) or self.min_text < 0:
            raise UsageError(f"VisualRules.min_text must be an integer >= 0, not {self.min_text!r}")
        if self.title_cues not in (1, 2, 3, 4):
            raise UsageError(f"VisualRules.title_cues must be 1 to 4, not {self.title_cues!r}")

    def replace(self, **changes: object) -> VisualRules:
        """A validated copy with ``changes`` applied."""
        import dataclasses

        return dataclasses.replace(self, **changes)
