"""The one options object, built once (from keyword arguments or the CLI) and passed along."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from sitesift.errors import UsageError
from sitesift.segment.rules import VisualRules

__all__ = ["METHODS", "OUTPUT_FORMATS", "SITE_KEYS", "SITE_METHODS", "Options", "VisualRules"]

#: Extraction methods. ``auto`` picks per site and page; for now it equals ``page``.
#: ``template``: learn each site's templates from its pages (paper 000) and delete them.
#: ``visual``: render each page in a browser and keep what survives layer-by-layer pruning of
#: its visual blocks (paper 002); needs the ``visual`` extra and Chromium.
METHODS = ("auto", "page", "template", "visual")
#: Methods that learn from all pages of a site together.
SITE_METHODS = frozenset({"template"})
#: How records are written.
OUTPUT_FORMATS = ("jsonl", "markdown")
#: ``auto``: given site, else registrable domain, else folder. ``none``: ignore them all.
SITE_KEYS = ("auto", "none")

#: Default per-page time limit in seconds: long enough for a 20 MB page, short enough that a
#: pathological page cannot stall a crawl-sized batch.
DEFAULT_PAGE_TIMEOUT = 30.0
#: Pages larger than this many bytes become error records instead of being parsed
#: (the largest real article pages seen are a few MB; 64 MB leaves room for data-heavy pages).
DEFAULT_MAX_PAGE_BYTES = 64 * 1024 * 1024
#: Pages one browser renders at once (``visual``). On the shared 2-core box: 0.53 pages/s with
#: 1 tab, 0.82 with 4, 1.24 with 8, each tab ~20 MB more (docs/visual.md); 4 is the middle.
DEFAULT_RENDER_CONCURRENCY = 4


@dataclass(frozen=True, slots=True, kw_only=True)
class Options:
    """Settings of one run. Keyword-only and validated on construction; never mutated after.

    Use ``Options.replace(**changes)`` to derive a variant.
    """

    method: str = "auto"
    output_format: str = "jsonl"
    site_key: str = "auto"
    page_timeout: float | None = DEFAULT_PAGE_TIMEOUT
    max_page_bytes: int = DEFAULT_MAX_PAGE_BYTES
    #: Browser tabs rendering at once with ``method="visual"``.
    render_concurrency: int = DEFAULT_RENDER_CONCURRENCY
    #: Run the pages' own JavaScript when rendering (off: saved pages render as served, and
    #: scripts can neither hang the tab nor rewrite the page).
    render_javascript: bool = False
    #: Thresholds of the visual method (paper 002's TOP/BOTTOM/LEFT/RIGHT, T, 100 characters).
    visual: VisualRules = field(default_factory=VisualRules)

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise UsageError(f"unknown method {self.method!r}; choose one of {', '.join(METHODS)}")
        if self.output_format not in OUTPUT_FORMATS:
            raise UsageError(
                f"unknown output format {self.output_format!r}; "
                f"choose one of {', '.join(OUTPUT_FORMATS)}"
            )
        if self.site_key not in SITE_KEYS:
            raise UsageError(
                f"unknown site key {self.site_key!r}; choose one of {', '.join(SITE_KEYS)}"
            )
        if self.page_timeout is not None and not self.page_timeout > 0:
            raise UsageError(
                f"page_timeout must be positive seconds or None, not {self.page_timeout!r}"
            )
        if not isinstance(self.render_concurrency, int) or self.render_concurrency < 1:
            raise UsageError(
                f"render_concurrency must be a positive integer, not {self.render_concurrency!r}"
            )
        if not isinstance(self.visual, VisualRules):
            raise UsageError(f"visual must be a VisualRules, not {type(self.visual).__name__}")
        if not isinstance(self.max_page_bytes, int) or self.max_page_bytes <= 0:
            raise UsageError(
                f"max_page_bytes must be a positive integer, not {self.max_page_bytes!r}"
            )

    def replace(self, **changes: object) -> Options:
        """A validated copy with ``changes`` applied."""
        return dataclasses.replace(self, **changes)
