"""The sibling method behind the site-level interface (``sitesift.methods.interface``).

``learn``: the site's node strings indexed (``SiblingSite``; one page alone has no siblings);
``look``: the page's DOM blocks on its untouched tree, and the verdicts on them against its
same-layer pages (judged when ``apply`` reads them); ``apply``: on an article, the main
content without its noise blocks (``clean.clean_content``). Nothing is saved: the pages are
the model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sitesift.methods.interface import Decision, SiteMethod, SitePage
from sitesift.methods.page.content import Content
from sitesift.methods.siblings.clean import clean_content
from sitesift.methods.siblings.match import MAX_SLIDE, TAG_SIMILARITY, TEXT_SIMILARITY
from sitesift.methods.siblings.site import SiblingSite, Verdict
from sitesift.record import Record
from sitesift.segment.blocks import Block, segment_blocks

__all__ = ["SiblingLook", "SiblingsMethod"]


@dataclass(slots=True)
class SiblingLook:
    """A page's block tree (read untouched), and the verdicts on its blocks (None: no blocks),
    judged on first use: ``apply`` reads them on an article only, and the judging reads the
    site's node strings and the block tree alone (both made on the untouched trees), never
    the page's tree, so it gives the same verdicts after the page extractor edited it."""

    top: Block
    model: SiblingSite
    index: int
    _verdicts: dict[int, Verdict] | None = None
    _judged: bool = False

    @property
    def verdicts(self) -> dict[int, Verdict] | None:
        if not self._judged:
            self._verdicts = self.model.judge(self.index, self.top) if self.top else None
            self._judged = True
        return self._verdicts


@dataclass(frozen=True, slots=True)
class SiblingsMethod(SiteMethod[SiblingSite]):
    """Paper 004 as a ``SiteMethod[SiblingSite]``. ``texts``: the blocks keep their texts and
    paths (the ``--blocks`` output reads them; the verdicts do not)."""

    tag_similarity: float = TAG_SIMILARITY
    text_similarity: float = TEXT_SIMILARITY
    max_slide: int = MAX_SLIDE
    texts: bool = False
    name: str = "siblings"

    def learn(self, pages: Sequence[SitePage],
              saved: SiblingSite | None = None) -> SiblingSite | None:
        if len(pages) < 2:
            return None
        return SiblingSite([page.root for page in pages], [page.url for page in pages],
                           tag_similarity=self.tag_similarity,
                           text_similarity=self.text_similarity, max_slide=self.max_slide)

    def look(self, model: SiblingSite, page: SitePage) -> SiblingLook:
        # The measures from the page's node string (made on the same untouched tree): one
        # walk of every element of the page instead of two.
        string = model.strings[page.index]
        measure = string.measure() if string is not None else None
        return SiblingLook(segment_blocks(page.root, texts=self.texts, measure=measure),
                           model, page.index)

    def apply(self, model: SiblingSite, page: SitePage, content: Content,
              seen: SiblingLook) -> Decision | None:
        # Paper 004 is for articles: on a list page the items' headlines recur, as headlines,
        # in the articles they link to, and would all go.
        # (The page type first: the verdicts are judged only where they are read.)
        if content.page_type != "detail" or seen.verdicts is None:
            return None
        return Decision(content=clean_content(content, seen.top, seen.verdicts))

    def review(self, model: SiblingSite, pages: Sequence[SitePage],
               records: Sequence[Record]) -> list[Decision | None]:
        return [None] * len(pages)

    def to_profile(self, model: SiblingSite) -> Mapping[str, Any] | None:
        return None

    def from_profile(self, data: Mapping[str, Any]) -> SiblingSite:
        raise NotImplementedError("the sibling method saves nothing: the pages are the model")
