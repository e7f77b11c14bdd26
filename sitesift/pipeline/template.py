"""The template method's path (paper 000, ``sitesift.methods.template``): a site's templates
learned, or read from its saved profile, and each page cleaned by its template; pages of a
template with a wrapper are read by it."""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import lxml.html

from sitesift.errors import PageError
from sitesift.fields.metadata import Metadata, extract_metadata
from sitesift.methods.page.content import Content
from sitesift.pipeline.base import PagePlan, Parsed, PipelineBase, Step, read_links, site_pages
from sitesift.record import Page, Record

if TYPE_CHECKING:
    from sitesift.methods.template.method import TemplateSite
    from sitesift.methods.template.profile import SiteProfile
    from sitesift.methods.template.site import LearnedSite
    from sitesift.methods.template.template import PathFinder, Step, TemplateModel
    from sitesift.methods.template.wrapper import LearningPage, Votes, WrapperLearner
    from sitesift.parse.signatures import RelaxedLabels


log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Wrapped:
    """A page its template's wrapper reads: its paths, and its content container."""

    finder: PathFinder
    container: lxml.html.HtmlElement


@dataclass(slots=True)
class _Learning:
    """What a profile to be saved learns from its pages as the page extractor reads them: where
    each page's main block sits (its template's content container) and, with the template
    method alone, the wrapper learner's votes."""

    #: Each learning page's element paths, read before the page extractor edits the tree.
    steps: list[dict[lxml.html.HtmlElement, Step]]
    learner: WrapperLearner | None
    #: Each page's main block as a container key (None: the page had no content).
    keys: list[tuple[Step, ...] | None] = field(default_factory=list)

    def before(self, j: int, root: lxml.html.HtmlElement) -> None:
        if self.learner is not None:
            self.learner.before(j, root)

    def after(self, j: int, root: lxml.html.HtmlElement, content: object) -> None:
        from sitesift.methods.template.template import container_key

        ok = isinstance(content, Content)
        self.keys.append(container_key(content.nodes[0], self.steps[j], root)  # type: ignore[union-attr]
                         if ok else None)
        if self.learner is not None:
            self.learner.after(j, content.nodes[0] if ok else None)  # type: ignore[union-attr]

    def learned(self, learned: LearnedSite, pages: list[tuple[Page, Record]],
                labels: RelaxedLabels) -> LearnedSite:
        """``learned`` with its templates' content containers and wrappers."""
        from sitesift.methods.template.site import with_containers, with_wrappers

        learned = with_containers(learned, self.keys)
        if self.learner is None:
            return learned
        votes = self.learner.votes
        return with_wrappers(learned, [
            _learning_page(votes[j], key, page, record)
            if j in votes and key is not None else None
            for j, ((page, record), key) in enumerate(zip(pages, self.keys, strict=True))],
            labels=labels)


class TemplatePath(PipelineBase):
    """The template method over one site's pages."""

    def _extract_site(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], *, lasting: bool,
        relearn: bool = False,
        steps: Mapping[int, tuple[Step, ...]] | None = None,
    ) -> SiteProfile | None:
        """Records of one site's pages (in ``records``); returns the profile applied or learned
        (None when no page had features). ``lasting``: the site has a name beyond this run, so
        its profile is read from and written to the store (when there is one). ``relearn``:
        learn even when the store holds a profile (``learn``). ``steps``: each page's steps
        after the template's (``auto``: the sibling method's): a block removed by any goes."""
        from sitesift.parse.signatures import RelaxedLabels

        labels = RelaxedLabels()  # the pages of one site share most element labels
        saved = self._saved(site, lasting)
        profile = None if relearn else saved
        if profile is not None and not profile.templates:
            profile = None  # saved by the forum method (its rules only): learn the templates
        steps = steps or {}
        if profile is None:
            return self._learn_templates(site, members, pages, records, parsed, labels, saved,
                                         lasting=lasting, relearn=relearn, steps=steps)
        from sitesift.methods.template.method import TemplateSite

        members, models, containers, clusters = self._apply_saved(
            site, members, pages, records, parsed, profile, labels)
        model = TemplateSite(models, [parsed[i].features for i in members], member=False,
                             clusters=clusters)
        plans = self._plans(site, members, pages, parsed, model, containers, steps)
        self._clean_pages(site, members, pages, records, parsed, plans, clusters)
        return profile

    def _learn_templates(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], labels: RelaxedLabels, saved: SiteProfile | None, *,
        lasting: bool, relearn: bool, steps: Mapping[int, tuple[Step, ...]],
    ) -> SiteProfile | None:
        """A site without a saved profile: its templates learned from its pages (paper 000),
        each page cleaned by its own; a profile to be saved also learns its templates'
        anchors, content containers and (with the template method alone) wrappers."""
        from sitesift.methods.template.method import TemplateSite
        from sitesift.methods.template.site import learn_site, with_anchors
        from sitesift.methods.template.template import element_steps
        from sitesift.methods.template.wrapper import WrapperLearner

        store = self.profiles if lasting else None
        members = self._read_all(members, pages, records, parsed)
        self._learn_titles(members, pages, parsed)
        members = self._features(members, pages, records, parsed, structure=True,
                                 labels=labels)
        if not members:
            return None
        features = [parsed[i].features for i in members]
        learned = learn_site(site, features)  # type: ignore[arg-type]
        # A profile that will be saved learns its templates' content containers from where
        # the page extractor finds the main block, and their anchors (paths read before it
        # edits the trees); with the template method alone, their wrappers.
        learning = None
        if store is not None or relearn:
            paths = [element_steps(parsed[i].root, labels=labels) for i in members]
            learned = with_anchors(learned, features,  # type: ignore[arg-type]
                                   [(parsed[i].root, paths[j]) for j, i in enumerate(members)])
            learning = _Learning(paths, WrapperLearner(labels) if not steps else None)
        model = TemplateSite(learned.templates, features, member=True,  # type: ignore[arg-type]
                             clusters=learned.clusters)
        plans = self._plans(site, members, pages, parsed, model, [None] * len(members), steps)
        self._clean_pages(site, members, pages, records, parsed, plans, learned.clusters,
                          learning)
        if learning is not None:
            learned = learning.learned(learned, [(pages[i], records[i]) for i in members],
                                       labels)
        profile = learned.profile
        # The forum method's rules, saved with the profile, outlive learning the templates
        # (a profile holding them only, or ``learn``).
        if saved is not None and saved.forum is not None:
            profile = dataclasses.replace(profile, forum=saved.forum)
        if not profile.templates and saved is not None and saved.templates:
            # Pages that teach no template (too few of a kind) say nothing against the
            # saved ones: relearning from them would drop data, not correct it.
            log.warning("site %s: %d page(s) teach no template; its saved profile "
                        "(%d template(s)) is kept", site, len(members), len(saved.templates))
            profile = saved
        elif store is not None:
            store.put(profile)
        return profile

    def _plans(
        self, site: str, members: list[int], pages: list[Page], parsed: dict[int, Parsed],
        model: TemplateSite, containers: Sequence[lxml.html.HtmlElement | None],
        steps: Mapping[int, tuple[Step, ...]],
    ) -> list[PagePlan]:
        """Each page's plan: the page extractor in its template's content container, then its
        template's DeleteSame (``TemplateMethod``, when its cluster has a template), then
        ``steps``."""
        from sitesift.methods.template.method import TemplateMethod

        method = TemplateMethod(items=self.options.method == "auto")
        plans = []
        for page, within in zip(site_pages(site, members, pages, parsed), containers,
                                strict=True):
            own = (Step(method, model, page),) if model.templates[page.index] is not None \
                else ()
            plans.append(PagePlan(within=within, steps=(*own, *steps.get(members[page.index],
                                                                         ()))))
        return plans

    def _clean_pages(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], plans: list[PagePlan], clusters: Sequence[str],
        learning: _Learning | None = None,
    ) -> None:
        """Each page's record by the page extractor and its plan, in the page's cluster;
        ``learning`` watches the pages a profile learns from."""
        for j, i in enumerate(members):
            record = records[i]
            record.site = record.site or site
            record.extra["cluster"] = clusters[j]
            finish = functools.partial(self._finish, record, pages[i], parsed[i], plans[j])
            if learning is not None:
                learning.before(j, parsed[i].root)
            content = self._guarded(record, pages[i], finish)
            if learning is not None:
                learning.after(j, parsed[i].root, content)

    def _apply_saved(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], profile: SiteProfile, labels: RelaxedLabels,
    ) -> tuple[list[int], list[TemplateModel | None], list[lxml.html.HtmlElement | None],
               list[str]]:
        """A site's pages with its saved profile: each page's template from its anchors.
        Pages of a template with a wrapper are read by it (methods/template/wrapper.py) and their
        records filled here; returns the other pages (for the full method) with their
        templates, content containers and cluster ids. Those get the content signatures of
        their container (methods/template/template.py, steps 5 and 6)."""
        found = {i: self._guarded(records[i], pages[i], functools.partial(
            self._assign, profile, parsed[i], labels, pages[i])) for i in members}
        read = {}  # pages a wrapper read: their main blocks
        for i in members:
            if found[i] is not None and found[i][2] is not None:  # type: ignore[index]
                main = self._guarded(records[i], pages[i], functools.partial(
                    self._wrap, pages[i], parsed, i, found))
                if main is not None:
                    read[i] = main
        rest = self._read_all([i for i in members if found[i] is not None
                               and i not in read and records[i].error is None],
                              pages, records, parsed)
        self._learn_titles(sorted(rest + list(read)), pages, parsed)
        for i, main in read.items():
            self._guarded(records[i], pages[i], functools.partial(
                self._finish_wrapped, records[i], parsed[i], site, found[i][0],  # type: ignore[index]
                main))
        for i in rest:
            if found[i][0] is not None:  # type: ignore[index]
                self._guarded(records[i], pages[i], functools.partial(
                    self._signatures, parsed[i], found[i][1], labels))  # type: ignore[index]
        models = [found[i][0] for i in rest]  # type: ignore[index]
        containers = [found[i][1] for i in rest]  # type: ignore[index]
        clusters = [m.cluster if m else f"{site}#new-{j}" for j, m in enumerate(models)]
        return rest, models, containers, clusters

    def _assign(
        self, profile: SiteProfile, parsed: Parsed, labels: RelaxedLabels, page: Page,
    ) -> tuple[TemplateModel | None, lxml.html.HtmlElement | None, _Wrapped | None]:
        """The saved template of a page and its content container there (None: the whole
        page), and, when the template's wrapper reads it, what the wrapper needs. With the
        template method and wrappers on, a template's field sources give the page its title,
        date and author (``parsed.meta``) when the page has them all where learned."""
        from sitesift.methods.template.features import PageFeatures
        from sitesift.methods.template.template import PathFinder

        finder = PathFinder(parsed.root, labels=labels)
        model, _share, signatures = profile.assign_page(finder, exact=False)
        if signatures is not None:
            parsed.features = PageFeatures(signatures=signatures)
        if model is None:
            return None, None, None
        container = finder.find(model.container)  # (<body> for the empty path)
        within = container if model.container else None
        if self.options.method != "template" or not self.options.wrappers:
            return model, within, None
        if model.fields is not None:
            values = model.fields.read(finder, url=page.url)
            if values is not None:
                parsed.meta = Metadata(title=values["title"], author=values["author"],
                                       published=values["published"])
                parsed.links_unread = True
        if model.wrapper is not None and container is not None:
            return model, within, _Wrapped(finder, container)
        return model, within, None

    @staticmethod
    def _signatures(
        parsed: Parsed, within: lxml.html.HtmlElement | None, labels: RelaxedLabels,
    ) -> None:
        """Content signatures of the content container (or the page), which DeleteSame reads."""
        from sitesift.methods.template.features import PageFeatures
        from sitesift.methods.template.template import content_signatures

        if parsed.features is None:
            top = within if within is not None else parsed.root
            parsed.features = PageFeatures(signatures=content_signatures(top, labels=labels))

    def _wrap(
        self, page: Page, parsed: dict[int, Parsed], i: int,
        found: dict[int, tuple[TemplateModel | None, lxml.html.HtmlElement | None,
                               _Wrapped | None] | None],
    ) -> lxml.html.HtmlElement | None:
        """Read page ``i`` with its template's wrapper: the page-level metadata first when its
        field sources did not read it (``_assign``), links on list pages (their records carry
        them), then its main block. A page the wrapper does not fit (``Wrapper.fits``), or
        fails on, is parsed again and left to the full method on the whole page (``found[i]``
        says so): returns None."""
        model, _within, wrapped = found[i]  # type: ignore[misc]
        wrapper = model.wrapper
        if parsed[i].meta is None:
            parsed[i].meta = extract_metadata(parsed[i].root, url=page.url,
                                              crawled=page.crawled)
        if wrapper.page_type == "list":
            parsed[i].links = read_links(page, parsed[i].root)
        main = wrapped.container
        try:
            kept = wrapper.apply(main, model.container, labels=wrapped.finder.labels)
            if wrapper.fits(main, kept):
                return main
        except PageError:
            raise
        except Exception:  # a bug in the fast path must not cost the page: the full method
            log.exception("the wrapper of %s failed on page %s", model.cluster, page.id)
        fresh = self._parse(page, read=False)
        fresh.meta = parsed[i].meta  # (read from the untouched tree)
        fresh.links_unread = True
        parsed[i] = fresh
        found[i] = (model, None, None)
        return None

    def _finish_wrapped(
        self, record: Record, parsed: Parsed, site: str, model: TemplateModel,
        main: lxml.html.HtmlElement,
    ) -> None:
        """Fill ``record`` of a page that its template's wrapper read (``_wrap``): its main
        block as the wrapper left it, its fields as read (placed as the page method places
        them when the page-level metadata read them)."""
        wrapper, meta = model.wrapper, parsed.meta
        assert wrapper is not None and meta is not None
        record.site = record.site or site
        record.extra["cluster"] = model.cluster
        record.method = "template"
        record.extra["wrapper"] = True
        self._fill(record, parsed, Content(page_type=wrapper.page_type, nodes=(main,)))


def _learning_page(votes: Votes, key: tuple[Step, ...], page: Page,
                   record: Record) -> LearningPage:
    """What learning a template's wrapper needs of one of its learning pages, extracted."""
    from sitesift.methods.template.wrapper import LearningPage

    return LearningPage(votes, key, page.html, page.url, record.text, record.page_type,
                        {"title": record.title, "published": record.published,
                         "author": record.author})
