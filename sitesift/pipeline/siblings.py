"""The sibling method's path (paper 004, ``sitesift.methods.siblings``): each page against
its same-layer pages."""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING

from sitesift.pipeline.base import PagePlan, Parsed, PipelineBase
from sitesift.record import Page, Record

if TYPE_CHECKING:
    from sitesift.methods.siblings.site import SiblingSite


log = logging.getLogger(__name__)


class SiblingsPath(PipelineBase):
    """The sibling method over one site's pages."""

    def _extract_siblings(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], *, lasting: bool = False,
    ) -> None:
        """Paper 004: each page against its same-layer pages (one page alone: the page method).
        Nothing is saved (``lasting`` is the other paths' flag): the pages are the model."""
        self._learn_titles(members, pages, parsed)
        index = self._sibling_index(site, members, pages, parsed)
        for j, i in enumerate(members):
            records[i].site = records[i].site or site
            plan = PagePlan(siblings=(index, j) if index is not None else None)
            finish = functools.partial(self._finish, records[i], pages[i], parsed[i], plan)
            self._guarded(records[i], pages[i], finish)

    def _sibling_index(
        self, site: str, members: list[int], pages: list[Page], parsed: dict[int, Parsed],
    ) -> SiblingSite | None:
        """The site's sibling index over its untouched trees (None for one page, or when
        indexing fails: those pages keep the other methods)."""
        from sitesift.methods.siblings.site import SiblingSite

        if len(members) < 2:
            return None
        try:
            return SiblingSite(
                [parsed[i].root for i in members], [pages[i].url for i in members],
                tag_similarity=self.options.sibling_tag_similarity,
                text_similarity=self.options.sibling_text_similarity,
                max_slide=self.options.sibling_max_slide,
            )
        except Exception:  # a bug in indexing must not lose the site: page method
            log.exception("indexing the pages of site %s failed", site)
            return None
