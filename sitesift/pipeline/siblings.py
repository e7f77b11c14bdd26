"""The sibling method's path (paper 004, ``sitesift.methods.siblings``): each page against
its same-layer pages, through the interface (``SiblingsMethod``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitesift.pipeline.base import Parsed
from sitesift.pipeline.site_method import SiteMethodPath
from sitesift.record import Page, Record

if TYPE_CHECKING:
    from sitesift.methods.siblings.method import SiblingsMethod


class SiblingsPath(SiteMethodPath):
    """The sibling method over one site's pages."""

    def _extract_siblings(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], *, lasting: bool = False,
    ) -> None:
        """Paper 004: each page against its same-layer pages (one page alone: the page method).
        Nothing is saved (``lasting`` is the other paths' flag): the pages are the model."""
        self._run_method(self._siblings(), site, members, pages, records, parsed)

    def _siblings(self) -> SiblingsMethod:
        """The sibling method with this run's options."""
        from sitesift.methods.siblings.method import SiblingsMethod

        return SiblingsMethod(
            tag_similarity=self.options.sibling_tag_similarity,
            text_similarity=self.options.sibling_text_similarity,
            max_slide=self.options.sibling_max_slide, texts=self.options.blocks,
        )
