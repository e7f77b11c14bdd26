"""The one options object, built once (from keyword arguments or the CLI) and passed along."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from sitesift.errors import UsageError
from sitesift.parse.html import MAX_PAGE_ELEMENTS
from sitesift.segment.rules import VisualRules

__all__ = ["METHODS", "OUTPUT_FORMATS", "SITE_KEYS", "SITE_METHODS", "Options", "VisualRules"]

#: Extraction methods. ``auto`` uses what each site gives evidence for: one page, the page
#: method; several, templates and sibling blocks together, page types and forum posts.
#: ``template``: learn each site's templates from its pages (paper 000) and delete them.
#: ``siblings``: delete the blocks that recur in same-layer pages of the site (paper 004).
#: ``forum``: learn each site's post rule and URL clusters (paper 001): page types for every
#: page, ``posts`` for thread pages.
#: ``visual``: render each page in a browser and keep what survives layer-by-layer pruning of
#: its visual blocks (paper 002); needs the ``visual`` extra and Chromium.
METHODS = ("auto", "page", "template", "siblings", "forum", "visual")
#: Methods that learn from all pages of a site together.
SITE_METHODS = frozenset({"auto", "template", "siblings", "forum"})
#: How records are written. ``parquet``: with an engine only (``sitesift.engine``), a table a part.
OUTPUT_FORMATS = ("jsonl", "markdown", "parquet")
#: ``auto``: given site, else registrable domain, else folder. ``none``: ignore them all.
SITE_KEYS = ("auto", "none")

#: Default per-page time limit in seconds. Every one of the 2,432 dev pages finished under
#: 2 s (``--page-timeout 2``, default method, a shared 2-core machine; a 20 MB page
#: of text takes 2.4 s): 10 s leaves five times that, and a pathological page holds a worker
#: for 10 s, not 30 (docs/reference/limits.md).
DEFAULT_PAGE_TIMEOUT = 10.0
#: Pages larger than this many bytes are read up to it (a warning says so); files and WARC
#: payloads larger are error records without being read whole (the largest real article pages
#: seen are a few MB; 64 MB leaves room for data-heavy pages).
DEFAULT_MAX_PAGE_BYTES = 64 * 1024 * 1024
#: Pages with more elements than this are read up to it by their visible text, with a
#: warning (``sitesift.parse.html``).
DEFAULT_MAX_PAGE_ELEMENTS = MAX_PAGE_ELEMENTS
#: Paper 004's thresholds: a block is noise when a same-layer page holds a subtree matching
#: this share of its nodes (Tag_similarity, alpha) and of its text (Text_similarity, beta),
#: with at most this many subtrees slid over per mismatch (MAX).
DEFAULT_SIBLING_TAG_SIMILARITY = 0.8
DEFAULT_SIBLING_TEXT_SIMILARITY = 0.6
DEFAULT_SIBLING_MAX_SLIDE = 3
#: Pages one browser renders at once (``visual``). On the shared 2-core box: 0.53 pages/s with
#: 1 tab, 0.82 with 4, 1.24 with 8, each tab ~20 MB more (docs/design/visual.md); 4 is the middle.
DEFAULT_RENDER_CONCURRENCY = 4

# Crawling (sitesift.crawl: `sitesift crawl`, `sitesift extract --crawl`).
#: URLs taken from the frontier per crawl (fetched or refused), so a crawl always ends.
DEFAULT_CRAWL_MAX_PAGES = 1000
#: Link steps from the seeds: 1 = seeds and the items of seed list pages.
DEFAULT_CRAWL_DEPTH = 1
#: Seconds between request starts on one host (robots.txt Crawl-delay wins when longer).
DEFAULT_CRAWL_DELAY = 1.0
#: Requests in flight per host at once.
DEFAULT_CRAWL_HOST_CONCURRENCY = 2
#: Seconds one response may take, headers and body together.
DEFAULT_CRAWL_TIMEOUT = 30.0
#: Bytes one response body may have; bigger ones are skipped (10 MB: above any article page).
DEFAULT_CRAWL_MAX_BYTES = 10 * 1024 * 1024
#: Retries after a 5xx, 429, timeout or connection error; waits grow as backoff * 2**attempt.
DEFAULT_CRAWL_RETRIES = 2
DEFAULT_CRAWL_BACKOFF = 1.0
#: Engine runs (``sitesift.engine``): a site with more pages than this is learned from its first
#: ``site_sample`` pages, then the rest is streamed through the learned profile, so a worker
#: never holds more than this many parsed pages (~1-3 MB each). Sites of the dev sets have 10-30.
DEFAULT_SITE_SAMPLE = 300
#: Engine runs: pages extracted together when streaming (a site's pages past the sample; the
#: pages of one part in page mode).
DEFAULT_BATCH_PAGES = 200


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
    max_page_elements: int = DEFAULT_MAX_PAGE_ELEMENTS
    #: Add each page's blocks (xpath, text, label, reason) to its record.
    blocks: bool = False
    sibling_tag_similarity: float = DEFAULT_SIBLING_TAG_SIMILARITY
    sibling_text_similarity: float = DEFAULT_SIBLING_TEXT_SIMILARITY
    sibling_max_slide: int = DEFAULT_SIBLING_MAX_SLIDE
    #: The page method reads the whole batch to learn titles per site (``<title>`` decoration,
    #: anchor texts of links to each page: paper 003). Off by default so that the page method
    #: streams; site-level methods read the batch anyway and always learn titles.
    site_titles: bool = False
    #: Browser tabs rendering at once with ``method="visual"``.
    render_concurrency: int = DEFAULT_RENDER_CONCURRENCY
    #: Run the pages' own JavaScript when rendering (off: saved pages render as served, and
    #: scripts can neither hang the tab nor rewrite the page).
    render_javascript: bool = False
    #: Thresholds of the visual method (paper 002's TOP/BOTTOM/LEFT/RIGHT, T, 100 characters).
    visual: VisualRules = field(default_factory=VisualRules)
    #: ``auto`` with a browser: render the pages whose DOM methods disagree and let the visual
    #: method's text pick among their answers (``methods.auto.choose``; needs the ``visual`` extra
    #: and Chromium). Off by default: runs without a browser never try to start one.
    visual_fallback: bool = False
    crawl_max_pages: int = DEFAULT_CRAWL_MAX_PAGES
    crawl_depth: int = DEFAULT_CRAWL_DEPTH
    #: Also fetch same-layer siblings (same folder and URL shape) of the seed pages (paper 004).
    crawl_same_layer: bool = False
    crawl_delay: float = DEFAULT_CRAWL_DELAY
    crawl_host_concurrency: int = DEFAULT_CRAWL_HOST_CONCURRENCY
    crawl_timeout: float = DEFAULT_CRAWL_TIMEOUT
    crawl_max_bytes: int = DEFAULT_CRAWL_MAX_BYTES
    crawl_retries: int = DEFAULT_CRAWL_RETRIES
    crawl_backoff: float = DEFAULT_CRAWL_BACKOFF
    site_sample: int = DEFAULT_SITE_SAMPLE
    batch_pages: int = DEFAULT_BATCH_PAGES
    #: ``template`` with saved profiles: read pages of known templates at learned places, the
    #: main text by the template's wrapper (``sitesift.methods.template.wrapper``), title, date
    #: and author by its field sources (``sitesift.methods.template.fields``), without the page
    #: heuristics (several times faster). False: every page gets the full template method.
    wrappers: bool = True

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
        for name in ("max_page_bytes", "max_page_elements"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise UsageError(f"{name} must be a positive integer, not {value!r}")
        for name in ("site_titles", "visual_fallback", "wrappers"):
            if not isinstance(getattr(self, name), bool):
                raise UsageError(f"{name} must be True or False, not {getattr(self, name)!r}")

        for name in ("sibling_tag_similarity", "sibling_text_similarity"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 < value <= 1:
                raise UsageError(f"{name} must be a share in (0, 1], not {value!r}")
        if not isinstance(self.sibling_max_slide, int) or self.sibling_max_slide < 0:
            raise UsageError(
                f"sibling_max_slide must be a count >= 0, not {self.sibling_max_slide!r}"
            )

        _check_crawl(self)

        for name in ("site_sample", "batch_pages"):
            value = getattr(self, name)
            if not isinstance(value, int) or value <= 0:
                raise UsageError(f"{name} must be a positive integer, not {value!r}")

    def replace(self, **changes: object) -> Options:
        """A validated copy with ``changes`` applied."""
        return dataclasses.replace(self, **changes)


def _check_crawl(options: Options) -> None:
    """Crawl settings: counts are integers (some >= 1), times are seconds >= 0 (timeout > 0)."""
    minimum = {"crawl_max_pages": 1, "crawl_depth": 0, "crawl_host_concurrency": 1,
               "crawl_max_bytes": 1, "crawl_retries": 0}
    for name, low in minimum.items():
        value = getattr(options, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise UsageError(f"{name} must be an integer >= {low}, not {value!r}")
    for name in ("crawl_delay", "crawl_backoff", "crawl_timeout"):
        value = getattr(options, name)
        if not isinstance(value, int | float) or value < 0 or (
            name == "crawl_timeout" and not value > 0
        ):
            raise UsageError(f"{name} must be seconds >= 0 (timeout > 0), not {value!r}")
