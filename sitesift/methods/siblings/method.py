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

from lxml import etree

from sitesift.methods.interface import Decision, SiteMethod, SitePage
from sitesift.methods.page.content import Content
from sitesift.methods.siblings.clean import clean_content, within_varying
from sitesift.methods.siblings.match import MAX_SLIDE, TAG_SIMILARITY, TEXT_SIMILARITY
from sitesift.methods.siblings.site import SiblingSite, Verdict
from sitesift.methods.siblings.strings import NodeString
from sitesift.record import Record
from sitesift.segment.blocks import Block, blocks_of, segment_blocks

__all__ = ["SiblingLook", "SiblingsMethod"]


@dataclass(slots=True)
class SiblingLook:
    """A page's block tree, and the verdicts on its blocks (None: no blocks), both made on
    first use: ``apply`` reads them on an article only. Neither reads the page's tree: the
    block tree comes from the page's layout (its node string's, made on the untouched tree)
    when no texts are asked for, and the judging reads the site's node strings and the block
    tree alone; so they are the same after the page extractor edited the tree."""

    model: SiblingSite
    index: int
    #: Where the page's string starts (read on the untouched tree), or the block tree made.
    body: etree._Element
    _top: Block | None = None
    _verdicts: dict[int, Verdict] | None = None
    _judged: bool = False

    @property
    def top(self) -> Block:
        if self._top is None:
            string = self.model.strings[self.index]
            assert string is not None  # (``look`` made the tree of a page without one)
            self._top = blocks_of(self.body, string)
        return self._top

    @property
    def verdicts(self) -> dict[int, Verdict] | None:
        if not self._judged:
            top = self.top
            self._verdicts = self.model.judge(self.index, top) if top else None
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
        # The block tree from the page's node string (made on the same untouched tree): no
        # walk of its own, and made only where it is read. The texts and paths of the
        # blocks (``--blocks``) are read off the tree now, while it is untouched.
        string = model.strings[page.index]
        seen = SiblingLook(model, page.index, NodeString.start(page.root))
        if self.texts or string is None:
            seen._top = segment_blocks(page.root, texts=self.texts,
                                       layout=string)
        return seen

    def apply(self, model: SiblingSite, page: SitePage, content: Content,
              seen: SiblingLook) -> Decision | None:
        # Paper 004 is for articles: on a list page the items' headlines recur, as headlines,
        # in the articles they link to, and would all go.
        # (The page type first: the verdicts are judged only where they are read.)
        if content.page_type != "detail" or seen.verdicts is None:
            return None
        verdicts = seen.verdicts
        middle = within_varying(seen.top, verdicts, content.nodes)
        if middle:
            # What lies between two parts of the page's own text stays (``within_varying``);
            # the ``--blocks`` output shows it as content.
            gone = {id(block) for block in middle}
            verdicts = {k: v for k, v in verdicts.items() if k not in gone}
            seen._verdicts = verdicts
        cleaned = clean_content(content, seen.top, verdicts)
        # No deletion reached the main block (the same ``content`` back): its text stands
        # (``Decision()``; the blocks outside it are gone all the same).
        return Decision() if cleaned is content else Decision(content=cleaned)

    def review(self, model: SiblingSite, pages: Sequence[SitePage],
               records: Sequence[Record]) -> list[Decision | None]:
        return [None] * len(pages)

    def to_profile(self, model: SiblingSite) -> Mapping[str, Any] | None:
        return None

    def from_profile(self, data: Mapping[str, Any]) -> SiblingSite:
        raise NotImplementedError("the sibling method saves nothing: the pages are the model")
