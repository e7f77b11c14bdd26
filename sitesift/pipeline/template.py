"""The template method's path (paper 000, ``sitesift.methods.template``): a site's templates
learned, or read from its saved profile, and each page cleaned by its template; pages of a
template with a wrapper are read by it. Orchestration only: the steps are
``TemplateMethod``'s, through the interface (DeleteSame's ``apply``, the wrappers' ``read``,
a profile's learning in ``look`` and ``observe``) and beside it (``learning``, ``profile``,
``assign``, ``signatures``); here are their order, the guards, the store and the records."""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import lxml.html

from sitesift.fields.metadata import extract_metadata
from sitesift.methods.interface import Reading
from sitesift.pipeline.base import PagePlan, Parsed, PipelineBase, Step, read_links, site_pages
from sitesift.record import Page, Record

if TYPE_CHECKING:
    from sitesift.methods.template.method import Assignment, TemplateMethod, TemplateSite
    from sitesift.methods.template.profile import SiteProfile
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
        self._apply_saved(site, members, pages, records, parsed, profile, labels, steps)
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
                             clusters=learned.clusters, learning=learning)
        plans = self._plans(site, members, pages, parsed, model, [None] * len(members), steps,
                            method)
        self._clean_pages(site, members, pages, records, parsed, plans, learned.clusters)
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
        readings: Mapping[int, Reading] | None = None,
    ) -> list[PagePlan]:
        """Each page's plan: the page extractor in its template's content container, then its
        template's DeleteSame (``method``, when its cluster has a template; looking and
        observing only on a page of a profile being learned otherwise), then ``steps``; or
        the page as its template's wrapper read it (``readings``)."""
        plans = []
        for page, within in zip(site_pages(site, members, pages, parsed), containers,
                                strict=True):
            i = members[page.index]
            if readings and i in readings:
                plans.append(PagePlan(reading=readings[i], read_by=method.name))
                continue
            applies = model.templates[page.index] is not None
            own = (Step(method, model, page, applies=applies),) \
                if applies or model.learning is not None else ()
            plans.append(PagePlan(within=within, steps=(*own, *steps.get(i, ()))))
        return plans

    def _clean_pages(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], plans: list[PagePlan], clusters: Sequence[str],
    ) -> None:
        """Each page's record by its plan, in the page's cluster."""
        for j, i in enumerate(members):
            record = records[i]
            record.site = record.site or site
            record.extra["cluster"] = clusters[j]
            self._run_page(record, pages[i], parsed[i], plans[j])

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
        steps: Mapping[int, tuple[Step, ...]],
    ) -> None:
        """A site's pages with its saved profile: each page's template
        (``TemplateMethod.assign``); pages of a template with a wrapper are read by it
        (``_read_wrapped``), the others get the content signatures of their container
        (``TemplateMethod.signatures``) and the full method; then the site's titles, and each
        page's record by its plan."""
        from sitesift.methods.template.method import TemplateSite

        method = self._template_method()
        found = {i: self._guarded(records[i], pages[i], functools.partial(
            self._assign, method, profile, parsed[i], labels, pages[i])) for i in members}
        assigned = [i for i in members if found[i] is not None]
        model = TemplateSite([found[i].template for i in assigned],  # type: ignore[union-attr]
                             [parsed[i].features for i in assigned], member=False,
                             assigned=[found[i] for i in assigned])  # type: ignore[misc]
        readings = {}  # pages a wrapper read
        for i, page in zip(assigned, site_pages(site, assigned, pages, parsed), strict=True):
            if found[i].wrapped is not None:  # type: ignore[union-attr]
                reading = self._guarded(records[i], pages[i], functools.partial(
                    self._read_wrapped, Step(method, model, page), pages[i], parsed, i, found))
                if reading is not None:
                    readings[i] = reading
        rest = self._read_all([i for i in assigned if i not in readings
                               and records[i].error is None], pages, records, parsed)
        kept = sorted(rest + list(readings))
        self._learn_titles(kept, pages, parsed)
        for i in rest:
            found_i: Assignment = found[i]  # type: ignore[assignment]
            if found_i.template is not None and parsed[i].features is None:
                self._guarded(records[i], pages[i], functools.partial(
                    _set_signatures, method, parsed[i], found_i.within, labels))
        clusters, new = [], 0
        for i in kept:
            template = found[i].template  # type: ignore[union-attr]
            clusters.append(template.cluster if template else f"{site}#new-{new}")
            new += i not in readings
        model = TemplateSite([found[i].template for i in kept],  # type: ignore[union-attr]
                             [parsed[i].features for i in kept], member=False,
                             clusters=clusters)
        plans = self._plans(site, kept, pages, parsed, model,
                            [found[i].within for i in kept],  # type: ignore[union-attr]
                            steps, method, readings)  # type: ignore[arg-type]
        self._clean_pages(site, kept, pages, records, parsed, plans, clusters)

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

    def _read_wrapped(
        self, step: Step, page: Page, parsed: dict[int, Parsed], i: int,
        found: dict[int, Assignment | None],
    ) -> Reading | None:
        """Page ``i`` read by its template's wrapper (``TemplateMethod.read``): the page-level
        metadata first when its field sources did not read it (``_assign``), links on list
        pages (their records carry them). A page the wrapper does not read is parsed again
        and left to the full method on the whole page (``found[i]`` says so): returns None."""
        assigned = found[i]
        assert assigned is not None
        if parsed[i].meta is None:
            parsed[i].meta = extract_metadata(parsed[i].root, url=page.url,
                                              crawled=page.crawled)
        if assigned.wrapped_list:
            parsed[i].links = read_links(page, parsed[i].root)
        reading = self._read_by(step, page, parsed, i)
        if reading is None:
            found[i] = dataclasses.replace(assigned, within=None, wrapped=None)
        return reading


def _set_signatures(method: TemplateMethod, parsed: Parsed,
                    within: lxml.html.HtmlElement | None, labels: RelaxedLabels) -> None:
    parsed.features = method.signatures(parsed.root, within, labels)
