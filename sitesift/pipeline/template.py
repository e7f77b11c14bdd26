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
from sitesift.methods.interface import Reading, SitePage
from sitesift.pipeline.base import PagePlan, Parsed, PipelineBase, Step, read_links, site_pages
from sitesift.record import Page, Record

if TYPE_CHECKING:
    from sitesift.methods.template.method import TemplateMethod, TemplateSite
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
        plans = self._plans(members, site_pages(site, members, pages, parsed), model,
                            [None] * len(members), steps, method)
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
        self, members: list[int], seen: list[SitePage], model: TemplateSite,
        containers: Sequence[lxml.html.HtmlElement | None],
        steps: Mapping[int, tuple[Step, ...]], method: TemplateMethod,
        readings: Mapping[int, Reading] | None = None,
    ) -> list[PagePlan]:
        """Each page's plan: the page extractor in its template's content container, then its
        template's DeleteSame (``method``, when its cluster has a template; looking and
        observing only on a page of a profile being learned otherwise), then ``steps``; or
        the page as its template's wrapper read it (``readings``)."""
        plans = []
        for i, page, within in zip(members, seen, containers, strict=True):
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
                              edges=self.options.method == "auto",
                              wrappers=self.options.method == "template"
                              and self.options.wrappers)

    def _apply_saved(
        self, site: str, members: list[int], pages: list[Page], records: list[Record],
        parsed: dict[int, Parsed], profile: SiteProfile, labels: RelaxedLabels,
        steps: Mapping[int, tuple[Step, ...]],
    ) -> None:
        """A site's pages with its saved profile, through the saved profile's model
        (``TemplateMethod.saved``, what ``from_profile`` gives): each page's template
        (``assign_page``); pages of a template with a wrapper are read by it
        (``_read_wrapped``, the model's ``read``), the others get the content signatures of
        their container (``signatures_of``, which the model's ``look`` would read) and the
        full method; then the site's titles, and each page's record by its plan."""
        method = self._template_method()
        model = method.saved(profile, labels)
        seen = dict(zip(members, site_pages(site, members, pages, parsed), strict=True))
        for i in members:
            self._guarded(records[i], pages[i], functools.partial(
                self._assign, method, model, seen[i], parsed[i]))
        assigned = [i for i in members if seen[i].index in model.assigned]  # type: ignore[operator]
        readings = {}  # pages a wrapper read
        for i in assigned:
            if model.assigned[seen[i].index].wrapped is not None:  # type: ignore[index]
                reading = self._guarded(records[i], pages[i], functools.partial(
                    self._read_wrapped, Step(method, model, seen[i]), pages[i], parsed, i))
                if reading is not None:
                    readings[i] = reading
        rest = self._read_all([i for i in assigned if i not in readings
                               and records[i].error is None], pages, records, parsed)
        kept = sorted(rest + list(readings))
        self._learn_titles(kept, pages, parsed)
        # (as read on the pages kept: a page the wrapper gave back is parsed again)
        seen = {i: dataclasses.replace(seen[i], root=parsed[i].root, meta=parsed[i].meta)
                for i in kept}
        for i in rest:
            self._guarded(records[i], pages[i], functools.partial(
                method.signatures_of, model, seen[i]))
        # A page a step above failed on (its template, its wrapper, its signatures): read
        # by the page method alone.
        failed = [i for i in members if records[i].error is not None and not pages[i].error]
        for i in failed:
            self._alone(records[i], pages[i], parsed[i], "the saved template")
        kept = [i for i in kept if i not in failed]
        clusters, new = [], 0
        for i in kept:
            template = model.templates[seen[i].index]
            clusters.append(template.cluster if template else f"{site}#new-{new}")
            new += i not in readings
        plans = self._plans(kept, [seen[i] for i in kept], model,
                            [model.assigned[seen[i].index].within for i in kept],  # type: ignore[index]
                            steps, method, readings)
        self._clean_pages(site, kept, pages, records, parsed, plans, clusters)

    @staticmethod
    def _assign(
        method: TemplateMethod, model: TemplateSite, page: SitePage, parsed: Parsed,
    ) -> None:
        """``TemplateMethod.assign_page`` on a page: the title, date and author its template's
        field sources read kept with the page (``parsed``), its links read later."""
        assigned = method.assign_page(model, page)
        if assigned.meta is not None:
            parsed.meta = assigned.meta
            parsed.links_unread = True

    def _read_wrapped(
        self, step: Step, page: Page, parsed: dict[int, Parsed], i: int,
    ) -> Reading | None:
        """Page ``i`` read by its template's wrapper (``TemplateMethod.read``): the page-level
        metadata first when its field sources did not read it (``_assign``), links on list
        pages (their records carry them). A page the wrapper does not read is parsed again
        and left to the full method on the whole page (the model's assignment says so):
        returns None."""
        assigned = step.model.assigned[step.page.index]
        if parsed[i].meta is None:
            parsed[i].meta = extract_metadata(parsed[i].root, url=page.url,
                                              crawled=page.crawled)
        if assigned.wrapped_list:
            parsed[i].links = read_links(page, parsed[i].root)
        return self._read_by(step, page, parsed, i)
