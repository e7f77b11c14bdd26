"""The template method's path (paper 000, ``sitesift.methods.template``): a site's templates
learned, or read from its saved profile, and each page cleaned by its template; pages of a
template with a wrapper are read by it. Orchestration only: the steps are
``TemplateMethod``'s (``learning``, ``profile``, ``assign``, ``read_wrapped``, ``signatures``,
and its DeleteSame through the interface); here are their order, the guards, the store and
the records."""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import lxml.html

from sitesift.fields.metadata import extract_metadata
from sitesift.methods.page.content import Content
from sitesift.pipeline.base import PagePlan, Parsed, PipelineBase, Step, read_links, site_pages
from sitesift.record import Page, Record

if TYPE_CHECKING:
    from sitesift.methods.template.method import (
        Assignment,
        ProfileLearning,
        TemplateMethod,
        TemplateSite,
    )
    from sitesift.methods.template.profile import SiteProfile
    from sitesift.methods.template.template import TemplateModel
    from sitesift.parse.signatures import RelaxedLabels


log = logging.getLogger(__name__)


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
        plans = self._plans(site, members, pages, parsed, model, containers, steps,
                            self._template_method())
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
        from sitesift.methods.template.site import learn_site

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
        method = self._template_method()
        if store is not None or relearn:
            learned, learning = method.learning(
                learned, features, [parsed[i].root for i in members],  # type: ignore[arg-type]
                labels, wrappers=not steps)
        model = TemplateSite(learned.templates, features, member=True,  # type: ignore[arg-type]
                             clusters=learned.clusters)
        plans = self._plans(site, members, pages, parsed, model, [None] * len(members), steps,
                            method)
        self._clean_pages(site, members, pages, records, parsed, plans, learned.clusters,
                          learning)
        if learning is not None:
            learned = learning.learned(learned, [(pages[i], records[i]) for i in members],
                                       labels)
        profile = method.profile(learned, saved)
        if profile is saved:
            log.warning("site %s: %d page(s) teach no template; its saved profile "
                        "(%d template(s)) is kept", site, len(members), len(saved.templates))  # type: ignore[union-attr]
        elif store is not None:
            store.put(profile)
        return profile

    def _plans(
        self, site: str, members: list[int], pages: list[Page], parsed: dict[int, Parsed],
        model: TemplateSite, containers: Sequence[lxml.html.HtmlElement | None],
        steps: Mapping[int, tuple[Step, ...]], method: TemplateMethod,
    ) -> list[PagePlan]:
        """Each page's plan: the page extractor in its template's content container, then its
        template's DeleteSame (``method``, when its cluster has a template), then ``steps``."""
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
        learning: ProfileLearning | None = None,
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

    def _template_method(self) -> TemplateMethod:
        """The template method as this run's options ask: ``auto`` reads list pages whole; the
        template method alone lets its wrappers and field sources read pages."""
        from sitesift.methods.template.method import TemplateMethod

        return TemplateMethod(items=self.options.method == "auto",
                              wrappers=self.options.method == "template"
                              and self.options.wrappers)

    def _apply_saved(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], profile: SiteProfile, labels: RelaxedLabels,
    ) -> tuple[list[int], list[TemplateModel | None], list[lxml.html.HtmlElement | None],
               list[str]]:
        """A site's pages with its saved profile: each page's template
        (``TemplateMethod.assign``). Pages of a template with a wrapper are read by it and
        their records filled here; returns the other pages (for the full method) with their
        templates, content containers and cluster ids. Those get the content signatures of
        their container (``TemplateMethod.signatures``)."""
        method = self._template_method()
        found = {i: self._guarded(records[i], pages[i], functools.partial(
            self._assign, method, profile, parsed[i], labels, pages[i])) for i in members}
        read = {}  # pages a wrapper read: their main content
        for i in members:
            if found[i] is not None and found[i].wrapped is not None:  # type: ignore[attr-defined]
                content = self._guarded(records[i], pages[i], functools.partial(
                    self._wrap, method, pages[i], parsed, i, found))
                if content is not None:
                    read[i] = content
        rest = self._read_all([i for i in members if found[i] is not None
                               and i not in read and records[i].error is None],
                              pages, records, parsed)
        self._learn_titles(sorted(rest + list(read)), pages, parsed)
        for i, content in read.items():
            self._guarded(records[i], pages[i], functools.partial(
                self._finish_wrapped, records[i], parsed[i], site,
                found[i].template, content))  # type: ignore[union-attr]
        for i in rest:
            assigned: Assignment = found[i]  # type: ignore[assignment]
            if assigned.template is not None and parsed[i].features is None:
                self._guarded(records[i], pages[i], functools.partial(
                    _set_signatures, method, parsed[i], assigned.within, labels))
        models = [found[i].template for i in rest]  # type: ignore[union-attr]
        containers = [found[i].within for i in rest]  # type: ignore[union-attr]
        clusters = [m.cluster if m else f"{site}#new-{j}" for j, m in enumerate(models)]
        return rest, models, containers, clusters

    @staticmethod
    def _assign(
        method: TemplateMethod, profile: SiteProfile, parsed: Parsed, labels: RelaxedLabels,
        page: Page,
    ) -> Assignment:
        """``TemplateMethod.assign`` on a page: what it found of the page's signatures and
        fields kept with the page (``parsed``)."""
        assigned = method.assign(profile, parsed.root, labels, page.url)
        if assigned.features is not None:
            parsed.features = assigned.features
        if assigned.meta is not None:
            parsed.meta = assigned.meta
            parsed.links_unread = True
        return assigned

    def _wrap(
        self, method: TemplateMethod, page: Page, parsed: dict[int, Parsed], i: int,
        found: dict[int, Assignment | None],
    ) -> Content | None:
        """Read page ``i`` with its template's wrapper: the page-level metadata first when its
        field sources did not read it (``_assign``), links on list pages (their records carry
        them), then its main content (``TemplateMethod.read_wrapped``). A page the wrapper
        does not read is parsed again and left to the full method on the whole page
        (``found[i]`` says so): returns None."""
        assigned = found[i]
        assert assigned is not None and assigned.template is not None \
            and assigned.wrapped is not None
        template = assigned.template
        if parsed[i].meta is None:
            parsed[i].meta = extract_metadata(parsed[i].root, url=page.url,
                                              crawled=page.crawled)
        if template.wrapper.page_type == "list":  # type: ignore[union-attr]
            parsed[i].links = read_links(page, parsed[i].root)
        content = method.read_wrapped(template, assigned.wrapped, page.id)
        if content is not None:
            return content
        fresh = self._parse(page, read=False)
        fresh.meta = parsed[i].meta  # (read from the untouched tree)
        fresh.links_unread = True
        parsed[i] = fresh
        found[i] = dataclasses.replace(assigned, within=None, wrapped=None)
        return None

    def _finish_wrapped(
        self, record: Record, parsed: Parsed, site: str, model: TemplateModel,
        content: Content,
    ) -> None:
        """Fill ``record`` of a page that its template's wrapper read (``_wrap``): its main
        block as the wrapper left it, its fields as read (placed as the page method places
        them when the page-level metadata read them)."""
        assert parsed.meta is not None
        record.site = record.site or site
        record.extra["cluster"] = model.cluster
        record.method = "template"
        record.extra["wrapper"] = True
        self._fill(record, parsed, content)


def _set_signatures(method: TemplateMethod, parsed: Parsed,
                    within: lxml.html.HtmlElement | None, labels: RelaxedLabels) -> None:
    parsed.features = method.signatures(parsed.root, within, labels)
