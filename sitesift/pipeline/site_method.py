"""A site-level method behind the interface (``sitesift.methods.interface.SiteMethod``) over
one site's pages: the path of ``Extractor.extract_with``, the sibling and forum methods, and
the steps ``auto`` takes of them."""

from __future__ import annotations

import dataclasses
import functools
import logging
from typing import Any

from sitesift.methods.interface import Reading, SiteMethod, SitePage
from sitesift.pipeline.base import (
    PAGE_ONLY,
    PagePlan,
    Parsed,
    PipelineBase,
    Step,
    carry_out,
    site_pages,
)
from sitesift.record import Page, Record

log = logging.getLogger(__name__)


class SiteMethodPath(PipelineBase):
    """Learn, then each page's plan with the method's step, then the method's review."""

    def _run_method(
        self, method: SiteMethod[Any], site: str, members: list[int], pages: list[Page],
        records: list[Record], parsed: dict[int, Parsed], *, saved: Any = None,
        titles: bool = True,
    ) -> Any:
        """Records of one site's pages by ``method``; returns its model (None: the learning
        failed or found nothing, and the pages have the page method's records). ``saved``:
        the model of the site's profile; ``titles``: the site's titles first (paper 003)."""
        if titles:
            self._learn_titles(members, pages, parsed)
        seen = site_pages(site, members, pages, parsed)
        model = self._learn_with(method, site, seen, saved)
        for i, site_page in zip(members, seen, strict=True):
            records[i].site = records[i].site or site
            plan = self._plan(method, model, site_page, pages[i], records[i], parsed, i) \
                if model is not None else PAGE_ONLY
            if records[i].error is None:
                self._run_page(records[i], pages[i], parsed[i], plan)
            elif not pages[i].error:  # (the method's reading failed)
                self._alone(records[i], pages[i], parsed[i], f"the {method.name} method")
        if model is not None:
            self._review(method, site, model, seen, [records[i] for i in members])
        return model

    def _plan(
        self, method: SiteMethod[Any], model: Any, site_page: SitePage, page: Page,
        record: Record, parsed: dict[int, Parsed], i: int,
    ) -> PagePlan:
        """The page read by ``method`` itself (``read``) when it does, else the page extractor
        and the method's step (on the page parsed again when a reading gave it back)."""
        step = Step(method, model, site_page)
        reading = self._guarded(record, page, functools.partial(
            self._read_by, step, page, parsed, i))
        if isinstance(reading, Reading):
            return PagePlan(reading=reading, read_by=method.name)
        if parsed[i].root is not site_page.root:
            step = Step(method, model, dataclasses.replace(site_page, root=parsed[i].root))
        return PagePlan(steps=(step,))

    @staticmethod
    def _learn_with(
        method: SiteMethod[Any], site: str, pages: list[SitePage], saved: Any = None,
    ) -> Any:
        """``method.learn`` on one site; None (the page method) when it fails."""
        try:
            return method.learn(pages, saved)
        except Exception:  # a bug in learning must not lose the site's pages
            log.exception("learning site %s with method %s failed; its pages get the page "
                          "method", site, method.name)
            return None

    @staticmethod
    def _review(
        method: SiteMethod[Any], site: str, model: Any, pages: list[SitePage],
        records: list[Record],
    ) -> None:
        """``method.review`` of the site's records, carried out on those without an error
        (none when it fails: the records stand)."""
        try:
            decisions = method.review(model, pages, records)
        except Exception:  # a bug here must not cost the site its records
            log.exception("the %s method's review of site %s failed; its records stand",
                          method.name, site)
            return
        for record, decision in zip(records, decisions, strict=True):
            if decision is None or record.error is not None:
                continue
            carry_out(record, decision)
            if decision.credit:
                record.method = method.name
