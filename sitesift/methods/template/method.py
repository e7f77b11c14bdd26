"""The template method's DeleteSame behind the site-level interface
(``sitesift.methods.interface``).

``learn``: the pages' ISTM structures and subtree signatures (``features.page_features``), the
site's clusters and a template per cluster of two pages or more (``site.learn_site``, paper
000 steps 1-4); ``apply``: the page's template subtrees deleted from the main content
(``site.clean_content``, steps 5-6; auto reads a list page's items whole). The pipeline's
template path (``sitesift.pipeline.template``) builds the same model from a saved profile,
and learns what a profile keeps beyond it (anchors, content containers, wrappers, field
sources: they read the page extractor's result on the learning pages), so ``to_profile``
keeps nothing here: the profile is that path's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sitesift.methods.interface import Decision, SitePage
from sitesift.methods.page.content import Content
from sitesift.methods.template.features import PageFeatures, page_features
from sitesift.methods.template.site import clean_content, learn_site
from sitesift.methods.template.template import TemplateModel
from sitesift.parse.signatures import RelaxedLabels
from sitesift.record import Record

__all__ = ["TemplateMethod", "TemplateSite"]


@dataclass(frozen=True, slots=True)
class TemplateSite:
    """The templates of a site's pages, by ``SitePage.index``: ``templates[k]`` page k's (None:
    its cluster has none), ``features[k]`` its subtree signatures (None: unread); ``member``:
    the pages taught the templates, so a page is no reference of itself."""

    templates: Sequence[TemplateModel | None]
    features: Sequence[PageFeatures | None]
    member: bool
    #: Each page's cluster id (``site.learn_site``).
    clusters: Sequence[str] = ()


@dataclass(frozen=True, slots=True)
class TemplateMethod:
    """Paper 000's DeleteSame as a ``SiteMethod[TemplateSite]``. ``items``: repeated items stay
    whole, and list pages are read whole (``auto``: the labels a list's items share with other
    lists' items, "Top rated", "Save 25%", are the items' own, as their headlines are)."""

    items: bool = False
    name: str = "template"

    def learn(self, pages: Sequence[SitePage],
              saved: TemplateSite | None = None) -> TemplateSite:
        if saved is not None:
            return saved
        labels = RelaxedLabels()  # the pages of one site share most element labels
        features = [page_features(page.root, structure=True, strings=False, labels=labels)
                    for page in pages]
        learned = learn_site(pages[0].site if pages else "", features)
        return TemplateSite(learned.templates, features, member=True, clusters=learned.clusters)

    def look(self, model: TemplateSite, page: SitePage) -> None:
        return None

    def apply(self, model: TemplateSite, page: SitePage, content: Content,
              seen: None) -> Decision | None:
        template, features = model.templates[page.index], model.features[page.index]
        if template is None or features is None or (self.items and content.page_type == "list"):
            return None
        return Decision(content=clean_content(content, features, template, member=model.member,
                                              items=self.items))

    def review(self, model: TemplateSite, pages: Sequence[SitePage],
               records: Sequence[Record]) -> list[Decision | None]:
        return [None] * len(pages)

    def to_profile(self, model: TemplateSite) -> Mapping[str, Any] | None:
        return None  # (the template path saves the site's profile: module docstring)

    def from_profile(self, data: Mapping[str, Any]) -> TemplateSite:
        raise NotImplementedError("the template path reads a saved profile (module docstring)")
