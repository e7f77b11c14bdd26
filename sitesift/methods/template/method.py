"""The template method (paper 000) behind the site-level interface
(``sitesift.methods.interface``).

``learn``: the pages' ISTM structures and subtree signatures (``features.page_features``), the
site's clusters and a template per cluster of two pages or more (``site.learn_site``, paper
000 steps 1-4); ``apply``: the page's template subtrees deleted from the main content
(``site.delete_template``, steps 5-6; auto reads a list page's items whole). A model that learns
a profile to be saved (``TemplateSite.learning``) snapshots each page's untouched tree in
``look`` and learns its templates' content containers and wrappers from what the page
extractor found in ``observe``. A saved profile's model (``saved``, which ``from_profile``
gives) starts with no page: its ``read`` assigns each page to a saved template (by anchors,
``assign``) and lets the template's wrapper read the page where it has one, its ``look`` reads
the content signatures of the page's content container, and its ``apply`` is DeleteSame with
the saved template. ``to_profile`` / ``from_profile``: the model's ``SiteProfile`` (learned, or
applied) as JSON-able data and back (``profile_data``; the store keeps its bytes,
``sitesift.profiles``).

Beyond the interface, the steps of a saved profile, which the pipeline's template path
(``sitesift.pipeline.template``) calls in an order of its own (docs/design/architecture.md says
why): ``learning`` (a profile's anchors, and the ``ProfileLearning`` that ``look`` and
``observe`` feed), ``profile`` (what is kept), ``assign`` / ``assign_page`` (a new page's
template, its content container, its fields by the template's field sources, and whether its
wrapper reads it) and ``signatures`` / ``signatures_of`` (the content signatures DeleteSame
reads on a page of a saved template)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from sitesift.errors import PageError
from sitesift.fields.metadata import Metadata
from sitesift.methods.interface import Decision, Reading, SiteMethod, SitePage
from sitesift.methods.page.content import Content
from sitesift.methods.template.features import PageFeatures, page_features
from sitesift.methods.template.profile import SiteProfile
from sitesift.methods.template.profile_data import profile_from_data, profile_to_data
from sitesift.methods.template.site import (
    LearnedSite,
    delete_template,
    learn_site,
    with_anchors,
    with_containers,
    with_wrappers,
)
from sitesift.methods.template.template import (
    PathFinder,
    Step,
    TemplateModel,
    container_key,
    content_signatures,
    element_steps,
)
from sitesift.methods.template.wrapper import LearningPage, Votes, WrapperLearner
from sitesift.parse.signatures import RelaxedLabels
from sitesift.record import Page, Record

__all__ = ["Assignment", "ProfileLearning", "TemplateMethod", "TemplateSite", "Wrapped"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TemplateSite:
    """The templates of a site's pages, by ``SitePage.index``: ``templates[k]`` page k's (None:
    its cluster has none), ``features[k]`` its subtree signatures (None: unread); ``member``:
    the pages taught the templates, so a page is no reference of itself.

    A saved profile's model (``TemplateMethod.saved``, ``from_profile``) starts with no page:
    ``assigned``, ``templates`` and ``features`` are filled as its pages are assigned to the
    profile's templates (``read``, or ``assign_page`` called by the pipeline), and their
    content signatures read (``look``, or ``signatures_of``)."""

    templates: Sequence[TemplateModel | None] | dict[int, TemplateModel | None]
    features: Sequence[PageFeatures | None] | dict[int, PageFeatures | None]
    member: bool
    #: Each page's cluster id (``site.learn_site``).
    clusters: Sequence[str] = ()
    #: A profile to be saved: what its pages teach as the page extractor reads them
    #: (``look``, ``observe``).
    learning: ProfileLearning | None = None
    #: A saved profile's model: each page's assignment (``TemplateMethod.assign``), whose
    #: wrapper ``read`` follows (None: a model learned from the pages).
    assigned: dict[int, Assignment] | None = None
    #: The profile ``to_profile`` saves: the one learned (``learn``), or the one applied.
    profile: SiteProfile | None = None
    #: A saved profile's label memo, which its pages share (``assign``, ``signatures``).
    labels: RelaxedLabels | None = None


@dataclass(frozen=True, slots=True)
class TemplateMethod(SiteMethod[TemplateSite]):
    """Paper 000's DeleteSame as a ``SiteMethod[TemplateSite]``. ``items``: repeated items stay
    whole, and list pages are read whole (``auto``: the labels a list's items share with other
    lists' items, "Top rated", "Save 25%", are the items' own, as their headlines are)."""

    items: bool = False
    #: Pages of a saved template with field sources and a wrapper are read by them
    #: (``assign``; the template method alone, ``Options.wrappers``).
    wrappers: bool = False
    #: What the cluster's pages share goes only at an edge of the main block's own text
    #: (``template.in_middle``; ``auto``: a template contributes to the main block at its
    #: edges, and a site's pages share content too).
    edges: bool = False
    name: str = "template"

    def learn(self, pages: Sequence[SitePage],
              saved: TemplateSite | None = None) -> TemplateSite:
        if saved is not None:
            # A saved profile's model starts afresh on these pages (the pages of another run
            # may have had the same places).
            return saved if saved.assigned is None else self.saved(saved.profile)  # type: ignore[arg-type]
        labels = RelaxedLabels()  # the pages of one site share most element labels
        features = [page_features(page.root, structure=True, strings=False, labels=labels)
                    for page in pages]
        learned = learn_site(pages[0].site if pages else "", features)
        return TemplateSite(learned.templates, features, member=True, clusters=learned.clusters,
                            profile=learned.profile)

    @staticmethod
    def saved(profile: SiteProfile, labels: RelaxedLabels | None = None) -> TemplateSite:
        """The model of a saved profile, before any page is assigned to its templates
        (``labels``: the memo the site's pages share, a new one by default)."""
        return TemplateSite({}, {}, member=False, assigned={}, profile=profile,
                            labels=labels if labels is not None else RelaxedLabels())

    def look(self, model: TemplateSite, page: SitePage) -> None:
        if model.learning is not None:
            model.learning.before(page.index, page.root)
        if model.assigned is not None:
            self.signatures_of(model, page)

    def read(self, model: TemplateSite, page: SitePage) -> Reading | None:
        """A saved profile's page (assigned to its template first, ``assign_page``), read by
        its template's wrapper: its main block as the wrapper leaves it, and the title, date
        and author its field sources read (``Reading.meta``). The content is None where the
        wrapper does not fit the page (``Wrapper.fits``) or fails on it: the page goes to the
        full method, parsed again (the wrapper edited its tree). A page of a template without
        a wrapper gets its field sources' reading alone (or None: the page extractor reads
        it all)."""
        if model.assigned is None:
            return None
        assigned = model.assigned.get(page.index)
        if assigned is None:
            assigned = self.assign_page(model, page)
        if assigned.template is None or assigned.wrapped is None:
            # (the page extractor reads the page; its template's field sources, its metadata)
            return Reading(None, meta=assigned.meta, edited=False) \
                if assigned.meta is not None else None
        template, wrapped = assigned.template, assigned.wrapped
        wrapper = template.wrapper
        assert wrapper is not None
        main = wrapped.container
        try:
            if wrapper.read(main, template.container, labels=wrapped.finder.labels):
                return Reading(Content(page_type=wrapper.page_type, nodes=(main,)),
                               {"wrapper": True}, meta=assigned.meta)
        except PageError:
            raise
        except Exception:  # a bug in the fast path must not cost the page: the full method
            log.exception("the wrapper of %s failed on page %s", template.cluster, page.id)
        # The page goes to the full method on the whole page, parsed again: its signatures
        # are read on the new tree (``look``).
        model.assigned[page.index] = dataclasses.replace(assigned, within=None, wrapped=None)
        model.features[page.index] = None  # type: ignore[index]
        return Reading(None, meta=assigned.meta)

    def apply(self, model: TemplateSite, page: SitePage, content: Content,
              seen: None) -> Decision | None:
        template, features = model.templates[page.index], model.features[page.index]
        if template is None or features is None or (self.items and content.page_type == "list"):
            return None
        if not delete_template(content, features, template, member=model.member,
                               items=self.items, edges=self.edges):
            return Decision()  # nothing deleted: the same content, its text as it was
        return Decision(content=content)  # (``delete_template`` edits the nodes in place)

    def observe(self, model: TemplateSite, page: SitePage, found: Content | None) -> None:
        if model.learning is not None:
            model.learning.after(page.index, page.root, found)

    def review(self, model: TemplateSite, pages: Sequence[SitePage],
               records: Sequence[Record]) -> list[Decision | None]:
        return [None] * len(pages)

    def to_profile(self, model: TemplateSite) -> Mapping[str, Any] | None:
        """The site's profile as JSON-able data (``profile_data``; None: no profile, or no
        template in it)."""
        if model.profile is None or not model.profile.templates:
            return None
        return profile_to_data(model.profile)

    def from_profile(self, data: Mapping[str, Any]) -> TemplateSite:
        """The model of the profile ``to_profile`` saved (raises ``ProfileError`` for data of
        another format version or corrupt)."""
        return self.saved(profile_from_data(data))

    # The steps of a saved profile (module docstring), called by the pipeline's template path.

    def learning(
        self, learned: LearnedSite, features: Sequence[PageFeatures],
        roots: Sequence[etree._Element], labels: RelaxedLabels, *, wrappers: bool,
    ) -> tuple[LearnedSite, ProfileLearning]:
        """A profile to be saved: ``learned`` with its templates' anchors (paths read on the
        untouched trees ``roots``), and what learns the rest from the page extractor's result
        on each page (``wrappers``: with the wrapper learner, the template method alone)."""
        paths = [element_steps(root, labels=labels) for root in roots]
        learned = with_anchors(learned, features, list(zip(roots, paths, strict=True)))
        return learned, ProfileLearning(paths, WrapperLearner(labels) if wrappers else None)

    @staticmethod
    def profile(learned: LearnedSite, saved: SiteProfile | None) -> SiteProfile:
        """The profile to keep of a site learned again (``saved``: its profile until now; the
        result is ``saved`` itself where that stays)."""
        profile = learned.profile
        # The forum method's rules, saved with the profile, outlive learning the templates
        # (a profile holding them only, or ``learn``).
        if saved is not None and saved.forum is not None:
            profile = dataclasses.replace(profile, forum=saved.forum)
        if not profile.templates and saved is not None and saved.templates:
            # Pages that teach no template (too few of a kind) say nothing against the
            # saved ones: relearning from them would drop data, not correct it.
            return saved
        return profile

    def assign(
        self, profile: SiteProfile, root: etree._Element, labels: RelaxedLabels,
        url: str | None,
    ) -> Assignment:
        """The saved template of a page and its content container there (None: the whole
        page), and, when the template's wrapper reads it, what the wrapper needs. With
        ``wrappers``, a template's field sources give the page its title, date and author when
        the page has them all where learned."""
        finder = PathFinder(root, labels=labels)
        model, _share, signatures = profile.assign_page(finder, exact=False)
        features = PageFeatures(signatures=signatures) if signatures is not None else None
        if model is None:
            return Assignment(None, None, features)
        container = finder.find(model.container)  # (<body> for the empty path)
        within = container if model.container else None
        if not self.wrappers:
            return Assignment(model, within, features)
        meta = None
        if model.fields is not None:
            values = model.fields.read(finder, url=url)
            if values is not None:
                meta = Metadata(title=values["title"], author=values["author"],
                                published=values["published"])
        wrapped = Wrapped(finder, container) \
            if model.wrapper is not None and container is not None else None
        return Assignment(model, within, features, meta, wrapped)

    def assign_page(self, model: TemplateSite, page: SitePage) -> Assignment:
        """``assign`` of a saved profile's model (``saved``) on ``page``, kept in the model for
        the page's other steps."""
        assert model.assigned is not None and model.profile is not None
        assigned = self.assign(model.profile, page.root, model.labels or RelaxedLabels(),
                               page.url)
        model.assigned[page.index] = assigned
        model.templates[page.index] = assigned.template  # type: ignore[index]
        model.features[page.index] = assigned.features  # type: ignore[index]
        return assigned

    def signatures_of(self, model: TemplateSite, page: SitePage) -> None:
        """A saved profile's page of a template, its content signatures unread: read them on
        its untouched tree, in its content container (``signatures``)."""
        assert model.assigned is not None
        assigned = model.assigned[page.index]
        if assigned.template is not None and model.features.get(page.index) is None:  # type: ignore[union-attr]
            model.features[page.index] = self.signatures(  # type: ignore[index]
                page.root, assigned.within, model.labels or RelaxedLabels())

    @staticmethod
    def signatures(root: etree._Element, within: etree._Element | None,
                   labels: RelaxedLabels) -> PageFeatures:
        """Content signatures of a page's content container (or the whole page), which
        DeleteSame reads on a page of a saved template (paper 000, steps 5 and 6)."""
        top = within if within is not None else root
        return PageFeatures(signatures=content_signatures(top, labels=labels))


@dataclass(frozen=True, slots=True)
class Wrapped:
    """A page its template's wrapper reads: its paths, and its content container."""

    finder: PathFinder
    container: etree._Element


@dataclass(frozen=True, slots=True)
class Assignment:
    """A new page's place in a saved profile (``TemplateMethod.assign``)."""

    #: Its template (None: no saved template fits it).
    template: TemplateModel | None
    #: The template's content container on the page (None: the whole page).
    within: etree._Element | None
    #: Its content signatures, when recognising its template computed them.
    features: PageFeatures | None = None
    #: Its title, date and author read by the template's field sources (None: unread).
    meta: Metadata | None = None
    #: What the template's wrapper needs to read it (None: the full method reads it).
    wrapped: Wrapped | None = None

    @property
    def wrapped_list(self) -> bool:
        """Its wrapper reads it as a list page, whose record lists its links: they are read
        before the wrapper edits the tree."""
        return self.wrapped is not None and self.template is not None \
            and self.template.wrapper is not None and self.template.wrapper.page_type == "list"


@dataclass(slots=True)
class ProfileLearning:
    """What a profile to be saved learns from its pages as the page extractor reads them: where
    each page's main block sits (its template's content container) and, with the template
    method alone, the wrapper learner's votes."""

    #: Each learning page's element paths, read before the page extractor edits the tree.
    steps: list[dict[etree._Element, Step]]
    learner: WrapperLearner | None
    #: Each page's main block as a container key (None: the page had no content).
    keys: list[tuple[Step, ...] | None] = field(default_factory=list)

    def before(self, j: int, root: etree._Element) -> None:
        if self.learner is not None:
            self.learner.before(j, root)

    def after(self, j: int, root: etree._Element, content: object) -> None:
        ok = isinstance(content, Content)
        self.keys.append(container_key(content.nodes[0], self.steps[j], root)  # type: ignore[union-attr]
                         if ok else None)
        if self.learner is not None:
            self.learner.after(j, content.nodes[0] if ok else None)  # type: ignore[union-attr]

    def learned(self, learned: LearnedSite, pages: list[tuple[Page, Record]],
                labels: RelaxedLabels) -> LearnedSite:
        """``learned`` with its templates' content containers and wrappers."""
        learned = with_containers(learned, self.keys)
        if self.learner is None:
            return learned
        votes = self.learner.votes
        return with_wrappers(learned, [
            _learning_page(votes[j], key, page, record)
            if j in votes and key is not None else None
            for j, ((page, record), key) in enumerate(zip(pages, self.keys, strict=True))],
            labels=labels)


def _learning_page(votes: Votes, key: tuple[Step, ...], page: Page,
                   record: Record) -> LearningPage:
    """What learning a template's wrapper needs of one of its learning pages, extracted."""
    return LearningPage(votes, key, page.html, page.url, record.text, record.page_type,
                        {"title": record.title, "published": record.published,
                         "author": record.author})
