"""The visual method's path (paper 002, ``sitesift.methods.visual``): pages rendered in a
browser pool ahead of the consumer, each segmented from its rendering."""

from __future__ import annotations

import functools
import itertools
import logging
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from sitesift.fields.title_place import near_heading
from sitesift.methods.page.content import extract_content
from sitesift.pipeline.base import Parsed, PipelineBase
from sitesift.record import Page, Record

if TYPE_CHECKING:
    from sitesift.render import BrowserPool, Rendering


log = logging.getLogger(__name__)


class VisualPath(PipelineBase):
    """The visual method, page by page; the browser opens on first use."""

    def _extract_visual(self, pages: Iterable[Page]) -> Iterator[Record]:
        """Pages render in the browser pool ahead of the consumer (``render_concurrency`` at
        once); each is parsed for its metadata, then segmented from its rendering (paper 002).
        A missing browser raises ``BrowserUnavailable`` here, before any record."""
        pool = self._open_browser()
        limit = self.options.max_page_bytes
        ahead, pages = itertools.tee(pages)
        futures = pool.render_many(
            "" if p.error or len(p.html) > limit else p.html for p in ahead
        )
        for page, future in zip(pages, futures, strict=True):
            record = Record(id=page.id, url=page.url, site=page.site)
            parsed = self._guarded(record, page, functools.partial(self._parse, page))
            if isinstance(parsed, Parsed):
                step = functools.partial(self._finish_visual, record, parsed, future.result)
                self._guarded(record, page, step)
            yield record

    def _open_browser(self) -> BrowserPool:
        """The browser pool and visual segmenter, opened on first use (``BrowserUnavailable``
        without Chromium or Playwright)."""
        from sitesift.methods.visual.segmenter import VisualSegmenter
        from sitesift.render import BrowserPool

        if self._pool is None:
            self._pool = BrowserPool(
                concurrency=self.options.render_concurrency, timeout=self.options.page_timeout,
                javascript=self.options.render_javascript,
            )
            self._segmenter = VisualSegmenter(self.options.visual)
            self._segmenter.prepare()  # outside every page's time limit
        return self._pool

    def _finish_visual(
        self, record: Record, parsed: Parsed, rendering: Callable[[], Rendering]
    ) -> None:
        # The page-level title placed by the DOM story (cheap next to rendering): a site's name
        # in <title> would otherwise veto the headline's visual cues.
        placed = near_heading(parsed.meta, extract_content(parsed.root, url=record.url).nodes,
                              parsed.root)
        seg = self._segmenter.segment(  # type: ignore[union-attr]
            rendering(), declared_title=placed)
        record.method = "visual"
        record.title = seg.title_text or placed
        record.published = seg.time or parsed.meta.published
        record.author = parsed.meta.author
        record.text = seg.text
        record.extra["visual"] = {
            "blocks": len(seg.root.leaves()), "body_blocks": len(seg.body),
            "title": "visual" if seg.title_text else "metadata",
            "time": "visual" if seg.time else ("metadata" if record.published else None),
        }
