"""The one options object, built once (from keyword arguments or the CLI) and passed along."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from sitesift.errors import UsageError

__all__ = ["METHODS", "OUTPUT_FORMATS", "SITE_KEYS", "SITE_METHODS", "Options"]

#: Extraction methods. ``auto`` picks per site and page; for now it equals ``page``.
#: ``template``: learn each site's templates from its pages (paper 000) and delete them.
METHODS = ("auto", "page", "template")
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
    #: The page method reads the whole batch to learn titles per site (``<title>`` decoration,
    #: anchor texts of links to each page: paper 003). Off by default so that the page method
    #: streams; site-level methods read the batch anyway and always learn titles.
    site_titles: bool = False

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
        if not isinstance(self.max_page_bytes, int) or self.max_page_bytes <= 0:
            raise UsageError(
                f"max_page_bytes must be a positive integer, not {self.max_page_bytes!r}"
            )
        if not isinstance(self.site_titles, bool):
            raise UsageError(f"site_titles must be True or False, not {self.site_titles!r}")

    def replace(self, **changes: object) -> Options:
        """A validated copy with ``changes`` applied."""
        return dataclasses.replace(self, **changes)
